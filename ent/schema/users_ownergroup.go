package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/schema/api"
)

// OwnerGroup is users.OwnerGroup (NetBox 4.6): an arbitrary grouping of
// owners. Like NetBox's AdminModel it is not change-logged.
type OwnerGroup struct{ ent.Schema }

func (OwnerGroup) Fields() []ent.Field {
	return []ent.Field{
		UniqueName(100),
		field.String("description").MaxRuneLen(200).Default(""),
	}
}

func (OwnerGroup) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "users_ownergroup"},
		api.Model{
			App: "users", Path: "owner-groups", Verbose: "owner group",
			GenericOnly: true,
			Fields:      []string{"id", "url", "display_url", "display", "name", "description", "member_count"},
			Brief:       []string{"id", "url", "display", "name", "description"},
			Display:     "{name}",
			Search:      []string{"name", "description"},
			Ordering:    []string{"name"},
			Counts:      map[string]api.Count{"member_count": {Model: "users.owner", Column: "group_id"}},
		},
	}
}
