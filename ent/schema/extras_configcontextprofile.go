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
	return []ent.Mixin{ChangeLogged{}, Tagged{}, Primary{}}
}

func (ConfigContextProfile) Fields() []ent.Field {
	return []ent.Field{
		UniqueName(100),
		field.JSON("schema", map[string]any{}).Optional().Annotations(api.Field{Kind: "json"}),
	}
}

// Hooks: schema is validated as a JSON Schema when saved (NetBox's
// validate_schema).
func (ConfigContextProfile) Hooks() []ent.Hook { return extras.ConfigContextProfileHooks() }

func (ConfigContextProfile) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "extras_configcontextprofile"},
		api.Model{
			Metadata: syncedDataMeta(true),
			App:      "extras", Path: "config-context-profiles", Verbose: "config context profile",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "description", "schema", "tags", "owner",
				"comments", "data_source", "data_path", "data_file", "data_synced", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "name", "description"},
			Display:  "{name}",
			Search:   []string{"name", "description"},
			Ordering: []string{"name"},
			// Data sources are not served: nothing is synced from files.
			Empty: map[string]any{"data_source": nil, "data_path": "", "data_file": nil, "data_synced": nil},
		},
	}
}

// syncedDataMeta is what NetBox's SyncedDataMixin fields are in OPTIONS
// for a model that does not take them from data files here yet (config
// context profiles: placeholders, a value sent is ignored): NetBox's
// data_source is a writable nested object, data_file one too unless the
// serializer declares it read-only.
func syncedDataMeta(fileWritable bool) map[string]api.Meta {
	return map[string]api.Meta{
		"data_source": {Type: "nested object", Writable: true},
		"data_path":   {Type: "string"},
		"data_file":   {Type: "nested object", Writable: fileWritable},
		"data_synced": {Type: "datetime"},
	}
}
