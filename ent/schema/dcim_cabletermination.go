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

// CableTermination is dcim.CableTermination: one object at one end of a
// cable. Rows are written by the cable's hooks only (the endpoint is
// read-only, as NetBox's); they cache the terminated object's device,
// rack, location and site for the cables' filters (NetBox's
// cache_related_objects()). An object is terminated by one cable at
// most; deleting the cable, or the object, deletes the row.
type CableTermination struct{ ent.Schema }

func (CableTermination) Mixin() []ent.Mixin { return []ent.Mixin{ChangeLogged{}} }

func (CableTermination) Fields() []ent.Field {
	return []ent.Field{
		field.Int("cable_id").Annotations(api.Field{ReadOnly: true}),
		field.String("cable_end").MaxRuneLen(1).Annotations(api.Field{Choices: CableEnd, ReadOnly: true}),
		// Deleting the object deletes its termination rows (NetBox's
		// GenericRelation cable_terminations on every cabled model).
		field.String("termination_type").Annotations(api.Field{Types: dcim.CabledTypes, OnDelete: api.Cascade, ReadOnly: true}),
		field.Int("termination_id").Annotations(api.Field{ReadOnly: true}),
		// The connector and positions a cable profile assigns.
		field.Int("connector").Optional().Nillable().Annotations(api.Field{ReadOnly: true}),
		field.JSON("positions", []int{}).Optional().Annotations(api.Field{Kind: "json", ReadOnly: true}),
		// The display, "Cable <cable> to <object>" (NetBox's __str__),
		// kept by the cable hooks.
		field.String("_display").Default("").Annotations(api.Field{Kind: "hidden"}),
		CachedFK("_device", "dcim.device", api.Cascade),
		CachedFK("_rack", "dcim.rack", api.Cascade),
		CachedFK("_location", "dcim.location", api.Cascade),
		CachedFK("_site", "dcim.site", api.Cascade),
	}
}

func (CableTermination) Edges() []ent.Edge {
	return []ent.Edge{FKRequired("cable", Cable.Type, api.Cascade)}
}

func (CableTermination) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("termination_type", "termination_id").Unique(),
		index.Fields("cable_id", "cable_end", "connector").Unique(),
		index.Fields("_device_id"), index.Fields("_rack_id"), index.Fields("_location_id"), index.Fields("_site_id"),
	}
}

// Hooks: a termination deleted with its cable or its object clears what
// it set (ent/logic/dcim/cable_hooks.go).
func (CableTermination) Hooks() []ent.Hook { return dcim.CableTerminationHooks() }

func (CableTermination) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_cabletermination"},
		api.Model{
			App: "dcim", Path: "cable-terminations", Verbose: "cable termination",
			GenericOnly: true, ReadOnly: true,
			Fields: []string{"id", "url", "display", "cable", "cable_end", "termination_type", "termination_id",
				"termination", "connector", "positions", "created", "last_updated"},
			Brief: []string{"id", "url", "display", "cable", "cable_end", "connector", "positions", "termination_type",
				"termination_id"},
			DisplayFunc: api.Func(api.LogicPkg("dcim"), "CableTerminationDisplay"),
			Ordering:    []string{"cable", "cable_end", "connector", "id"},
			// NetBox's to_objectchange(): the terminated object.
			ChangeRelated: []string{"termination"},
			Filters: func() []api.Filter {
				fs := []api.Filter{{Name: "cable", Kind: "fk-id", Column: "cable_id", Target: "dcim.cable"}}
				for _, ct := range dcim.CabledTypes {
					fs = append(fs, api.Filter{Name: ctModel(ct) + "_id", Kind: "termination-of", Target: ct})
				}
				return fs
			}(),
		},
	}
}
