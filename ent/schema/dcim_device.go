package schema

import (
	"strings"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/logic/ipam"
	"github.com/inventory/inventory/ent/schema/api"
)

// Device is dcim.Device: a piece of hardware of a device type, with a
// role, at a site (and optionally a location and a rack position).
type Device struct{ ent.Schema }

func (Device) Mixin() []ent.Mixin { return PrimaryMixins() }

// Choices of a device's status, face and airflow.
var (
	DeviceStatus = api.C("offline", "Offline", "active", "Active", "planned", "Planned", "staged", "Staged",
		"failed", "Failed", "inventory", "Inventory", "decommissioning", "Decommissioning")
	DeviceFace    = api.C("front", "Front", "rear", "Rear")
	DeviceAirflow = api.C("front-to-rear", "Front to rear", "rear-to-front", "Rear to front",
		"left-to-right", "Left to right", "right-to-left", "Right to left", "side-to-rear", "Side to rear",
		"rear-to-side", "Rear to side", "bottom-to-top", "Bottom to top", "top-to-bottom", "Top to bottom",
		"passive", "Passive", "mixed", "Mixed")
)

func (Device) Fields() []ent.Field {
	return []ent.Field{
		// NetBox's name is nullable: unnamed devices are common (patch
		// panels, blanks); uniqueness applies to named ones only.
		field.String("name").MaxRuneLen(64).Optional().Nillable().Annotations(api.Field{Natural: true}),
		NaturalKeyField("name"),
		field.Int("device_type_id"), field.Int("role_id"), FKField("tenant"), FKField("platform"),
		field.String("serial").MaxRuneLen(50).Default(""),
		field.String("asset_tag").MaxRuneLen(50).Optional().Nillable().Unique(),
		field.Int("site_id"), FKField("location"), FKField("rack"),
		// position is NetBox's DecimalField(max_digits=4, decimal_places=1):
		// a float holds every value it allows exactly (steps of 0.5).
		field.Float("position").Optional().Nillable().
			Annotations(api.Field{Decimal: &api.Decimal{Digits: 4, Places: 1, Min: "0.5"}}),
		field.String("face").MaxRuneLen(50).Default("").Annotations(api.Field{Kind: "choice", Choices: DeviceFace}),
		field.Float("latitude").Optional().Nillable().Annotations(api.Field{Decimal: &Latitude}),
		field.Float("longitude").Optional().Nillable().Annotations(api.Field{Decimal: &Longitude}),
		field.String("status").MaxRuneLen(50).Default("active").Annotations(api.Field{Kind: "choice", Choices: DeviceStatus}),
		field.String("airflow").MaxRuneLen(50).Optional().Nillable().
			Annotations(api.Field{Kind: "choice", Choices: DeviceAirflow}),
		field.Int("vc_position").Optional().Nillable().Min(0).Max(255).Annotations(api.Field{Min: api.Int(0), Max: api.Int(255)}),
		field.Int("vc_priority").Optional().Nillable().Min(0).Max(255).Annotations(api.Field{Min: api.Int(0), Max: api.Int(255)}),
		field.JSON("local_context_data", map[string]any{}).Optional().Annotations(api.Field{Kind: "json"}),
		FKField("virtual_chassis"), FKField("cluster"),
		FKField("config_template"),
		// NetBox's one-to-one primary and out-of-band addresses (the
		// unique indexes below), checked by ipam.DevicePrimaryIPHooks.
		FKField("primary_ip4"), FKField("primary_ip6"), FKField("oob_ip"),
		// _type_display ("<manufacturer> <model>") and _vc_name cache what
		// the display of an unnamed device needs, kept by the hooks of the
		// device, its type, the manufacturer and the virtual chassis.
		field.String("_type_display").Default("").Annotations(api.Field{Kind: "hidden"}),
		field.String("_vc_name").Optional().Nillable().Annotations(api.Field{Kind: "hidden"}),
	}
}

