package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/extras"
	"github.com/inventory/inventory/ent/schema/api"
)

// ConfigTemplate is extras.ConfigTemplate: a Jinja2 template that renders
// a device's or virtual machine's configuration (render-config), or any
// context given to its render endpoint.
type ConfigTemplate struct{ ent.Schema }

func (ConfigTemplate) Mixin() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, Owned{}, SyncedData{}}
}

func (ConfigTemplate) Fields() []ent.Field {
	return append([]ent.Field{
		field.String("name").MaxRuneLen(100).NotEmpty(),
		field.String("description").MaxRuneLen(200).Default(""),
	}, append(RenderTemplateFields(),
		field.Bool("debug").Default(false),
		// The template follows its data file on each sync of the source
		// (package datasources), as NetBox's AutoSyncRecord.
		field.Bool("auto_sync_enabled").Default(false),
	)...)
}

// RenderTemplateFields are NetBox's RenderTemplateMixin: the template and
// how its output is served.
func RenderTemplateFields() []ent.Field {
	return []ent.Field{
		field.JSON("environment_params", map[string]any{}).Optional().Default(map[string]any{}).
			Annotations(api.Field{Kind: "json"}),
		field.Text("template_code").NotEmpty(),
		field.String("mime_type").MaxRuneLen(50).Default(""),
		field.String("file_name").MaxRuneLen(200).Default(""),
		field.String("file_extension").MaxRuneLen(15).Default(""),
		field.Bool("as_attachment").Default(true),
	}
}

// Hooks: environment_params as NetBox allows them, and a template that
// parses (NetBox finds out only when rendering).
// The data file's content is copied first, so that it is what is checked.
func (ConfigTemplate) Hooks() []ent.Hook {
	return append([]ent.Hook{extras.SyncedDataHooks("template_code")}, extras.TemplateHooks("extras_configtemplate", true)...)
}

func (ConfigTemplate) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "extras_configtemplate"},
		api.Model{
			App: "extras", Path: "config-templates", Verbose: "config template",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "description", "environment_params",
				"template_code", "mime_type", "file_name", "file_extension", "as_attachment", "debug", "data_source",
				"data_path", "data_file", "auto_sync_enabled", "data_synced", "owner", "tags", "created", "last_updated"},
			Brief:     []string{"id", "url", "display", "name", "description"},
			Display:   "{name}",
			Search:    []string{"name", "description"},
			Ordering:  []string{"name"},
			Endpoints: []api.Endpoint{configTemplateRender()},
		},
	}
}

// configTemplateRender is POST config-templates/<id>/render/: the template
// rendered with the body as its context (NetBox's ConfigTemplateViewSet
// render action, which needs the "render" and "view" permissions).
func configTemplateRender() api.Endpoint {
	return api.Endpoint{Name: "render", Detail: true, Ops: []api.Op{{
		Method: "POST", Permission: "render", Func: api.Func(api.LogicPkg("extras"), "RenderConfigTemplate"),
		Summary:     "Render the config template with the context given",
		Description: "The body is a mapping of context variables. The answer is the rendered content as text/plain when the client asks for it, else {configtemplate, content}.",
		Request:     "object", Response: "RenderedConfig", Errors: []int{400, 404, 406},
	}}, Shapes: []api.Shape{renderedConfigShape}}
}

// renderConfig is POST <devices|virtual-machines>/<id>/render-config/
// (NetBox's RenderConfigMixin: the "render_config" and "view" permissions).
func renderConfig(handler string) api.Endpoint {
	return api.Endpoint{Name: "render-config", Detail: true, Ops: []api.Op{{
		Method: "POST", Permission: "render_config", Func: api.Func(api.LogicPkg("extras"), handler),
		Summary:     "Render the object's config template",
		Description: "The template is config_template_id if given, else the object's, its role's or its platform's; the context is the object's config context, the other keys of the body, and the object itself. The answer is text/plain when the client asks for it, else {configtemplate, content}.",
		Request:     "object", Response: "RenderedConfig", Errors: []int{400, 404, 406},
	}}}
}

// renderedConfigShape is NetBox's RenderedConfigSerializer.
var renderedConfigShape = api.Shape{Name: "RenderedConfig", Props: []api.Prop{
	{Name: "configtemplate", Type: "object"}, {Name: "content", Type: "string"},
}}
