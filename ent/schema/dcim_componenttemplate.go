package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"entgo.io/ent/schema/mixin"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// ComponentTemplate is what every component template shares: NetBox's
// ComponentTemplateModel (a device type, name, label, description) and,
// with Modular, ModularComponentTemplateModel (a device type or a module
// type). Templates are change-logged but have no tags or custom fields.
// Names are unique per parent (per device type and parent item for
// inventory item templates, Tree); deleting the parent type deletes them.
type ComponentTemplate struct {
	mixin.Schema
	Modular bool
	Tree    bool
}

// ComponentTemplateMixins are the mixins of a component template schema.
func ComponentTemplateMixins(modular bool) []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, ComponentTemplate{Modular: modular}}
}

func (c ComponentTemplate) Fields() []ent.Field {
	fs := []ent.Field{field.Int("device_type_id")}
	if c.Modular {
		fs = []ent.Field{FKField("device_type"), FKField("module_type")}
	}
	return append(fs, NaturalName(64), NaturalKeyField("name"),
		field.String("label").MaxRuneLen(64).Default(""),
		field.String("description").MaxRuneLen(200).Default(""))
}

func (c ComponentTemplate) Edges() []ent.Edge {
	if !c.Modular {
		return []ent.Edge{FKRequired("device_type", DeviceType.Type, api.Cascade)}
	}
	return []ent.Edge{
		FK("device_type", DeviceType.Type, api.Cascade),
		FK("module_type", ModuleType.Type, api.Cascade),
	}
}

func (c ComponentTemplate) Indexes() []ent.Index {
	switch {
	case c.Tree:
		return []ent.Index{index.Fields("device_type_id", "parent_id", "name").Unique()}
	case c.Modular:
		return []ent.Index{index.Fields("device_type_id", "name").Unique(), index.Fields("module_type_id", "name").Unique()}
	}
	return []ent.Index{index.Fields("device_type_id", "name").Unique()}
}

func (c ComponentTemplate) Annotations() []schema.Annotation {
	m := api.Model{
		GenericOnly: true,
		Brief:       []string{"id", "url", "display", "name", "description"},
		Search:      []string{"name", "label", "description"},
		DisplayFunc: api.Func(api.LogicPkg("dcim"), "TemplateDisplay"),
		Ordering:    []string{"device_type", "name"},
		Unique:      []api.Unique{{Fields: []string{"device_type", "name"}}},
		// NetBox's ComponentTemplateModel.to_objectchange() (modular
		// templates: the module type when there is no device type).
		ChangeRelated: []string{"device_type", "module_type"},
	}
	if c.Modular {
		m.Ordering = []string{"device_type", "module_type", "name"}
		m.Unique = append(m.Unique, api.Unique{Fields: []string{"module_type", "name"}})
	}
	// What instantiates a template: a device of its device type, and for
	// modular templates a module of its module type (NetBox's Device.save
	// and Module.save). The template schema declares what it becomes
	// (api.Instantiate.Into and its fields); these are the owners.
	m.Instantiate = &api.Instantiate{Sources: []api.Source{
		{Template: "device_type", Owner: "dcim.device", Match: "device_type", Set: map[string]string{"device": "id",
			"_site_id": "site", "_location_id": "location", "_rack_id": "rack"}},
	}}
	if c.Modular {
		m.Instantiate.Sources = append(m.Instantiate.Sources, api.Source{
			Template: "module_type", Owner: "dcim.module", Match: "module_type",
			Set: map[string]string{"device": "device", "module": "id", "parent_id": "module_bay",
				"_site_id": "device.site", "_location_id": "device.location", "_rack_id": "device.rack"},
			Token: dcim.ModuleToken, TokenValue: "module_bay.position", TokenUp: "module_bay.module",
			Replicate: "replicate_components", Adopt: "adopt_components", AdoptScope: "module", AdoptWithin: "device",
		})
	}
	if c.Tree {
		m.Ordering = []string{"device_type", "parent", "name"}
		m.Unique = []api.Unique{{Fields: []string{"device_type", "parent", "name"}}}
	}
	return []schema.Annotation{m}
}

// templateFields is the complete representation of a modular template:
// the common head, the model's own fields, the common tail.
func templateFields(own ...string) []string {
	head := []string{"id", "url", "display", "device_type", "module_type", "name", "label"}
	return append(append(head, own...), "description", "created", "last_updated")
}
