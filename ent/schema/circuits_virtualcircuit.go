package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/circuits"
	"github.com/inventory/inventory/ent/schema/api"
)

// VirtualCircuit is circuits.VirtualCircuit: a virtual connection across
// a provider network, its cid unique per network and per account; the
// account belongs to the network's provider (the hook).
type VirtualCircuit struct{ ent.Schema }

func (VirtualCircuit) Mixin() []ent.Mixin { return PrimaryMixins() }

func (VirtualCircuit) Fields() []ent.Field {
	return []ent.Field{
		field.String("cid").MaxRuneLen(100).NotEmpty(),
		field.Int("provider_network_id"),
		FKField("provider_account"),
		field.Int("type_id"),
		field.String("status").MaxRuneLen(50).Default("active").Annotations(api.Field{Kind: "choice", Choices: CircuitStatus}),
		FKField("tenant"),
	}
}

func (VirtualCircuit) Edges() []ent.Edge {
	return []ent.Edge{
		FKRequired("provider_network", ProviderNetwork.Type, api.Protect),
		edge.To("provider_account", ProviderAccount.Type).Field("provider_account_id").Unique().
			Annotations(OnDelete(api.Protect, api.Field{Lookup: "account"})...),
		FKRequired("type", VirtualCircuitType.Type, api.Protect),
		FK("tenant", Tenant.Type, api.Protect),
	}
}

func (VirtualCircuit) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("provider_network_id", "cid").Unique(),
		index.Fields("provider_account_id", "cid").Unique(),
	}
}

func (VirtualCircuit) Hooks() []ent.Hook { return circuits.VirtualCircuitHooks() }

func (VirtualCircuit) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "circuits_virtualcircuit"},
		api.Model{
			App: "circuits", Path: "virtual-circuits", Verbose: "virtual circuit",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"provider_account": nil},
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "cid", "provider_network", "provider_account", "type",
				"status", "tenant", "description", "owner", "comments", "tags", "custom_fields", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "provider_network", "cid", "description"},
			Display:  "{cid}",
			Search:   []string{"cid", "description", "comments"},
			Ordering: []string{"provider_network", "provider_account", "cid"},
			Unique: []api.Unique{
				{Fields: []string{"provider_network", "cid"}, Message: "Virtual circuit with this Provider network and Circuit ID already exists."},
				{Fields: []string{"provider_account", "cid"}, Message: "Virtual circuit with this Provider account and Circuit ID already exists."},
			},
			Filters: append(TenancyFilters(),
				api.Filter{Name: "provider_id", Kind: "fk-id", Via: "provider_network", Column: "provider"},
				api.Filter{Name: "provider", Kind: "fk-attr", Via: "provider_network", Column: "provider"}),
		},
	}
}
