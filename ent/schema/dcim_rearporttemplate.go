package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// RearPortTemplate is dcim.RearPortTemplate: front_ports maps its positions to
// positions of front port templates of the same parent.
type RearPortTemplate struct{ ent.Schema }

func (RearPortTemplate) Mixin() []ent.Mixin { return ComponentTemplateMixins(true) }

func (RearPortTemplate) Fields() []ent.Field {
	return []ent.Field{
		field.String("type").MaxRuneLen(50).Annotations(api.Field{Kind: "choice", Choices: dtPortType}),
		field.String("color").MaxRuneLen(6).Default("").Annotations(api.Field{Kind: "color"}),
		field.Int("positions").Default(1).Min(1).Max(1024).Annotations(api.Field{Min: api.Int(1), Max: api.Int(1024)}),
		// front_ports: NetBox 4.6's port mappings seen from this side.
		field.JSON("mappings", []any{}).Default([]any{}).Annotations(api.Field{API: "front_ports", Kind: "json"}),
	}
}

func (RearPortTemplate) Hooks() []ent.Hook { return dcim.RearPortTemplateHooks() }

func (RearPortTemplate) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_rearporttemplate"},
		api.Model{
			App: "dcim", Path: "rear-port-templates", Verbose: "rear port template",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"device_type": nil, "module_type": nil},
			Fields:      []string{"id", "url", "display", "device_type", "module_type", "name", "label", "type", "color", "positions", "front_ports", "description", "created", "last_updated"},
			Filters:     []api.Filter{{Name: "front_port_id", Kind: "json-list-int", Column: "front_ports", Attr: "front_port"}},
			Instantiate: &api.Instantiate{Into: "dcim.rearport", Resolve: []string{"name", "label"}, Copy: []string{"type", "color", "positions"}},
		},
	}
}
