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

// IPSecProposal is vpn.IPSecProposal: an IPSec phase 2 proposal.
type IPSecProposal struct{ ent.Schema }

func (IPSecProposal) Mixin() []ent.Mixin { return PrimaryMixins() }

func (IPSecProposal) Fields() []ent.Field {
	return []ent.Field{
		NaturalUniqueName(100), NaturalKeyField("name"),
		field.String("encryption_algorithm").MaxRuneLen(50).Default("").Annotations(api.Field{Kind: "choice", Choices: vpn.EncryptionAlgorithms}),
		field.String("authentication_algorithm").MaxRuneLen(50).Default("").Annotations(api.Field{Kind: "choice", Choices: vpn.AuthAlgorithms}),
		field.Int("sa_lifetime_seconds").Optional().Nillable().Min(0).Annotations(api.Field{Min: api.Int(0)}),
		field.Int("sa_lifetime_data").Optional().Nillable().Min(0).Annotations(api.Field{Min: api.Int(0)}),
	}
}

func (IPSecProposal) Hooks() []ent.Hook { return vpn.IPSecProposalHooks() }

// Edges: the inverse of the policies' proposals (ent's many-to-many needs
// both ends); no API field, the filters ipsec_policy(_id) read it.
func (IPSecProposal) Edges() []ent.Edge {
	return []ent.Edge{edge.From("ipsec_policies", IPSecPolicy.Type).Ref("proposals")}
}

func (IPSecProposal) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "vpn_ipsecproposal"},
		api.Model{
			App: "vpn", Path: "ipsec-proposals", Model: "ipsecproposal", Verbose: "IPSec proposal",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "description", "encryption_algorithm",
				"authentication_algorithm", "sa_lifetime_seconds", "sa_lifetime_data", "owner", "comments", "tags",
				"custom_fields", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "name", "description"},
			Display:  "{name}",
			Search:   []string{"name", "description", "comments"},
			Ordering: []string{"name"},
			Filters: []api.Filter{
				{Name: "ipsec_policy_id", Kind: "m2m-reverse", Target: "vpn.ipsecpolicy", Column: "proposals"},
				{Name: "ipsec_policy", Kind: "m2m-reverse", Target: "vpn.ipsecpolicy", Column: "proposals", Attr: "name"},
			},
		},
	}
}
