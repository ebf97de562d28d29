package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"

	"github.com/inventory/inventory/ent/schema/api"
)

// Region is dcim.Region, a tree of geographic regions.
type Region struct{ ent.Schema }

func (Region) Mixin() []ent.Mixin { return NestedGroupMixins() }

func (Region) Edges() []ent.Edge {
	return []ent.Edge{configContextsOf("regions"), ParentEdge(Region.Type)}
}

func (Region) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_region"},
		api.Model{
			App: "dcim", Path: "regions", Verbose: "region",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"parent": nil},
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "parent", "description", "tags",
				"custom_fields", "created", "last_updated", "site_count", "prefix_count", "owner", "comments", "_depth"},
			Brief:    []string{"id", "url", "display", "name", "slug", "description", "site_count", "_depth"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description", "comments"},
			Ordering: []string{"name"},
			Unique:   nestedGroupUnique("region"),
			// site_count is cumulative (NetBox annotates it over the subtree);
			// prefix_count is RelatedObjectCountField('_prefixes'): prefixes
			// whose cached _region is this very region.
			Counts: map[string]api.Count{"site_count": {Model: "dcim.site", Column: "region_id", Cumulative: true},
				"prefix_count": {Model: "ipam.prefix", Column: "_region_id"}},
		},
	}
}

// nestedGroupUnique is NetBox's NestedGroupModel constraint set: name and
// slug unique among siblings, and among roots. The roots' constraints'
// own messages ("A top-level region with this name already exists.") are
// Django's, never seen through the API: DRF's UniqueValidator on the
// field answers first, with the model field's ("region with this name
// already exists."; resource.checkUnique).
func nestedGroupUnique(verbose string) []api.Unique {
	_ = verbose
	return []api.Unique{
		{Fields: []string{"parent", "name"}},
		{Fields: []string{"name"}, WhenNull: []string{"parent"}},
		{Fields: []string{"parent", "slug"}},
		{Fields: []string{"slug"}, WhenNull: []string{"parent"}},
	}
}
