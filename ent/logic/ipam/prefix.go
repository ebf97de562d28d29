package ipam

import (
	"context"
	"errors"
	"fmt"

	"entgo.io/ent"
	"entgo.io/ent/dialect"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/ent/schema/ipnet"
)

// PrefixHooks are the hooks of ipam.Prefix, in order: the hierarchy
// (derived columns, _depth, _children), then the cached scope.
func PrefixHooks() []ent.Hook { return []ent.Hook{prefixHierarchyHook, prefixScopeHook} }

// prefixRow is a prefix's place in the containment hierarchy.
type prefixRow struct {
	ipnet.Key
	VRF int // vrf_key: 0 for the global table
}

func (a prefixRow) same(b prefixRow) bool {
	return a.VRF == b.VRF && a.Family == b.Family && a.Length == b.Length && string(a.Network) == string(b.Network)
}

// prefixHierarchyHook derives the hidden columns and keeps _depth (distinct
// strictly containing prefixes in the same VRF) and _children (strictly
// contained prefixes in the same VRF, duplicates counted) right, in the
// mutation's own transaction. Single-row creates, updates and deletes
// adjust the counters of the prefixes they enter or leave; many-row updates
// and deletes rebuild the VRFs involved. (CreateBulk runs every hook before
// inserting any row, so rows of one bulk do not see each other: call
// RebuildPrefixCaches after it.)
func prefixHierarchyHook(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		pm, err := rawsql.As("prefix hook", m)
		if err != nil {
			return nil, err
		}
		h := &prefixSQL{m: pm, pg: rawsql.Postgres(pm)}
		switch op := m.Op(); {
		case op.Is(ent.OpCreate):
			row, err := h.derive(ctx, nil)
			if err != nil {
				return nil, err
			}
			if err := h.checkUnique(ctx, *row, 0); err != nil {
				return nil, err
			}
			if err := h.enter(ctx, row, 0); err != nil {
				return nil, err
			}
			return next.Mutate(ctx, m)
		case op.Is(ent.OpUpdateOne):
			if !h.touched() {
				return next.Mutate(ctx, m)
			}
			id, _ := pm.ID()
			old, err := h.load(ctx, id)
			if err != nil {
				return nil, err
			}
			if old == nil {
				return next.Mutate(ctx, m) // not found: ent answers
			}
			row, err := h.derive(ctx, old)
			if err != nil {
				return nil, err
			}
			if !old.same(*row) {
				if err := h.checkUnique(ctx, *row, id); err != nil {
					return nil, err
				}
				if err := h.leave(ctx, *old, id); err != nil {
					return nil, err
				}
				if err := h.enter(ctx, row, id); err != nil {
					return nil, err
				}
			}
			return next.Mutate(ctx, m)
		case op.Is(ent.OpDeleteOne):
			id, _ := pm.ID()
			old, err := h.load(ctx, id)
			if err != nil {
				return nil, err
			}
			if old != nil {
				if err := h.leave(ctx, *old, id); err != nil {
					return nil, err
				}
			}
			return next.Mutate(ctx, m)
		default: // many-row update or delete
			if op.Is(ent.OpUpdate) && !h.touched() {
				return next.Mutate(ctx, m)
			}
			ids, err := pm.IDs(ctx)
			if err != nil {
				return nil, err
			}
			keys, err := h.vrfKeys(ctx, ids)
			if err != nil {
				return nil, err
			}
			if op.Is(ent.OpUpdate) {
				if err := h.deriveMany(); err != nil {
					return nil, err
				}
				if k, ok := h.newVRFKey(); ok {
					keys = append(keys, k)
				}
			}
			v, err := next.Mutate(ctx, m)
			if err != nil {
				return nil, err
			}
			return v, rebuildPrefixCaches(ctx, pm, h.pg, keys)
		}
	})
}

// prefixSQL runs the hook's statements on the mutation's connection.
type prefixSQL struct {
	m  rawsql.Mutation
	pg bool
}

const prefixTable = `"ipam_prefix"`

// touched reports whether the mutation changes the prefix or its VRF.
func (h *prefixSQL) touched() bool { return rawsql.Touched(h.m, "prefix", "vrf_id") }

// newVRFKey is the VRF key the mutation sets, if it sets one.
func (h *prefixSQL) newVRFKey() (int, bool) {
	if h.m.FieldCleared("vrf_id") {
		return 0, true
	}
	if v, ok := h.m.Field("vrf_id"); ok {
		return v.(int), true
	}
	return 0, false
}

// deriveMany sets the derived columns of a many-row update (the same prefix
// and VRF for every row).
func (h *prefixSQL) deriveMany() error {
	if v, ok := h.m.Field("prefix"); ok {
		if _, err := h.setPrefix(v.(string)); err != nil {
			return err
		}
	}
	if k, ok := h.newVRFKey(); ok {
		return h.m.SetField("vrf_key", k)
	}
	return nil
}

