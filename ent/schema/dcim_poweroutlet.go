package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// PowerOutlet is dcim.PowerOutlet: a device's power outlet, fed by one of
// the same device's power ports.
type PowerOutlet struct{ ent.Schema }

func (PowerOutlet) Mixin() []ent.Mixin { return append(ComponentMixins(), PathEndpoint{}) }

// PowerOutletStatus are the states of a power outlet.
var PowerOutletStatus = api.C("enabled", "Enabled", "disabled", "Disabled", "faulty", "Faulty")

func (PowerOutlet) Fields() []ent.Field {
	return []ent.Field{
		field.String("type").MaxRuneLen(50).Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: dtPowerOutletType}),
		field.String("status").MaxRuneLen(50).Default("enabled").Annotations(api.Field{Kind: "choice", Choices: PowerOutletStatus}),
		field.String("color").MaxRuneLen(6).Default("").Annotations(api.Field{Kind: "color"}),
		FKField("power_port"),
		field.String("feed_leg").MaxRuneLen(50).Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: dtPowerOutletFeedLeg}),
	}
}

func (PowerOutlet) Edges() []ent.Edge {
	return []ent.Edge{FK("power_port", PowerPort.Type, api.SetNull)}
}

func (PowerOutlet) Hooks() []ent.Hook { return dcim.PowerOutletHooks() }

func (PowerOutlet) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_poweroutlet"},
		api.Model{
			App: "dcim", Path: "power-outlets", Verbose: "power outlet",
			Fields:    componentFields(true, "type", "status", "color", "power_port", "feed_leg"),
			Endpoints: []api.Endpoint{traceEndpoint("TracePowerOutlet")},
			Empty:     componentEmpty(true, nil),
		},
	}
}
