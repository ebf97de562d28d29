package circuits

import (
	"context"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// GroupPriorities are the choices of a circuit group assignment's priority.
var GroupPriorities = api.C("primary", "Primary", "secondary", "Secondary", "tertiary", "Tertiary", "inactive", "Inactive")

// GroupMemberTypes are the objects a circuit group may hold
// (CIRCUIT_GROUP_ASSIGNMENT_MEMBER_MODELS).
var GroupMemberTypes = []string{"circuits.circuit", "circuits.virtualcircuit"}

// CircuitGroupAssignmentDisplay is NetBox's CircuitGroupAssignment.__str__:
// the group's name, with the priority's label in parentheses when set.
func CircuitGroupAssignmentDisplay(get api.Getter) string {
	name := rawsql.StringOf(get("_group_name"))
	if p := rawsql.StringOf(get("priority")); p != "" {
		return name + " (" + label(GroupPriorities, p) + ")"
	}
	return name
}

// CircuitGroupAssignmentHooks: the group's name copied for the display.
func CircuitGroupAssignmentHooks() []ent.Hook {
	return []ent.Hook{copyName("group_id", tableGroup, "name", "_group_name")}
}

// CircuitGroupHooks: a renamed group renames itself in its assignments'
// displays.
func CircuitGroupHooks() []ent.Hook {
	return []ent.Hook{rawsql.CopyOnRename("name", tableGroupAssignment, "group_id", "_group_name")}
}

// ProviderAccountDisplay is NetBox's ProviderAccount.__str__: the account,
// with the name in parentheses when set.
func ProviderAccountDisplay(get api.Getter) string {
	acct := rawsql.StringOf(get("account"))
	if n := rawsql.StringOf(get("name")); n != "" {
		return acct + " (" + n + ")"
	}
	return acct
}

// ProviderAccountHooks: an account's name, when not blank, is unique per
// provider (NetBox's conditional constraint
// circuits_provideraccount_unique_provider_name).
func ProviderAccountHooks() []ent.Hook {
	return []ent.Hook{rowHook(tableProviderAccount, []string{"provider_id", "name"},
		func(ctx context.Context, m rawsql.Mutation, id int, row map[string]any) error {
			name := rawsql.StringOf(row["name"])
			provider, ok := rawsql.IntOf(row["provider_id"])
			if name == "" || !ok {
				return nil
			}
			a := &rawsql.Args{PG: rawsql.Postgres(m)}
			n, err := rawsql.Int(ctx, m, `SELECT COUNT(*) FROM "`+tableProviderAccount+`" WHERE provider_id = `+a.P(provider)+
				` AND name = `+a.P(name)+` AND id <> `+a.P(id), a)
			if err != nil || n == 0 {
				return err
			}
			return &api.FieldError{Field: "__all__", Message: "Constraint “circuits_provideraccount_unique_provider_name” is violated."}
		})}
}
