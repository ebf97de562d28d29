package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/virtualization"
	"github.com/inventory/inventory/ent/schema/api"
)

// Cluster is virtualization.Cluster: a pool of hosts (devices) running
// virtual machines, of a type, optionally in a group and scoped to a
// region, site group, site or location (a generic relation, with NetBox's
// cached scope _region, _site_group, _site and _location kept by the
// hooks, as prefixes keep theirs). allocated_vcpus, allocated_memory and
// allocated_disk are NetBox's annotations (the sums over the cluster's
// virtual machines), cached by the virtual machine hooks.
type Cluster struct{ ent.Schema }

func (Cluster) Mixin() []ent.Mixin { return PrimaryMixins() }

// ClusterStatus are the choices of a cluster's status.
var ClusterStatus = api.C("planned", "Planned", "staging", "Staging", "active", "Active",
	"decommissioning", "Decommissioning", "offline", "Offline")

func (Cluster) Fields() []ent.Field {
	return []ent.Field{
		NaturalName(100), NaturalKeyField("name"),
		field.Int("type_id"), FKField("group"),
		field.String("status").MaxRuneLen(50).Default("active").Annotations(api.Field{Kind: "choice", Choices: ClusterStatus}),
		FKField("tenant"),
		field.String("scope_type").Optional().Nillable().Annotations(api.Field{Types: virtualization.ClusterScopeTypes, OnDelete: api.Cascade}),
		field.Int("scope_id").Optional().Nillable(),
		field.Float("allocated_vcpus").Optional().Nillable().
			Annotations(api.Field{ReadOnly: true, Decimal: &api.Decimal{Digits: 8, Places: 2}}),
		field.Int("allocated_memory").Optional().Nillable().Annotations(api.Field{ReadOnly: true}),
		field.Int("allocated_disk").Optional().Nillable().Annotations(api.Field{ReadOnly: true}),
		CachedFK("_region", "dcim.region", api.SetNull),
		CachedFK("_site_group", "dcim.sitegroup", api.SetNull),
		CachedFK("_site", "dcim.site", api.Cascade),
		CachedFK("_location", "dcim.location", api.Cascade),
	}
}

func (Cluster) Edges() []ent.Edge {
	return []ent.Edge{
		configContextsOf("clusters"),
		FKRequired("type", ClusterType.Type, api.Protect),
		FK("group", ClusterGroup.Type, api.Protect),
		FK("tenant", Tenant.Type, api.Protect),
	}
}

func (Cluster) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("scope_type", "scope_id"),
		index.Fields("_region_id"), index.Fields("_site_group_id"), index.Fields("_site_id"), index.Fields("_location_id"),
	}
}

// Hooks: the cached scope, and Cluster.clean(): the host devices lie in
// the scope's site or location.
func (Cluster) Hooks() []ent.Hook { return virtualization.ClusterHooks() }

func (Cluster) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "virtualization_cluster"},
		api.Model{
			App: "virtualization", Path: "clusters", Verbose: "cluster",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"group": nil, "scope_type": nil, "scope_id": nil},
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "type", "group", "status", "tenant",
				"scope_type", "scope_id", "scope", "description", "owner", "comments", "tags", "custom_fields",
				"created", "last_updated", "device_count", "virtualmachine_count", "allocated_vcpus",
				"allocated_memory", "allocated_disk"},
			Brief:    []string{"id", "url", "display", "name", "description", "virtualmachine_count"},
			Display:  "{name}",
			Search:   []string{"name", "description", "comments"},
			Ordering: []string{"name"},
			Unique:   []api.Unique{{Fields: []string{"group", "name"}}},
			Counts: map[string]api.Count{
				"device_count":         {Model: "dcim.device", Column: "cluster_id"},
				"virtualmachine_count": {Model: "virtualization.virtualmachine", Column: "cluster_id"},
			},
			Filters: append(TenancyFilters(),
				api.Filter{Name: "region_id", Kind: "tree-id", Column: "_region_id", Target: "dcim.region"},
				api.Filter{Name: "region", Kind: "tree-attr", Column: "_region_id", Target: "dcim.region", Attr: "slug"},
				api.Filter{Name: "site_group_id", Kind: "tree-id", Column: "_site_group_id", Target: "dcim.sitegroup"},
				api.Filter{Name: "site_group", Kind: "tree-attr", Column: "_site_group_id", Target: "dcim.sitegroup", Attr: "slug"},
				api.Filter{Name: "site_id", Kind: "fk-id", Column: "_site_id", Target: "dcim.site"},
				api.Filter{Name: "site", Kind: "fk-attr", Column: "_site_id", Target: "dcim.site", Attr: "slug"},
				api.Filter{Name: "location_id", Kind: "tree-id", Column: "_location_id", Target: "dcim.location"},
				api.Filter{Name: "location", Kind: "tree-attr", Column: "_location_id", Target: "dcim.location", Attr: "slug"},
			),
			NoFilters: []string{"allocated_vcpus", "allocated_memory", "allocated_disk"},
		},
	}
}
