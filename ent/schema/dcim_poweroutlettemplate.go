package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// PowerOutletTemplate is dcim.PowerOutletTemplate: its power port template
// is on the same device type or module type.
type PowerOutletTemplate struct{ ent.Schema }

func (PowerOutletTemplate) Mixin() []ent.Mixin { return ComponentTemplateMixins(true) }

func (PowerOutletTemplate) Fields() []ent.Field {
	return []ent.Field{
		field.String("type").MaxRuneLen(50).Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: dtPowerOutletType}),
		field.String("color").MaxRuneLen(6).Default("").Annotations(api.Field{Kind: "color"}),
		FKField("power_port"),
		field.String("feed_leg").MaxRuneLen(50).Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: dtPowerOutletFeedLeg}),
	}
}

func (PowerOutletTemplate) Edges() []ent.Edge {
	return []ent.Edge{
		FK("power_port", PowerPortTemplate.Type, api.SetNull),
	}
}

func (PowerOutletTemplate) Hooks() []ent.Hook { return dcim.PowerOutletTemplateHooks() }

func (PowerOutletTemplate) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_poweroutlettemplate"},
		api.Model{
			App: "dcim", Path: "power-outlet-templates", Verbose: "power outlet template",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults: map[string]any{"device_type": nil, "module_type": nil},
			Fields:   []string{"id", "url", "display", "device_type", "module_type", "name", "label", "type", "color", "power_port", "feed_leg", "description", "created", "last_updated"},
			Instantiate: &api.Instantiate{Into: "dcim.poweroutlet", Resolve: []string{"name", "label"},
				Copy: []string{"type", "color", "feed_leg"}, Refs: []string{"power_port"}},
		},
	}
}
