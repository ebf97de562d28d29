package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/schema/api"
)

// NotificationGroup is extras.NotificationGroup: users and user groups to
// notify together, the target of event rules' notification actions
// (deleting the group deletes those rules: EventRule's action_object).
// Change-logged, though its serializer shows no timestamps.
type NotificationGroup struct{ ent.Schema }

func (NotificationGroup) Mixin() []ent.Mixin { return []ent.Mixin{ChangeLogged{}} }

func (NotificationGroup) Fields() []ent.Field {
	return []ent.Field{
		UniqueName(100),
		field.String("description").MaxRuneLen(200).Default(""),
	}
}

func (NotificationGroup) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("groups", Group.Type).StorageKey(edge.Table("extras_notificationgroup_groups"),
			edge.Columns("notificationgroup_id", "group_id")).Annotations(api.Field{Lookup: "name"}),
		edge.To("users", User.Type).StorageKey(edge.Table("extras_notificationgroup_users"),
			edge.Columns("notificationgroup_id", "user_id")).Annotations(api.Field{Lookup: "username"}),
	}
}

func (NotificationGroup) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "extras_notificationgroup"},
		api.Model{
			App: "extras", Path: "notification-groups", Verbose: "notification group",
			GenericOnly: true,
			Fields:      []string{"id", "url", "display", "display_url", "name", "description", "groups", "users"},
			Brief:       []string{"id", "url", "display", "name", "description"},
			Display:     "{name}",
			Search:      []string{"name", "description"},
			Ordering:    []string{"name"},
		},
	}
}
