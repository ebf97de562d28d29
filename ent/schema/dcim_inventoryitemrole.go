package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/schema/api"
)

// InventoryItemRole is dcim.InventoryItemRole: the functional role of
// inventory items.
type InventoryItemRole struct{ ent.Schema }

func (InventoryItemRole) Mixin() []ent.Mixin { return OrganizationalMixins() }

func (InventoryItemRole) Fields() []ent.Field {
	return []ent.Field{
		field.String("color").MaxRuneLen(6).Default("9e9e9e").Annotations(api.Field{Kind: "color"}),
	}
}

func (InventoryItemRole) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_inventoryitemrole"},
		api.Model{
			App: "dcim", Path: "inventory-item-roles", Verbose: "inventory item role",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "color", "description", "owner",
				"comments", "tags", "custom_fields", "created", "last_updated", "inventoryitem_count"},
			Brief:    []string{"id", "url", "display", "name", "slug", "description", "inventoryitem_count"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description"},
			Ordering: []string{"name"},
			Counts:   map[string]api.Count{"inventoryitem_count": {Model: "dcim.inventoryitem", Column: "role_id"}},
		},
	}
}
