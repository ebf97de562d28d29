package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"

	"github.com/inventory/inventory/ent/schema/api"
)

// RouteTarget is ipam.RouteTarget, a BGP extended community that VRFs
// import and export (RFC 4364).
type RouteTarget struct{ ent.Schema }

func (RouteTarget) Mixin() []ent.Mixin { return PrimaryMixins() }

func (RouteTarget) Fields() []ent.Field {
	return []ent.Field{NaturalUniqueName(21), NaturalKeyField("name"), FKField("tenant")}
}

func (RouteTarget) Edges() []ent.Edge {
	return []ent.Edge{
		FK("tenant", Tenant.Type, api.Protect),
		// The inverses of the VRFs' import and export targets (ent's
		// many-to-many needs both ends); no API fields, the filters below
		// read them.
		edge.From("importing_vrfs", VRF.Type).Ref("import_targets"),
		edge.From("exporting_vrfs", VRF.Type).Ref("export_targets"),
		edge.From("importing_l2vpns", L2VPN.Type).Ref("import_targets"),
		edge.From("exporting_l2vpns", L2VPN.Type).Ref("export_targets"),
	}
}

func (RouteTarget) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "ipam_routetarget"},
		api.Model{
			App: "ipam", Path: "route-targets", Model: "routetarget", Verbose: "route target",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "tenant", "description", "owner", "comments",
				"tags", "custom_fields", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "name", "description"},
			Display:  "{name}",
			Search:   []string{"name", "description"},
			Ordering: []string{"name"},
			Filters: append(TenancyFilters(),
				api.Filter{Name: "importing_vrf_id", Kind: "m2m-reverse", Target: "ipam.vrf", Column: "import_targets"},
				api.Filter{Name: "importing_vrf", Kind: "m2m-reverse", Target: "ipam.vrf", Column: "import_targets", Attr: "rd"},
				api.Filter{Name: "exporting_vrf_id", Kind: "m2m-reverse", Target: "ipam.vrf", Column: "export_targets"},
				api.Filter{Name: "exporting_vrf", Kind: "m2m-reverse", Target: "ipam.vrf", Column: "export_targets", Attr: "rd"},
				api.Filter{Name: "importing_l2vpn_id", Kind: "m2m-reverse", Target: "vpn.l2vpn", Column: "import_targets"},
				api.Filter{Name: "importing_l2vpn", Kind: "m2m-reverse", Target: "vpn.l2vpn", Column: "import_targets", Attr: "identifier"},
				api.Filter{Name: "exporting_l2vpn_id", Kind: "m2m-reverse", Target: "vpn.l2vpn", Column: "export_targets"},
				api.Filter{Name: "exporting_l2vpn", Kind: "m2m-reverse", Target: "vpn.l2vpn", Column: "export_targets", Attr: "identifier"}),
		},
	}
}
