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

// IKEPolicy is vpn.IKEPolicy: an IKE version and mode with its proposals
// and pre-shared key.
type IKEPolicy struct{ ent.Schema }

func (IKEPolicy) Mixin() []ent.Mixin { return PrimaryMixins() }

func (IKEPolicy) Fields() []ent.Field {
	return []ent.Field{
		NaturalUniqueName(100), NaturalKeyField("name"),
		field.Int("version").Default(2).Annotations(api.Field{Kind: "choice", Choices: vpn.IKEVersions}),
		field.String("mode").MaxRuneLen(50).Default("").Annotations(api.Field{Kind: "choice", Choices: vpn.IKEModes}),
		field.Text("preshared_key").Default(""),
	}
}

// Hooks: IKEPolicy.clean() (ent/logic/vpn).
func (IKEPolicy) Hooks() []ent.Hook { return vpn.IKEPolicyHooks() }

func (IKEPolicy) Edges() []ent.Edge {
	return []ent.Edge{
		// Rendered in the proposals' brief form (SerializedPKRelatedField,
		// nested=True).
		edge.To("proposals", IKEProposal.Type).
			StorageKey(edge.Table("vpn_ikepolicy_proposals"), edge.Columns("ikepolicy_id", "ikeproposal_id")),
	}
}

func (IKEPolicy) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "vpn_ikepolicy"},
		api.Model{
			App: "vpn", Path: "ike-policies", Model: "ikepolicy", Verbose: "IKE policy",
			GenericOnly: true,
			// NetBox's serializer requires the version on create (a ChoiceField
			// without required=False); the model's default is honoured
			// here, as for a custom field's type, and OPTIONS says
			// required as NetBox does.
			Metadata: map[string]api.Meta{"version": {Required: true}},
			Fields: []string{"id", "url", "display_url", "display", "name", "description", "version", "mode", "proposals",
				"preshared_key", "owner", "comments", "tags", "custom_fields", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "name", "description"},
			Display:  "{name}",
			Search:   []string{"name", "description", "comments"},
			Ordering: []string{"name"},
			Filters: []api.Filter{
				{Name: "ike_proposal_id", Kind: "m2m-own", Column: "proposals"},
				{Name: "ike_proposal", Kind: "m2m-attr", Column: "proposals", Attr: "name"},
				// Meta.fields: NetBox filters by the pre-shared key too.
				{Name: "preshared_key", Kind: "string", Column: "preshared_key"},
			},
		},
	}
}
