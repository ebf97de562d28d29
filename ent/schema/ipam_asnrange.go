package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/ipam"
	"github.com/inventory/inventory/ent/schema/api"
)

// ASNRange is ipam.ASNRange: the AS numbers from start to end of a RIR,
// from which ASNs are allocated. Its asn_count counts the ASNs inside,
// whoever their RIR.
type ASNRange struct{ ent.Schema }

func (ASNRange) Mixin() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, CustomFields{}, Primary{}}
}

func (ASNRange) Fields() []ent.Field {
	return []ent.Field{
		NaturalUniqueName(100), NaturalKeyField("name"), UniqueSlug(),
		field.Int("rir_id"),
		field.Int("start").Min(ipam.ASNMin).Max(ipam.ASNMax).
			Annotations(api.Field{Min: api.Int(ipam.ASNMin), Max: api.Int(ipam.ASNMax)}),
		field.Int("end").Min(ipam.ASNMin).Max(ipam.ASNMax).
			Annotations(api.Field{Min: api.Int(ipam.ASNMin), Max: api.Int(ipam.ASNMax)}),
		FKField("tenant"),
	}
}

func (ASNRange) Edges() []ent.Edge {
	return []ent.Edge{
		FKRequired("rir", RIR.Type, api.Protect),
		FK("tenant", Tenant.Type, api.Protect),
	}
}

func (ASNRange) Hooks() []ent.Hook { return ipam.ASNRangeHooks() }

func (ASNRange) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "ipam_asnrange"},
		api.Model{
			App: "ipam", Path: "asn-ranges", Model: "asnrange", Verbose: "ASN range",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "rir", "start", "end", "tenant",
				"description", "owner", "comments", "tags", "custom_fields", "created", "last_updated", "asn_count"},
			Brief:    []string{"id", "url", "display", "name", "description"},
			Display:  "{name} ({start}-{end})",
			Search:   []string{"name", "description"},
			Ordering: []string{"name"},
			Counts:   map[string]api.Count{"asn_count": {Model: "ipam.asn", Column: "asn", Between: [2]string{"start", "end"}}},
			Filters:  TenancyFilters(),
			Endpoints: []api.Endpoint{
				allocation("asn-ranges", "available-asns", "ipam.asn", "ASN", "AvailableASNs", "AllocateASNs",
					api.Shape{Name: "AvailableASN", Props: []api.Prop{{Name: "rir", Type: "object"}, {Name: "asn", Type: "integer"}}},
					nil, true),
			},
		},
	}
}
