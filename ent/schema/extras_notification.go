package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/schema/api"
)

// Notification is extras.Notification: a message to a user about an
// object (of a model with NetBox's "notifications" feature). The object's
// display is kept as written (NetBox's object_repr, in _object_display):
// a notification outlives its object, which NetBox declares no
// GenericRelation for, so the object renders null once gone. Written by
// clients, by subscriptions and by event rules' notification actions
// (ent/logic/extras: notifications.go). Not change-logged.
type Notification struct{ ent.Schema }

// NotificationEventType are NetBox's registered event types.
var NotificationEventType = api.C("object_created", "Object created", "object_updated", "Object updated",
	"object_deleted", "Object deleted", "job_started", "Job started", "job_completed", "Job completed",
	"job_failed", "Job failed", "job_errored", "Job errored")

func (Notification) Fields() []ent.Field {
	return []ent.Field{
		field.Time("created").Default(Now).Immutable().Annotations(api.Field{ReadOnly: true}),
		field.Time("read").Optional().Nillable(),
		field.Int("user_id"),
		field.String("object_type").Annotations(api.Field{ObjectTypes: "notifications"}),
		field.Int("object_id").Min(0).Annotations(api.Field{Min: api.Int(0)}),
		field.String("_object_display").MaxRuneLen(200).Default("").Annotations(api.Field{Kind: "hidden"}),
		field.String("event_type").MaxRuneLen(50).Annotations(api.Field{Choices: NotificationEventType}),
	}
}

func (Notification) Edges() []ent.Edge {
	return []ent.Edge{FKRequired("user", User.Type, api.Cascade)}
}

func (Notification) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("object_type", "object_id", "user_id").Unique(),
		index.Fields("created", "id"),
		index.Fields("user_id"),
	}
}

func (Notification) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "extras_notification"},
		api.Model{
			App: "extras", Path: "notifications", Verbose: "notification",
			GenericOnly: true,
			Fields:      []string{"id", "url", "display", "object_type", "object_id", "object", "user", "created", "read", "event_type"},
			Brief:       []string{"id", "url", "display", "object_type", "object_id", "user", "read", "event_type"},
			DisplayFunc: api.Func(api.LogicPkg("extras"), "NotificationDisplay"),
			Ordering:    []string{"-created", "id"},
			Unique: []api.Unique{{Fields: []string{"object_type", "object_id", "user"},
				Message: "Notification with this Object type, Object id and User already exists."}},
		},
	}
}
