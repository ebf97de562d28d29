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

// Circuit is circuits.Circuit: a communications circuit from a provider.
// The cid is unique per provider and per account; the account belongs to
// the provider (the hook). termination_a and termination_z are read-only:
// the terminations' hook points them at the circuit's A and Z sides, as
// CircuitTermination.save() does, and they render in NetBox's
// CircuitCircuitTerminationSerializer form. NetBox's serializer declares
// assignments too, but a Circuit has no such attribute, so NetBox never
// sends it (DRF skips a field whose source is missing): neither do we.
type Circuit struct{ ent.Schema }

func (Circuit) Mixin() []ent.Mixin { return PrimaryMixins() }

// CircuitStatus are the choices of a circuit's and a virtual circuit's
// status.
var CircuitStatus = api.C("planned", "Planned", "provisioning", "Provisioning", "active", "Active",
	"offline", "Offline", "deprovisioning", "Deprovisioning", "decommissioned", "Decommissioned")

// DistanceUnit are NetBox's DistanceUnitChoices.
var DistanceUnit = api.C("km", "Kilometers", "m", "Meters", "mi", "Miles", "ft", "Feet")

// maxPositiveInt is the largest value of Django's PositiveIntegerField.
const maxPositiveInt = 2147483647

// nestedTermination is NetBox's CircuitCircuitTerminationSerializer, the
// form of a circuit's termination_a and termination_z.
var nestedTermination = []string{"id", "url", "display_url", "display", "termination_type", "termination_id",
	"termination", "port_speed", "upstream_speed", "xconnect_id", "description"}

func (Circuit) Fields() []ent.Field {
	return []ent.Field{
		field.String("cid").MaxRuneLen(100).NotEmpty(),
		field.Int("provider_id"),
		FKField("provider_account"),
		field.Int("type_id"),
		field.String("status").MaxRuneLen(50).Default("active").Annotations(api.Field{Kind: "choice", Choices: CircuitStatus}),
		FKField("tenant"),
		field.Time("install_date").Optional().Nillable().Annotations(api.Field{Kind: "date"}),
		field.Time("termination_date").Optional().Nillable().Annotations(api.Field{Kind: "date"}),
		field.Int("commit_rate").Optional().Nillable().Min(0).Max(maxPositiveInt).
			Annotations(api.Field{Min: api.Int(0), Max: api.Int(maxPositiveInt)}),
		field.Float("distance").Optional().Nillable().Validate(circuits.ValidateDistance),
		field.String("distance_unit").MaxRuneLen(50).Optional().Nillable().
			Annotations(api.Field{Kind: "choice", Choices: DistanceUnit}),
		FKField("termination_a"), FKField("termination_z"),
	}
}

func (Circuit) Edges() []ent.Edge {
	return []ent.Edge{
		FKRequired("provider", Provider.Type, api.Protect),
		edge.To("provider_account", ProviderAccount.Type).Field("provider_account_id").Unique().
			Annotations(OnDelete(api.Protect, api.Field{Lookup: "account"})...),
		FKRequired("type", CircuitType.Type, api.Protect),
		FK("tenant", Tenant.Type, api.Protect),
		// related_name='+' in NetBox: a deleted termination leaves no
		// update record of its circuit.
		edge.To("termination_a", CircuitTermination.Type).Field("termination_a_id").Unique().
			Annotations(OnDelete(api.SetNull, api.Field{ReadOnly: true, Nested: nestedTermination, NoReverse: true})...),
		edge.To("termination_z", CircuitTermination.Type).Field("termination_z_id").Unique().
			Annotations(OnDelete(api.SetNull, api.Field{ReadOnly: true, Nested: nestedTermination, NoReverse: true})...),
	}
}

func (Circuit) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("provider_id", "cid").Unique(),
		index.Fields("provider_account_id", "cid").Unique(),
	}
}

func (Circuit) Hooks() []ent.Hook { return circuits.CircuitHooks() }

func (Circuit) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "circuits_circuit"},
		api.Model{
			App: "circuits", Path: "circuits", Verbose: "circuit",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"provider_account": nil},
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "cid", "provider", "provider_account", "type", "status",
				"tenant", "install_date", "termination_date", "commit_rate", "description", "distance", "distance_unit",
				"termination_a", "termination_z", "owner", "comments", "tags", "custom_fields", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "provider", "cid", "description"},
			Display:  "{cid}",
			Search:   []string{"cid", "description", "comments"},
			Ordering: []string{"provider", "provider_account", "cid"},
			Unique: []api.Unique{
				{Fields: []string{"provider", "cid"}, Message: "Circuit with this Provider and Circuit ID already exists."},
				{Fields: []string{"provider_account", "cid"}, Message: "Circuit with this Provider account and Circuit ID already exists."},
			},
			Filters: append(TenancyFilters(),
				// NetBox's CircuitFilterSet.search: also the terminations'
				// cross-connect id, patch panel info and description.
				api.Filter{Name: "q", Kind: "search-reverse", Column: "cid,description,comments",
					Target: "circuits.circuittermination", Attr: "circuit_id:xconnect_id,pp_info,description"},
				api.Filter{Name: "install_date", Kind: "date", Column: "install_date"},
				api.Filter{Name: "termination_date", Kind: "date", Column: "termination_date"},
				// Through the terminations' cached scope (NetBox's
				// terminations___region and the like).
				termScope("region_id", "_region_id"), termScope("region", "_region_id.slug"),
				termScope("site_group_id", "_site_group_id"), termScope("site_group", "_site_group_id.slug"),
				termScope("site_id", "_site_id"), termScope("site", "_site_id.slug"),
				termScope("location_id", "_location_id"), termScope("provider_network_id", "_provider_network_id")),
		},
	}
}

// termScope is a circuit filter through its terminations' cached key
// (key, or key.attribute).
func termScope(name, key string) api.Filter {
	return api.Filter{Name: name, Kind: "reverse-tree", Target: "circuits.circuittermination", Column: "circuit_id", Attr: key}
}
