package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"

	"github.com/inventory/inventory/ent/schema/api"
)

// WirelessLANGroup is wireless.WirelessLANGroup, a tree of groups of
// wireless LANs (NetBox's NestedGroupModel, as regions). Unlike regions,
// its name and slug are unique across the whole tree and the name sorts
// naturally (NetBox declares both unique=True, name ci_natural_sort).
type WirelessLANGroup struct{ ent.Schema }

func (WirelessLANGroup) Mixin() []ent.Mixin { return NaturalNestedGroupMixins() }

func (WirelessLANGroup) Edges() []ent.Edge {
	return []ent.Edge{ParentEdge(WirelessLANGroup.Type)}
}

func (WirelessLANGroup) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "wireless_wirelesslangroup"},
		api.Model{
			App: "wireless", Path: "wireless-lan-groups", Verbose: "wireless LAN group",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"parent": nil},
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "parent", "description", "tags",
				"custom_fields", "created", "last_updated", "wirelesslan_count", "owner", "comments", "_depth"},
			Brief:    []string{"id", "url", "display", "name", "slug", "description", "wirelesslan_count", "_depth"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description", "comments"},
			Ordering: []string{"name"},
			Unique: []api.Unique{
				{Fields: []string{"parent", "name"}},
				{Fields: []string{"name"}},
				{Fields: []string{"slug"}},
			},
			// NetBox annotates the count over the subtree
			// (add_related_count, cumulative).
			Counts: map[string]api.Count{
				"wirelesslan_count": {Model: "wireless.wirelesslan", Column: "group_id", Cumulative: true},
			},
		},
	}
}
