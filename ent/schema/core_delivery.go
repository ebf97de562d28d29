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

// Delivery is one webhook send: created by the dispatcher for each
// (outbox event, matching event rule), claimed and sent by a delivery
// worker, retried with backoff, and shown as a background task
// (/api/core/background-tasks/). Webhook and rule are plain ids (not FK
// edges) so history survives their deletion; names are copied for display.
//
// status: queued (due now), scheduled (waiting for a retry), started
// (claimed by a worker until lease_until), finished, failed.
//
// Not an API model: served by the background task handlers.
type Delivery struct{ ent.Schema }

func (Delivery) Fields() []ent.Field {
	return []ent.Field{
		// uuid is the task id and the stable X-Delivery-ID header value.
		field.String("uuid").Unique().Immutable(),
		field.Int("event_id"),
		field.Int("rule_id"),
		field.String("rule_name").Default(""),
		field.Int("webhook_id"),
		field.String("webhook_name").Default(""),
		field.String("event"), // created, updated, deleted
		field.String("object_type"),
		field.Int("object_id"),
		field.String("request_id").Default(""),
		// context is the template context of SPEC.md §6.2 as JSON, in the
		// default body's key order, fixed at dispatch time.
		// PostgreSQL's json (not jsonb) keeps the text, so the key order.
		field.JSON("context", json.RawMessage{}).SchemaType(map[string]string{dialect.Postgres: "json"}),
		field.String("status").Default("queued"),
		field.Int("attempts").Default(0),
		field.Time("created_at").Default(Now).Immutable(),
		field.Time("enqueued_at").Default(Now),
		field.Time("next_attempt_at").Default(Now),
		field.Time("started_at").Optional().Nillable(),
		field.Time("ended_at").Optional().Nillable(),
		// lease: the claiming worker and how long the claim holds; an
		// expired lease of a started row makes it claimable again (the
		// worker died mid-send).
		field.String("worker").Default(""),
		field.String("claim").Default(""),
		field.Time("lease_until").Optional().Nillable(),
		field.Int("response_code").Optional().Nillable(),
		field.Text("response_body").Default(""),
		field.Int("duration_ms").Optional().Nillable(),
		field.Text("error").Default(""),
		// log holds one entry per attempt (time, code, error, duration).
		field.JSON("log", []map[string]any{}).Optional(),
	}
}

func (Delivery) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("status", "next_attempt_at"),
		index.Fields("webhook_id"),
		index.Fields("event_id", "rule_id").Unique(),
	}
}

func (Delivery) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Annotation{Table: "core_delivery"}}
}
