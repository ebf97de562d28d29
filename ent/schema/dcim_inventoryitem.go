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

// InventoryItem is dcim.InventoryItem: a tree of hardware items of a
// device, optionally standing for one of the device's components.
type InventoryItem struct{ ent.Schema }

func (InventoryItem) Mixin() []ent.Mixin { return DeviceComponentMixins(false) }

// InventoryItemStatus are the choices of an inventory item's status.
var InventoryItemStatus = api.C("offline", "Offline", "active", "Active", "planned", "Planned", "staged", "Staged",
	"failed", "Failed", "decommissioning", "Decommissioning")

func (InventoryItem) Fields() []ent.Field {
	return []ent.Field{
		// parent is rendered as a bare id (NetBox's PrimaryKeyRelatedField):
		// a plain column whose tree the resource layer keeps (Tree) and
		// whose rows go with their parent (OnDelete with Target).
		field.Int("parent_id").Optional().Nillable().
			Annotations(api.Field{API: "parent", Target: "dcim.inventoryitem", OnDelete: api.Cascade, NoFilter: true}),
		field.Int("_depth").Default(0).Annotations(api.Field{ReadOnly: true}),
		field.String("status").MaxRuneLen(50).Default("active").
			Annotations(api.Field{Kind: "choice", Choices: InventoryItemStatus}),
		FKField("role"),
		FKField("manufacturer"),
		field.String("part_id").MaxRuneLen(50).Default(""),
		field.String("serial").MaxRuneLen(50).Default(""),
		field.String("asset_tag").MaxRuneLen(50).Optional().Nillable().Unique(),
		field.Bool("discovered").Default(false),
		field.String("component_type").Optional().Nillable().Annotations(api.Field{Types: inventoryItemComponentTypes, OnDelete: api.Cascade}),
		field.Int("component_id").Optional().Nillable(),
	}
}

func (InventoryItem) Edges() []ent.Edge {
	return []ent.Edge{
		FK("role", InventoryItemRole.Type, api.Protect),
		FK("manufacturer", Manufacturer.Type, api.Protect),
	}
}

func (InventoryItem) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("device_id", "parent_id", "name").Unique(),
		index.Fields("component_type", "component_id"),
	}
}

func (InventoryItem) Hooks() []ent.Hook { return dcim.InventoryItemHooks() }

func (InventoryItem) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_inventoryitem"},
		api.Model{
			App: "dcim", Path: "inventory-items", Verbose: "inventory item",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults: map[string]any{"parent": nil, "manufacturer": nil},
			Fields: []string{"id", "url", "display_url", "display", "device", "parent", "name", "label", "status", "role",
				"manufacturer", "part_id", "serial", "asset_tag", "discovered", "description", "component_type",
				"component_id", "component", "owner", "tags", "custom_fields", "created", "last_updated", "_depth"},
			Brief:    []string{"id", "url", "display", "device", "name", "description", "_depth"},
			Search:   []string{"name", "label", "description", "part_id", "serial", "asset_tag"},
			Ordering: []string{"device", "parent", "name"},
			Tree:     true,
			// InventoryItem.clean()'s own words (a descendant made the
			// parent gets the tree's message: NetBox's MPTT raises
			// InvalidMove there, a 500).
			SelfParent: "Cannot assign self as parent.",
			Unique:     []api.Unique{{Fields: []string{"device", "parent", "name"}}},
			Filters: []api.Filter{
				{Name: "parent_id", Kind: "integer", Column: "parent_id"},
				{Name: "component_type", Kind: "string", Column: "component_type", Lookups: []string{}},
			},
			NoFilters: []string{"ancestor", "ancestor_id"},
		},
	}
}

// inventoryItemComponentTypes are the components an inventory item may
// stand for (NetBox's MODULAR_COMPONENT_MODELS).
var inventoryItemComponentTypes = []string{"dcim.consoleport", "dcim.consoleserverport", "dcim.frontport",
	"dcim.interface", "dcim.modulebay", "dcim.poweroutlet", "dcim.powerport", "dcim.rearport"}
