package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// RackReservation is dcim.RackReservation: units of a rack reserved for a
// user (and optionally a tenant).
type RackReservation struct{ ent.Schema }

func (RackReservation) Mixin() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, CustomFields{}, Owned{}}
}

// RackReservationStatus are the choices of a reservation's status.
var RackReservationStatus = api.C("pending", "Pending", "active", "Active", "stale", "Stale")

func (RackReservation) Fields() []ent.Field {
	return []ent.Field{
		field.Int("rack_id"),
		// units: the reserved unit numbers, validated against the rack by
		// the hook (each in the rack, none reserved by another reservation).
		field.JSON("units", []int{}).Annotations(api.Field{Kind: "json", NoBlank: true}),
		// unit_count is len(units), kept by the hook (a column, so that
		// unit_count_min/max filter in SQL on both databases).
		field.Int("unit_count").Default(0).Annotations(api.Field{ReadOnly: true}),
		field.String("status").MaxRuneLen(50).Default("active").
			Annotations(api.Field{Kind: "choice", Choices: RackReservationStatus}),
		FKField("tenant"),
		field.Int("user_id"),
		field.String("description").MaxRuneLen(200).NotEmpty(),
		field.Text("comments").Default(""),
		// _rack_display caches the rack's display for the reservation's
		// own ("Reservation for rack R1 (F-1)"), kept by the hooks of both.
		field.String("_rack_display").Default("").Annotations(api.Field{Kind: "hidden"}),
	}
}

func (RackReservation) Edges() []ent.Edge {
	return []ent.Edge{
		FKRequired("rack", Rack.Type, api.Cascade),
		FK("tenant", Tenant.Type, api.Protect),
		FKRequired("user", User.Type, api.Protect),
	}
}

func (RackReservation) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_rackreservation"},
		api.Model{
			// NetBox's SerializerMethodField, a column here.
			Metadata: map[string]api.Meta{"unit_count": {Type: "field"}},
			App:      "dcim", Path: "rack-reservations", Verbose: "rack reservation",
			ChangeRelated: []string{"rack"}, // NetBox's to_objectchange()
			GenericOnly:   true,
			Fields: []string{"id", "url", "display_url", "display", "rack", "units", "unit_count", "status", "created",
				"last_updated", "user", "tenant", "description", "owner", "comments", "tags", "custom_fields"},
			Brief:       []string{"id", "url", "display", "status", "user", "description", "units"},
			DisplayFunc: api.Func(api.LogicPkg("dcim"), "RackReservationDisplay"),
			Search:      []string{"_rack_display", "description"},
			Ordering:    []string{"created", "id"},
			Filters: append(TenancyFilters(),
				api.Filter{Name: "region_id", Kind: "tree-id", Via: "rack.site", Column: "region"},
				api.Filter{Name: "region", Kind: "tree-attr", Via: "rack.site", Column: "region"},
				api.Filter{Name: "site_group_id", Kind: "tree-id", Via: "rack.site", Column: "group"},
				api.Filter{Name: "site_group", Kind: "tree-attr", Via: "rack.site", Column: "group"},
				api.Filter{Name: "site_id", Kind: "fk-id", Via: "rack", Column: "site"},
				api.Filter{Name: "site", Kind: "fk-attr", Via: "rack", Column: "site"},
				api.Filter{Name: "location_id", Kind: "tree-id", Via: "rack", Column: "location"},
				api.Filter{Name: "location", Kind: "tree-attr", Via: "rack", Column: "location"},
				api.Filter{Name: "group_id", Kind: "fk-id", Via: "rack", Column: "group"},
				api.Filter{Name: "group", Kind: "fk-attr", Via: "rack", Column: "group"},
				api.Filter{Name: "unit", Kind: "json-ints-contain", Column: "units"},
				api.Filter{Name: "unit_count_min", Kind: "int-min", Column: "unit_count"},
				api.Filter{Name: "unit_count_max", Kind: "int-max", Column: "unit_count"}),
		},
	}
}

// Hooks: units are checked against the rack and its other reservations,
// and the rack's display is cached for the reservation's.
func (RackReservation) Hooks() []ent.Hook { return dcim.RackReservationHooks() }
