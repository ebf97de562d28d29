package netbox

import (
	"errors"
	"fmt"

	"github.com/fbreckle/go-netbox/netbox/client/ipam"
	"github.com/fbreckle/go-netbox/netbox/models"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/id"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/validation"
)

func dataSourceNetboxIPAddresses() *schema.Resource {
	customFieldsFilterSchema := *customFieldsSchema
	return &schema.Resource{
		Read:        dataSourceNetboxIPAddressesRead,
		Description: `:meta:subcategory:IP Address Management (IPAM):`,
		Schema: map[string]*schema.Schema{
			"filter": {
				Type:     schema.TypeSet,
				Optional: true,
				Elem: &schema.Resource{
					Schema: map[string]*schema.Schema{
						"name": {
							Type:     schema.TypeString,
							Required: true,
						},
						"value": {
							Type:     schema.TypeString,
							Required: true,
						},
					},
				},
			},
			"limit": {
				Type:             schema.TypeInt,
				Optional:         true,
				ValidateDiagFunc: validation.ToDiagFunc(validation.IntAtLeast(1)),
				Default:          0,
			},
			customFieldsKey: &customFieldsFilterSchema,
			"ip_addresses": {
				Type:     schema.TypeList,
				Computed: true,
				Elem: &schema.Resource{
					Schema: map[string]*schema.Schema{
						"id": {
							Type:     schema.TypeInt,
							Computed: true,
						},
						"description": {
							Type:     schema.TypeString,
							Computed: true,
						},
						"created": {
							Type:     schema.TypeString,
							Computed: true,
						},
						"last_updated": {
							Type:     schema.TypeString,
							Computed: true,
						},
						"custom_fields": {
							Type:     schema.TypeMap,
							Computed: true,
						},
						"ip_address": {
							Type:     schema.TypeString,
							Computed: true,
						},
						"address_family": {
							Type:     schema.TypeString,
							Computed: true,
						},
						"status": {
							Type:     schema.TypeString,
							Computed: true,
						},
						"dns_name": {
							Type:     schema.TypeString,
							Computed: true,
						},
						"role": {
							Type:     schema.TypeString,
							Computed: true,
						},

						"tenant": {
							Type:     schema.TypeList,
							Computed: true,
							Elem: &schema.Resource{
								Schema: map[string]*schema.Schema{
									"id": {
										Type:     schema.TypeInt,
										Computed: true,
									},
									"name": {
										Type:     schema.TypeString,
										Computed: true,
									},
									"slug": {
										Type:     schema.TypeString,
										Computed: true,
									},
								},
							},
						},
						"tags": {
							Type:     schema.TypeList,
							Computed: true,
							Elem: &schema.Resource{
								Schema: map[string]*schema.Schema{
									"id": {
										Type:     schema.TypeInt,
										Computed: true,
									},
									"name": {
										Type:     schema.TypeString,
										Computed: true,
									},
									"display": {
										Type:     schema.TypeString,
										Computed: true,
									},
									"slug": {
										Type:     schema.TypeString,
										Computed: true,
									},
								},
							},
						},
					},
				},
			},
		},
	}
}

func dataSourceNetboxIPAddressesRead(d *schema.ResourceData, m interface{}) error {
	api := m.(*providerState)

	params := ipam.NewIpamIPAddressesListParams()
	var opts []ipam.ClientOption

	// Get user limit
	var userLimit int64 = 0
	if limitValue, ok := d.GetOk("limit"); ok {
		userLimit = int64(limitValue.(int))
	}

	if filter, ok := d.GetOk("filter"); ok {
		var filterParams = filter.(*schema.Set)
		var tags []string
		for _, f := range filterParams.List() {
			k := f.(map[string]interface{})["name"]
			v := f.(map[string]interface{})["value"]
			vString := v.(string)
			switch k {
			case "dns_name":
				params.DNSName = &vString
			case "interface_id":
				params.InterfaceID = &vString
			case "device_id":
				params.DeviceID = &vString
			case "ip_address":
				params.Address = &vString
			case "vm_interface_id":
				params.VminterfaceID = &vString
			case "role":
				params.Role = &vString
			case "status":
				params.Status = &vString
			case "vrf":
				params.Vrf = &vString
			case "tenant":
				params.Tenant = &vString
			case "parent_prefix":
				params.Parent = &vString
			case "tag":
				tags = append(tags, vString)
				params.Tag = tags
			case "description":
				params.Description = &vString
			default:
				return fmt.Errorf("'%s' is not a supported filter parameter", k)
			}
		}
	}

	// Fetch all pages with pagination
	paginationHelper := NewPaginationHelper(userLimit)
	var allIPAddresses []*models.IPAddress

	if cfm, ok := d.Get(customFieldsKey).(map[string]interface{}); ok {
		opts = append(opts, WithCustomFieldParamsOption(cfm))
	}

	pageSize := paginationHelper.GetPageSize()
	for {
		currentOffset := paginationHelper.CurrentOffset()
		params.Limit = &pageSize
		params.Offset = &currentOffset

		res, err := api.Ipam.IpamIPAddressesList(params, nil, opts...)
		if err != nil {
			return fmt.Errorf("failed to fetch IP addresses at offset %d: %w", currentOffset, err)
		}

		payload := res.GetPayload()
		allIPAddresses = append(allIPAddresses, payload.Results...)

		if len(payload.Results) == 0 {
			break
		}

		if !paginationHelper.ShouldContinuePaging(int64(len(allIPAddresses)), payload.Next) {
			break
		}

		paginationHelper.Advance(int64(len(payload.Results)))
	}

	// Trim to user limit if specified
	trimmedCount := paginationHelper.TrimToLimit(len(allIPAddresses))
	filteredIPAddresses := allIPAddresses[:trimmedCount]

	if len(filteredIPAddresses) == 0 {
		return errors.New("no result")
	}

	var s []map[string]interface{}
	for _, v := range filteredIPAddresses {
		var mapping = make(map[string]interface{})

		mapping["id"] = v.ID
		mapping["description"] = v.Description
		mapping["created"] = v.Created.String()
		mapping["last_updated"] = v.LastUpdated.String()
		mapping["custom_fields"] = flattenCustomFields(v.CustomFields)

		mapping["ip_address"] = v.Address
		mapping["address_family"] = v.Family.Label
		mapping["status"] = v.Status.Value
		mapping["dns_name"] = v.DNSName
		mapping["tenant"] = flattenTenant(v.Tenant)
		var stags []map[string]interface{}
		for _, t := range v.Tags {
			var tagmapping = make(map[string]interface{})
			tagmapping["name"] = t.Name
			tagmapping["display"] = t.Display
			tagmapping["slug"] = t.Slug
			tagmapping["id"] = t.ID
			stags = append(stags, tagmapping)
		}
		mapping["tags"] = stags
		if v.Role != nil {
			mapping["role"] = v.Role.Value
		}

		s = append(s, mapping)
	}

	d.SetId(id.UniqueId())
	return d.Set("ip_addresses", s)
}

func flattenTenant(tenant *models.NestedTenant) []map[string]interface{} {
	var s []map[string]interface{}
	if tenant != nil {
		var mapping = make(map[string]interface{})
		mapping["id"] = tenant.ID
		mapping["name"] = tenant.Name
		mapping["slug"] = tenant.Slug
		s = append(s, mapping)
	}
	return s
}
