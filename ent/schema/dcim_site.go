package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// Site is dcim.Site.
type Site struct{ ent.Schema }

func (Site) Mixin() []ent.Mixin { return PrimaryMixins() }

// SiteStatus are the choices of a site's and a location's status.
var SiteStatus = api.C("planned", "Planned", "staging", "Staging", "active", "Active",
	"decommissioning", "Decommissioning", "retired", "Retired")

func (Site) Fields() []ent.Field {
	return []ent.Field{
		NaturalUniqueName(100), NaturalKeyField("name"), UniqueSlug(),
		field.String("status").MaxRuneLen(50).Default("active").Annotations(api.Field{Kind: "choice", Choices: SiteStatus}),
		FKField("region"), FKField("group"), FKField("tenant"),
		field.String("facility").MaxRuneLen(50).Default(""),
		field.String("time_zone").Optional().Nillable().Annotations(api.Field{Kind: "timezone"}),
		field.String("physical_address").MaxRuneLen(200).Default(""),
		field.String("shipping_address").MaxRuneLen(200).Default(""),
		field.Float("latitude").Optional().Nillable().Annotations(api.Field{Decimal: &Latitude}),
		field.Float("longitude").Optional().Nillable().Annotations(api.Field{Decimal: &Longitude}),
	}
}

func (Site) Edges() []ent.Edge {
	return []ent.Edge{
		configContextsOf("sites"),
		FK("region", Region.Type, api.SetNull),
		FK("group", SiteGroup.Type, api.SetNull),
		FK("tenant", Tenant.Type, api.Protect),
		// NetBox's Site.asns (the filters asn_id, and asn by number).
		edge.To("asns", ASN.Type).StorageKey(edge.Table("dcim_site_asns"), edge.Columns("site_id", "asn_id")).
			Annotations(api.Field{Lookup: "asn"}),
	}
}

func (Site) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_site"},
		api.Model{
			App: "dcim", Path: "sites", Verbose: "site",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "status", "region", "group",
				"tenant", "facility", "time_zone", "description", "physical_address", "shipping_address", "latitude",
				"longitude", "owner", "comments", "asns", "tags", "custom_fields", "created", "last_updated",
				"circuit_count", "device_count", "prefix_count", "rack_count", "virtualmachine_count", "vlan_count"},
			Brief:    []string{"id", "url", "display", "name", "description", "slug"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "facility", "description", "physical_address", "shipping_address", "comments"},
			Ordering: []string{"name"},
			// prefix_count is NetBox's RelatedObjectCountField('_prefixes'):
			// prefixes whose cached _site is this one (scoped to it or to one
			// of its locations).
			Counts: map[string]api.Count{"vlan_count": {Model: "ipam.vlan", Column: "site_id"},
				"prefix_count": {Model: "ipam.prefix", Column: "_site_id"},
				"rack_count":   {Model: "dcim.rack", Column: "site_id"},
				"device_count": {Model: "dcim.device", Column: "site_id"},
				// NetBox's RelatedObjectCountField('circuit_terminations'):
				// terminations whose cached _site is this one.
				"circuit_count":        {Model: "circuits.circuittermination", Column: "_site_id"},
				"virtualmachine_count": {Model: "virtualization.virtualmachine", Column: "site_id"}},
			Filters: TenancyFilters(),
		},
	}
}

// Hooks: a site that changes region or group moves the cached scope of the
// prefixes on it (and on its locations).
func (Site) Hooks() []ent.Hook { return dcim.SiteHooks() }
