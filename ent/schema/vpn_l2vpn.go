package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/vpn"
	"github.com/inventory/inventory/ent/schema/api"
)

// L2VPN is vpn.L2VPN: a layer 2 VPN (VPLS, VXLAN, EVPN ...) with its
// identifier, route targets and tenant; VLANs and interfaces join it
// through L2VPN terminations.
type L2VPN struct{ ent.Schema }

func (L2VPN) Mixin() []ent.Mixin { return PrimaryMixins() }

func (L2VPN) Fields() []ent.Field {
	return []ent.Field{
		NaturalUniqueName(100), NaturalKeyField("name"), UniqueSlug(),
		field.String("type").MaxRuneLen(50).Annotations(api.Field{Kind: "choice", Choices: vpn.L2VPNTypes}),
		field.String("status").MaxRuneLen(50).Default("active").Annotations(api.Field{Kind: "choice", Choices: vpn.L2VPNStatus}),
		field.Int("identifier").Optional().Nillable(),
		FKField("tenant"),
	}
}

func (L2VPN) Edges() []ent.Edge {
	return []ent.Edge{
		FK("tenant", Tenant.Type, api.Protect),
		// Route targets in their brief form (SerializedPKRelatedField,
		// nested=True); the filters import_target(_id) and
		// export_target(_id) match them by name.
		edge.To("import_targets", RouteTarget.Type).
			StorageKey(edge.Table("vpn_l2vpn_import_targets"), edge.Columns("l2vpn_id", "routetarget_id")).
			Annotations(api.Field{Lookup: "name"}),
		edge.To("export_targets", RouteTarget.Type).
			StorageKey(edge.Table("vpn_l2vpn_export_targets"), edge.Columns("l2vpn_id", "routetarget_id")).
			Annotations(api.Field{Lookup: "name"}),
	}
}

func (L2VPN) Hooks() []ent.Hook { return vpn.L2VPNHooks() }

func (L2VPN) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "vpn_l2vpn"},
		api.Model{
			App: "vpn", Path: "l2vpns", Model: "l2vpn", Verbose: "L2VPN",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "identifier", "name", "slug", "type", "status",
				"import_targets", "export_targets", "description", "owner", "comments", "tenant", "tags",
				"custom_fields", "created", "last_updated"},
			Brief:       []string{"id", "url", "display", "identifier", "name", "slug", "type", "description"},
			DisplayFunc: api.Func(api.LogicPkg("vpn"), "L2VPNDisplay"),
			Search:      []string{"name", "slug", "description", "comments"},
			Ordering:    []string{"name", "identifier", "id"},
			Filters:     TenancyFilters(),
			// NetBox's serializer declares the type with required=False;
			// the model still refuses a create without one.
			Metadata: map[string]api.Meta{"type": {Optional: true}},
		},
	}
}
