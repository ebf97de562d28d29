package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/schema/api"
)

// RackRole is dcim.RackRole: the functional role of racks.
type RackRole struct{ ent.Schema }

func (RackRole) Mixin() []ent.Mixin { return OrganizationalMixins() }

func (RackRole) Fields() []ent.Field {
	return []ent.Field{
		// NetBox's ColorField: six lower-case hex digits, validated by the
		// "color" kind as extras.tag's color is.
		field.String("color").MaxRuneLen(6).Default("9e9e9e").Annotations(api.Field{Kind: "color"}),
	}
}

func (RackRole) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_rackrole"},
		api.Model{
			App: "dcim", Path: "rack-roles", Verbose: "rack role",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "color", "description", "owner",
				"comments", "tags", "custom_fields", "created", "last_updated", "rack_count"},
			Brief:    []string{"id", "url", "display", "name", "slug", "description", "rack_count"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description"},
			Ordering: []string{"name"},
			Counts:   map[string]api.Count{"rack_count": {Model: "dcim.rack", Column: "role_id"}},
		},
	}
}
