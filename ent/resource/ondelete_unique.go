package resource

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"entgo.io/ent/dialect/sql"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// checkUngrouping refuses a delete whose SET_NULL keys would make rows
// that stay collide under a unique set that holds only while those keys
// are null (api.Unique.WhenNull): NetBox's TenantGroup.delete(), which
// refuses with a ProtectedError listing the tenants whose names or slugs
// would clash once ungrouped (its own and its nested groups' tenants
// against the top-level ones, and against each other), 409 through the
// API's dispatch. Derived from the declarations, so every such set is
// covered; in NetBox 4.6.8 the tenant's group is the only conditional key
// a delete clears (the others are PROTECT or a tree's CASCADE parent),
// and where a future one had no guard NetBox would fail on its database
// constraint: here it is refused the same way, never left duplicated.
//
// It runs before anything is written, as the model's delete() check runs
// before Django's collector, and takes the uniqueness locks of the values
// it checks (lockUnique, with the very selector checkUnique builds) so
// that a concurrent create of a clashing top-level row waits for it.
func (p *deletion) checkUngrouping(ctx context.Context, tx *Tx) error {
	type set struct {
		d *Descriptor
		u int
	}
	var sets []set
	seen := map[set]bool{}
	for _, t := range p.order {
		for _, r := range referencing(t) {
			if r.rule() != OnDeleteSetNull || r.f.Kind == KindGenericObject {
				continue
			}
			for i, u := range r.d.Unique {
				if s := (set{r.d, i}); slices.Contains(u.WhenNull, r.f.Name) && !seen[s] {
					seen[s] = true
					sets = append(sets, s)
				}
			}
		}
	}
	// The values each set may see clash, then the locks of all of them at
	// once: every writer takes its locks in one ordered call (lockUnique),
	// so a delete and a create wanting the same two values cannot each
	// hold one and wait for the other.
	checks := make([]ungroupCheck, len(sets))
	var locks []*sql.Selector
	for i, s := range sets {
		c := ungroupCheck{d: s.d, u: s.d.Unique[s.u]}
		var err error
		if c.keys, err = p.ungroupKeys(ctx, tx, c); err != nil {
			return err
		}
		for _, key := range c.keys {
			locks = append(locks, uniqueSelector(c.d, c.u, tx.Dialect, key, true))
		}
		checks[i] = c
	}
	if err := lockUnique(ctx, tx, locks...); err != nil {
		return err
	}
	clash := map[*Descriptor]map[int]*Row{}
	var models []*Descriptor
	for _, c := range checks {
		rows, err := p.ungroupClashes(ctx, tx, c)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if clash[c.d] == nil {
				clash[c.d] = map[int]*Row{}
				models = append(models, c.d)
			}
			clash[c.d][r.ID] = r
		}
	}
	var found []string
	for _, d := range models {
		ids := make([]int, 0, len(clash[d]))
		for id := range clash[d] {
			ids = append(ids, id)
		}
		// NetBox lists a set of objects; in id order here, which is what
		// Python's set of small integer keys mostly iterates in.
		sort.Ints(ids)
		for _, id := range ids {
			found = append(found, fmt.Sprintf("%s (%d)", d.DisplayOf(clash[d][id]), id))
		}
	}
	if len(found) > 0 {
		return Conflict(api.Protected(found).Detail)
	}
	return nil
}

// nulled says whether field f of a row holding v is null once the delete
// is done: null already, or a SET_NULL key to an object of the set.
func (p *deletion) nulled(f *Field, v any) bool {
	if v == nil {
		return true
	}
	id, ok := rawsql.IntOf(v)
	return ok && f.OnDelete == OnDeleteSetNull && f.target != nil && p.in[f.target][id]
}

// ungroupCheck is one conditional unique set u of d that a delete may
// break, and the values (keys) it may see clash.
type ungroupCheck struct {
	d    *Descriptor
	u    Unique
	keys [][]any
}

