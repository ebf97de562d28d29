package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/users"
	"github.com/inventory/inventory/ent/schema/api"
)

// User is users.User. Passwords are write-only and stored hashed (the
// "password" kind hashes on write).
type User struct{ ent.Schema }

func (User) Fields() []ent.Field {
	return []ent.Field{
		field.String("username").MaxRuneLen(150).NotEmpty().Unique().Annotations(api.Field{Kind: "username"}),
		field.String("password").MaxRuneLen(128).Default("").Sensitive().
			Annotations(api.Field{Kind: "password", WriteOnly: true, Required: true}),
		field.String("first_name").MaxRuneLen(150).Default(""),
		field.String("last_name").MaxRuneLen(150).Default(""),
		field.String("email").MaxRuneLen(254).Default("").Annotations(api.Field{Kind: "email"}),
		field.Bool("is_active").Default(true),
		field.Bool("is_staff").Default(false),
		// is_superuser is not part of NetBox 4.6's user serializer; it is
		// set with `inventory createsuperuser` and read by authentication.
		field.Bool("is_superuser").Default(false),
		field.Time("date_joined").Default(Now).Immutable().Annotations(api.Field{ReadOnly: true}),
		field.Time("last_login").Optional().Nillable().Annotations(api.Field{ReadOnly: true}),
		// config is the user's preferences (/api/users/config/), never
		// part of the user's representation.
		field.JSON("config", map[string]any{}).Default(map[string]any{}).Annotations(api.Field{Kind: "hidden"}),
	}
}

func (User) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("groups", Group.Type).StorageKey(edge.Table("users_user_groups"), edge.Columns("user_id", "group_id")).
			Annotations(api.Field{Lookup: "name"}), // the group filter is by name
		edge.From("permissions", ObjectPermission.Type).Ref("users"),
		edge.From("owners", Owner.Type).Ref("users"),
		edge.From("notification_groups", NotificationGroup.Type).Ref("users"),
	}
}

// Hooks: User.clean() refuses a username that differs only in case from
// another user's.
func (User) Hooks() []ent.Hook { return users.UserHooks() }

func (User) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "users_user"},
		api.Model{
			// Django's AbstractUser.username error_messages["unique"], which
			// DRF's UniqueValidator on the field answers with.
			Unique: []api.Unique{{Fields: []string{"username"}, Message: "A user with that username already exists."}},
			// Model fields of NetBox's ModelSerializer, writable there; kept by
			// the server here.
			Metadata: map[string]api.Meta{"date_joined": {Writable: true}, "last_login": {Writable: true}},
			App:      "users", Path: "users", Verbose: "user",
			Fields: []string{"id", "url", "display_url", "display", "username", "first_name", "last_name", "email",
				"is_active", "date_joined", "last_login", "groups", "permissions"},
			Brief:       []string{"id", "url", "display", "username"},
			DisplayFunc: api.Func(api.LogicPkg("users"), "UserDisplay"),
			Search:      []string{"username", "first_name", "last_name", "email"},
			Ordering:    []string{"username"},
			// is_superuser is no API field but NetBox filters on it.
			// The users of an owner: the reverse of the owners' users.
			Filters: []api.Filter{{Name: "is_superuser", Kind: "boolean", Column: "is_superuser"},
				// is_staff left the serializer in NetBox 4.2; its filter stayed.
				{Name: "is_staff", Kind: "boolean", Column: "is_staff"},
				{Name: "owner_id", Kind: "m2m-reverse", Target: "users.owner", Column: "users"},
				{Name: "owner", Kind: "m2m-reverse", Target: "users.owner", Column: "users", Attr: "name"},
				// The users of a notification group: the reverse of its users.
				{Name: "notification_group_id", Kind: "m2m-reverse", Target: "extras.notificationgroup", Column: "users"}},
		},
	}
}
