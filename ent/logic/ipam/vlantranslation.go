package ipam

import (
	"context"
	"fmt"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// VLAN translation rules show their policy's name in their display
// ("100 -> 200 (Policy A)"). The rule keeps a copy of it in the hidden
// column _policy_name, so that a page of rules renders from its own rows:
// the rule's hook fills it whenever the policy is set (answering, as
// DRF's PrimaryKeyRelatedField does, when the policy does not exist), the
// policy's hook refreshes it when the policy is renamed.

// VLANTranslationRuleHooks are the hooks of ipam.VLANTranslationRule.
func VLANTranslationRuleHooks() []ent.Hook {
	return []ent.Hook{func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			id, ok := intField(m, "policy_id")
			if !ok || !m.Op().Is(ent.OpCreate|ent.OpUpdate|ent.OpUpdateOne) {
				return next.Mutate(ctx, m)
			}
			rm, err := rawsql.As("vlan translation rule hook", m)
			if err != nil {
				return nil, err
			}
			a := &rawsql.Args{PG: rawsql.Postgres(rm)}
			name, found, err := policyName(ctx, rm, `SELECT name FROM "ipam_vlantranslationpolicy" WHERE id = `+a.P(id), a)
			if err != nil {
				return nil, err
			}
			if !found {
				return nil, &api.FieldError{Field: "policy", Message: fmt.Sprintf(`Invalid pk "%d" - object does not exist.`, id)}
			}
			if err := m.SetField("_policy_name", name); err != nil {
				return nil, err
			}
			return next.Mutate(ctx, m)
		})
	}}
}

// VLANTranslationPolicyHooks are the hooks of ipam.VLANTranslationPolicy:
// a renamed policy renames itself in its rules' cached copy.
func VLANTranslationPolicyHooks() []ent.Hook {
	return []ent.Hook{func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			v, ok := m.Field("name")
			if !ok || !m.Op().Is(ent.OpUpdate|ent.OpUpdateOne) {
				return next.Mutate(ctx, m)
			}
			rm, err := rawsql.As("vlan translation policy hook", m)
			if err != nil {
				return nil, err
			}
			ids, err := rawsql.TargetIDs(ctx, rm)
			if err != nil {
				return nil, err
			}
			out, err := next.Mutate(ctx, m)
			if err != nil {
				return nil, err
			}
			err = rawsql.Chunks(ids, func(ids []int) error {
				a := &rawsql.Args{PG: rawsql.Postgres(rm)}
				q := `UPDATE "ipam_vlantranslationrule" SET "_policy_name" = ` + a.P(v) + ` WHERE policy_id IN (` + rawsql.In(a, ids) + `)`
				return rawsql.Exec(ctx, rm, q, a)
			})
			return out, err
		})
	}}
}

func policyName(ctx context.Context, q rawsql.Querier, query string, a *rawsql.Args) (string, bool, error) {
	rows, err := q.QueryContext(ctx, query, a.List...)
	if err != nil {
		return "", false, err
	}
	defer rows.Close()
	if !rows.Next() {
		return "", false, rows.Err()
	}
	var s string
	err = rows.Scan(&s)
	return s, err == nil, err
}
