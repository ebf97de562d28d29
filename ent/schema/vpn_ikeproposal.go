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

// IKEProposal is vpn.IKEProposal: an IKE phase 1 proposal (authentication
// method, encryption and authentication algorithms, DH group, lifetime).
type IKEProposal struct{ ent.Schema }

func (IKEProposal) Mixin() []ent.Mixin { return PrimaryMixins() }

func (IKEProposal) Fields() []ent.Field {
	return []ent.Field{
		NaturalUniqueName(100), NaturalKeyField("name"),
		field.String("authentication_method").MaxRuneLen(50).Annotations(api.Field{Kind: "choice", Choices: vpn.AuthMethods}),
		field.String("encryption_algorithm").MaxRuneLen(50).Annotations(api.Field{Kind: "choice", Choices: vpn.EncryptionAlgorithms}),
		// Blank when the encryption algorithm authenticates (GCM).
		field.String("authentication_algorithm").MaxRuneLen(50).Default("").Annotations(api.Field{Kind: "choice", Choices: vpn.AuthAlgorithms}),
		field.Int("group").Annotations(api.Field{Kind: "choice", Choices: vpn.DHGroups}),
		field.Int("sa_lifetime").Optional().Nillable().Min(0).Annotations(api.Field{Min: api.Int(0)}),
	}
}

// Edges: the inverse of the policies' proposals (ent's many-to-many needs
// both ends); no API field, the filters ike_policy(_id) read it.
func (IKEProposal) Edges() []ent.Edge {
	return []ent.Edge{edge.From("ike_policies", IKEPolicy.Type).Ref("proposals")}
}

func (IKEProposal) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "vpn_ikeproposal"},
		api.Model{
			App: "vpn", Path: "ike-proposals", Model: "ikeproposal", Verbose: "IKE proposal",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "description", "authentication_method",
				"encryption_algorithm", "authentication_algorithm", "group", "sa_lifetime", "owner", "comments", "tags",
				"custom_fields", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "name", "description"},
			Display:  "{name}",
			Search:   []string{"name", "description", "comments"},
			Ordering: []string{"name"},
			Filters: []api.Filter{
				{Name: "ike_policy_id", Kind: "m2m-reverse", Target: "vpn.ikepolicy", Column: "proposals"},
				{Name: "ike_policy", Kind: "m2m-reverse", Target: "vpn.ikepolicy", Column: "proposals", Attr: "name"},
			},
		},
	}
}
