package netbox

import (
	"context"
	"strconv"

	"github.com/fbreckle/go-netbox/netbox/client/virtualization"
	"github.com/fbreckle/go-netbox/netbox/models"
	"github.com/go-openapi/runtime"
	"github.com/go-openapi/strfmt"
	"github.com/go-viper/mapstructure/v2"
	"github.com/hashicorp/terraform-plugin-sdk/v2/diag"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/validation"
)

var resourceNetboxInterfaceModeOptions = []string{"access", "tagged", "tagged-all"}

func resourceNetboxInterface() *schema.Resource {
	return &schema.Resource{
		CreateContext: resourceNetboxInterfaceCreate,
		ReadContext:   resourceNetboxInterfaceRead,
		UpdateContext: resourceNetboxInterfaceUpdate,
		DeleteContext: resourceNetboxInterfaceDelete,

		Description: `:meta:subcategory:Virtualization:From the [official documentation](https://docs.netbox.dev/en/stable/features/virtualization/#interfaces):

> Virtual machine interfaces behave similarly to device interfaces, and can be assigned to VRFs, and may have IP addresses, VLANs, and services attached to them. However, given their virtual nature, they lack properties pertaining to physical attributes. For example, VM interfaces do not have a physical type and cannot have cables attached to them.`,
		Schema: map[string]*schema.Schema{
			"name": {
				Type:     schema.TypeString,
				Required: true,
			},
			"virtual_machine_id": {
				Type:     schema.TypeInt,
				Required: true,
			},
			"description": {
				Type:     schema.TypeString,
				Optional: true,
			},
			"enabled": {
				Type:     schema.TypeBool,
				Optional: true,
				Default:  true,
			},
			"mac_address": {
				Type:     schema.TypeString,
				Computed: true,
			},
			"primary_mac_address_id": {
				Type:        schema.TypeInt,
				Computed:    true,
				Description: "The primary MAC address id.",
			},
			"mode": {
				Type:         schema.TypeString,
				Optional:     true,
				ValidateFunc: validation.StringInSlice(resourceNetboxInterfaceModeOptions, false),
				Description:  buildValidValueDescription(resourceNetboxInterfaceModeOptions),
			},
			"mtu": {
				Type:         schema.TypeInt,
				Optional:     true,
				ValidateFunc: validation.IntBetween(1, 65536),
			},
			"type": {
				Type:       schema.TypeString,
				Optional:   true,
				Deprecated: "This attribute is not supported by netbox any longer. It will be removed in future versions of this provider.",
			},
			tagsKey: tagsSchema,
			"tagged_vlans": {
				Type:     schema.TypeSet,
				Optional: true,
				Elem: &schema.Schema{
					Type: schema.TypeInt,
				},
			},
			"untagged_vlan": {
				Type:     schema.TypeInt,
				Optional: true,
			},
			"bridge_interface_id": {
				Type:        schema.TypeInt,
				Optional:    true,
				Description: "ID of the bridge interface this interface belongs to",
			},
		},
		Importer: &schema.ResourceImporter{
			StateContext: schema.ImportStatePassthroughContext,
		},
	}
}

func resourceNetboxInterfaceCreate(ctx context.Context, d *schema.ResourceData, m interface{}) diag.Diagnostics {
	api := m.(*providerState)

	var diags diag.Diagnostics

	name := d.Get("name").(string)
	description := d.Get("description").(string)
	enabled := d.Get("enabled").(bool)
	mode := d.Get("mode").(string)
	tags, err := getNestedTagListFromResourceDataSet(api, d.Get(tagsAllKey))
	if err != nil {
		return diag.FromErr(err)
	}
	taggedVlans := toInt64List(d.Get("tagged_vlans"))
	virtualMachineID := int64(d.Get("virtual_machine_id").(int))

	data := models.WritableVMInterface{
		Name:           &name,
		Description:    description,
		Enabled:        enabled,
		Mode:           mode,
		Tags:           tags,
		TaggedVlans:    taggedVlans,
		VirtualMachine: &virtualMachineID,
	}
	if mtu, ok := d.Get("mtu").(int); ok && mtu != 0 {
		data.Mtu = int64ToPtr(int64(mtu))
	}
	if untaggedVlan, ok := d.Get("untagged_vlan").(int); ok && untaggedVlan != 0 {
		data.UntaggedVlan = int64ToPtr(int64(untaggedVlan))
	}
	if bridgeIF, ok := d.Get("bridge_interface_id").(int); ok && bridgeIF != 0 {
		data.Bridge = int64ToPtr(int64(bridgeIF))
	}
	params := virtualization.NewVirtualizationInterfacesCreateParams().WithData(&data)

	res, err := api.Virtualization.VirtualizationInterfacesCreate(params, nil)
	if err != nil {
		return diag.FromErr(err)
	}

	d.SetId(strconv.FormatInt(res.GetPayload().ID, 10))

	return diags
}

