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

// IPRange is ipam.IPRange: the addresses from start_address to
// end_address (both with the same mask), in a VRF or the global table.
// Ranges of one VRF never overlap (ipam.IPRangeHooks).
//
// Hidden storage columns beside the text make containment and the
// overlap check index lookups: start_host and end_host (16-byte binary,
// IPv4 v4-mapped, as ent/schema/ipnet stores every address), family,
// prefix_length (the mask of both addresses) and vrf_key (the VRF id, 0
// for the global table, so that the index (vrf_key, family, start_host)
// has no NULL). The hook derives them and size from the addresses.
type IPRange struct{ ent.Schema }

func (IPRange) Mixin() []ent.Mixin { return PrimaryMixins() }

// IPRangeStatus are the choices of a range's status.
var IPRangeStatus = api.C("active", "Active", "reserved", "Reserved", "deprecated", "Deprecated")

func (IPRange) Fields() []ent.Field {
	return []ent.Field{
		field.Int("family").Annotations(api.Field{Kind: "choice", Choices: IPFamily, ReadOnly: true}),
		field.String("start_address").NotEmpty().Annotations(api.Field{Kind: "ip-with-mask"}),
		field.String("end_address").NotEmpty().Annotations(api.Field{Kind: "ip-with-mask"}),
		field.Int("size").Default(0).Annotations(api.Field{ReadOnly: true}),
		FKField("vrf"),
		FKField("tenant"),
		field.String("status").MaxRuneLen(50).Default("active").Annotations(api.Field{Kind: "choice", Choices: IPRangeStatus}),
		FKField("role"),
		field.Bool("mark_populated").Default(false),
		field.Bool("mark_utilized").Default(false),
		// Hidden storage columns (not API fields).
		field.Bytes("start_host").MaxLen(16),
		field.Bytes("end_host").MaxLen(16),
		field.Int("prefix_length"),
		field.Int("vrf_key"),
	}
}

func (IPRange) Edges() []ent.Edge {
	return []ent.Edge{
		// NetBox's vrf filter matches the route distinguisher.
		edge.To("vrf", VRF.Type).Field("vrf_id").Unique().
			Annotations(OnDelete(api.Protect, api.Field{Lookup: "rd"})...),
		FK("tenant", Tenant.Type, api.Protect),
		FK("role", Role.Type, api.SetNull),
	}
}

func (IPRange) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("vrf_key", "family", "start_host"),
		index.Fields("vrf_key", "family", "end_host"),
	}
}

func (IPRange) Hooks() []ent.Hook { return ipam.IPRangeHooks() }

func (IPRange) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "ipam_iprange"},
		api.Model{
			App: "ipam", Path: "ip-ranges", Verbose: "IP range",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "family", "start_address", "end_address", "size",
				"vrf", "tenant", "status", "role", "description", "owner", "comments", "tags", "custom_fields",
				"created", "last_updated", "mark_populated", "mark_utilized"},
			Brief:       []string{"id", "url", "display", "family", "start_address", "end_address", "description"},
			DisplayFunc: api.Func(api.LogicPkg("ipam"), "IPRangeDisplay"),
			IP: &api.IPColumns{Family: "family", Network: "start_host", Broadcast: "end_host", Length: "prefix_length",
				VRFKey: "vrf_key"},
			Search: []string{"start_address", "end_address", "description"},
			// NetBox's (vrf nulls first, start_address, pk): the global
			// table first (vrf_key 0), then by start address.
			Ordering: []string{"vrf_key", "family", "start_host", "id"},
			Filters: append(TenancyFilters(),
				api.Filter{Name: "family", Kind: "ip-family"},
				api.Filter{Name: "start_address", Kind: "range-address", Column: "start_address", Attr: "start_host"},
				api.Filter{Name: "end_address", Kind: "range-address", Column: "end_address", Attr: "end_host"},
				api.Filter{Name: "contains", Kind: "range-contains"},
				api.Filter{Name: "parent", Kind: "range-parent"}),
			Endpoints: []api.Endpoint{allocation("ip-ranges", "available-ips", "ipam.ipaddress", "IPAddress",
				"RangeAvailableIPs", "AllocateRangeIPs", availableIP, availableIPRequest, true)},
		},
	}
}
