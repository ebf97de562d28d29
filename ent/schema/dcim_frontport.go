package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// FrontPort is dcim.FrontPort: rear_ports maps its positions to positions
// of rear ports of the same device (as the front port templates do).
type FrontPort struct{ ent.Schema }

func (FrontPort) Mixin() []ent.Mixin { return ComponentMixins() }

func (FrontPort) Fields() []ent.Field {
	return []ent.Field{
		field.String("type").MaxRuneLen(50).Annotations(api.Field{Kind: "choice", Choices: dtPortType}),
		field.String("color").MaxRuneLen(6).Default("").Annotations(api.Field{Kind: "color"}),
		field.Int("positions").Default(1).Min(1).Max(1024).Annotations(api.Field{Min: api.Int(1), Max: api.Int(1024)}),
		// rear_ports: NetBox 4.6's port mappings seen from this side.
		field.JSON("mappings", []any{}).Default([]any{}).Annotations(api.Field{API: "rear_ports", Kind: "json"}),
	}
}

func (FrontPort) Hooks() []ent.Hook { return dcim.FrontPortHooks() }

func (FrontPort) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_frontport"},
		api.Model{
			App: "dcim", Path: "front-ports", Verbose: "front port",
			Fields: componentFields(false, "type", "color", "positions", "rear_ports"),
			Empty:  componentEmpty(false, nil),
			// NetBox filters through its mappings table (mappings__rear_port).
			Filters: frontPortMappingFilters(),
			// NetBox's PassThroughPortMixin.
			Endpoints: []api.Endpoint{passThroughPaths("FrontPortPaths")},
		},
	}
}

// frontPortMappingFilters are the filters of front ports and their
// templates on their mappings to rear ports (the rear_ports list here,
// NetBox's PortMapping rows).
func frontPortMappingFilters() []api.Filter {
	return []api.Filter{
		{Name: "rear_port_id", Kind: "json-list-int", Column: "rear_ports", Attr: "rear_port"},
		{Name: "rear_port_position", Kind: "json-list-int", Column: "rear_ports", Attr: "rear_port_position"},
	}
}
