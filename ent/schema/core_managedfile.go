package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// ManagedFile is core.ManagedFile: a file the server keeps on disk (today
// only uploaded script modules, file_root "scripts", NetBox's ScriptModule
// proxy). It is NetBox-private (no endpoint of its own): script modules
// are written through POST /api/extras/scripts/upload/ (server/scripts.go)
// and their scripts listed as extras.script. file_path is the stored
// file's name inside the scripts directory, chosen by the server.
type ManagedFile struct{ ent.Schema }

func (ManagedFile) Fields() []ent.Field {
	return []ent.Field{
		field.Time("created").Default(Now).Immutable(),
		field.Time("last_updated").Optional().Nillable(),
		field.String("file_root").MaxRuneLen(1000),
		// Django's FilePathField: max_length 100.
		field.String("file_path").MaxRuneLen(100),
	}
}

func (ManagedFile) Indexes() []ent.Index {
	return []ent.Index{index.Fields("file_root", "file_path").Unique()}
}

func (ManagedFile) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Annotation{Table: "core_managedfile"}}
}
