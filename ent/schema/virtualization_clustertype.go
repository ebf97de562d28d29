package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"

	"github.com/inventory/inventory/ent/schema/api"
)

// ClusterType is virtualization.ClusterType: the technology of clusters
// ("VMware vSphere", "Proxmox").
type ClusterType struct{ ent.Schema }

func (ClusterType) Mixin() []ent.Mixin { return OrganizationalMixins() }

func (ClusterType) Edges() []ent.Edge { return []ent.Edge{configContextsOf("cluster_types")} }

func (ClusterType) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "virtualization_clustertype"},
		api.Model{
			App: "virtualization", Path: "cluster-types", Verbose: "cluster type",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "description", "owner", "comments",
				"tags", "custom_fields", "created", "last_updated", "cluster_count"},
			Brief:    []string{"id", "url", "display", "name", "slug", "description", "cluster_count"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description", "comments"},
			Ordering: []string{"name"},
			Counts:   map[string]api.Count{"cluster_count": {Model: "virtualization.cluster", Column: "type_id"}},
		},
	}
}
