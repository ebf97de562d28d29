package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/ipam"
	"github.com/inventory/inventory/ent/schema/api"
)

// Prefix is ipam.Prefix.
//
// Besides the API fields it keeps hidden storage columns for containment
// (DESIGN.md §4, §8): network and broadcast as 16-byte binary (IPv4
// v4-mapped), prefix_length in the family's bits, and vrf_key (the VRF id,
// 0 for the global table) so that the index (vrf_key, family, network,
// prefix_length) has no NULL. The hooks (ent/logic/ipam) derive them from
// prefix and vrf_id, keep the cached _depth and _children of every prefix
// of the VRFs involved right, and keep the cached scope.
type Prefix struct{ ent.Schema }

func (Prefix) Mixin() []ent.Mixin { return PrimaryMixins() }

// PrefixStatus are the choices of a prefix's status.
var PrefixStatus = api.C("container", "Container", "active", "Active", "reserved", "Reserved",
	"deprecated", "Deprecated")

// IPFamily are the choices of the read-only family of IP objects.
var IPFamily = []api.Choice{{Value: 4, Label: "IPv4"}, {Value: 6, Label: "IPv6"}}

// prefixScopeTypes are the content types a prefix may be scoped to.
var prefixScopeTypes = []string{"dcim.region", "dcim.sitegroup", "dcim.site", "dcim.location"}

func (Prefix) Fields() []ent.Field {
	return []ent.Field{
		field.Int("family").Annotations(api.Field{Kind: "choice", Choices: IPFamily, ReadOnly: true}),
		field.String("prefix").NotEmpty().Annotations(api.Field{Kind: "cidr"}),
		FKField("vrf"),
		field.String("scope_type").Optional().Nillable().Annotations(api.Field{Types: prefixScopeTypes, OnDelete: api.Cascade}),
		field.Int("scope_id").Optional().Nillable(),
		FKField("tenant"),
		FKField("vlan"),
		field.String("status").MaxRuneLen(50).Default("active").Annotations(api.Field{Kind: "choice", Choices: PrefixStatus}),
		FKField("role"),
		field.Bool("is_pool").Default(false),
		field.Bool("mark_utilized").Default(false),
		field.Int("_children").Default(0).Annotations(api.Field{API: "children", ReadOnly: true}),
		field.Int("_depth").Default(0).Annotations(api.Field{ReadOnly: true}),
		// Hidden storage columns (not API fields: not in api.Model.Fields).
		field.Bytes("network").MaxLen(16),
		field.Bytes("broadcast").MaxLen(16),
		field.Int("prefix_length"),
		field.Int("vrf_key"),
		// The cached scope (NetBox's CachedScopeMixin), kept by the
		// hooks (ent/logic/ipam, ent/logic/dcim): the region, site group, site and location the
		// scope is or lies in. Read by the region/site/... filters and the
		// prefix_count of those models.
		// Their on_delete is NetBox 4.6.8's: a deleted site or location
		// takes the prefixes cached under it along, a deleted region or
		// site group only clears the cache.
		CachedFK("_region", "dcim.region", api.SetNull),
		CachedFK("_site_group", "dcim.sitegroup", api.SetNull),
		CachedFK("_site", "dcim.site", api.Cascade),
		CachedFK("_location", "dcim.location", api.Cascade),
	}
}

func (Prefix) Edges() []ent.Edge {
	return []ent.Edge{
		// NetBox's vrf filter matches the route distinguisher.
		edge.To("vrf", VRF.Type).Field("vrf_id").Unique().
			Annotations(OnDelete(api.Protect, api.Field{Lookup: "rd"})...),
		FK("tenant", Tenant.Type, api.Protect),
		FK("vlan", VLAN.Type, api.Protect),
		FK("role", Role.Type, api.SetNull),
	}
}

func (Prefix) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("vrf_key", "family", "network", "prefix_length"),
		index.Fields("_region_id"), index.Fields("_site_group_id"), index.Fields("_site_id"), index.Fields("_location_id"),
	}
}

func (Prefix) Hooks() []ent.Hook { return ipam.PrefixHooks() }

