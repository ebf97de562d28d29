package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/ipam"
	"github.com/inventory/inventory/ent/schema/api"
)

// Aggregate is ipam.Aggregate: the root of an address space, allocated by
// a RIR. Aggregates never overlap each other (ipam.AggregateHooks).
//
// Like Prefix it keeps hidden containment columns beside the prefix text
// (family; network and broadcast as 16-byte binary, IPv4 v4-mapped;
// prefix_length), derived by the hook, so that the prefix filter kinds
// and the overlap check are index lookups. Aggregates have no VRF.
type Aggregate struct{ ent.Schema }

func (Aggregate) Mixin() []ent.Mixin { return PrimaryMixins() }

func (Aggregate) Fields() []ent.Field {
	return []ent.Field{
		field.Int("family").Annotations(api.Field{Kind: "choice", Choices: IPFamily, ReadOnly: true}),
		field.String("prefix").NotEmpty().Annotations(api.Field{Kind: "cidr-aggregate"}),
		field.Int("rir_id"),
		FKField("tenant"),
		// NetBox's DateField: midnight UTC, rendered as the date.
		field.Time("date_added").Optional().Nillable().Annotations(api.Field{Kind: "date"}),
		// Hidden storage columns (not API fields).
		field.Bytes("network").MaxLen(16),
		field.Bytes("broadcast").MaxLen(16),
		field.Int("prefix_length"),
	}
}

func (Aggregate) Edges() []ent.Edge {
	return []ent.Edge{
		FKRequired("rir", RIR.Type, api.Protect),
		FK("tenant", Tenant.Type, api.Protect),
	}
}

func (Aggregate) Indexes() []ent.Index {
	return []ent.Index{index.Fields("family", "network", "prefix_length")}
}

func (Aggregate) Hooks() []ent.Hook { return ipam.AggregateHooks() }

func (Aggregate) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "ipam_aggregate"},
		api.Model{
			App: "ipam", Path: "aggregates", Verbose: "aggregate",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "family", "prefix", "rir", "tenant", "date_added",
				"description", "owner", "comments", "tags", "custom_fields", "created", "last_updated"},
			Brief:   []string{"id", "url", "display", "family", "prefix", "description"},
			Display: "{prefix}",
			IP:      &api.IPColumns{Family: "family", Network: "network", Broadcast: "broadcast", Length: "prefix_length"},
			Search:  []string{"prefix", "description"},
			// The prefix in numeric order (inet order: family, network,
			// length), then the id.
			Ordering: []string{"family", "network", "prefix_length", "id"},
			Filters: append(TenancyFilters(),
				api.Filter{Name: "family", Kind: "ip-family"},
				// NetBox's filter_prefix: one value, host bits cleared.
				api.Filter{Name: "prefix", Kind: "prefix-cidr"},
				api.Filter{Name: "date_added", Kind: "date", Column: "date_added"},
				// Beyond NetBox's AggregateFilterSet: the containment
				// filters of prefixes.
				api.Filter{Name: "within", Kind: "prefix-within"},
				api.Filter{Name: "within_include", Kind: "prefix-within-include"},
				api.Filter{Name: "contains", Kind: "prefix-contains"},
				api.Filter{Name: "mask_length", Kind: "prefix-mask-length"}),
		},
	}
}
