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

// FHRPGroupAssignment is ipam.FHRPGroupAssignment: an interface taking
// part in an FHRP group, with its priority (a generic relation to the
// interface: VM interfaces join when they land). Deleting the interface
// or the group deletes it.
type FHRPGroupAssignment struct{ ent.Schema }

// Mixin: NetBox's ChangeLoggedModel only (no tags, custom fields or
// description).
func (FHRPGroupAssignment) Mixin() []ent.Mixin { return []ent.Mixin{ChangeLogged{}} }

func (FHRPGroupAssignment) Fields() []ent.Field {
	return []ent.Field{
		field.Int("group_id"),
		field.String("interface_type").Annotations(api.Field{Types: ipam.FHRPAssignmentInterfaceTypes, OnDelete: api.Cascade}),
		field.Int("interface_id"),
		// NetBox's PositiveSmallIntegerField, between
		// FHRPGROUPASSIGNMENT_PRIORITY_MIN and _MAX.
		field.Int("priority").Min(0).Max(255).Annotations(api.Field{Min: api.Int(0), Max: api.Int(255)}),
		// _display caches "<interface>: <group>" (the hooks keep it).
		field.String("_display").Default("").Annotations(api.Field{Kind: "hidden"}),
	}
}

func (FHRPGroupAssignment) Edges() []ent.Edge {
	return []ent.Edge{FKRequired("group", FHRPGroup.Type, api.Cascade)}
}

func (FHRPGroupAssignment) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("interface_type", "interface_id", "group_id").Unique(),
		index.Fields("priority", "id"),
		index.Fields("group_id"),
	}
}

func (FHRPGroupAssignment) Hooks() []ent.Hook { return ipam.FHRPGroupAssignmentHooks() }

func (FHRPGroupAssignment) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "ipam_fhrpgroupassignment"},
		api.Model{
			App: "ipam", Path: "fhrp-group-assignments", Model: "fhrpgroupassignment", Verbose: "FHRP group assignment",
			GenericOnly: true,
			Fields: []string{"id", "url", "display", "group", "interface_type", "interface_id", "interface", "priority",
				"created", "last_updated"},
			Brief:       []string{"id", "url", "display", "group", "interface_type", "interface_id", "priority"},
			DisplayFunc: api.Func(api.LogicPkg("ipam"), "FHRPGroupAssignmentDisplay"),
			Ordering:    []string{"-priority", "id"},
			Unique:      []api.Unique{{Fields: []string{"interface_type", "interface_id", "group"}}},
			Filters: []api.Filter{
				{Name: "device_id", Kind: "interfaces-of-device", Column: "interface", Attr: "id"},
				{Name: "device", Kind: "interfaces-of-device", Column: "interface", Attr: "name"},
				{Name: "virtual_machine_id", Kind: "assigned-interface", Column: "interface", Attr: "device_id", Target: "virtualization.vminterface"},
				{Name: "virtual_machine", Kind: "assigned-interface", Column: "interface", Attr: "device", Target: "virtualization.vminterface"},
			},
		},
	}
}
