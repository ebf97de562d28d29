package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/vpn"
	"github.com/inventory/inventory/ent/schema/api"
)

// IPSecProfile is vpn.IPSecProfile: a mode with an IKE policy and an
// IPSec policy (both protected from deletion while a profile uses them).
type IPSecProfile struct{ ent.Schema }

func (IPSecProfile) Mixin() []ent.Mixin { return PrimaryMixins() }

func (IPSecProfile) Fields() []ent.Field {
	return []ent.Field{
		NaturalUniqueName(100), NaturalKeyField("name"),
		field.String("mode").MaxRuneLen(50).Annotations(api.Field{Kind: "choice", Choices: vpn.IPSecModes}),
		field.Int("ike_policy_id"),
		field.Int("ipsec_policy_id"),
	}
}

func (IPSecProfile) Edges() []ent.Edge {
	return []ent.Edge{
		FKRequired("ike_policy", IKEPolicy.Type, api.Protect),
		FKRequired("ipsec_policy", IPSecPolicy.Type, api.Protect),
	}
}

func (IPSecProfile) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "vpn_ipsecprofile"},
		api.Model{
			App: "vpn", Path: "ipsec-profiles", Model: "ipsecprofile", Verbose: "IPSec profile",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "description", "mode", "ike_policy",
				"ipsec_policy", "owner", "comments", "tags", "custom_fields", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "name", "description"},
			Display:  "{name}",
			Search:   []string{"name", "description", "comments"},
			Ordering: []string{"name"},
		},
	}
}
