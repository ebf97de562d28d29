package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/ipam"
	"github.com/inventory/inventory/ent/schema/api"
)

// ASN is ipam.ASN, a 32-bit autonomous system number, assigned to sites
// (the many-to-many is the sites' asns, written from either side).
type ASN struct{ ent.Schema }

func (ASN) Mixin() []ent.Mixin { return PrimaryMixins() }

func (ASN) Fields() []ent.Field {
	return []ent.Field{
		// Unique through the index and api.Unique, for NetBox's message
		// ("ASN with this ASN already exists.").
		field.Int("asn").Min(ipam.ASNMin).Max(ipam.ASNMax).
			Annotations(api.Field{Min: api.Int(ipam.ASNMin), Max: api.Int(ipam.ASNMax)}),
		field.Int("rir_id"),
		FKField("role"),
		FKField("tenant"),
	}
}

func (ASN) Edges() []ent.Edge {
	return []ent.Edge{
		FKRequired("rir", RIR.Type, api.Protect),
		FK("role", Role.Type, api.SetNull),
		FK("tenant", Tenant.Type, api.Protect),
		// The sites' asns, seen from here (NetBox's related name).
		edge.From("sites", Site.Type).Ref("asns").Annotations(api.Field{Lookup: "slug"}),
		// The providers' asns (the provider_id and provider filters; no
		// field of the ASN's representation).
		edge.From("providers", Provider.Type).Ref("asns").Annotations(api.Field{Lookup: "slug"}),
	}
}

func (ASN) Indexes() []ent.Index {
	return []ent.Index{index.Fields("asn").Unique()}
}

func (ASN) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "ipam_asn"},
		api.Model{
			// NetBox's RIRSerializer(required=False, allow_null=True); its model refuses no RIR.
			Metadata: map[string]api.Meta{"rir": {Optional: true}},
			App:      "ipam", Path: "asns", Model: "asn", Verbose: "ASN",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "asn", "rir", "role", "tenant", "description", "owner",
				"comments", "tags", "custom_fields", "created", "last_updated", "site_count", "provider_count", "sites"},
			Brief:       []string{"id", "url", "display", "asn", "description"},
			DisplayFunc: api.Func(api.LogicPkg("ipam"), "ASNDisplay"),
			Ordering:    []string{"asn"},
			Unique:      []api.Unique{{Fields: []string{"asn"}, Message: "ASN with this ASN already exists."}},
			Counts: map[string]api.Count{"site_count": {Table: "dcim_site_asns", Column: "asn_id"},
				"provider_count": {Table: "circuits_provider_asns", Column: "asn_id"}},
			Filters: append(TenancyFilters(),
				// NetBox's search: the description, or the number itself.
				api.Filter{Name: "q", Kind: "search-or-number", Column: "asn", Attr: "description"},
				api.Filter{Name: "site_group_id", Kind: "m2m-tree", Column: "sites.group"},
				api.Filter{Name: "site_group", Kind: "m2m-tree", Column: "sites.group", Attr: "slug"},
				api.Filter{Name: "provider_id", Kind: "m2m-reverse", Target: "circuits.provider", Column: "asns"},
				api.Filter{Name: "provider", Kind: "m2m-reverse", Target: "circuits.provider", Column: "asns", Attr: "slug"}),
		},
	}
}