func (Device) Edges() []ent.Edge {
	return []ent.Edge{
		FKRequired("device_type", DeviceType.Type, api.Protect),
		FKRequired("role", DeviceRole.Type, api.Protect),
		FK("tenant", Tenant.Type, api.Protect),
		FK("platform", Platform.Type, api.SetNull),
		FKRequired("site", Site.Type, api.Protect),
		FK("location", Location.Type, api.Protect),
		FK("rack", Rack.Type, api.Protect),
		FK("virtual_chassis", VirtualChassis.Type, api.SetNull),
		FK("cluster", Cluster.Type, api.SetNull),
		FK("config_template", ConfigTemplate.Type, api.Protect),
		ipFK("primary_ip4"), ipFK("primary_ip6"), ipFK("oob_ip"),
	}
}

func (Device) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("_name_natural", "id"),
		index.Fields("site_id", "tenant_id"),
		index.Fields("rack_id", "position"),
		index.Fields("virtual_chassis_id", "vc_position"),
		index.Fields("primary_ip4_id").Unique(), index.Fields("primary_ip6_id").Unique(), index.Fields("oob_ip_id").Unique(),
	}
}

func (Device) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_device"},
		api.Model{
			App: "dcim", Path: "devices", Verbose: "device",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"tenant": nil, "location": nil, "rack": nil, "face": "", "position": nil, "virtual_chassis": nil, "vc_position": nil, "config_template": nil},
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "device_type", "role", "tenant", "platform",
				"serial", "asset_tag", "site", "location", "rack", "position", "face", "latitude", "longitude",
				"parent_device", "status", "airflow", "primary_ip", "primary_ip4", "primary_ip6", "oob_ip", "cluster",
				"virtual_chassis", "vc_position", "vc_priority", "description", "owner", "comments", "config_template",
				"config_context", "local_context_data", "tags", "custom_fields", "created", "last_updated",
				"console_port_count", "console_server_port_count", "power_port_count", "power_outlet_count",
				"interface_count", "front_port_count", "rear_port_count", "device_bay_count", "module_bay_count",
				"inventory_item_count"},
			Brief:       []string{"id", "url", "display", "name", "description"},
			DisplayFunc: api.Func(api.LogicPkg("dcim"), "DeviceDisplay"),
			Search:      []string{"name", "serial", "asset_tag", "description", "comments"},
			Ordering:    []string{"name", "id"},
			// NetBox compares names case-insensitively (Lower('name')).
			Unique: []api.Unique{
				{Fields: []string{"name", "site", "tenant"}, IgnoreCase: true, Message: "Device name must be unique per site and tenant."},
				{Fields: []string{"name", "site"}, WhenNull: []string{"tenant"}, IgnoreCase: true, Message: "Device name must be unique per site."},
				{Fields: []string{"virtual_chassis", "vc_position"}, Message: "Device with this Virtual chassis and VC position already exists."},
				{Fields: []string{"primary_ip4"}, Message: "device with this primary IPv4 already exists."},
				{Fields: []string{"primary_ip6"}, Message: "device with this primary IPv6 already exists."},
				{Fields: []string{"oob_ip"}, Message: "device with this out-of-band IP already exists."},
			},
			Counts: map[string]api.Count{
				"console_port_count":        {Model: "dcim.consoleport", Column: "device_id", Cached: true},
				"console_server_port_count": {Model: "dcim.consoleserverport", Column: "device_id", Cached: true},
				"power_port_count":          {Model: "dcim.powerport", Column: "device_id", Cached: true},
				"power_outlet_count":        {Model: "dcim.poweroutlet", Column: "device_id", Cached: true},
				"interface_count":           {Model: "dcim.interface", Column: "device_id", Cached: true},
				"front_port_count":          {Model: "dcim.frontport", Column: "device_id", Cached: true},
				"rear_port_count":           {Model: "dcim.rearport", Column: "device_id", Cached: true},
				"device_bay_count":          {Model: "dcim.devicebay", Column: "device_id", Cached: true},
				"module_bay_count":          {Model: "dcim.modulebay", Column: "device_id", Cached: true},
				"inventory_item_count":      {Model: "dcim.inventoryitem", Column: "device_id", Cached: true},
			},
			// parent_device: the device of the bay holding this one, with
			// the bay (NetBox's parent_bay accessor), as
			// NestedDeviceSerializer and NestedDeviceBaySerializer.
			Reverse: map[string]api.Reverse{"parent_device": {Model: "dcim.devicebay", Column: "installed_device_id",
				Through: "device", As: "device_bay", Nested: NestedNameForm,
				AsNested: []string{"id", "url", "display_url", "display", "device(" + strings.Join(NestedNameForm, ",") + ")", "name"}}},
			// primary_ip: the IPv6 primary address, else the IPv4 one.
			Coalesce: map[string][]string{"primary_ip": {"primary_ip6", "primary_ip4"}},
			// NetBox's RenderConfigMixin (extras_configtemplate.go).
			Endpoints: []api.Endpoint{renderConfig("RenderDeviceConfig")},
			// config_context: the config contexts that apply merged with
			// local_context_data on top, computed per page at read time.
			Computed: map[string]*api.FuncRef{"config_context": api.Func(api.LogicPkg("extras"), "ConfigContexts")},
			Filters: append(append(append(TenancyFilters(), SiteTreeFilters()...),
				api.Filter{Name: "manufacturer_id", Kind: "fk-id", Via: "device_type", Column: "manufacturer"},
				api.Filter{Name: "manufacturer", Kind: "fk-attr", Via: "device_type", Column: "manufacturer"},
				api.Filter{Name: "model", Kind: "string", Via: "device_type", Column: "slug"},
				api.Filter{Name: "cluster_group_id", Kind: "fk-id", Via: "cluster", Column: "group"},
				api.Filter{Name: "cluster_group", Kind: "fk-attr", Via: "cluster", Column: "group"},
				api.Filter{Name: "is_full_depth", Kind: "boolean", Via: "device_type", Column: "is_full_depth"},
				api.Filter{Name: "local_context_data", Kind: "is-set", Column: "local_context_data"},
				api.Filter{Name: "virtual_chassis_member", Kind: "is-set", Column: "virtual_chassis_id"},
				api.Filter{Name: "has_virtual_device_context", Kind: "reverse-exists", Target: "dcim.virtualdevicecontext", Column: "device"},
				api.Filter{Name: "parent_device_id", Kind: "reverse-id", Target: "dcim.devicebay", Column: "installed_device_id", Attr: "device_id"},
				api.Filter{Name: "parent_bay_id", Kind: "reverse-id", Target: "dcim.devicebay", Column: "installed_device_id"},
				api.Filter{Name: "inventory_item_count", Kind: "related-count", Column: "inventory_item_count"},
				api.Filter{Name: "mac_address", Kind: "assigned-mac", Target: "dcim.interface", Column: "device_id"},
				api.Filter{Name: "has_primary_ip", Kind: "any-set", Column: "primary_ip4_id,primary_ip6_id"},
				api.Filter{Name: "has_oob_ip", Kind: "is-set", Column: "oob_ip_id"}),
				countFilters("_count", "console_port", "console_server_port", "power_port", "power_outlet",
					"interface", "front_port", "rear_port", "device_bay", "module_bay")...),
		},
	}
}

