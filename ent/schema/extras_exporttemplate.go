package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/extras"
	"github.com/inventory/inventory/ent/schema/api"
)

// ExportTemplate is extras.ExportTemplate: a Jinja2 template that renders
// a filtered list of objects (?export=<name> on the list endpoint of any
// of its object types).
type ExportTemplate struct{ ent.Schema }

func (ExportTemplate) Mixin() []ent.Mixin {
	// NetBox's ExportTemplateSerializer declares data_file read-only.
	return []ent.Mixin{ChangeLogged{}, Owned{}, SyncedData{FileReadOnly: true}}
}

func (ExportTemplate) Fields() []ent.Field {
	return append([]ent.Field{
		field.Strings("object_types").Annotations(api.Field{Kind: "content-types", ObjectTypes: "export_templates"}),
		field.String("name").MaxRuneLen(100).NotEmpty(),
		field.String("description").MaxRuneLen(200).Default(""),
	}, RenderTemplateFields()...)
}

// Hooks: as a config template's, and the name "table" is reserved.
func (ExportTemplate) Hooks() []ent.Hook {
	return append([]ent.Hook{extras.SyncedDataHooks("template_code")}, extras.TemplateHooks("extras_exporttemplate", false)...)
}

func (ExportTemplate) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "extras_exporttemplate"},
		api.Model{
			App: "extras", Path: "export-templates", Verbose: "export template",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "object_types", "name", "description",
				"environment_params", "template_code", "mime_type", "file_name", "file_extension", "as_attachment",
				"data_source", "data_path", "data_file", "data_synced", "owner", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "name", "description"},
			Display:  "{name}",
			Search:   []string{"name", "description"},
			Ordering: []string{"name"},
			Filters: []api.Filter{
				{Name: "object_type", Kind: "content-types-contains", Column: "object_types"},
			},
		},
	}
}
