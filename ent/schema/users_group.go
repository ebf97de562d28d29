package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/schema/api"
)

// Group is users.Group: a set of users that object permissions can be
// assigned to as a whole.
type Group struct{ ent.Schema }

func (Group) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").MaxRuneLen(150).NotEmpty().Unique(),
		field.String("description").MaxRuneLen(200).Default(""),
	}
}

func (Group) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("users", User.Type).Ref("groups").Annotations(api.Field{Lookup: "username"}),
		edge.From("permissions", ObjectPermission.Type).Ref("groups"),
		edge.From("owners", Owner.Type).Ref("user_groups"),
		edge.From("notification_groups", NotificationGroup.Type).Ref("groups"),
	}
}

func (Group) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "users_group"},
		api.Model{
			// NetBox's IntegerField(read_only=True), annotated by the viewset.
			Metadata: map[string]api.Meta{"user_count": {Type: "integer"}},
			App:      "users", Path: "groups", Verbose: "group",
			Fields:   []string{"id", "url", "display_url", "display", "name", "description", "permissions", "user_count"},
			Brief:    []string{"id", "url", "display", "name", "description"},
			Display:  "{name}",
			Search:   []string{"name", "description"},
			Ordering: []string{"name"},
			Counts:   map[string]api.Count{"user_count": {Table: "users_user_groups", Column: "group_id"}},
			// The groups having a user: the reverse of the users' groups;
			// the groups of an owner: the reverse of the owners' user_groups.
			Filters: []api.Filter{{Name: "user_id", Kind: "m2m-reverse", Target: "users.user", Column: "groups"},
				{Name: "owner_id", Kind: "m2m-reverse", Target: "users.owner", Column: "user_groups"},
				{Name: "owner", Kind: "m2m-reverse", Target: "users.owner", Column: "user_groups", Attr: "name"},
				{Name: "notification_group_id", Kind: "m2m-reverse", Target: "extras.notificationgroup", Column: "groups"}},
		},
	}
}
