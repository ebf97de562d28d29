package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/circuits"
	"github.com/inventory/inventory/ent/schema/api"
)

// CircuitTermination is circuits.CircuitTermination: side A or Z of a
// circuit (once each), attached to a region, site group, site, location or
// provider network (a generic relation, required by clean()). The hooks
// keep the cached scope (_region, _site_group, _site, _location,
// _provider_network, as NetBox's cache_related_objects()) that the site,
// location and region filters and sites' circuit_count read, the
// circuit's cid for the display, and the circuit's termination_a/_z.
// Deleting the circuit, or the region, site group, site or location it is
// cached under, deletes it; a provider network it sits on cannot be
// deleted.
type CircuitTermination struct{ ent.Schema }

func (CircuitTermination) Mixin() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, CustomFields{}}
}

func (CircuitTermination) Fields() []ent.Field {
	return append([]ent.Field{
		field.Int("circuit_id"),
		// Rendered as the bare value (NetBox's serializer takes the model's
		// CharField with choices as is).
		field.String("term_side").MaxRuneLen(1).Annotations(api.Field{Choices: circuits.TerminationSides}),
		// No on_delete: NetBox has no GenericRelation back from the
		// termination types; the cached keys below say what a delete does.
		field.String("termination_type").Optional().Nillable().Annotations(api.Field{Types: circuits.TerminationTypes}),
		field.Int("termination_id").Optional().Nillable(),
		field.Int("port_speed").Optional().Nillable().Min(0).Max(maxPositiveInt).
			Annotations(api.Field{Min: api.Int(0), Max: api.Int(maxPositiveInt)}),
		field.Int("upstream_speed").Optional().Nillable().Min(0).Max(maxPositiveInt).
			Annotations(api.Field{Min: api.Int(0), Max: api.Int(maxPositiveInt)}),
		field.String("xconnect_id").MaxRuneLen(50).Default(""),
		field.String("pp_info").MaxRuneLen(100).Default(""),
		field.String("description").MaxRuneLen(200).Default(""),
		// CabledObjectModel's mark_connected, and _occupied (mark_connected
		// or a cable).
		field.Bool("mark_connected").Default(false),
		field.Bool("_occupied").Default(false).Annotations(api.Field{ReadOnly: true}),
		// The circuit's cid, for the display (the hooks keep it).
		field.String("_circuit_cid").Default("").Annotations(api.Field{Kind: "hidden"}),
		CachedFK("_provider_network", "circuits.providernetwork", api.Protect),
		CachedFK("_location", "dcim.location", api.Cascade),
		CachedFK("_site", "dcim.site", api.Cascade),
		CachedFK("_region", "dcim.region", api.Cascade),
		CachedFK("_site_group", "dcim.sitegroup", api.Cascade),
	}, CabledFields()...)
}

func (CircuitTermination) Edges() []ent.Edge {
	return []ent.Edge{FKRequired("circuit", Circuit.Type, api.Cascade), CableEdge()}
}

func (CircuitTermination) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("circuit_id", "term_side").Unique(),
		index.Fields("termination_type", "termination_id"),
		index.Fields("_provider_network_id"), index.Fields("_location_id"), index.Fields("_site_id"),
		index.Fields("_region_id"), index.Fields("_site_group_id"), index.Fields("cable_id"),
	}
}

func (CircuitTermination) Hooks() []ent.Hook { return circuits.CircuitTerminationHooks() }

// terminationPaths is the paths endpoint of virtual circuit terminations
// (NetBox's PassThroughPortMixin; circuit terminations serve the stored
// cable paths through them: passThroughPaths).
func terminationPaths() api.Endpoint {
	return api.Endpoint{Name: "paths", Detail: true, Ops: []api.Op{{
		Method: "GET", Permission: "view", Func: api.Func(api.LogicPkg("circuits"), "TerminationPaths"),
		Summary: "The cable paths that pass through the termination", Response: "list:CablePath",
		Description: "A list of cable paths (a virtual circuit termination takes no cable: none).", Errors: []int{404},
	}}}
}

func (CircuitTermination) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "circuits_circuittermination"},
		api.Model{
			// NetBox's SerializerMethodField (CabledObjectSerializer), a column here.
			Metadata: map[string]api.Meta{"_occupied": {Type: "field"}},
			App:      "circuits", Path: "circuit-terminations", Verbose: "circuit termination",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:      map[string]any{"termination_type": nil, "termination_id": nil},
			ChangeRelated: []string{"circuit"}, // NetBox's to_objectchange()
			GenericOnly:   true,
			Fields: []string{"id", "url", "display_url", "display", "circuit", "term_side", "termination_type",
				"termination_id", "termination", "port_speed", "upstream_speed", "xconnect_id", "pp_info", "description",
				"mark_connected", "cable", "cable_end", "link_peers", "link_peers_type", "tags", "custom_fields",
				"created", "last_updated", "_occupied"},
			Brief:       []string{"id", "url", "display", "circuit", "term_side", "description", "cable", "_occupied"},
			DisplayFunc: api.Func(api.LogicPkg("circuits"), "CircuitTerminationDisplay"),
			Search:      []string{"_circuit_cid", "xconnect_id", "pp_info", "description"},
			Ordering:    []string{"circuit", "term_side"},
			Unique: []api.Unique{{Fields: []string{"circuit", "term_side"},
				Message: "Circuit termination with this Circuit and Termination side already exists."}},
			Refs: LinkPeerRefs(),
			Filters: []api.Filter{
				{Name: "occupied", Kind: "boolean", Column: "_occupied"},
				{Name: "cabled", Kind: "is-set", Column: "cable_id"},
				{Name: "cable_connector", Kind: "integer", Column: "cable_connector"},
				// The cached scope (NetBox's _region, _site_group, _site,
				// _location, _provider_network), kept by the hooks.
				{Name: "region_id", Kind: "tree-id", Column: "_region_id", Target: "dcim.region"},
				{Name: "region", Kind: "tree-attr", Column: "_region_id", Target: "dcim.region", Attr: "slug"},
				{Name: "site_group_id", Kind: "tree-id", Column: "_site_group_id", Target: "dcim.sitegroup"},
				{Name: "site_group", Kind: "tree-attr", Column: "_site_group_id", Target: "dcim.sitegroup", Attr: "slug"},
				{Name: "site_id", Kind: "fk-id", Column: "_site_id", Target: "dcim.site"},
				{Name: "site", Kind: "fk-attr", Column: "_site_id", Target: "dcim.site", Attr: "slug"},
				{Name: "location_id", Kind: "tree-id", Column: "_location_id", Target: "dcim.location"},
				{Name: "location", Kind: "tree-attr", Column: "_location_id", Target: "dcim.location", Attr: "slug"},
				{Name: "provider_network_id", Kind: "fk-id", Column: "_provider_network_id", Target: "circuits.providernetwork"},
				{Name: "provider_id", Kind: "fk-id", Via: "circuit", Column: "provider"},
				{Name: "provider", Kind: "fk-attr", Via: "circuit", Column: "provider"},
			},
			NoFilters: []string{"_occupied"},
			Endpoints: []api.Endpoint{passThroughPaths("CircuitTerminationPaths")},
		},
	}
}
