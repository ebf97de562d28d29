package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// FrontPortTemplate is dcim.FrontPortTemplate: rear_ports maps its positions to
// positions of rear port templates of the same parent.
type FrontPortTemplate struct{ ent.Schema }

func (FrontPortTemplate) Mixin() []ent.Mixin { return ComponentTemplateMixins(true) }

func (FrontPortTemplate) Fields() []ent.Field {
	return []ent.Field{
		field.String("type").MaxRuneLen(50).Annotations(api.Field{Kind: "choice", Choices: dtPortType}),
		field.String("color").MaxRuneLen(6).Default("").Annotations(api.Field{Kind: "color"}),
		field.Int("positions").Default(1).Min(1).Max(1024).Annotations(api.Field{Min: api.Int(1), Max: api.Int(1024)}),
		// rear_ports: NetBox 4.6's port mappings seen from this side.
		field.JSON("mappings", []any{}).Default([]any{}).Annotations(api.Field{API: "rear_ports", Kind: "json"}),
	}
}

func (FrontPortTemplate) Hooks() []ent.Hook { return dcim.FrontPortTemplateHooks() }

func (FrontPortTemplate) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_frontporttemplate"},
		api.Model{
			App: "dcim", Path: "front-port-templates", Verbose: "front port template",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults: map[string]any{"device_type": nil, "module_type": nil},
			Fields:   []string{"id", "url", "display", "device_type", "module_type", "name", "label", "type", "color", "positions", "rear_ports", "description", "created", "last_updated"},
			Filters:  frontPortMappingFilters(),
			Instantiate: &api.Instantiate{Into: "dcim.frontport", Resolve: []string{"name", "label"},
				Copy:  []string{"type", "color", "positions"},
				Lists: []api.ListRef{{Field: "rear_ports", Key: "rear_port", Of: "dcim.rearporttemplate"}}},
		},
	}
}
