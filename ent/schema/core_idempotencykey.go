package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// IdempotencyKey is the answer of a write made with an Idempotency-Key
// header (the allocation endpoints: server/idempotency.go), written in
// the write's own transaction: a repeat of the request by the same user
// at the same endpoint with the same key gets this answer back until
// expires, instead of a second allocation. fingerprint is a hash of the
// request (query and body), so that a different request under a used key
// is refused. Expired rows are deleted by the webhook jobs' cleanup.
//
// Not an API model; NetBox has nothing like it.
type IdempotencyKey struct{ ent.Schema }

func (IdempotencyKey) Fields() []ent.Field {
	return []ent.Field{
		field.Int("user_id"), // 0: anonymous
		// endpoint is the method and path ("POST /api/ipam/prefixes/7/available-ips/").
		field.String("endpoint").MaxLen(500),
		field.String("idempotency_key").MaxLen(255),
		field.String("fingerprint"),
		field.Int("status"),
		field.Bytes("body"),
		field.Time("created").Default(Now).Immutable(),
		field.Time("expires"),
	}
}

func (IdempotencyKey) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("user_id", "endpoint", "idempotency_key").Unique(),
		index.Fields("expires"),
	}
}

func (IdempotencyKey) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Annotation{Table: "core_idempotencykey"}}
}
