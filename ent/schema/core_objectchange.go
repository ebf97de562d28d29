package schema

import (
	"encoding/json"

	"entgo.io/ent"
	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/schema/api"
)

// keepJSONText stores snapshots as PostgreSQL json (not jsonb), which
// keeps their key order, NetBox's field order.
var keepJSONText = map[string]string{dialect.Postgres: "json"}

// ObjectChangeAction are the actions of a change record.
var ObjectChangeAction = api.C("create", "Created", "update", "Updated", "delete", "Deleted")

// ObjectChange is core.ObjectChange: one record per object created, updated
// or deleted, written by the change-capture hook (package webhooks) in the
// transaction of the change. Read-only through the API; served at
// /api/core/object-changes/ and /api/extras/object-changes/.
type ObjectChange struct{ ent.Schema }

func (ObjectChange) Fields() []ent.Field {
	return []ent.Field{
		field.Time("time").Default(Now).Immutable().Annotations(api.Field{ReadOnly: true}),
		field.Int("user_id").Optional().Nillable().Annotations(api.Field{ReadOnly: true}),
		field.String("user_name").MaxRuneLen(150).Default("").Annotations(api.Field{ReadOnly: true}),
		field.String("request_id").MaxRuneLen(36).Default("").Annotations(api.Field{ReadOnly: true}),
		field.String("action").MaxRuneLen(50).Annotations(api.Field{Kind: "choice", Choices: ObjectChangeAction, ReadOnly: true}),
		field.String("changed_object_type").MaxRuneLen(100).Annotations(api.Field{ReadOnly: true}),
		field.Int("changed_object_id").Annotations(api.Field{ReadOnly: true}),
		// related_object_* point at the parent of component-like models;
		// filterable, never rendered (as in NetBox).
		field.String("related_object_type").MaxRuneLen(100).Optional().Nillable().Annotations(api.Field{Kind: "hidden"}),
		field.Int("related_object_id").Optional().Nillable().Annotations(api.Field{Kind: "hidden"}),
		field.String("object_repr").MaxRuneLen(200).Annotations(api.Field{ReadOnly: true}),
		field.String("message").MaxRuneLen(200).Default("").Annotations(api.Field{ReadOnly: true}),
		// The snapshots in NetBox's serialize_object form (BEHAVIOUR.md
		// §11.3): null pre-data on create, null post-data on delete; the
		// API renders null as {} and hides bookkeeping keys.
		field.JSON("prechange_data", json.RawMessage{}).Optional().SchemaType(keepJSONText).Annotations(api.Field{Kind: "changelog-data", ReadOnly: true}),
		field.JSON("postchange_data", json.RawMessage{}).Optional().SchemaType(keepJSONText).Annotations(api.Field{Kind: "changelog-data", ReadOnly: true}),
	}
}

func (ObjectChange) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("user", User.Type).Field("user_id").Unique().
			Annotations(OnDelete(api.SetNull, api.Field{Lookup: "username", ReadOnly: true})...),
	}
}

func (ObjectChange) Indexes() []ent.Index {
	// No index on time alone: the ordering index (time DESC, id, made by
	// resource.OrderingIndexes) serves the time filters and the retention
	// purge, and each index costs every change record's insert (a device
	// of 10 000 interfaces writes 10 001 of them).
	return []ent.Index{
		index.Fields("request_id"),
		index.Fields("changed_object_type", "changed_object_id"),
	}
}

func (ObjectChange) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "core_objectchange"},
		api.Model{
			App: "core", Path: "object-changes", Verbose: "object change", ReadOnly: true, UI: "core/changelog",
			Fields: []string{"id", "url", "display_url", "display", "time", "user", "user_name", "request_id", "action",
				"changed_object_type", "changed_object_id", "changed_object", "object_repr", "message",
				"prechange_data", "postchange_data"},
			DisplayFunc: api.Func("github.com/inventory/inventory/ent/resource", "ObjectChangeDisplay"),
			// NetBox 4.6 serves change records under core; SPEC.md places
			// them under extras too (DESIGN.md §7).
			Endpoints: []api.Endpoint{{App: "extras", Path: "object-changes", Alias: "core.objectchange"}},
			Search:    []string{"user_name", "object_repr"},
			Ordering:  []string{"-time"},
			Filters: []api.Filter{
				{Name: "request_id", Kind: "uuid", Column: "request_id"},
				{Name: "related_object_type", Kind: "string", Column: "related_object_type"},
				{Name: "related_object_id", Kind: "integer", Column: "related_object_id"},
				{Name: "time_after", Kind: "datetime-after", Column: "time"},
				{Name: "time_before", Kind: "datetime-before", Column: "time"},
			},
		},
	}
}
