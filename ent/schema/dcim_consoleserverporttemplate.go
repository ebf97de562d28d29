package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// ConsoleServerPortTemplate is dcim.ConsoleServerPortTemplate.
type ConsoleServerPortTemplate struct{ ent.Schema }

func (ConsoleServerPortTemplate) Mixin() []ent.Mixin { return ComponentTemplateMixins(true) }

func (ConsoleServerPortTemplate) Fields() []ent.Field {
	return []ent.Field{
		field.String("type").MaxRuneLen(50).Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: dtConsolePortType}),
	}
}

func (ConsoleServerPortTemplate) Hooks() []ent.Hook {
	return dcim.TemplateHooks("dcim_consoleserverporttemplate", true)
}

func (ConsoleServerPortTemplate) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_consoleserverporttemplate"},
		api.Model{
			App: "dcim", Path: "console-server-port-templates", Verbose: "console server port template",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"device_type": nil, "module_type": nil},
			Fields:      []string{"id", "url", "display", "device_type", "module_type", "name", "label", "type", "description", "created", "last_updated"},
			Instantiate: &api.Instantiate{Into: "dcim.consoleserverport", Resolve: []string{"name", "label"}, Copy: []string{"type"}},
		},
	}
}
