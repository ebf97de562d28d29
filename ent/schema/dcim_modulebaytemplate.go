package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// ModuleBayTemplate is dcim.ModuleBayTemplate.
type ModuleBayTemplate struct{ ent.Schema }

func (ModuleBayTemplate) Mixin() []ent.Mixin { return ComponentTemplateMixins(true) }

func (ModuleBayTemplate) Fields() []ent.Field {
	return []ent.Field{
		field.String("position").MaxRuneLen(30).Default(""),
		field.Bool("enabled").Default(true),
	}
}

func (ModuleBayTemplate) Hooks() []ent.Hook {
	return dcim.TemplateHooks("dcim_modulebaytemplate", true)
}

func (ModuleBayTemplate) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_modulebaytemplate"},
		api.Model{
			App: "dcim", Path: "module-bay-templates", Verbose: "module bay template",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults: map[string]any{"device_type": nil, "module_type": nil},
			Fields:   []string{"id", "url", "display", "device_type", "module_type", "name", "label", "position", "enabled", "description", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "name", "enabled", "description"},
			Instantiate: &api.Instantiate{Into: "dcim.modulebay", Resolve: []string{"name", "label", "position"},
				Copy: []string{"enabled"}},
		},
	}
}
