package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// RearPort is dcim.RearPort: front_ports maps its positions to positions
// of front ports of the same device (as the rear port templates do).
type RearPort struct{ ent.Schema }

func (RearPort) Mixin() []ent.Mixin { return ComponentMixins() }

func (RearPort) Fields() []ent.Field {
	return []ent.Field{
		field.String("type").MaxRuneLen(50).Annotations(api.Field{Kind: "choice", Choices: dtPortType}),
		field.String("color").MaxRuneLen(6).Default("").Annotations(api.Field{Kind: "color"}),
		field.Int("positions").Default(1).Min(1).Max(1024).Annotations(api.Field{Min: api.Int(1), Max: api.Int(1024)}),
		// front_ports: NetBox 4.6's port mappings seen from this side.
		field.JSON("mappings", []any{}).Default([]any{}).Annotations(api.Field{API: "front_ports", Kind: "json"}),
	}
}

func (RearPort) Hooks() []ent.Hook { return dcim.RearPortHooks() }

func (RearPort) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_rearport"},
		api.Model{
			App: "dcim", Path: "rear-ports", Verbose: "rear port",
			Fields: componentFields(false, "type", "color", "positions", "front_ports"),
			Empty:  componentEmpty(false, nil),
			// NetBox filters through its mappings table (mappings__front_port).
			Filters: []api.Filter{{Name: "front_port_id", Kind: "json-list-int", Column: "front_ports", Attr: "front_port"}},
			// NetBox's PassThroughPortMixin.
			Endpoints: []api.Endpoint{passThroughPaths("RearPortPaths")},
		},
	}
}
