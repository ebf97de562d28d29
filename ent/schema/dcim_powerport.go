package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// PowerPort is dcim.PowerPort: a device's power intake.
type PowerPort struct{ ent.Schema }

func (PowerPort) Mixin() []ent.Mixin { return append(ComponentMixins(), PathEndpoint{}) }

func (PowerPort) Fields() []ent.Field {
	return []ent.Field{
		field.String("type").MaxRuneLen(50).Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: dtPowerPortType}),
		field.Int("maximum_draw").Optional().Nillable().Min(1).Annotations(api.Field{Min: api.Int(1)}),
		field.Int("allocated_draw").Optional().Nillable().Min(1).Annotations(api.Field{Min: api.Int(1)}),
	}
}

func (PowerPort) Hooks() []ent.Hook { return dcim.PowerPortHooks() }

func (PowerPort) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_powerport"},
		api.Model{
			App: "dcim", Path: "power-ports", Verbose: "power port",
			Fields:    componentFields(true, "type", "maximum_draw", "allocated_draw"),
			Endpoints: []api.Endpoint{traceEndpoint("TracePowerPort")},
			Empty:     componentEmpty(true, nil),
		},
	}
}
