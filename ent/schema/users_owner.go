package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/schema/api"
)

// Owner is users.Owner (NetBox 4.6): who owns an object (every model with
// NetBox's OwnerMixin has an owner, see Owned), a set of users and user
// groups, optionally in an owner group. Like NetBox's AdminModel it is not
// change-logged.
type Owner struct{ ent.Schema }

func (Owner) Fields() []ent.Field {
	return []ent.Field{
		UniqueName(100),
		FKField("group"),
		field.String("description").MaxRuneLen(200).Default(""),
	}
}

func (Owner) Edges() []ent.Edge {
	return []ent.Edge{
		// NetBox's serializer declares the group without required=False:
		// a create must name it, null included.
		edge.To("group", OwnerGroup.Type).Field("group_id").Unique().
			Annotations(OnDelete(api.Protect, api.Field{Required: true})...),
		edge.To("user_groups", Group.Type).StorageKey(edge.Table("users_owner_user_groups"), edge.Columns("owner_id", "group_id")).
			Annotations(api.Field{Lookup: "name"}),
		edge.To("users", User.Type).StorageKey(edge.Table("users_owner_users"), edge.Columns("owner_id", "user_id")).
			Annotations(api.Field{Lookup: "username"}),
	}
}

func (Owner) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "users_owner"},
		api.Model{
			App: "users", Path: "owners", Verbose: "owner",
			GenericOnly: true,
			Fields:      []string{"id", "url", "display_url", "display", "name", "group", "description", "user_groups", "users"},
			Brief:       []string{"id", "url", "display", "name", "description"},
			Display:     "{name}",
			Search:      []string{"name", "description"},
			Ordering:    []string{"name"},
		},
	}
}