func resourceNetboxInterfaceRead(ctx context.Context, d *schema.ResourceData, m interface{}) diag.Diagnostics {
	api := m.(*providerState)
	id, _ := strconv.ParseInt(d.Id(), 10, 64)

	var diags diag.Diagnostics

	params := virtualization.NewVirtualizationInterfacesReadParams().WithID(id)

	res, err := api.Virtualization.VirtualizationInterfacesRead(params, nil)
	if err != nil {
		if errresp, ok := err.(*virtualization.VirtualizationInterfacesReadDefault); ok {
			errorcode := errresp.Code()
			if errorcode == 404 {
				// If the ID is updated to blank, this tells Terraform the resource no longer exists (maybe it was destroyed out of band). Just like the destroy callback, the Read function should gracefully handle this case. https://www.terraform.io/docs/extend/writing-custom-providers.html
				d.SetId("")
				return nil
			}
		}
		return diag.FromErr(err)
	}

	iface := res.GetPayload()

	d.Set("name", iface.Name)
	d.Set("description", iface.Description)
	d.Set("enabled", iface.Enabled)
	d.Set("mac_address", iface.MacAddress)
	d.Set("mtu", iface.Mtu)
	api.readTags(d, iface.Tags)
	d.Set("tagged_vlans", getIDsFromNestedVLAN(iface.TaggedVlans))
	d.Set("virtual_machine_id", iface.VirtualMachine.ID)

	if iface.Mode != nil {
		d.Set("mode", iface.Mode.Value)
	}
	if iface.UntaggedVlan != nil {
		d.Set("untagged_vlan", iface.UntaggedVlan.ID)
	}
	if iface.Bridge != nil {
		d.Set("bridge_interface_id", iface.Bridge.ID)
	} else {
		d.Set("bridge_interface_id", nil)
	}
	if iface.PrimaryMacAddress != nil {
		d.Set("primary_mac_address_id", iface.PrimaryMacAddress.ID)
	}

	return diags
}

