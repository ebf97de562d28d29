package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// PowerPortTemplate is dcim.PowerPortTemplate (draws in watts).
type PowerPortTemplate struct{ ent.Schema }

func (PowerPortTemplate) Mixin() []ent.Mixin { return ComponentTemplateMixins(true) }

func (PowerPortTemplate) Fields() []ent.Field {
	return []ent.Field{
		field.String("type").MaxRuneLen(50).Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: dtPowerPortType}),
		field.Int("maximum_draw").Optional().Nillable().Min(1).Annotations(api.Field{Min: api.Int(1)}),
		field.Int("allocated_draw").Optional().Nillable().Min(1).Annotations(api.Field{Min: api.Int(1)}),
	}
}

func (PowerPortTemplate) Hooks() []ent.Hook { return dcim.PowerPortTemplateHooks() }

func (PowerPortTemplate) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_powerporttemplate"},
		api.Model{
			App: "dcim", Path: "power-port-templates", Verbose: "power port template",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults: map[string]any{"device_type": nil, "module_type": nil},
			Fields:   []string{"id", "url", "display", "device_type", "module_type", "name", "label", "type", "maximum_draw", "allocated_draw", "description", "created", "last_updated"},
			Instantiate: &api.Instantiate{Into: "dcim.powerport", Resolve: []string{"name", "label"},
				Copy: []string{"type", "maximum_draw", "allocated_draw"}},
		},
	}
}
