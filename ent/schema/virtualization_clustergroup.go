package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"

	"github.com/inventory/inventory/ent/schema/api"
)

// ClusterGroup is virtualization.ClusterGroup: an organizational group of
// clusters (a region, a customer). VLAN groups may be scoped to it.
type ClusterGroup struct{ ent.Schema }

func (ClusterGroup) Mixin() []ent.Mixin { return OrganizationalMixins() }

func (ClusterGroup) Edges() []ent.Edge { return []ent.Edge{configContextsOf("cluster_groups")} }

func (ClusterGroup) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "virtualization_clustergroup"},
		api.Model{
			App: "virtualization", Path: "cluster-groups", Verbose: "cluster group",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "description", "owner", "comments",
				"tags", "custom_fields", "created", "last_updated", "cluster_count"},
			Brief:    []string{"id", "url", "display", "name", "slug", "description", "cluster_count"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description", "comments"},
			Ordering: []string{"name"},
			Counts:   map[string]api.Count{"cluster_count": {Model: "virtualization.cluster", Column: "group_id"}},
		},
	}
}
