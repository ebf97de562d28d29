package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Session is a browser's login (the browsable API's /login/: server/session).
// It lives in the database, not in the process, so that every replica
// behind a load balancer knows it and a logout or a revocation anywhere
// ends it everywhere at once. key is the SHA-256 of the cookie's secret:
// a read of the table (a backup, a replica's log) yields no usable cookie.
// csrf_token is the session's synchronizer token, required on its unsafe
// requests. password_digest is the SHA-256 of the user's password hash at
// login: a session whose user's password changed since (through the API
// or the command line) no longer authenticates, as Django's session auth
// hash does. Expired rows are deleted by a gocron job.
//
// Not an API model: NetBox keeps Django's django_session, which has no
// API either.
type Session struct{ ent.Schema }

func (Session) Fields() []ent.Field {
	return []ent.Field{
		field.String("key").MaxLen(64).Unique().Immutable(),
		field.Int("user_id").Immutable(),
		field.String("csrf_token").MaxLen(64).Immutable(),
		field.String("password_digest").MaxLen(64).Immutable(),
		field.Time("created").Default(Now).Immutable(),
		field.Time("expires").Immutable(),
	}
}

// Edges: deleting a user deletes their sessions (ON DELETE CASCADE).
func (Session) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("user", User.Type).Field("user_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

func (Session) Indexes() []ent.Index {
	return []ent.Index{index.Fields("expires"), index.Fields("user_id")}
}

func (Session) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Annotation{Table: "core_session"}}
}
