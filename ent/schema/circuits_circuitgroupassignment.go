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

// CircuitGroupAssignment is circuits.CircuitGroupAssignment: a circuit or
// virtual circuit (a generic relation: deleting it deletes the
// assignment) in a group, with a priority; once per member and group. The
// display reads the group's name from a cached copy (the hooks keep it).
type CircuitGroupAssignment struct{ ent.Schema }

// Mixin: NetBox's ChangeLoggedModel with tags (its custom fields are in
// no representation: the serializer shows none).
func (CircuitGroupAssignment) Mixin() []ent.Mixin { return []ent.Mixin{ChangeLogged{}, Tagged{}} }

func (CircuitGroupAssignment) Fields() []ent.Field {
	return []ent.Field{
		field.String("member_type").Annotations(api.Field{Types: circuits.GroupMemberTypes, OnDelete: api.Cascade}),
		field.Int("member_id"),
		field.Int("group_id"),
		field.String("priority").MaxRuneLen(50).Optional().Nillable().
			Annotations(api.Field{Kind: "choice", Choices: circuits.GroupPriorities}),
		field.String("_group_name").Default("").Annotations(api.Field{Kind: "hidden"}),
	}
}

func (CircuitGroupAssignment) Edges() []ent.Edge {
	return []ent.Edge{FKRequired("group", CircuitGroup.Type, api.Cascade)}
}

func (CircuitGroupAssignment) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("member_type", "member_id", "group_id").Unique(),
		// A short name: ent shortens names past 64 characters with a hash on
		// SQLite, which its inspection then never matches (a rebuild planned
		// on every start).
		index.Fields("group_id", "member_type", "member_id", "priority", "id").StorageKey("circuitgroupassignment_group_order"),
	}
}

func (CircuitGroupAssignment) Hooks() []ent.Hook { return circuits.CircuitGroupAssignmentHooks() }

func (CircuitGroupAssignment) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "circuits_circuitgroupassignment"},
		api.Model{
			App: "circuits", Path: "circuit-group-assignments", Verbose: "Circuit group assignment",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "group", "member_type", "member_id", "member",
				"priority", "tags", "created", "last_updated"},
			Brief:       []string{"id", "url", "display", "group", "member_type", "member_id", "member", "priority"},
			DisplayFunc: api.Func(api.LogicPkg("circuits"), "CircuitGroupAssignmentDisplay"),
			Search:      []string{"_group_name"},
			Ordering:    []string{"_group_name", "member_type", "member_id", "priority", "id"},
			Unique: []api.Unique{{Fields: []string{"member_type", "member_id", "group"},
				Message: "Circuit group assignment with this Member type, Member ID and Group already exists."}},
			Filters: []api.Filter{
				{Name: "circuit_id", Kind: "generic-id", Column: "member", Target: "circuits.circuit"},
				{Name: "circuit", Kind: "generic-attr", Column: "member", Target: "circuits.circuit", Attr: "cid"},
				{Name: "virtual_circuit_id", Kind: "generic-id", Column: "member", Target: "circuits.virtualcircuit"},
				{Name: "virtual_circuit", Kind: "generic-attr", Column: "member", Target: "circuits.virtualcircuit", Attr: "cid"},
				// A circuit's provider, or a virtual circuit's provider
				// network's (NetBox's filter_provider).
				{Name: "provider_id", Kind: "generic-via", Column: "member", Attr: "id",
					Target: "circuits.circuit:provider,circuits.virtualcircuit:provider_network.provider"},
				{Name: "provider", Kind: "generic-via", Column: "member", Attr: "slug",
					Target: "circuits.circuit:provider,circuits.virtualcircuit:provider_network.provider"},
			},
		},
	}
}