func resourceNetboxInterfaceUpdate(ctx context.Context, d *schema.ResourceData, m interface{}) diag.Diagnostics {
	api := m.(*providerState)

	id, _ := strconv.ParseInt(d.Id(), 10, 64)

	name := d.Get("name").(string)
	description := d.Get("description").(string)
	enabled := d.Get("enabled").(bool)
	mode := d.Get("mode").(string)
	tags, err := getNestedTagListFromResourceDataSet(api, d.Get(tagsAllKey))
	if err != nil {
		return diag.FromErr(err)
	}
	taggedVlans := toInt64List(d.Get("tagged_vlans"))
	virtualMachineID := int64(d.Get("virtual_machine_id").(int))

	data := models.WritableVMInterface{
		Name:           &name,
		Description:    description,
		Enabled:        enabled,
		Mode:           mode,
		Tags:           tags,
		TaggedVlans:    taggedVlans,
		VirtualMachine: &virtualMachineID,
	}

	if d.HasChange("mac_address") {
		macAddress := d.Get("mac_address").(string)
		data.MacAddress = &macAddress
	}
	if d.HasChange("mtu") {
		mtu := int64(d.Get("mtu").(int))
		data.Mtu = &mtu
	}
	if d.HasChange("untagged_vlan") {
		untaggedvlan := int64(d.Get("untagged_vlan").(int))
		data.UntaggedVlan = &untaggedvlan
	}
	if d.HasChange("primary_mac_address_id") {
		primaryMac := int64(d.Get("primary_mac_address_id").(int))
		data.PrimaryMacAddress = &primaryMac
	}

	// About the `nullFields` hack
	//
	// Without this hack, the `bridge_interface_id` field can never be unset
	// in the Netbox API once it has been set. This likely also applies to other
	// fields, but for now, this is only solved for this field. It can be extended
	// though.
	//
	// Why is it needed?
	//
	// This method uses VirtualizationInterfacesPartialUpdate which takes similar
	// parameters as Create/Update, but will only apply changes to fields that are
	// supplied in the JSON payload.
	//
	// Example:
	// - `{ "bridge": 123 }` - will set the field
	// - `{ "bridge": null }` - will unset the field
	// - `{}` - will make no changes
	//
	// Unfortunately with how the Netbox API client is generated, there is no way
	// to produce the second example. If you set the field `Bridge` to `nil` it
	// will produce JSON without the field present. This is because of the
	// `omitempty` struct tag on the field. Which is something you need to make
	// partial updates work, but prevents you from unsetting the field.
	// There is simply no way to represent this case in Go without introducing
	// a special wrapper type that can represent all 3 states.
	// (Note that sending `"bridge": 0` is not accepted by the API.)
	//
	// The way this is solved is on the serialization level.
	// With `hackSerializeAsNull` I made a serialization middleware of sorts that
	// will serialize an explicit `null` value for field names given in the slice.

	var nullFields []string
	if d.HasChange("bridge_interface_id") {
		ifID := int64(d.Get("bridge_interface_id").(int))
		data.Bridge = &ifID
		if ifID == 0 {
			nullFields = append(nullFields, "bridge")
		}
	}

	params := virtualization.NewVirtualizationInterfacesPartialUpdateParams().WithID(id).WithData(&data)
	_, err = api.Virtualization.VirtualizationInterfacesPartialUpdate(params, nil, hackSerializeAsNull(nullFields...))
	if err != nil {
		return diag.FromErr(err)
	}

	return resourceNetboxInterfaceRead(ctx, d, m)
}

func resourceNetboxInterfaceDelete(ctx context.Context, d *schema.ResourceData, m interface{}) diag.Diagnostics {
	api := m.(*providerState)

	id, _ := strconv.ParseInt(d.Id(), 10, 64)
	params := virtualization.NewVirtualizationInterfacesDeleteParams().WithID(id)

	_, err := api.Virtualization.VirtualizationInterfacesDelete(params, nil)
	if err != nil {
		if errresp, ok := err.(*virtualization.VirtualizationInterfacesDeleteDefault); ok {
			if errresp.Code() == 404 {
				d.SetId("")
				return nil
			}
		}
		return diag.FromErr(err)
	}
	return nil
}

func getIDsFromNestedVLAN(nestedvlans []*models.NestedVLAN) []int64 {
	var vlans []int64
	for _, vlan := range nestedvlans {
		vlans = append(vlans, vlan.ID)
	}
	return vlans
}

type interceptWriter struct {
	runtime.ClientRequest
	fields []string
}

func (iw interceptWriter) SetBodyParam(p any) error {
	out := make(map[string]any)
	dec, err := mapstructure.NewDecoder(&mapstructure.DecoderConfig{
		TagName: "json",
		Result:  &out,
	})
	if err != nil {
		return err
	}
	if err := dec.Decode(p); err != nil {
		return err
	}
	for _, fieldName := range iw.fields {
		_, ok := out[fieldName]
		if ok {
			out[fieldName] = nil
		}
	}
	return iw.ClientRequest.SetBodyParam(out)
}

type interceptParams struct {
	inner  runtime.ClientRequestWriter
	fields []string
}

// WriteToRequest implements [runtime.ClientRequestWriter].
func (ip interceptParams) WriteToRequest(req runtime.ClientRequest, reg strfmt.Registry) error {
	writer := interceptWriter{ClientRequest: req, fields: ip.fields}
	return ip.inner.WriteToRequest(writer, reg)
}

// hackSerializeAsNull is a serialization middleware of sorts that will
// serialize an explicit `null` value for all field names given in the slice.
//
// It does this by first serializing the params from a struct to a map
// and then sets the value for given fields to `nil`.
// With this the field will definitely be serialized and not omitted when set
// to `nil`.
func hackSerializeAsNull(fields ...string) virtualization.ClientOption {
	return func(co *runtime.ClientOperation) {
		originalParams := co.Params
		co.Params = interceptParams{inner: originalParams, fields: fields}
	}
}
