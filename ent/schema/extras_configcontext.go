package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/extras"
	"github.com/inventory/inventory/ent/schema/api"
)

// ConfigContext is extras.ConfigContext: data that devices and virtual
// machines matching its assignments merge into their config_context, by
// weight then name (ent/logic/extras: ConfigContexts).
type ConfigContext struct{ ent.Schema }

// Mixin: NetBox's ChangeLoggedModel with an owner; its tags are an
// assignment list, not the tags of a taggable model.
func (ConfigContext) Mixin() []ent.Mixin { return []ent.Mixin{ChangeLogged{}, Owned{}, SyncedData{}} }

func (ConfigContext) Fields() []ent.Field {
	return []ent.Field{
		UniqueName(100),
		FKField("profile"),
		field.Int("weight").Default(1000).Min(0).Max(32767).Annotations(api.Field{Min: api.Int(0), Max: api.Int(32767)}),
		field.String("description").MaxRuneLen(200).Default(""),
		field.Bool("is_active").Default(true),
		// data is required and a JSON object (the field kind answers
		// NetBox's message for any other JSON value).
		field.JSON("data", map[string]any{}).Annotations(api.Field{Kind: "json", Required: true}),
	}
}

// contextEdge is one assignment list: a many-to-many through the join
// table ent/logic/extras reads when it merges contexts. The default
// filters are replaced by NetBox's exact-match ones below.
func contextEdge(name string, t any, a api.Field) ent.Edge {
	c := extras.ContextCategoryOf(name)
	return edge.To(name, t).StorageKey(edge.Table(c.Table), edge.Columns("configcontext_id", c.Column)).Annotations(a)
}

func (ConfigContext) Edges() []ent.Edge {
	slug := api.Field{Lookup: "slug"}
	return []ent.Edge{
		FK("profile", ConfigContextProfile.Type, api.Protect),
		contextEdge("regions", Region.Type, slug),
		contextEdge("site_groups", SiteGroup.Type, slug),
		contextEdge("sites", Site.Type, slug),
		contextEdge("locations", Location.Type, slug),
		contextEdge("device_types", DeviceType.Type, api.Field{}),
		contextEdge("roles", DeviceRole.Type, slug),
		contextEdge("platforms", Platform.Type, slug),
		contextEdge("cluster_types", ClusterType.Type, slug),
		contextEdge("cluster_groups", ClusterGroup.Type, slug),
		contextEdge("clusters", Cluster.Type, api.Field{}),
		contextEdge("tenant_groups", TenantGroup.Type, slug),
		contextEdge("tenants", Tenant.Type, slug),
		// Tags are written and rendered as slugs (the serializer's
		// SlugRelatedField).
		contextEdge("tags", Tag.Type, api.Field{Lookup: "slug", ByLookup: true}),
	}
}

func (ConfigContext) Indexes() []ent.Index {
	return []ent.Index{index.Fields("weight", "name")}
}

// Hooks: data satisfies the profile's schema (NetBox's clean()).
// The data file's content is copied first, so that it is what is checked.
func (ConfigContext) Hooks() []ent.Hook {
	return append([]ent.Hook{extras.SyncedDataHooks("data")}, extras.ConfigContextHooks()...)
}

// contextFilters are NetBox's ConfigContextFilterSet filters on the
// assignment lists: exact matches (no tree descent), by id and by slug.
func contextFilters() []api.Filter {
	var out []api.Filter
	add := func(name, column, attr string) {
		out = append(out, api.Filter{Name: name, Kind: "m2m-attr", Column: column, Attr: attr})
	}
	for _, c := range []struct{ filter, field string }{{"region", "regions"}, {"site_group", "site_groups"},
		{"site", "sites"}, {"location", "locations"}, {"device_role", "roles"}, {"platform", "platforms"},
		{"cluster_type", "cluster_types"}, {"cluster_group", "cluster_groups"}, {"tenant_group", "tenant_groups"},
		{"tenant", "tenants"}, {"tag", "tags"}} {
		add(c.filter+"_id", c.field, "id")
		add(c.filter, c.field, "slug")
	}
	add("device_type_id", "device_types", "id")
	add("cluster_id", "clusters", "id")
	return out
}

func (ConfigContext) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "extras_configcontext"},
		api.Model{
			App: "extras", Path: "config-contexts", Verbose: "config context",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"profile": nil},
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "weight", "profile", "description",
				"is_active", "regions", "site_groups", "sites", "locations", "device_types", "roles", "platforms",
				"cluster_types", "cluster_groups", "clusters", "tenant_groups", "tenants", "owner", "tags",
				"data_source", "data_path", "data_file", "data_synced", "data", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "name", "description"},
			Display:  "{name}",
			Search:   []string{"name", "description"},
			Ordering: []string{"weight", "name"},
			// NetBox names the roles filters device_role(_id); the declared
			// filters replace the default (tree) ones of the other lists.
			NoFilters: []string{"role_id", "role"},
			Filters:   contextFilters(),
		},
	}
}

// configContextsOf is the inverse of a config context's assignment list
// on its target (ent's many-to-many needs both ends): no API field.
func configContextsOf(list string) ent.Edge {
	return edge.From("config_contexts", ConfigContext.Type).Ref(list)
}
