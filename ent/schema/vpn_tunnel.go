package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/vpn"
	"github.com/inventory/inventory/ent/schema/api"
)

// Tunnel is vpn.Tunnel: a tunnel with its encapsulation, optional group,
// IPSec profile and tenant; its ends are tunnel terminations. NetBox
// declares the name unique (and again unique per group), so a name is
// unique overall.
type Tunnel struct{ ent.Schema }

func (Tunnel) Mixin() []ent.Mixin { return PrimaryMixins() }

func (Tunnel) Fields() []ent.Field {
	return []ent.Field{
		NaturalUniqueName(100), NaturalKeyField("name"),
		field.String("status").MaxRuneLen(50).Default("active").Annotations(api.Field{Kind: "choice", Choices: vpn.TunnelStatus}),
		FKField("group"),
		field.String("encapsulation").MaxRuneLen(50).Annotations(api.Field{Kind: "choice", Choices: vpn.TunnelEncapsulation}),
		FKField("ipsec_profile"),
		FKField("tenant"),
		// NetBox's PositiveBigIntegerField.
		field.Int("tunnel_id").Optional().Nillable().Min(0).Annotations(api.Field{Min: api.Int(0)}),
	}
}

func (Tunnel) Edges() []ent.Edge {
	return []ent.Edge{
		FK("group", TunnelGroup.Type, api.Protect),
		FK("ipsec_profile", IPSecProfile.Type, api.Protect),
		FK("tenant", Tenant.Type, api.Protect),
	}
}

func (Tunnel) Hooks() []ent.Hook { return vpn.TunnelHooks() }

func (Tunnel) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "vpn_tunnel"},
		api.Model{
			App: "vpn", Path: "tunnels", Model: "tunnel", Verbose: "tunnel",
			GenericOnly: true,
			// NetBox's serializer requires the status on create (a ChoiceField
			// without required=False); the model's default is honoured
			// here, as for a custom field's type, and OPTIONS says
			// required as NetBox does.
			Metadata: map[string]api.Meta{"status": {Required: true}},
			Fields: []string{"id", "url", "display_url", "display", "name", "status", "group", "encapsulation",
				"ipsec_profile", "tenant", "tunnel_id", "description", "owner", "comments", "tags", "custom_fields",
				"created", "last_updated", "terminations_count"},
			Brief:    []string{"id", "url", "display", "name", "description"},
			Display:  "{name}",
			Search:   []string{"name", "description", "comments"},
			Ordering: []string{"name"},
			Counts:   map[string]api.Count{"terminations_count": {Model: "vpn.tunneltermination", Column: "tunnel_id"}},
			Filters:  TenancyFilters(),
		},
	}
}
