package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/extras"
	"github.com/inventory/inventory/ent/schema/api"
)

// Subscription is extras.Subscription: a user's subscription to an object
// of any model with NetBox's "notifications" feature, to be notified when
// it changes or goes (ent/logic/extras: notifications.go). A generic
// relation: deleting the object deletes its subscriptions (NetBox's
// NotificationsMixin). Not change-logged, as NetBox's plain model.
type Subscription struct{ ent.Schema }

func (Subscription) Fields() []ent.Field {
	return []ent.Field{
		field.Time("created").Default(Now).Immutable().Annotations(api.Field{ReadOnly: true}),
		field.String("object_type").Annotations(api.Field{ObjectTypes: "notifications", OnDelete: api.Cascade}),
		field.Int("object_id").Min(0).Annotations(api.Field{Min: api.Int(0)}),
		field.Int("user_id"),
		field.String("_object_display").Default("").Annotations(api.Field{Kind: "hidden"}),
	}
}

func (Subscription) Edges() []ent.Edge {
	return []ent.Edge{FKRequired("user", User.Type, api.Cascade)}
}

func (Subscription) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("object_type", "object_id", "user_id").Unique(),
		index.Fields("created", "user_id"),
		index.Fields("user_id"),
	}
}

// Hooks: a subscription taken along by its object's delete notifies its
// user first.
func (Subscription) Hooks() []ent.Hook { return extras.SubscriptionHooks() }

func (Subscription) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "extras_subscription"},
		api.Model{
			App: "extras", Path: "subscriptions", Verbose: "subscription",
			GenericOnly: true,
			Fields:      []string{"id", "url", "display", "object_type", "object_id", "object", "user", "created"},
			Brief:       []string{"id", "url", "display", "object_type", "object_id", "user"},
			DisplayFunc: api.Func(api.LogicPkg("extras"), "SubscriptionDisplay"),
			Ordering:    []string{"-created", "user"},
			Unique: []api.Unique{{Fields: []string{"object_type", "object_id", "user"},
				Message: "Subscription with this Object type, Object id and User already exists."}},
		},
	}
}
