package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/schema/api"
)

// VirtualCircuitType is circuits.VirtualCircuitType: the role of virtual
// circuits.
type VirtualCircuitType struct{ ent.Schema }

func (VirtualCircuitType) Mixin() []ent.Mixin { return OrganizationalMixins() }

func (VirtualCircuitType) Fields() []ent.Field {
	return []ent.Field{field.String("color").MaxRuneLen(6).Default("").Annotations(api.Field{Kind: "color"})}
}

func (VirtualCircuitType) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "circuits_virtualcircuittype"},
		api.Model{
			App: "circuits", Path: "virtual-circuit-types", Verbose: "virtual circuit type",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "color", "description", "owner",
				"comments", "tags", "custom_fields", "created", "last_updated", "virtual_circuit_count"},
			Brief:    []string{"id", "url", "display", "name", "slug", "description", "virtual_circuit_count"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description", "comments"},
			Ordering: []string{"name"},
			Counts:   map[string]api.Count{"virtual_circuit_count": {Model: "circuits.virtualcircuit", Column: "type_id"}},
		},
	}
}