func (Prefix) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "ipam_prefix"},
		api.Model{
			App: "ipam", Path: "prefixes", Verbose: "prefix",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults: map[string]any{"scope_type": nil, "scope_id": nil},
			Fields: []string{"id", "url", "display_url", "display", "family", "prefix", "vrf", "scope_type", "scope_id",
				"scope", "tenant", "vlan", "status", "role", "is_pool", "mark_utilized", "description", "owner", "comments",
				"tags", "custom_fields", "created", "last_updated", "children", "_depth"},
			Brief:   []string{"id", "url", "display", "family", "prefix", "description", "_depth"},
			Display: "{prefix}",
			IP:      api.PrefixColumns(),
			Search:  []string{"prefix", "description", "comments"},
			// VRF (global first: vrf_key is 0 there), then the prefix in
			// numeric order (inet order: family, network, length).
			Ordering: []string{"vrf_key", "family", "network", "prefix_length"},
			Filters: []api.Filter{
				{Name: "family", Kind: "ip-family"},
				{Name: "prefix", Kind: "prefix-exact"},
				{Name: "within", Kind: "prefix-within"},
				{Name: "within_include", Kind: "prefix-within-include"},
				{Name: "contains", Kind: "prefix-contains"},
				{Name: "mask_length", Kind: "prefix-mask-length"},
				{Name: "depth", Kind: "integer", Column: "_depth"},
				// The VRF's prefixes and those of the VRFs exporting a
				// route target it imports.
				{Name: "present_in_vrf_id", Kind: "present-in-vrf", Column: "vrf_id"},
				{Name: "present_in_vrf", Kind: "present-in-vrf", Column: "vrf_id", Attr: "rd"},
				// The cached scope columns (NetBox's _region, _site_group,
				// _site, _location), kept by the hooks.
				{Name: "region_id", Kind: "tree-id", Column: "_region_id", Target: "dcim.region"},
				{Name: "region", Kind: "tree-attr", Column: "_region_id", Target: "dcim.region", Attr: "slug"},
				{Name: "site_group_id", Kind: "tree-id", Column: "_site_group_id", Target: "dcim.sitegroup"},
				{Name: "site_group", Kind: "tree-attr", Column: "_site_group_id", Target: "dcim.sitegroup", Attr: "slug"},
				{Name: "site_id", Kind: "fk-id", Column: "_site_id", Target: "dcim.site"},
				{Name: "site", Kind: "fk-attr", Column: "_site_id", Target: "dcim.site", Attr: "slug"},
				{Name: "location_id", Kind: "tree-id", Column: "_location_id", Target: "dcim.location"},
				{Name: "location", Kind: "tree-attr", Column: "_location_id", Target: "dcim.location", Attr: "slug"},
				{Name: "vlan_group_id", Kind: "fk-id", Via: "vlan", Column: "group"},
				{Name: "vlan_group", Kind: "fk-attr", Via: "vlan", Column: "group"},
				{Name: "vlan_vid", Kind: "integer", Via: "vlan", Column: "vid"},
				{Name: "tenant_group_id", Kind: "tree-id", Via: "tenant", Column: "group"},
				{Name: "tenant_group", Kind: "tree-attr", Via: "tenant", Column: "group"},
			},
			NoFilters: []string{"_depth"},
			Endpoints: []api.Endpoint{
				allocation("prefixes", "available-prefixes", "ipam.prefix", "Prefix", "AvailablePrefixes", "AllocatePrefixes",
					api.Shape{Name: "AvailablePrefix", Props: []api.Prop{{Name: "family", Type: "integer"},
						{Name: "prefix", Type: "string"}, {Name: "vrf", Type: "object", Nullable: true}}},
					&api.Shape{Name: "PrefixLengthRequest", Props: []api.Prop{{Name: "prefix_length", Type: "integer"}}}, false),
				allocation("prefixes", "available-ips", "ipam.ipaddress", "IPAddress", "PrefixAvailableIPs", "AllocatePrefixIPs",
					availableIP, availableIPRequest, true),
			},
		},
	}
}
