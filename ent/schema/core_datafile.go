package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/schema/api"
)

// DataFile is core.DataFile: one file of a data source as its last sync
// found it (path relative to the source's root, size, SHA-256 and the
// content). Only a sync writes them (package datasources); read-only
// through the API, and the content is never served, as in NetBox.
type DataFile struct{ ent.Schema }

func (DataFile) Fields() []ent.Field {
	ro := api.Field{ReadOnly: true}
	return []ent.Field{
		field.Time("created").Default(Now).Immutable().Annotations(api.Field{Kind: "hidden"}),
		field.Time("last_updated").Default(Now).Annotations(ro),
		field.Int("source_id").Annotations(ro),
		field.String("path").MaxRuneLen(1000).Annotations(ro),
		field.Int64("size").Annotations(ro),
		field.String("hash").MaxRuneLen(64).Annotations(ro),
		field.Bytes("data").Annotations(api.Field{Kind: "hidden"}),
	}
}

func (DataFile) Edges() []ent.Edge {
	return []ent.Edge{FKRequired("source", DataSource.Type, api.Cascade)}
}

func (DataFile) Indexes() []ent.Index {
	return []ent.Index{index.Fields("source_id", "path").Unique()}
}

func (DataFile) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "core_datafile"},
		api.Model{
			App: "core", Path: "data-files", Verbose: "data file", ReadOnly: true,
			Fields:   []string{"id", "url", "display_url", "display", "source", "path", "last_updated", "size", "hash"},
			Brief:    []string{"id", "url", "display", "path"},
			Display:  "{path}",
			Search:   []string{"path"},
			Ordering: []string{"source", "path"},
			Unique:   []api.Unique{{Fields: []string{"source", "path"}}},
			Filters: []api.Filter{
				{Name: "created", Kind: "datetime", Column: "created"},
			},
		},
	}
}
