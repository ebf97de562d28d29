package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// DeviceBayTemplate is dcim.DeviceBayTemplate: only on device types whose subdevice
// role is parent.
type DeviceBayTemplate struct{ ent.Schema }

func (DeviceBayTemplate) Mixin() []ent.Mixin { return ComponentTemplateMixins(false) }

func (DeviceBayTemplate) Fields() []ent.Field {
	return []ent.Field{
		field.Bool("enabled").Default(true),
	}
}

func (DeviceBayTemplate) Hooks() []ent.Hook { return dcim.DeviceBayTemplateHooks() }

func (DeviceBayTemplate) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_devicebaytemplate"},
		api.Model{
			App: "dcim", Path: "device-bay-templates", Verbose: "device bay template",
			Fields: []string{"id", "url", "display", "device_type", "name", "label", "enabled", "description", "created", "last_updated"},
			Brief:  []string{"id", "url", "display", "name", "enabled", "description"},
			Instantiate: &api.Instantiate{Into: "dcim.devicebay", Resolve: []string{"name", "label"},
				Copy: []string{"enabled"}},
		},
	}
}
