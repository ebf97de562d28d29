package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// InventoryItemTemplate is dcim.InventoryItemTemplate: a tree of items per device
// type, optionally tied to another template (component).
type InventoryItemTemplate struct{ ent.Schema }

func (InventoryItemTemplate) Mixin() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, ComponentTemplate{Tree: true}}
}

func (InventoryItemTemplate) Fields() []ent.Field {
	return []ent.Field{
		// parent is rendered as a bare id (NetBox's repr): a plain column
		// whose tree the resource layer keeps (Tree) and whose rows go with
		// their parent (OnDelete with Target).
		field.Int("parent_id").Optional().Nillable().
			Annotations(api.Field{API: "parent", Target: "dcim.inventoryitemtemplate", OnDelete: api.Cascade, NoFilter: true}),
		field.Int("_depth").Default(0).Annotations(api.Field{ReadOnly: true}),
		FKField("role"),
		FKField("manufacturer"),
		field.String("part_id").MaxRuneLen(50).Default(""),
		field.String("component_type").Optional().Nillable().Annotations(api.Field{Types: inventoryComponentTypes}),
		field.Int("component_id").Optional().Nillable(),
	}
}

func (InventoryItemTemplate) Edges() []ent.Edge {
	return []ent.Edge{
		FK("role", InventoryItemRole.Type, api.Protect),
		FK("manufacturer", Manufacturer.Type, api.Protect),
	}
}

func (InventoryItemTemplate) Hooks() []ent.Hook { return dcim.InventoryItemTemplateHooks() }

func (InventoryItemTemplate) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_inventoryitemtemplate"},
		api.Model{
			App: "dcim", Path: "inventory-item-templates", Verbose: "inventory item template",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:  map[string]any{"parent": nil, "manufacturer": nil},
			Fields:    []string{"id", "url", "display", "device_type", "parent", "name", "label", "role", "manufacturer", "part_id", "description", "component_type", "component_id", "component", "created", "last_updated", "_depth"},
			Brief:     []string{"id", "url", "display", "name", "description", "_depth"},
			Tree:      true,
			Filters:   []api.Filter{{Name: "parent_id", Kind: "integer", Column: "parent_id"}},
			NoFilters: []string{"ancestor", "ancestor_id"},
			Instantiate: &api.Instantiate{Into: "dcim.inventoryitem", Resolve: []string{"name", "label"},
				Copy: []string{"role", "manufacturer", "part_id"}, Refs: []string{"parent"}, Generic: []string{"component"}},
		},
	}
}

// inventoryComponentTypes are the templates an inventory item template may
// stand for (NetBox's MODULAR_COMPONENT_TEMPLATE_MODELS).
var inventoryComponentTypes = []string{"dcim.consoleporttemplate", "dcim.consoleserverporttemplate",
	"dcim.frontporttemplate", "dcim.interfacetemplate", "dcim.poweroutlettemplate", "dcim.powerporttemplate",
	"dcim.rearporttemplate"}
