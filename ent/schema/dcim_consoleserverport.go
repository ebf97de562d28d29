package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// ConsoleServerPort is dcim.ConsoleServerPort: a console server's port.
type ConsoleServerPort struct{ ent.Schema }

func (ConsoleServerPort) Mixin() []ent.Mixin { return append(ComponentMixins(), PathEndpoint{}) }

func (ConsoleServerPort) Fields() []ent.Field {
	return []ent.Field{
		field.String("type").MaxRuneLen(50).Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: dtConsolePortType}),
		field.Int("speed").Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: ConsolePortSpeed}),
	}
}

func (ConsoleServerPort) Hooks() []ent.Hook { return dcim.ComponentHooks("dcim_consoleserverport") }

func (ConsoleServerPort) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_consoleserverport"},
		api.Model{
			App: "dcim", Path: "console-server-ports", Verbose: "console server port",
			Fields:    componentFields(true, "type", "speed"),
			Endpoints: []api.Endpoint{traceEndpoint("TraceConsoleServerPort")},
			Empty:     componentEmpty(true, nil),
		},
	}
}
