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

// IPSecPolicy is vpn.IPSecPolicy: IPSec proposals and a PFS group.
type IPSecPolicy struct{ ent.Schema }

func (IPSecPolicy) Mixin() []ent.Mixin { return PrimaryMixins() }

func (IPSecPolicy) Fields() []ent.Field {
	return []ent.Field{
		NaturalUniqueName(100), NaturalKeyField("name"),
		field.Int("pfs_group").Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: vpn.DHGroups}),
	}
}

func (IPSecPolicy) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("proposals", IPSecProposal.Type).
			StorageKey(edge.Table("vpn_ipsecpolicy_proposals"), edge.Columns("ipsecpolicy_id", "ipsecproposal_id")),
	}
}

func (IPSecPolicy) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "vpn_ipsecpolicy"},
		api.Model{
			App: "vpn", Path: "ipsec-policies", Model: "ipsecpolicy", Verbose: "IPSec policy",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "description", "proposals", "pfs_group",
				"owner", "comments", "tags", "custom_fields", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "name", "description"},
			Display:  "{name}",
			Search:   []string{"name", "description", "comments"},
			Ordering: []string{"name"},
			Filters: []api.Filter{
				{Name: "ipsec_proposal_id", Kind: "m2m-own", Column: "proposals"},
				{Name: "ipsec_proposal", Kind: "m2m-attr", Column: "proposals", Attr: "name"},
			},
		},
	}
}
