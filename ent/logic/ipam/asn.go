package ipam

import (
	"context"
	"fmt"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// The bounds of a BGP AS number (NetBox's BGP_ASN_MIN and BGP_ASN_MAX):
// 32 bits.
const (
	ASNMin = 1
	ASNMax = 1<<32 - 1
)

// ASNRangeHooks are the hooks of ipam.ASNRange: NetBox's ASNRange.clean(),
// the end above the start.
func ASNRangeHooks() []ent.Hook {
	return []ent.Hook{func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if !m.Op().Is(ent.OpCreate|ent.OpUpdate|ent.OpUpdateOne) || !rawsql.Touched(m, "start", "end") {
				return next.Mutate(ctx, m)
			}
			rm, err := rawsql.As("asn range hook", m)
			if err != nil {
				return nil, err
			}
			check := func(start, end int) error {
				if end <= start {
					return &api.FieldError{Field: "__all__", Message: fmt.Sprintf(
						"Starting ASN (%d) must be lower than ending ASN (%d).", start, end)}
				}
				return nil
			}
			start, okS := intField(m, "start")
			end, okE := intField(m, "end")
			if m.Op().Is(ent.OpCreate) {
				if okS && okE {
					if err := check(start, end); err != nil {
						return nil, err
					}
				}
				return next.Mutate(ctx, m)
			}
			ids, err := rawsql.TargetIDs(ctx, rm)
			if err != nil {
				return nil, err
			}
			for _, id := range ids {
				a := &rawsql.Args{PG: rawsql.Postgres(rm)}
				rows, err := rm.QueryContext(ctx, `SELECT "start", "end" FROM "ipam_asnrange" WHERE id = `+a.P(id), a.List...)
				if err != nil {
					return nil, err
				}
				s, e, found := 0, 0, rows.Next()
				if found {
					err = rows.Scan(&s, &e)
				}
				rows.Close()
				if err != nil {
					return nil, err
				}
				if !found {
					continue
				}
				if okS {
					s = start
				}
				if okE {
					e = end
				}
				if err := check(s, e); err != nil {
					return nil, err
				}
			}
			return next.Mutate(ctx, m)
		})
	}}
}

// intField is an integer field the mutation sets.
func intField(m ent.Mutation, name string) (int, bool) {
	v, ok := m.Field(name)
	if !ok {
		return 0, false
	}
	n, ok := v.(int)
	return n, ok
}
