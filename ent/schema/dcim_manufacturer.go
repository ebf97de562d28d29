package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// Manufacturer is dcim.Manufacturer: the maker of device types, module
// types, rack types, platforms and inventory items.
type Manufacturer struct{ ent.Schema }

func (Manufacturer) Mixin() []ent.Mixin { return OrganizationalMixins() }

func (Manufacturer) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_manufacturer"},
		api.Model{
			App: "dcim", Path: "manufacturers", Verbose: "manufacturer",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "description", "owner",
				"comments", "tags", "custom_fields", "created", "last_updated", "devicetype_count",
				"moduletype_count", "inventoryitem_count", "platform_count"},
			Brief:    []string{"id", "url", "display", "name", "slug", "description"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description", "comments"},
			Ordering: []string{"name"},
			Empty:    map[string]any{"inventoryitem_count": 0},
			Counts: map[string]api.Count{"platform_count": {Model: "dcim.platform", Column: "manufacturer_id"},
				"devicetype_count": {Model: "dcim.devicetype", Column: "manufacturer_id"},
				"moduletype_count": {Model: "dcim.moduletype", Column: "manufacturer_id"}},
		},
	}
}

// Hooks: a renamed manufacturer renews the display cached on the devices
// of its types.
func (Manufacturer) Hooks() []ent.Hook { return dcim.ManufacturerHooks() }
