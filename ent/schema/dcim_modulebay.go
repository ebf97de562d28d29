package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// ModuleBay is dcim.ModuleBay: a slot of a device (or of a module in it)
// that takes one module.
type ModuleBay struct{ ent.Schema }

func (ModuleBay) Mixin() []ent.Mixin { return DeviceComponentMixins(true) }

func (ModuleBay) Fields() []ent.Field {
	return []ent.Field{
		field.String("position").MaxRuneLen(30).Default(""),
		field.Bool("enabled").Default(true),
		// parent is the bay of the module this bay came with (NetBox's
		// MPTT parent, not served): kept by the hook, gone with it.
		field.Int("parent_id").Optional().Nillable().
			Annotations(api.Field{Kind: "hidden", Target: "dcim.modulebay", OnDelete: api.Cascade}),
	}
}

func (ModuleBay) Hooks() []ent.Hook { return dcim.ModuleBayHooks() }

func (ModuleBay) Indexes() []ent.Index {
	return []ent.Index{index.Fields("device_id", "module_id", "name").Unique()}
}

func (ModuleBay) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_modulebay"},
		api.Model{
			// NetBox's ModuleSerializer(required=False, allow_null=True): writable
			// in its OPTIONS; a module is installed by creating it in the bay.
			Metadata: map[string]api.Meta{"installed_module": {Writable: true}},
			App:      "dcim", Path: "module-bays", Verbose: "module bay",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults: map[string]any{"module": nil},
			Fields: []string{"id", "url", "display_url", "display", "device", "module", "name", "label", "position",
				"enabled", "description", "installed_module", "owner", "tags", "custom_fields", "created", "last_updated",
				"_occupied"},
			Brief: []string{"id", "url", "display", "installed_module", "name", "enabled", "description", "_occupied"},
			// A module bay holds at most one module (Module.module_bay is
			// NetBox's OneToOneField).
			Reverse: map[string]api.Reverse{
				// ModuleSerializer(nested=True, fields=(id, url, display,
				// serial, description)).
				"installed_module": {Model: "dcim.module", Column: "module_bay_id",
					Nested: []string{"id", "url", "display", "serial", "description"}},
				"_occupied": {Model: "dcim.module", Column: "module_bay_id", Exists: true, OrNot: "enabled"},
			},
			// NetBox's only constraint: unique (device, module, name), so
			// two bays of the device itself (module null) may share a name.
			Unique: []api.Unique{{Fields: []string{"device", "module", "name"}}},
			Filters: []api.Filter{
				{Name: "parent_id", Kind: "integer", Column: "parent_id"},
				{Name: "installed_module_id", Kind: "reverse-id", Target: "dcim.module", Column: "module_bay_id"},
			},
		},
	}
}
