package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"

	"github.com/inventory/inventory/ent/schema/api"
)

// RackGroup is dcim.RackGroup: a physical grouping of racks (a row, a
// cage). NetBox 4.6 made it a flat organizational model.
type RackGroup struct{ ent.Schema }

func (RackGroup) Mixin() []ent.Mixin { return OrganizationalMixins() }

func (RackGroup) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_rackgroup"},
		api.Model{
			App: "dcim", Path: "rack-groups", Verbose: "rack group",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "description", "owner",
				"comments", "tags", "custom_fields", "created", "last_updated", "rack_count"},
			Brief:    []string{"id", "url", "display", "name", "slug", "description", "rack_count"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description"},
			Ordering: []string{"name"},
			Counts:   map[string]api.Count{"rack_count": {Model: "dcim.rack", Column: "group_id"}},
		},
	}
}
