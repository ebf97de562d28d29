package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// InterfaceTemplate is dcim.InterfaceTemplate: a bridge is another interface
// template of the same parent.
type InterfaceTemplate struct{ ent.Schema }

func (InterfaceTemplate) Mixin() []ent.Mixin { return ComponentTemplateMixins(true) }

func (InterfaceTemplate) Fields() []ent.Field {
	return []ent.Field{
		field.String("type").MaxRuneLen(50).Annotations(api.Field{Kind: "choice", Choices: dtInterfaceType}),
		field.Bool("enabled").Default(true),
		field.Bool("mgmt_only").Default(false),
		FKField("bridge"),
		field.String("poe_mode").MaxRuneLen(50).Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: dtInterfacePoEMode}),
		field.String("poe_type").MaxRuneLen(50).Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: dtInterfacePoEType}),
		field.String("rf_role").MaxRuneLen(30).Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: dtWirelessRole}),
	}
}

func (InterfaceTemplate) Edges() []ent.Edge {
	return []ent.Edge{
		// SelfFK, rendered as NetBox's NestedInterfaceTemplateSerializer.
		edge.To("bridge_of", InterfaceTemplate.Type).Annotations(entsql.OnDelete(entsql.SetNull)).
			From("bridge").Unique().Field("bridge_id").
			Annotations(api.Field{OnDelete: api.SetNull, Nested: []string{"id", "url", "display", "name"}}),
	}
}

func (InterfaceTemplate) Hooks() []ent.Hook { return dcim.InterfaceTemplateHooks() }

func (InterfaceTemplate) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_interfacetemplate"},
		api.Model{
			App: "dcim", Path: "interface-templates", Verbose: "interface template",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults: map[string]any{"device_type": nil, "module_type": nil},
			Fields:   []string{"id", "url", "display", "device_type", "module_type", "name", "label", "type", "enabled", "mgmt_only", "description", "bridge", "poe_mode", "poe_type", "rf_role", "created", "last_updated"},
			Instantiate: &api.Instantiate{Into: "dcim.interface", Resolve: []string{"name", "label"},
				Copy: []string{"type", "enabled", "mgmt_only", "poe_mode", "poe_type", "rf_role"}, Refs: []string{"bridge"}},
		},
	}
}
