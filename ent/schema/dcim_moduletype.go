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

// ModuleType is dcim.ModuleType: a make and model of module, whose
// attributes follow the JSON schema of its profile.
type ModuleType struct{ ent.Schema }

func (ModuleType) Mixin() []ent.Mixin { return PrimaryMixins() }

func (ModuleType) Fields() []ent.Field {
	return []ent.Field{
		FKField("profile"),
		field.Int("manufacturer_id"),
		field.String("model").MaxRuneLen(100).NotEmpty(),
		field.String("part_number").MaxRuneLen(50).Default(""),
		field.String("airflow").MaxRuneLen(50).Optional().Nillable().
			Annotations(api.Field{Kind: "choice", Choices: dtModuleAirflow}),
		field.Float("weight").Optional().Nillable().Validate(dcim.ValidateWeight).Annotations(api.Field{Decimal: &Weight}),
		field.String("weight_unit").MaxRuneLen(50).Optional().Nillable().
			Annotations(api.Field{Kind: "choice", Choices: dtWeightUnit}),
		field.JSON("attribute_data", map[string]any{}).Optional().
			Annotations(api.Field{API: "attributes", Kind: "json"}),
	}
}

func (ModuleType) Edges() []ent.Edge {
	return []ent.Edge{
		FK("profile", ModuleTypeProfile.Type, api.Protect),
		FKRequired("manufacturer", Manufacturer.Type, api.Protect),
	}
}

func (ModuleType) Indexes() []ent.Index {
	return []ent.Index{index.Fields("manufacturer_id", "model").Unique()}
}

// Hooks: attributes are validated against the profile's schema.
func (ModuleType) Hooks() []ent.Hook { return dcim.ModuleTypeHooks() }

func (ModuleType) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_moduletype"},
		api.Model{
			App: "dcim", Path: "module-types", Verbose: "module type",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "profile", "manufacturer", "model", "part_number",
				"airflow", "weight", "weight_unit", "description", "attributes", "owner", "comments", "tags",
				"custom_fields", "created", "last_updated", "module_count", "console_port_template_count",
				"console_server_port_template_count", "power_port_template_count", "power_outlet_template_count",
				"interface_template_count", "front_port_template_count", "rear_port_template_count",
				"module_bay_template_count"},
			Brief:    []string{"id", "url", "display", "profile", "manufacturer", "model", "description", "module_count"},
			Display:  "{model}",
			Search:   []string{"model", "part_number", "description", "comments"},
			Ordering: []string{"profile", "manufacturer", "model"},
			Unique:   []api.Unique{{Fields: []string{"manufacturer", "model"}}},
			Counts: map[string]api.Count{
				"module_count":                       {Model: "dcim.module", Column: "module_type_id", Cached: true},
				"console_port_template_count":        {Model: "dcim.consoleporttemplate", Column: "module_type_id", Cached: true},
				"console_server_port_template_count": {Model: "dcim.consoleserverporttemplate", Column: "module_type_id", Cached: true},
				"power_port_template_count":          {Model: "dcim.powerporttemplate", Column: "module_type_id", Cached: true},
				"power_outlet_template_count":        {Model: "dcim.poweroutlettemplate", Column: "module_type_id", Cached: true},
				"interface_template_count":           {Model: "dcim.interfacetemplate", Column: "module_type_id", Cached: true},
				"front_port_template_count":          {Model: "dcim.frontporttemplate", Column: "module_type_id", Cached: true},
				"rear_port_template_count":           {Model: "dcim.rearporttemplate", Column: "module_type_id", Cached: true},
				"module_bay_template_count":          {Model: "dcim.modulebaytemplate", Column: "module_type_id", Cached: true},
			},
			Filters: append(typeCountFilters("console_port", "console_server_port", "power_port", "power_outlet",
				"interface", "front_port", "rear_port", "module_bay"),
				api.Filter{Name: "module_count", Kind: "related-count", Column: "module_count"}),
		},
	}
}
