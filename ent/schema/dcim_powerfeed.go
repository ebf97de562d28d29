package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// PowerFeed is dcim.PowerFeed: an electrical circuit delivered from a
// power panel, optionally to a rack at the panel's site.
type PowerFeed struct{ ent.Schema }

func (PowerFeed) Mixin() []ent.Mixin { return append(PrimaryMixins(), PathEndpoint{}) }

// Choices of a power feed's status, type, supply and phase.
var (
	PowerFeedStatus = api.C("offline", "Offline", "active", "Active", "planned", "Planned", "failed", "Failed")
	PowerFeedType   = api.C("primary", "Primary", "redundant", "Redundant")
	PowerFeedSupply = api.C("ac", "AC", "dc", "DC")
	PowerFeedPhase  = api.C("single-phase", "Single phase", "three-phase", "Three-phase")
)

func (PowerFeed) Fields() []ent.Field {
	return append([]ent.Field{
		field.Int("power_panel_id"), FKField("rack"),
		NaturalName(100), NaturalKeyField("name"),
		field.String("status").MaxRuneLen(50).Default("active").Annotations(api.Field{Kind: "choice", Choices: PowerFeedStatus}),
		field.String("type").MaxRuneLen(50).Default("primary").Annotations(api.Field{Kind: "choice", Choices: PowerFeedType}),
		field.String("supply").MaxRuneLen(50).Default("ac").Annotations(api.Field{Kind: "choice", Choices: PowerFeedSupply}),
		field.String("phase").MaxRuneLen(50).Default("single-phase").Annotations(api.Field{Kind: "choice", Choices: PowerFeedPhase}),
		// NetBox's defaults are POWERFEED_DEFAULT_VOLTAGE, _AMPERAGE and
		// _MAX_UTILIZATION (120, 15, 80); a voltage of 0 is refused by the
		// hook (ExclusionValidator([0])).
		field.Int("voltage").Default(dcim.PowerFeedDefaultVoltage).Min(-32768).Max(32767).
			Annotations(api.Field{Min: api.Int(-32768), Max: api.Int(32767)}),
		field.Int("amperage").Default(dcim.PowerFeedDefaultAmperage).Min(1).Max(32767).
			Annotations(api.Field{Min: api.Int(1), Max: api.Int(32767)}),
		field.Int("max_utilization").Default(dcim.PowerFeedDefaultMaxUtilization).Min(1).Max(100).
			Annotations(api.Field{Min: api.Int(1), Max: api.Int(100)}),
		field.Bool("mark_connected").Default(false),
		FKField("tenant"),
		// available_power is PowerFeed.save()'s cache, kept by the hook; NetBox
		// filters by it but does not serialise it.
		field.Int("available_power").Default(0).Annotations(api.Field{Kind: "hidden"}),
		// _occupied is NetBox's CabledObjectModel._occupied (a cable or
		// mark_connected), kept by the hooks.
		field.Bool("_occupied").Default(false).Annotations(api.Field{ReadOnly: true, NoFilter: true}),
		// _power_panel_name caches the panel's name for q (NetBox searches
		// power_panel__name), kept by the hooks of both models.
		field.String("_power_panel_name").Default("").Annotations(api.Field{Kind: "hidden"}),
	}, CabledFields()...)
}

func (PowerFeed) Edges() []ent.Edge {
	return []ent.Edge{
		FKRequired("power_panel", PowerPanel.Type, api.Protect),
		FK("rack", Rack.Type, api.Protect),
		FK("tenant", Tenant.Type, api.Protect),
		CableEdge(),
	}
}

func (PowerFeed) Indexes() []ent.Index { return []ent.Index{index.Fields("cable_id")} }

func (PowerFeed) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_powerfeed"},
		api.Model{
			// NetBox's SerializerMethodField (CabledObjectSerializer), a column here.
			Metadata: map[string]api.Meta{"_occupied": {Type: "field"}},
			App:      "dcim", Path: "power-feeds", Verbose: "power feed",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"rack": nil, "type": "primary", "status": "active", "supply": "ac", "phase": "single-phase"},
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "power_panel", "rack", "name", "status", "type",
				"supply", "phase", "voltage", "amperage", "max_utilization", "mark_connected", "cable", "cable_end",
				"link_peers", "link_peers_type", "connected_endpoints", "connected_endpoints_type",
				"connected_endpoints_reachable", "description", "tenant", "owner", "comments", "tags", "custom_fields",
				"created", "last_updated", "_occupied"},
			Brief:    []string{"id", "url", "display", "name", "description", "cable", "_occupied"},
			Display:  "{name}",
			Search:   []string{"name", "description", "_power_panel_name", "comments"},
			Ordering: []string{"power_panel", "name"},
			Unique:   []api.Unique{{Fields: []string{"power_panel", "name"}}},
			// Cables and cable paths come in a later issue: an uncabled
			// feed's values, as NetBox 4.6 renders them.
			Endpoints: []api.Endpoint{traceEndpoint("TracePowerFeed")},
			Refs:      LinkPeerRefs(),
			Filters: append(TenancyFilters(),
				api.Filter{Name: "region_id", Kind: "tree-id", Via: "power_panel.site", Column: "region"},
				api.Filter{Name: "region", Kind: "tree-attr", Via: "power_panel.site", Column: "region"},
				api.Filter{Name: "site_group_id", Kind: "tree-id", Via: "power_panel.site", Column: "group"},
				api.Filter{Name: "site_group", Kind: "tree-attr", Via: "power_panel.site", Column: "group"},
				api.Filter{Name: "site_id", Kind: "fk-id", Via: "power_panel", Column: "site"},
				api.Filter{Name: "site", Kind: "fk-attr", Via: "power_panel", Column: "site"},
				api.Filter{Name: "available_power", Kind: "integer", Column: "available_power"},
				api.Filter{Name: "cabled", Kind: "is-set", Column: "cable_id"},
				api.Filter{Name: "cable_connector", Kind: "integer", Column: "cable_connector"},
				// NetBox's occupied: a cable or mark_connected.
				api.Filter{Name: "occupied", Kind: "boolean", Column: "_occupied"}),
			// NetBox filters the panel and the rack by id only.
			NoFilters: []string{"power_panel", "rack"},
		},
	}
}

// Hooks: the rack must be at the power panel's site, an AC voltage must
// not be negative (PowerFeed.clean()); available power, _occupied and the
// panel's name are kept (PowerFeed.save()).
func (PowerFeed) Hooks() []ent.Hook { return dcim.PowerFeedHooks() }