// meets says whether row r of c's model stays and meets c's condition once
// the delete is done, with values that can collide.
func (p *deletion) meets(c ungroupCheck, r *Row) bool {
	if p.in[c.d][r.ID] {
		return false
	}
	for _, w := range c.u.WhenNull {
		if !p.nulled(c.d.byName[w], c.d.Value(r, w)) {
			return false
		}
	}
	for _, n := range c.u.Fields {
		if p.nulled(c.d.byName[n], c.d.Value(r, n)) {
			return false // NULLs never collide
		}
	}
	return true
}

// ungroupKeys lists, once each, the values of c's set held by the rows
// whose condition the delete makes true.
func (p *deletion) ungroupKeys(ctx context.Context, tx *Tx, c ungroupCheck) ([][]any, error) {
	d, u := c.d, c.u
	var affected []int
	for _, w := range u.WhenNull {
		f := d.byName[w]
		if f == nil || f.OnDelete != OnDeleteSetNull || f.target == nil || len(p.ids[f.target]) == 0 {
			continue
		}
		ids, err := relation{d, f}.ids(ctx, tx, f.target, p.ids[f.target])
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			if !p.in[d][id] {
				affected = append(affected, id)
			}
		}
	}
	affected = dedupe(affected)
	if len(affected) == 0 {
		return nil, nil
	}
	sort.Ints(affected)
	var keys [][]any
	seenKey := map[string]bool{}
	for _, chunk := range chunks(affected) {
		s := d.Selector(tx.Dialect)
		s.Where(inIDs(tx.Dialect, s.C("id"), chunk)).OrderBy(s.C("id"))
		rows, err := d.query(ctx, tx.Store(), s)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			if !p.meets(c, r) {
				continue
			}
			key := make([]any, len(u.Fields))
			for i, n := range u.Fields {
				key[i] = d.Value(r, n)
			}
			if k := fmt.Sprintf("%#v", key); !seenKey[k] {
				seenKey[k] = true
				keys = append(keys, key)
			}
		}
	}
	return keys, nil
}

// ungroupClashes lists the rows of c's model that would break its set
// after the delete: the groups of rows that stay, meet the condition
// afterwards and share one of c.keys, where some row of the group meets
// the condition only because the delete clears its key. The keys' locks
// are held (checkUngrouping).
func (p *deletion) ungroupClashes(ctx context.Context, tx *Tx, c ungroupCheck) ([]*Row, error) {
	var out []*Row
	taken := map[int]bool{}
	for _, key := range c.keys {
		s := uniqueSelector(c.d, c.u, tx.Dialect, key, false)
		rows, err := c.d.query(ctx, tx.Store(), s.OrderBy(s.C("id")))
		if err != nil {
			return nil, err
		}
		var group []*Row
		for _, r := range rows {
			if p.meets(c, r) {
				group = append(group, r)
			}
		}
		if len(group) < 2 {
			continue
		}
		for _, r := range group {
			if !taken[r.ID] {
				taken[r.ID] = true
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// uniqueSelector selects the rows of d holding key in u's fields; with
// cond, only those meeting u's condition now: then it is the selector
// of checkUnique's probe for a row with these values, and its lock
// (lockUnique) the one a write of them takes.
func uniqueSelector(d *Descriptor, u Unique, dia string, key []any, cond bool) *sql.Selector {
	s := d.Selector(dia)
	for i, name := range u.Fields {
		f := d.byName[name]
		if str, ok := key[i].(string); ok && u.IgnoreCase {
			s.Where(sql.P(func(b *sql.Builder) {
				b.WriteString("LOWER(" + s.C(f.Column) + ") = LOWER(").Arg(str).WriteString(")")
			}))
		} else {
			s.Where(sql.EQ(s.C(f.Column), key[i]))
		}
	}
	if cond {
		for _, name := range u.WhenNull {
			s.Where(sql.IsNull(s.C(d.byName[name].Column)))
		}
	}
	return s
}
