package schema

import (
	"encoding/json"

	"entgo.io/ent"
	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// OutboxEvent is one object event (created, updated, deleted) written in the
// same transaction as the change that caused it: a committed change always
// has its event and a rolled-back one never does. The dispatcher matches
// events to event rules and marks them dispatched. Several changes of one
// object in one transaction collapse into one event, as in NetBox.
//
// Not an API model: deliveries are seen through /api/core/background-tasks/.
type OutboxEvent struct{ ent.Schema }

func (OutboxEvent) Fields() []ent.Field {
	return []ent.Field{
		field.Time("created").Default(Now).Immutable(),
		// event is "created", "updated" or "deleted".
		field.String("event"),
		field.String("object_type"), // "app.model"
		field.Int("object_id"),
		field.String("request_id").Default(""),
		field.String("request_method").Default(""),
		field.String("request_path").Default(""),
		field.Int("user_id").Optional().Nillable(),
		field.String("username").Default(""),
		// data is the object's API representation with relative URLs
		// (what conditions see); the snapshots are NetBox's
		// serialize_object form, prechange null on create, postchange null
		// on delete.
		// json, not jsonb, on PostgreSQL: jsonb reorders keys, and webhook
		// bodies must keep the API's field order.
		field.JSON("data", json.RawMessage{}).SchemaType(keepOrder),
		field.JSON("prechange", json.RawMessage{}).Optional().SchemaType(keepOrder),
		field.JSON("postchange", json.RawMessage{}).Optional().SchemaType(keepOrder),
		// dispatched is set once the dispatcher has created the deliveries.
		field.Time("dispatched").Optional().Nillable(),
	}
}

// keepOrder stores JSON as text-preserving json on PostgreSQL.
var keepOrder = map[string]string{dialect.Postgres: "json"}

func (OutboxEvent) Indexes() []ent.Index {
	return []ent.Index{index.Fields("dispatched", "id")}
}

func (OutboxEvent) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Annotation{Table: "core_outboxevent"}}
}
