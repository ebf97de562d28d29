package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// Location is dcim.Location, a tree of locations (buildings, floors, rooms)
// within a site.
type Location struct{ ent.Schema }

func (Location) Mixin() []ent.Mixin { return NestedGroupMixins() }

func (Location) Fields() []ent.Field {
	return []ent.Field{
		field.Int("site_id"),
		field.String("status").MaxRuneLen(50).Default("active").Annotations(api.Field{Kind: "choice", Choices: SiteStatus}),
		FKField("tenant"),
		field.String("facility").MaxRuneLen(50).Default(""),
	}
}

func (Location) Edges() []ent.Edge {
	return []ent.Edge{
		configContextsOf("locations"),
		ParentEdge(Location.Type),
		FKRequired("site", Site.Type, api.Cascade),
		FK("tenant", Tenant.Type, api.Protect),
	}
}

func (Location) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_location"},
		api.Model{
			App: "dcim", Path: "locations", Verbose: "location",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"parent": nil},
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "site", "parent", "status",
				"tenant", "facility", "description", "tags", "custom_fields", "created", "last_updated",
				"rack_count", "device_count", "prefix_count", "owner", "comments", "_depth"},
			Brief:    []string{"id", "url", "display", "name", "slug", "description", "rack_count", "_depth"},
			Display:  "{name}",
			Search:   []string{"name", "facility", "description"},
			Ordering: []string{"site", "name"},
			Unique: []api.Unique{
				{Fields: []string{"site", "parent", "name"}},
				{Fields: []string{"site", "name"}, WhenNull: []string{"parent"},
					Message: "A location with this name already exists within the specified site."},
				{Fields: []string{"site", "parent", "slug"}},
				{Fields: []string{"site", "slug"}, WhenNull: []string{"parent"},
					Message: "A location with this slug already exists within the specified site."},
			},
			// rack_count and device_count are cumulative: NetBox annotates
			// them over the subtree.
			Counts: map[string]api.Count{"prefix_count": {Model: "ipam.prefix", Column: "_location_id"},
				"rack_count":   {Model: "dcim.rack", Column: "location_id", Cumulative: true},
				"device_count": {Model: "dcim.device", Column: "location_id", Cumulative: true}},
			Filters: append(TenancyFilters(), SiteTreeFilters()...),
		},
	}
}

// Hooks: a location that changes site moves the cached scope of the
// prefixes on it.
func (Location) Hooks() []ent.Hook { return dcim.LocationHooks() }
