package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/schema/api"
)

// CircuitType is circuits.CircuitType: the functional role of circuits
// ("Long Haul", "Metro").
type CircuitType struct{ ent.Schema }

func (CircuitType) Mixin() []ent.Mixin { return OrganizationalMixins() }

func (CircuitType) Fields() []ent.Field {
	return []ent.Field{field.String("color").MaxRuneLen(6).Default("").Annotations(api.Field{Kind: "color"})}
}

func (CircuitType) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "circuits_circuittype"},
		api.Model{
			App: "circuits", Path: "circuit-types", Verbose: "circuit type",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "color", "description", "owner",
				"comments", "tags", "custom_fields", "created", "last_updated", "circuit_count"},
			Brief:    []string{"id", "url", "display", "name", "slug", "description", "circuit_count"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description", "comments"},
			Ordering: []string{"name"},
			Counts:   map[string]api.Count{"circuit_count": {Model: "circuits.circuit", Column: "type_id"}},
		},
	}
}
