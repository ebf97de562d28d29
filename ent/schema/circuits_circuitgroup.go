package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"

	"github.com/inventory/inventory/ent/logic/circuits"
	"github.com/inventory/inventory/ent/schema/api"
)

// CircuitGroup is circuits.CircuitGroup: an administrative grouping of
// circuits and virtual circuits (through assignments, which show its
// name: the hook renames it there).
type CircuitGroup struct{ ent.Schema }

func (CircuitGroup) Mixin() []ent.Mixin { return OrganizationalMixins() }

func (CircuitGroup) Fields() []ent.Field { return []ent.Field{FKField("tenant")} }

func (CircuitGroup) Edges() []ent.Edge {
	return []ent.Edge{FK("tenant", Tenant.Type, api.Protect)}
}

func (CircuitGroup) Hooks() []ent.Hook { return circuits.CircuitGroupHooks() }

func (CircuitGroup) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "circuits_circuitgroup"},
		api.Model{
			App: "circuits", Path: "circuit-groups", Verbose: "circuit group",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "description", "tenant", "owner",
				"comments", "tags", "custom_fields", "created", "last_updated", "circuit_count"},
			Brief:    []string{"id", "url", "display", "name"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description", "comments"},
			Ordering: []string{"name"},
			// NetBox's RelatedObjectCountField('assignments').
			Counts:  map[string]api.Count{"circuit_count": {Model: "circuits.circuitgroupassignment", Column: "group_id"}},
			Filters: TenancyFilters(),
		},
	}
}
