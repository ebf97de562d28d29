package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"

	"github.com/inventory/inventory/ent/schema/api"
)

// SiteGroup is dcim.SiteGroup, a tree of site groups.
type SiteGroup struct{ ent.Schema }

func (SiteGroup) Mixin() []ent.Mixin { return NestedGroupMixins() }

func (SiteGroup) Edges() []ent.Edge {
	return []ent.Edge{configContextsOf("site_groups"), ParentEdge(SiteGroup.Type)}
}

func (SiteGroup) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_sitegroup"},
		api.Model{
			App: "dcim", Path: "site-groups", Verbose: "site group",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"parent": nil},
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "parent", "description", "tags",
				"custom_fields", "created", "last_updated", "site_count", "prefix_count", "owner", "comments", "_depth"},
			Brief:    []string{"id", "url", "display", "name", "slug", "description", "site_count", "_depth"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description", "comments"},
			Ordering: []string{"name"},
			Unique:   nestedGroupUnique("site group"),
			// As on regions: site_count cumulative, prefix_count direct.
			Counts: map[string]api.Count{"site_count": {Model: "dcim.site", Column: "group_id", Cumulative: true},
				"prefix_count": {Model: "ipam.prefix", Column: "_site_group_id"}},
		},
	}
}
