package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/schema/api"
)

// RIR is ipam.RIR, a Regional Internet Registry (or a private space).
type RIR struct{ ent.Schema }

func (RIR) Mixin() []ent.Mixin { return OrganizationalMixins() }

func (RIR) Fields() []ent.Field {
	return []ent.Field{field.Bool("is_private").Default(false)}
}

func (RIR) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "ipam_rir"},
		api.Model{
			App: "ipam", Path: "rirs", Verbose: "RIR",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "is_private", "description",
				"owner", "comments", "tags", "custom_fields", "created", "last_updated", "aggregate_count"},
			Brief:    []string{"id", "url", "display", "name", "slug", "description", "aggregate_count"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description", "comments"},
			Ordering: []string{"name"},
			Counts:   map[string]api.Count{"aggregate_count": {Model: "ipam.aggregate", Column: "rir_id"}},
		},
	}
}
