package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"

	"github.com/inventory/inventory/ent/schema/api"
)

// Provider is circuits.Provider: a carrier. Its accounts are listed
// (read-only) from the accounts' provider; its ASNs are a many-to-many
// relation.
type Provider struct{ ent.Schema }

func (Provider) Mixin() []ent.Mixin { return PrimaryMixins() }

func (Provider) Fields() []ent.Field {
	return []ent.Field{NaturalUniqueName(100), NaturalKeyField("name"), UniqueSlug()}
}

func (Provider) Edges() []ent.Edge {
	return []ent.Edge{
		// NetBox's Provider.asns (the filters asn_id, and asn by number).
		edge.To("asns", ASN.Type).StorageKey(edge.Table("circuits_provider_asns"), edge.Columns("provider_id", "asn_id")).
			Annotations(api.Field{Lookup: "asn"}),
	}
}

func (Provider) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "circuits_provider"},
		api.Model{
			App: "circuits", Path: "providers", Verbose: "provider",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "accounts", "description", "owner",
				"comments", "asns", "tags", "custom_fields", "created", "last_updated", "circuit_count"},
			Brief:    []string{"id", "url", "display", "name", "slug", "description", "circuit_count"},
			Display:  "{name}",
			Search:   []string{"name", "description", "comments"},
			Ordering: []string{"name"},
			Counts:   map[string]api.Count{"circuit_count": {Model: "circuits.circuit", Column: "provider_id"}},
			// NetBox's NestedProviderAccountSerializer; writable, a list of
			// account ids that move to the provider (ProviderSerializer's
			// SerializedPKRelatedField).
			Reverse: map[string]api.Reverse{"accounts": {Model: "circuits.provideraccount", Column: "provider_id", Many: true,
				Nested: []string{"id", "url", "display_url", "display", "name", "account"}, Writable: true}},
			// Through the circuits' terminations (NetBox's
			// circuits__terminations___region and the like).
			Filters: []api.Filter{providerScope("region_id"), providerScope("region"), providerScope("site_group_id"),
				providerScope("site_group"), providerScope("site_id"), providerScope("site")},
		},
	}
}

// providerScope is a provider filter through its circuits' filter of the
// same name.
func providerScope(name string) api.Filter {
	return api.Filter{Name: name, Kind: "reverse-filter", Target: "circuits.circuit", Column: "provider_id", Attr: name}
}
