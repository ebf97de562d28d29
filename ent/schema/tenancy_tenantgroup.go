package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/schema/api"
)

// TenantGroup is tenancy.TenantGroup, a tree of tenant groups.
type TenantGroup struct{ ent.Schema }

func (TenantGroup) Mixin() []ent.Mixin { return NaturalNestedGroupMixins() }

func (TenantGroup) Edges() []ent.Edge {
	return []ent.Edge{configContextsOf("tenant_groups"), ParentEdge(TenantGroup.Type)}
}

func (TenantGroup) Indexes() []ent.Index {
	return []ent.Index{index.Fields("name").Unique(), index.Fields("slug").Unique()}
}

func (TenantGroup) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "tenancy_tenantgroup"},
		api.Model{
			App: "tenancy", Path: "tenant-groups", Verbose: "tenant group",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "parent", "description", "tags",
				"custom_fields", "created", "last_updated", "tenant_count", "owner", "comments", "_depth"},
			Brief:    []string{"id", "url", "display", "name", "slug", "description", "tenant_count", "_depth"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description", "comments"},
			Ordering: []string{"name"},
			Unique:   []api.Unique{{Fields: []string{"name"}}, {Fields: []string{"slug"}}},
			Counts:   map[string]api.Count{"tenant_count": {Model: "tenancy.tenant", Column: "group_id", Cumulative: true}},
		},
	}
}
