package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// DeviceType is dcim.DeviceType: a make and model of device, with the
// component templates its devices are built from.
type DeviceType struct{ ent.Schema }

func (DeviceType) Mixin() []ent.Mixin { return PrimaryMixins() }

func (DeviceType) Fields() []ent.Field {
	return []ent.Field{
		field.Int("manufacturer_id"),
		FKField("default_platform"),
		field.String("model").MaxRuneLen(100).NotEmpty(),
		SlugField(),
		field.String("part_number").MaxRuneLen(50).Default(""),
		// u_height is NetBox's DecimalField(max_digits=4, decimal_places=1):
		// a float holds every value it allows exactly (steps of 0.5).
		field.Float("u_height").Default(1.0).Validate(dcim.ValidateUHeight).
			Annotations(api.Field{Decimal: &api.Decimal{Digits: 4, Places: 1, Min: "0"}}),
		field.Bool("exclude_from_utilization").Default(false),
		field.Bool("is_full_depth").Default(true),
		field.String("subdevice_role").MaxRuneLen(50).Optional().Nillable().
			Annotations(api.Field{Kind: "choice", Choices: dtSubdeviceRole}),
		field.String("airflow").MaxRuneLen(50).Optional().Nillable().
			Annotations(api.Field{Kind: "choice", Choices: dtDeviceAirflow}),
		field.Float("weight").Optional().Nillable().Validate(dcim.ValidateWeight).Annotations(api.Field{Decimal: &Weight}),
		field.String("weight_unit").MaxRuneLen(50).Optional().Nillable().
			Annotations(api.Field{Kind: "choice", Choices: dtWeightUnit}),
	}
}

func (DeviceType) Edges() []ent.Edge {
	return []ent.Edge{
		configContextsOf("device_types"),
		FKRequired("manufacturer", Manufacturer.Type, api.Protect),
		FK("default_platform", Platform.Type, api.SetNull),
	}
}

func (DeviceType) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("manufacturer_id", "model").Unique(),
		index.Fields("manufacturer_id", "slug").Unique(),
	}
}

// Hooks: child types are 0U, bays need a parent role, a weight its unit.
func (DeviceType) Hooks() []ent.Hook { return dcim.DeviceTypeHooks() }

func (DeviceType) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_devicetype"},
		api.Model{
			// NetBox's ImageFields (no image storage here yet: null, a value sent is ignored).
			Metadata: map[string]api.Meta{"front_image": {Type: "image upload", Writable: true}, "rear_image": {Type: "image upload", Writable: true}},
			App:      "dcim", Path: "device-types", Verbose: "device type",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"u_height": 1.0},
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "manufacturer", "default_platform", "model", "slug",
				"part_number", "u_height", "exclude_from_utilization", "is_full_depth", "subdevice_role", "airflow",
				"weight", "weight_unit", "front_image", "rear_image", "description", "owner", "comments", "tags",
				"custom_fields", "created", "last_updated", "device_count", "console_port_template_count",
				"console_server_port_template_count", "power_port_template_count", "power_outlet_template_count",
				"interface_template_count", "front_port_template_count", "rear_port_template_count",
				"device_bay_template_count", "module_bay_template_count", "inventory_item_template_count"},
			Brief:    []string{"id", "url", "display", "manufacturer", "model", "slug", "description", "device_count"},
			Display:  "{model}",
			Search:   []string{"model", "part_number", "description", "comments"},
			Ordering: []string{"manufacturer", "model"},
			Unique: []api.Unique{
				{Fields: []string{"manufacturer", "model"}},
				{Fields: []string{"manufacturer", "slug"}},
			},
			Counts: map[string]api.Count{
				"device_count":                       {Model: "dcim.device", Column: "device_type_id", Cached: true},
				"console_port_template_count":        {Model: "dcim.consoleporttemplate", Column: "device_type_id", Cached: true},
				"console_server_port_template_count": {Model: "dcim.consoleserverporttemplate", Column: "device_type_id", Cached: true},
				"power_port_template_count":          {Model: "dcim.powerporttemplate", Column: "device_type_id", Cached: true},
				"power_outlet_template_count":        {Model: "dcim.poweroutlettemplate", Column: "device_type_id", Cached: true},
				"interface_template_count":           {Model: "dcim.interfacetemplate", Column: "device_type_id", Cached: true},
				"front_port_template_count":          {Model: "dcim.frontporttemplate", Column: "device_type_id", Cached: true},
				"rear_port_template_count":           {Model: "dcim.rearporttemplate", Column: "device_type_id", Cached: true},
				"device_bay_template_count":          {Model: "dcim.devicebaytemplate", Column: "device_type_id", Cached: true},
				"module_bay_template_count":          {Model: "dcim.modulebaytemplate", Column: "device_type_id", Cached: true},
				"inventory_item_template_count":      {Model: "dcim.inventoryitemtemplate", Column: "device_type_id", Cached: true},
			},
			// Images are not stored; devices come later.
			Empty: map[string]any{"front_image": nil, "rear_image": nil},
			Filters: append(typeCountFilters("console_port", "console_server_port", "power_port", "power_outlet",
				"interface", "front_port", "rear_port", "device_bay", "module_bay", "inventory_item"),
				api.Filter{Name: "device_count", Kind: "related-count", Column: "device_count"},
				// Images are not stored: no device type has one.
				api.Filter{Name: "has_front_image", Kind: "is-set", Column: "front_image"},
				api.Filter{Name: "has_rear_image", Kind: "is-set", Column: "rear_image"}),
		},
	}
}

// typeCountFilters are the filters of a device or module type on its
// template counts: <kind>_template_count as a number, and NetBox's
// booleans saying whether any template of a kind exists.
func typeCountFilters(kinds ...string) []api.Filter { return countFilters("_template_count", kinds...) }

// countFilters are the filters on the counts <kind><suffix> (a device
// type's interface_template_count, a device's interface_count): the count
// as a number, NetBox's booleans saying whether any of a kind exists, and
// pass_through_ports (front or rear ports).
func countFilters(suffix string, kinds ...string) []api.Filter {
	has := map[string]string{"console_port": "console_ports", "console_server_port": "console_server_ports",
		"power_port": "power_ports", "power_outlet": "power_outlets", "interface": "interfaces",
		"module_bay": "module_bays", "device_bay": "device_bays", "inventory_item": "inventory_items"}
	var out []api.Filter
	for _, k := range kinds {
		c := k + suffix
		out = append(out, api.Filter{Name: c, Kind: "related-count", Column: c})
		if h, ok := has[k]; ok {
			out = append(out, api.Filter{Name: h, Kind: "related-exists", Column: c})
		}
	}
	return append(out, api.Filter{Name: "pass_through_ports", Kind: "related-exists",
		Column: "front_port" + suffix + ",rear_port" + suffix})
}
