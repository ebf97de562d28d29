package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// ConsolePortTemplate is dcim.ConsolePortTemplate: a console port that devices of a
// device type (or modules of a module type) get.
type ConsolePortTemplate struct{ ent.Schema }

func (ConsolePortTemplate) Mixin() []ent.Mixin { return ComponentTemplateMixins(true) }

func (ConsolePortTemplate) Fields() []ent.Field {
	return []ent.Field{
		field.String("type").MaxRuneLen(50).Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: dtConsolePortType}),
	}
}

func (ConsolePortTemplate) Hooks() []ent.Hook {
	return dcim.TemplateHooks("dcim_consoleporttemplate", true)
}

func (ConsolePortTemplate) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_consoleporttemplate"},
		api.Model{
			App: "dcim", Path: "console-port-templates", Verbose: "console port template",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"device_type": nil, "module_type": nil},
			Fields:      []string{"id", "url", "display", "device_type", "module_type", "name", "label", "type", "description", "created", "last_updated"},
			Instantiate: &api.Instantiate{Into: "dcim.consoleport", Resolve: []string{"name", "label"}, Copy: []string{"type"}},
		},
	}
}