// derive computes and sets the hidden columns of a single-row create or
// update; old is the row before an update.
func (h *prefixSQL) derive(ctx context.Context, old *prefixRow) (*prefixRow, error) {
	row := &prefixRow{}
	if old != nil {
		*row = *old
	}
	if v, ok := h.m.Field("prefix"); ok {
		k, err := h.setPrefix(v.(string))
		if err != nil {
			return nil, err
		}
		row.Key = k
	} else if old == nil {
		return nil, errors.New("prefix: missing required field \"prefix\"")
	}
	if k, ok := h.newVRFKey(); ok {
		row.VRF = k
	}
	return row, h.m.SetField("vrf_key", row.VRF)
}

// setPrefix canonicalises the prefix text (clearing host bits, as NetBox's
// Prefix.save() does) and sets the columns derived from it.
func (h *prefixSQL) setPrefix(s string) (ipnet.Key, error) {
	p, msg := ipnet.Canonical(s, true)
	if msg != "" {
		return ipnet.Key{}, fmt.Errorf("prefix: %s", msg)
	}
	k := ipnet.KeyOf(p)
	for name, v := range map[string]any{"prefix": p.String(), "family": k.Family, "network": k.Network,
		"broadcast": k.Broadcast, "prefix_length": k.Length} {
		if err := h.m.SetField(name, v); err != nil {
			return ipnet.Key{}, err
		}
	}
	return k, nil
}

func (h *prefixSQL) args() *rawsql.Args { return &rawsql.Args{PG: h.pg} }

// parents is the WHERE clause of the strict supernets of r (other than
// row self).
func parents(a *rawsql.Args, r prefixRow, self int) string {
	sup := ipnet.Supernets(r.Key)
	if len(sup) == 0 {
		return "1 = 0"
	}
	return fmt.Sprintf(`vrf_key = %s AND family = %s AND network IN (%s) AND prefix_length < %s AND broadcast >= %s AND id <> %s`,
		a.P(r.VRF), a.P(r.Family), rawsql.In(a, sup), a.P(r.Length), a.P(r.Broadcast), a.P(self))
}

// children is the WHERE clause of the strict subnets of r (a range scan).
func children(a *rawsql.Args, r prefixRow, self int) string {
	return fmt.Sprintf(`vrf_key = %s AND family = %s AND network >= %s AND network <= %s AND prefix_length > %s AND id <> %s`,
		a.P(r.VRF), a.P(r.Family), a.P(r.Network), a.P(r.Broadcast), a.P(r.Length), a.P(self))
}

// duplicate reports whether another row than self has r's prefix in r's VRF.
func (h *prefixSQL) duplicate(ctx context.Context, r prefixRow, self int) (bool, error) {
	a := h.args()
	q := fmt.Sprintf(`SELECT COUNT(*) FROM (SELECT 1 FROM %s WHERE vrf_key = %s AND family = %s AND network = %s AND prefix_length = %s AND id <> %s LIMIT 1) d`,
		prefixTable, a.P(r.VRF), a.P(r.Family), a.P(r.Network), a.P(r.Length), a.P(self))
	n, err := rawsql.Int(ctx, h.m, q, a)
	return n > 0, err
}

// checkUnique refuses a duplicate of r in its VRF when the VRF's
// enforce_unique says so, or in the global table when
// ENFORCE_GLOBAL_UNIQUE does (NetBox's Prefix.clean()).
func (h *prefixSQL) checkUnique(ctx context.Context, r prefixRow, self int) error {
	q := newMutSQL(h.m)
	table := "global table"
	if r.VRF != 0 {
		a := q.args()
		v, err := q.row(ctx, `SELECT name, rd, enforce_unique FROM "ipam_vrf" WHERE id = `+a.P(r.VRF), a)
		if err != nil || v == nil {
			return err // a missing VRF was refused by the resource layer
		}
		if !truth(v["enforce_unique"]) {
			return nil
		}
		table = "VRF " + VRFDisplay(func(f string) any { return v[f] })
	} else if !api.SettingsFrom(ctx).EnforceGlobalUnique {
		return nil
	}
	a := q.args()
	dup, err := q.row(ctx, fmt.Sprintf(`SELECT prefix FROM %s WHERE vrf_key = %s AND family = %s AND network = %s AND prefix_length = %s AND id <> %s ORDER BY id LIMIT 1`,
		prefixTable, a.P(r.VRF), a.P(r.Family), a.P(r.Network), a.P(r.Length), a.P(self)), a)
	if err != nil || dup == nil {
		return err
	}
	return &api.FieldError{Field: "prefix", Message: fmt.Sprintf("Duplicate prefix found in %s: %s", table, rawsql.StringOf(dup["prefix"]))}
}

