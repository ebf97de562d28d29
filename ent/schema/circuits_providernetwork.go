package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/schema/api"
)

// ProviderNetwork is circuits.ProviderNetwork: a provider's network whose
// details are not modelled; circuit terminations and virtual circuits
// attach to it. Names are unique per provider.
type ProviderNetwork struct{ ent.Schema }

func (ProviderNetwork) Mixin() []ent.Mixin { return PrimaryMixins() }

func (ProviderNetwork) Fields() []ent.Field {
	return []ent.Field{
		field.Int("provider_id"),
		NaturalName(100), NaturalKeyField("name"),
		field.String("service_id").MaxRuneLen(100).Default(""),
	}
}

func (ProviderNetwork) Edges() []ent.Edge {
	return []ent.Edge{FKRequired("provider", Provider.Type, api.Protect)}
}

func (ProviderNetwork) Indexes() []ent.Index {
	return []ent.Index{index.Fields("provider_id", "name").Unique()}
}

func (ProviderNetwork) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "circuits_providernetwork"},
		api.Model{
			App: "circuits", Path: "provider-networks", Verbose: "provider network",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "provider", "name", "service_id", "description",
				"owner", "comments", "tags", "custom_fields", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "name", "description"},
			Display:  "{name}",
			Search:   []string{"name", "service_id", "description", "comments"},
			Ordering: []string{"provider", "name"},
			Unique:   []api.Unique{{Fields: []string{"provider", "name"}}},
		},
	}
}
