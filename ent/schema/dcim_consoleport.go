package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// ConsolePort is dcim.ConsolePort: a device's console port.
type ConsolePort struct{ ent.Schema }

func (ConsolePort) Mixin() []ent.Mixin { return append(ComponentMixins(), PathEndpoint{}) }

// ConsolePortSpeed are the speeds of console and console server ports.
var ConsolePortSpeed = []api.Choice{{Value: 1200, Label: "1200 bps"}, {Value: 2400, Label: "2400 bps"},
	{Value: 4800, Label: "4800 bps"}, {Value: 9600, Label: "9600 bps"}, {Value: 19200, Label: "19.2 kbps"},
	{Value: 38400, Label: "38.4 kbps"}, {Value: 57600, Label: "57.6 kbps"}, {Value: 115200, Label: "115.2 kbps"}}

func (ConsolePort) Fields() []ent.Field {
	return []ent.Field{
		field.String("type").MaxRuneLen(50).Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: dtConsolePortType}),
		field.Int("speed").Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: ConsolePortSpeed}),
	}
}

func (ConsolePort) Hooks() []ent.Hook { return dcim.ComponentHooks("dcim_consoleport") }

func (ConsolePort) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_consoleport"},
		api.Model{
			App: "dcim", Path: "console-ports", Verbose: "console port",
			Fields:    componentFields(true, "type", "speed"),
			Endpoints: []api.Endpoint{traceEndpoint("TraceConsolePort")},
			Empty:     componentEmpty(true, nil),
		},
	}
}