// enter accounts for row self taking place r: its own counters are computed
// and set on the mutation, its supernets gain a child, and its subnets gain
// a level unless an equal prefix was there already.
func (h *prefixSQL) enter(ctx context.Context, r *prefixRow, self int) error {
	a := h.args()
	depth, err := rawsql.Int(ctx, h.m, `SELECT COUNT(DISTINCT prefix_length) FROM `+prefixTable+` WHERE `+parents(a, *r, self), a)
	if err != nil {
		return err
	}
	a = h.args()
	kids, err := rawsql.Int(ctx, h.m, `SELECT COUNT(*) FROM `+prefixTable+` WHERE `+children(a, *r, self), a)
	if err != nil {
		return err
	}
	if err := h.m.SetField("_depth", depth); err != nil {
		return err
	}
	if err := h.m.SetField("_children", kids); err != nil {
		return err
	}
	if depth > 0 {
		a = h.args()
		if err := rawsql.Exec(ctx, h.m, `UPDATE `+prefixTable+` SET "_children" = "_children" + 1 WHERE `+parents(a, *r, self), a); err != nil {
			return err
		}
	}
	if kids > 0 {
		dup, err := h.duplicate(ctx, *r, self)
		if err != nil || dup {
			return err
		}
		a = h.args()
		return rawsql.Exec(ctx, h.m, `UPDATE `+prefixTable+` SET "_depth" = "_depth" + 1 WHERE `+children(a, *r, self), a)
	}
	return nil
}

// leave undoes enter for row self leaving place r.
func (h *prefixSQL) leave(ctx context.Context, r prefixRow, self int) error {
	a := h.args()
	if err := rawsql.Exec(ctx, h.m, `UPDATE `+prefixTable+` SET "_children" = "_children" - 1 WHERE `+parents(a, r, self), a); err != nil {
		return err
	}
	dup, err := h.duplicate(ctx, r, self)
	if err != nil || dup {
		return err
	}
	a = h.args()
	return rawsql.Exec(ctx, h.m, `UPDATE `+prefixTable+` SET "_depth" = "_depth" - 1 WHERE `+children(a, r, self), a)
}

// load reads the stored place of row id (nil when it does not exist).
func (h *prefixSQL) load(ctx context.Context, id int) (*prefixRow, error) {
	a := h.args()
	q := `SELECT vrf_key, family, network, broadcast, prefix_length FROM ` + prefixTable + ` WHERE id = ` + a.P(id)
	rows, err := h.m.QueryContext(ctx, q, a.List...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	if !rows.Next() {
		return nil, rows.Err()
	}
	r := &prefixRow{}
	if err := rows.Scan(&r.VRF, &r.Family, &r.Network, &r.Broadcast, &r.Length); err != nil {
		return nil, err
	}
	return r, rows.Err()
}

// vrfKeys are the distinct VRF keys of the rows ids.
func (h *prefixSQL) vrfKeys(ctx context.Context, ids []int) ([]int, error) {
	var out []int
	err := rawsql.Chunks(ids, func(ids []int) error {
		a := h.args()
		rows, err := h.m.QueryContext(ctx, `SELECT DISTINCT vrf_key FROM `+prefixTable+` WHERE id IN (`+rawsql.In(a, ids)+`)`, a.List...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var k int
			if err := rows.Scan(&k); err != nil {
				return err
			}
			out = append(out, k)
		}
		return rows.Err()
	})
	return out, err
}

// RebuildPrefixCaches recomputes _depth and _children of every prefix in the
// given VRF keys (0 is the global table) from scratch; dia is the driver's
// dialect (dialect.SQLite, dialect.Postgres).
func RebuildPrefixCaches(ctx context.Context, ex rawsql.Execer, dia string, vrfKeys []int) error {
	return rebuildPrefixCaches(ctx, ex, dia == dialect.Postgres, vrfKeys)
}

func rebuildPrefixCaches(ctx context.Context, ex rawsql.Execer, pg bool, vrfKeys []int) error {
	seen := map[int]bool{}
	for _, k := range vrfKeys {
		if seen[k] {
			continue
		}
		seen[k] = true
		a := &rawsql.Args{PG: pg}
		q := `UPDATE ` + prefixTable + ` SET ` +
			`"_depth" = (SELECT COUNT(DISTINCT p.prefix_length) FROM ` + prefixTable + ` p WHERE p.vrf_key = ipam_prefix.vrf_key ` +
			`AND p.family = ipam_prefix.family AND p.network <= ipam_prefix.network AND p.broadcast >= ipam_prefix.broadcast ` +
			`AND p.prefix_length < ipam_prefix.prefix_length), ` +
			`"_children" = (SELECT COUNT(*) FROM ` + prefixTable + ` c WHERE c.vrf_key = ipam_prefix.vrf_key ` +
			`AND c.family = ipam_prefix.family AND c.network >= ipam_prefix.network AND c.network <= ipam_prefix.broadcast ` +
			`AND c.prefix_length > ipam_prefix.prefix_length) ` +
			`WHERE vrf_key = ` + a.P(k)
		if err := rawsql.Exec(ctx, ex, q, a); err != nil {
			return fmt.Errorf("rebuild prefix caches of VRF key %d: %w", k, err)
		}
	}
	return nil
}
