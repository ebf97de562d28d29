package tenancy

import (
	"context"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

const (
	tableContact    = `"tenancy_contact"`
	tableAssignment = "tenancy_contactassignment"
)

// ContactPriorities are NetBox's ContactPriorityChoices.
var ContactPriorities = api.C("primary", "Primary", "secondary", "Secondary", "tertiary", "Tertiary", "inactive", "Inactive")

// ContactAssignmentDisplay is NetBox's ContactAssignment.__str__: the
// contact, the priority's label in parentheses when set, and the object.
func ContactAssignmentDisplay(get api.Getter) string {
	s := rawsql.StringOf(get("_contact_name"))
	if p := rawsql.StringOf(get("priority")); p != "" {
		for _, c := range ContactPriorities {
			if c.Value == p {
				s += " (" + c.Label + ")"
			}
		}
	}
	return s + " -> " + rawsql.StringOf(get("_object_display"))
}

// ContactAssignmentHooks: the contact's name copied for the display
// whenever the write sets the contact.
func ContactAssignmentHooks() []ent.Hook {
	return []ent.Hook{func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			v, ok := m.Field("contact_id")
			id, isInt := rawsql.IntOf(v)
			if !ok || !isInt || !m.Op().Is(ent.OpCreate|ent.OpUpdate|ent.OpUpdateOne) {
				return next.Mutate(ctx, m)
			}
			sm, err := rawsql.As("contact assignment hook", m)
			if err != nil {
				return nil, err
			}
			rows, err := rawsql.LoadRows(ctx, sm, tableContact, []string{"name"}, []int{id})
			if err != nil {
				return nil, err
			}
			if row := rows[id]; row != nil {
				if err := m.SetField("_contact_name", rawsql.StringOf(row["name"])); err != nil {
					return nil, err
				}
			}
			return next.Mutate(ctx, m)
		})
	}}
}

// ContactHooks: a renamed contact renames itself in its assignments'
// displays (NetBox renders the name live; no change record either way).
func ContactHooks() []ent.Hook {
	return []ent.Hook{rawsql.CopyOnRename("name", tableAssignment, "contact_id", "_contact_name")}
}
