package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/extras"
	"github.com/inventory/inventory/ent/schema/api"
)

// JournalEntry is extras.JournalEntry: a dated remark on an object of any
// model with NetBox's "journaling" feature (a generic relation: deleting
// the object deletes its journal). created_by defaults to the requesting
// user and is fixed once written (NetBox makes it read-only on update).
type JournalEntry struct{ ent.Schema }

// Mixin: NetBox's ChangeLoggedModel with tags and custom fields.
func (JournalEntry) Mixin() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, CustomFields{}}
}

func (JournalEntry) Fields() []ent.Field {
	return []ent.Field{
		field.String("assigned_object_type").Annotations(api.Field{ObjectTypes: "journaling", OnDelete: api.Cascade}),
		field.Int("assigned_object_id").Min(0).Annotations(api.Field{Min: api.Int(0)}),
		FKField("created_by"),
		field.String("kind").MaxRuneLen(30).Default("info").
			Annotations(api.Field{Kind: "choice", Choices: extras.JournalEntryKinds}),
		field.Text("comments"),
	}
}

func (JournalEntry) Edges() []ent.Edge {
	// created_by is NetBox's PrimaryKeyRelatedField: a bare id both ways.
	return []ent.Edge{edge.To("created_by", User.Type).Field("created_by_id").Unique().
		Annotations(OnDelete(api.SetNull, api.Field{PK: true, CurrentUser: true, CreateOnly: true, Lookup: "username"})...)}
}

func (JournalEntry) Indexes() []ent.Index {
	return []ent.Index{index.Fields("created"), index.Fields("assigned_object_type", "assigned_object_id")}
}

func (JournalEntry) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "extras_journalentry"},
		api.Model{
			App: "extras", Path: "journal-entries", Verbose: "journal entry",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "assigned_object_type", "assigned_object_id",
				"assigned_object", "created", "created_by", "kind", "comments", "tags", "custom_fields", "last_updated"},
			Brief:       []string{"id", "url", "display", "created"},
			DisplayFunc: api.Func(api.LogicPkg("extras"), "JournalEntryDisplay"),
			// NetBox's search: the comments.
			Search:   []string{"comments"},
			Ordering: []string{"-created"},
			// NetBox's created is a DateTimeFromToRangeFilter.
			Filters: []api.Filter{
				{Name: "created_after", Kind: "datetime-after", Column: "created"},
				{Name: "created_before", Kind: "datetime-before", Column: "created"},
			},
		},
	}
}
