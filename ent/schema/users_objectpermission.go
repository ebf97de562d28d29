package schema

import (
	"encoding/json"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/schema/api"
)

// ObjectPermission is users.ObjectPermission: actions on object types,
// optionally narrowed by constraints, granted to users and groups
// (BEHAVIOUR.md §4.1). The server validates constraints on write.
type ObjectPermission struct{ ent.Schema }

func (ObjectPermission) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").MaxRuneLen(100).NotEmpty(),
		field.String("description").MaxRuneLen(200).Default(""),
		field.Bool("enabled").Default(true),
		field.Strings("object_types").Annotations(api.Field{Kind: "content-types", ObjectTypes: "object_permissions"}),
		field.Strings("actions").Annotations(api.Field{Kind: "actions"}),
		field.JSON("constraints", json.RawMessage{}).Optional().Annotations(api.Field{Kind: "constraints"}),
	}
}

func (ObjectPermission) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("groups", Group.Type).StorageKey(edge.Table("users_objectpermission_groups"), edge.Columns("objectpermission_id", "group_id")).
			Annotations(api.Field{Lookup: "name", Nested: NestedNameForm}),
		// NetBox's NestedUserSerializer.
		edge.To("users", User.Type).StorageKey(edge.Table("users_objectpermission_users"), edge.Columns("objectpermission_id", "user_id")).
			Annotations(api.Field{Lookup: "username", Nested: []string{"id", "url", "display_url", "display", "username"}}),
	}
}

func (ObjectPermission) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "users_objectpermission"},
		api.Model{
			App: "users", Path: "permissions", Model: "objectpermission", Verbose: "permission",
			Fields: []string{"id", "url", "display_url", "display", "name", "description", "enabled", "object_types",
				"actions", "constraints", "groups", "users"},
			Brief:    []string{"id", "url", "display", "name", "description", "enabled", "object_types", "actions"},
			Display:  "{name}",
			Search:   []string{"name", "description"},
			Ordering: []string{"name"},
			// Permissions that cover a given "app.model".
			// can_<action>: permissions granting (or not) that action.
			Filters: []api.Filter{
				{Name: "object_type", Kind: "content-types-contains", Column: "object_types"},
				{Name: "can_view", Kind: "strings-has", Column: "actions", Attr: "view"},
				{Name: "can_add", Kind: "strings-has", Column: "actions", Attr: "add"},
				{Name: "can_change", Kind: "strings-has", Column: "actions", Attr: "change"},
				{Name: "can_delete", Kind: "strings-has", Column: "actions", Attr: "delete"},
			},
		},
	}
}