// Hooks: NetBox's Device.clean() and save(): site, location and rack
// agree; the position fits the rack and collides with no other device;
// virtual chassis membership; the airflow and platform defaults; the
// cached display parts and config context; the primary and OOB IP
// addresses (ent/logic/ipam).
func (Device) Hooks() []ent.Hook { return append(dcim.DeviceHooks(), ipam.DevicePrimaryIPHooks()...) }

// ipFK is a primary or OOB IP address of a device or virtual device
// context: NetBox's OneToOneField(on_delete=SET_NULL), filtered by
// address.
func ipFK(name string) ent.Edge {
	return edge.To(name, IPAddress.Type).Field(name + "_id").Unique().
		Annotations(OnDelete(api.SetNull, api.Field{Lookup: "address", Nested: primaryIPForm})...)
}

// primaryIPForm is how devices and virtual machines render their primary
// and out-of-band addresses (primary_ip too, api.Model.Coalesce): NetBox
// 4.6's IPAddressSerializer(nested=True, fields=[*brief_fields, 'dns_name',
// 'nat_inside', 'nat_outside']), in the serializer's field order, family
// as its ChoiceField renders it.
var primaryIPForm = []string{"id", "url", "display", "family:choice", "address", "nat_inside", "nat_outside", "dns_name", "description"}
