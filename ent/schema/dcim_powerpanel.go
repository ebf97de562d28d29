package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// PowerPanel is dcim.PowerPanel: a distribution point for electrical
// power at a site (a data centre's RPP), optionally in one of its
// locations.
type PowerPanel struct{ ent.Schema }

func (PowerPanel) Mixin() []ent.Mixin { return PrimaryMixins() }

func (PowerPanel) Fields() []ent.Field {
	return []ent.Field{
		field.Int("site_id"), FKField("location"),
		NaturalName(100), NaturalKeyField("name"),
	}
}

func (PowerPanel) Edges() []ent.Edge {
	return []ent.Edge{
		FKRequired("site", Site.Type, api.Protect),
		FK("location", Location.Type, api.Protect),
	}
}

func (PowerPanel) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_powerpanel"},
		api.Model{
			App: "dcim", Path: "power-panels", Verbose: "power panel",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"location": nil},
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "site", "location", "name", "description", "owner",
				"comments", "tags", "custom_fields", "powerfeed_count", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "name", "description", "powerfeed_count"},
			Display:  "{name}",
			Search:   []string{"name", "description"},
			Ordering: []string{"site", "name"},
			Unique:   []api.Unique{{Fields: []string{"site", "name"}}},
			Counts:   map[string]api.Count{"powerfeed_count": {Model: "dcim.powerfeed", Column: "power_panel_id"}},
			// NetBox filters the location by id only (location_id, over the
			// location's subtree).
			Filters:   SiteTreeFilters(),
			NoFilters: []string{"location"},
		},
	}
}

// Hooks: the location must be at the panel's site (PowerPanel.clean()),
// and a renamed panel renames the name its feeds cache for q.
func (PowerPanel) Hooks() []ent.Hook { return dcim.PowerPanelHooks() }
