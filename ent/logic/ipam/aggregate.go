package ipam

import (
	"context"
	"errors"
	"fmt"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/ent/schema/ipnet"
)

// AggregateHooks are the hooks of ipam.Aggregate: NetBox's
// Aggregate.clean() (aggregateHook).
func AggregateHooks() []ent.Hook { return []ent.Hook{aggregateHook} }

const aggregateTable = `"ipam_aggregate"`

// aggregateLockSpace is the key of the aggregates' advisory lock on
// PostgreSQL ("aggr"), held by the overlap check until the transaction ends.
const aggregateLockSpace = 0x61676772

// aggregateHook derives the hidden containment columns of an aggregate
// (family, network, broadcast, prefix_length, as Prefix keeps them) from
// its prefix and refuses one that overlaps another aggregate, covering
// or covered, with NetBox's messages. Aggregates have no VRF: the whole
// table is one space, serialised on PostgreSQL by an advisory lock so
// that two concurrent writes cannot both pass the check.
func aggregateHook(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		v, ok := m.Field("prefix")
		if !ok || !m.Op().Is(ent.OpCreate|ent.OpUpdate|ent.OpUpdateOne) {
			return next.Mutate(ctx, m)
		}
		am, err := rawsql.As("aggregate hook", m)
		if err != nil {
			return nil, err
		}
		p, msg := ipnet.Canonical(v.(string), false)
		if msg != "" {
			return nil, &api.FieldError{Field: "prefix", Message: msg}
		}
		if p.Bits() == 0 {
			return nil, &api.FieldError{Field: "prefix", Message: "Cannot create aggregate with /0 mask."}
		}
		k := ipnet.KeyOf(p)
		ids := []int{0}
		if !m.Op().Is(ent.OpCreate) {
			if ids, err = rawsql.TargetIDs(ctx, am); err != nil {
				return nil, err
			}
		}
		if len(ids) > 1 {
			// Every row would get the same prefix: they would overlap.
			return nil, &api.FieldError{Field: "prefix", Message: fmt.Sprintf(
				"Aggregates cannot overlap. %s would be given to %d aggregates.", p, len(ids))}
		}
		if err := checkAggregate(ctx, am, p.String(), k, ids...); err != nil {
			return nil, err
		}
		for name, v := range map[string]any{"prefix": p.String(), "family": k.Family, "network": k.Network,
			"broadcast": k.Broadcast, "prefix_length": k.Length} {
			if err := m.SetField(name, v); err != nil {
				return nil, err
			}
		}
		return next.Mutate(ctx, m)
	})
}

// checkAggregate refuses prefix (key k) for the aggregate self (0: a new
// one) when an existing aggregate covers it or lies inside it.
func checkAggregate(ctx context.Context, m rawsql.Mutation, prefix string, k ipnet.Key, self ...int) error {
	pg := rawsql.Postgres(m)
	if pg {
		a := &rawsql.Args{PG: pg}
		if err := rawsql.Exec(ctx, m, `SELECT pg_advisory_xact_lock(`+a.P(aggregateLockSpace)+`)`, a); err != nil {
			return err
		}
	}
	// Covering (or equal): a network among the supernets of k, as
	// Prefix's parents are found (an index lookup).
	a := &rawsql.Args{PG: pg}
	nets := append(ipnet.Supernets(k), k.Network)
	q := `SELECT prefix FROM ` + aggregateTable + ` WHERE family = ` + a.P(k.Family) + ` AND network IN (` +
		rawsql.In(a, nets) + `) AND prefix_length <= ` + a.P(k.Length) + ` AND broadcast >= ` + a.P(k.Broadcast) +
		` AND id NOT IN (` + rawsql.In(a, self) + `) ORDER BY network, prefix_length, id LIMIT 1`
	if other, err := firstString(ctx, m, q, a); err != nil || other != "" {
		if err != nil {
			return err
		}
		return &api.FieldError{Field: "prefix", Message: fmt.Sprintf(
			"Aggregates cannot overlap. %s is already covered by an existing aggregate (%s).", prefix, other)}
	}
	// Covered: a range scan of the networks inside k.
	a = &rawsql.Args{PG: pg}
	q = `SELECT prefix FROM ` + aggregateTable + ` WHERE family = ` + a.P(k.Family) + ` AND network >= ` + a.P(k.Network) +
		` AND network <= ` + a.P(k.Broadcast) + ` AND prefix_length > ` + a.P(k.Length) +
		` AND id NOT IN (` + rawsql.In(a, self) + `) ORDER BY network, prefix_length, id LIMIT 1`
	if other, err := firstString(ctx, m, q, a); err != nil || other != "" {
		if err != nil {
			return err
		}
		return &api.FieldError{Field: "prefix", Message: fmt.Sprintf(
			"Prefixes cannot overlap aggregates. %s covers an existing aggregate (%s).", prefix, other)}
	}
	return nil
}

// firstString runs a query for one text column: its first row, or "".
func firstString(ctx context.Context, q rawsql.Querier, query string, a *rawsql.Args) (string, error) {
	rows, err := q.QueryContext(ctx, query, a.List...)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	if !rows.Next() {
		return "", rows.Err()
	}
	var s string
	if err := rows.Scan(&s); err != nil {
		return "", err
	}
	if s == "" {
		return "", errors.New("aggregate hook: an aggregate without prefix")
	}
	return s, rows.Err()
}
