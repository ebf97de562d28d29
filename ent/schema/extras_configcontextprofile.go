package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/extras"
	"github.com/inventory/inventory/ent/schema/api"
)

// ConfigContextProfile is extras.ConfigContextProfile: a JSON schema that
// the data of its config contexts must satisfy.
type ConfigContextProfile struct{ ent.Schema }

// Mixin: NetBox's PrimaryModel, whose serializer here shows no custom
// fields.
func (ConfigContextProfile) Mixin() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, Primary{}, SyncedData{}}
}

func (ConfigContextProfile) Fields() []ent.Field {
	return []ent.Field{
		UniqueName(100),
		field.JSON("schema", map[string]any{}).Optional().Annotations(api.Field{Kind: "json"}),
	}
}

// Hooks: schema is validated as a JSON Schema when saved (NetBox's
// validate_schema).
// The data file's content (YAML or JSON) is copied first, so that it is
// what is validated.
func (ConfigContextProfile) Hooks() []ent.Hook {
	return append([]ent.Hook{extras.SyncedDataHooks("schema")}, extras.ConfigContextProfileHooks()...)
}

func (ConfigContextProfile) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "extras_configcontextprofile"},
		api.Model{
			App: "extras", Path: "config-context-profiles", Verbose: "config context profile",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "description", "schema", "tags", "owner",
				"comments", "data_source", "data_path", "data_file", "data_synced", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "name", "description"},
			Display:  "{name}",
			Search:   []string{"name", "description"},
			Ordering: []string{"name"},
		},
	}
}
