package resource

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"entgo.io/ent"
	"entgo.io/ent/dialect/sql"

	gen "github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// NetBox's on_delete rules, as the generated descriptors carry them in
// Field.OnDelete (api.OnDelete in the schemas).
const (
	OnDeleteProtect  = "PROTECT"
	OnDeleteCascade  = "CASCADE"
	OnDeleteSetNull  = "SET_NULL"
	OnDeleteRestrict = "RESTRICT"
)

// Delete removes the given objects as NetBox does, all or nothing inside
// tx. ins, when given, are the request's items parallel to ids: each one's
// changelog_message goes with its object to the change log.
//
// First the whole set is collected: the objects, their subtrees, and
// recursively every row a CASCADE relation or a generic relation (a
// prefix's scope, an event rule's action object) takes along. If a PROTECT
// relation holds any object of the set, or a RESTRICT one from outside it,
// the answer is 409 with NetBox's text and nothing has changed; so it is
// when clearing SET_NULL keys would make rows that stay break a unique set
// conditional on those keys (checkUngrouping: NetBox's
// TenantGroup.delete()). Otherwise
// SET_NULL keys are cleared (through mutations for change-logged models:
// an update record and event each, NetBox's pre_delete handler), every
// object of the set is deleted through mutations (a delete record and
// event each), dependants before what they depend on, and the links of
// many-to-many relations go. The database's ON DELETE actions of FKs never
// get to act: they are a backstop.
//
// Queries are batched per relation and model, and so are the mutations:
// many-row ones of at most rawsql.ChunkSize rows (deleteRows says which
// rows go alone).
func (d *Descriptor) Delete(ctx context.Context, tx *Tx, ids []int, ins ...Input) error {
	if len(ids) == 0 {
		return nil
	}
	wroteDefs(ctx, d)
	for _, in := range ins {
		if _, err := in.Message(); err != nil {
			return err
		}
	}
	p, err := collectDeletion(ctx, tx, d, ids)
	if err != nil {
		return err
	}
	ctx = api.WithDeleting(ctx, func(ct string, id int) bool {
		od := ByContentType(ct)
		return od != nil && p.in[od][id]
	})
	if err := p.checkUngrouping(ctx, tx); err != nil {
		return err
	}
	if err := p.checkProtected(ctx, tx); err != nil {
		return err
	}
	if err := p.clearKeys(ctx, tx); err != nil {
		return err
	}
	for _, od := range p.order {
		if err := doomImages(ctx, tx, od, p.ids[od]); err != nil {
			return err
		}
	}
	msgs := map[int]context.Context{}
	for i, id := range ids {
		if i < len(ins) {
			msgs[id] = withInputMessage(ctx, ins[i])
		}
	}
	if err := p.deleteRows(ctx, tx, d, msgs); err != nil {
		return err
	}
	// Many-to-many links go after the rows: the change capture of each
	// delete still sees the change-logged objects linking to it (rule 5:
	// they get an update record). The join tables' own ON DELETE CASCADE
	// has removed the links by then, as Django's auto-created through
	// tables lose them; unlink makes sure of it for any join table.
	if err := p.unlink(ctx, tx); err != nil {
		return err
	}
	// Tag assignments go last: the change log's pre-change snapshot,
	// taken as each object is deleted, still lists its tags.
	for _, od := range p.order {
		if od.Tagged {
			if err := deleteTagged(ctx, tx, od.ContentType(), p.ids[od]); err != nil {
				return err
			}
		}
	}
	return nil
}

// relation is one way rows of a model refer to objects of another: an FK,
// a cached key column, or a generic object (type and id columns).
type relation struct {
	d *Descriptor // the referencing model
	f *Field
}

func (r relation) rule() string { return r.f.OnDelete }

// where restricts s (over r.d's table) to the rows referring to ids of t.
func (r relation) where(s *sql.Selector, t *Descriptor, ids []int) *sql.Selector {
	if r.f.Kind == KindGenericObject {
		tc, ic := r.d.byName[r.f.Generic+"_type"].Column, r.d.byName[r.f.Generic+"_id"].Column
		return s.Where(sql.And(sql.EQ(s.C(tc), t.ContentType()), sql.InInts(s.C(ic), ids...)))
	}
	return s.Where(sql.InInts(s.C(r.f.Column), ids...))
}

// ids lists the rows of r.d that refer to ids of t.
func (r relation) ids(ctx context.Context, tx *Tx, t *Descriptor, ids []int) ([]int, error) {
	var out []int
	for _, chunk := range chunks(ids) {
		if len(chunk) == 0 {
			continue
		}
		s := sql.Dialect(tx.Dialect).Select("id").From(sql.Table(r.d.Table))
		got, err := queryIDs(ctx, tx.Store(), r.where(s, t, chunk))
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	sort.Ints(out)
	return out, nil
}

var (
	relationsOnce sync.Once
	relationsTo   map[*Descriptor][]relation
)

// referencing lists the relations with an on_delete rule that point at t,
// in the order of All().
func referencing(t *Descriptor) []relation {
	relationsOnce.Do(func() {
		relationsTo = map[*Descriptor][]relation{}
		for _, od := range All() {
			for _, f := range od.Fields {
				switch {
				case f.OnDelete == "":
				case od.ContentType() == "extras.taggeditem":
					// Tag assignments are no rows of the generic delete:
					// the database's ON DELETE CASCADE takes them with
					// their tag, after the change capture has found the
					// objects carrying it (Dependants), and deleteTagged
					// with their object, after its snapshot listed them.
				case f.Kind == KindGenericObject:
					for _, ct := range f.Types {
						if td := ByContentType(ct); td != nil {
							relationsTo[td] = append(relationsTo[td], relation{od, f})
						}
					}
				case f.target != nil && f.Column != "":
					relationsTo[f.target] = append(relationsTo[f.target], relation{od, f})
				}
			}
		}
	})
	return relationsTo[t]
}

// deletion is the set of objects one delete removes, per model in the
// order the models were reached.
type deletion struct {
	order []*Descriptor
	ids   map[*Descriptor][]int
	in    map[*Descriptor]map[int]bool
}

// add puts ids of d in the set and returns those that were not yet there.
func (p *deletion) add(d *Descriptor, ids []int) []int {
	if p.in[d] == nil {
		p.in[d] = map[int]bool{}
		p.order = append(p.order, d)
	}
	var fresh []int
	for _, id := range ids {
		if !p.in[d][id] {
			p.in[d][id] = true
			fresh = append(fresh, id)
		}
	}
	p.ids[d] = append(p.ids[d], fresh...)
	return fresh
}

// collectDeletion follows CASCADE relations (and the subtrees of tree
// models, whose parent is CASCADE) from ids of d, one batch of queries per
// level.
func collectDeletion(ctx context.Context, tx *Tx, d *Descriptor, ids []int) (*deletion, error) {
	p := &deletion{ids: map[*Descriptor][]int{}, in: map[*Descriptor]map[int]bool{}}
	type batch struct {
		d   *Descriptor
		ids []int
	}
	next := []batch{{d, dedupe(ids)}}
	for len(next) > 0 {
		var found []batch
		for _, b := range next {
			ids := b.ids
			if b.d.Tree {
				var err error
				if ids, err = b.d.Subtree(ctx, tx.Store(), ids); err != nil {
					return nil, err
				}
			}
			fresh := p.add(b.d, ids)
			if len(fresh) == 0 {
				continue
			}
			for _, r := range referencing(b.d) {
				if r.rule() != OnDeleteCascade || r.d == b.d && r.d.Tree && r.f.Name == "parent" {
					continue // not a cascade, or the subtree already taken
				}
				got, err := r.ids(ctx, tx, b.d, fresh)
				if err != nil {
					return nil, err
				}
				if len(got) > 0 {
					found = append(found, batch{r.d, got})
				}
			}
		}
		next = found
	}
	return p, nil
}

// checkProtected answers 409 with NetBox's text when a PROTECT relation
// holds an object of the set (even from a row the delete would cascade
// to, as Django's collector does) or a RESTRICT one holds it from outside
// the set.
func (p *deletion) checkProtected(ctx context.Context, tx *Tx) error {
	var found []string
	seen := map[*Descriptor]map[int]bool{}
	for _, t := range p.order {
		for _, r := range referencing(t) {
			if r.rule() != OnDeleteProtect && r.rule() != OnDeleteRestrict {
				continue
			}
			for _, chunk := range chunks(p.ids[t]) {
				if len(chunk) == 0 {
					continue
				}
				s := r.d.Selector(tx.Dialect)
				s = r.where(s, t, chunk).OrderBy(s.C("id"))
				rows, err := r.d.query(ctx, tx.Store(), s)
				if err != nil {
					return err
				}
				for _, row := range rows {
					if r.rule() == OnDeleteRestrict && p.in[r.d][row.ID] || seen[r.d][row.ID] {
						continue
					}
					if seen[r.d] == nil {
						seen[r.d] = map[int]bool{}
					}
					seen[r.d][row.ID] = true
					found = append(found, fmt.Sprintf("%s (%d)", r.d.DisplayOf(row), row.ID))
				}
			}
		}
	}
	if len(found) > 0 {
		return Conflict(api.Protected(found).Detail)
	}
	return nil
}

// clearKeys carries out SET_NULL for the rows that stay. Change-logged
// models are updated through many-row mutations (at most
// rawsql.ChunkSize rows each), whose change capture records each row's
// update and event as NetBox's pre_delete handler does; the others in one
// statement per relation.
func (p *deletion) clearKeys(ctx context.Context, tx *Tx) error {
	for _, t := range p.order {
		for _, r := range referencing(t) {
			if r.rule() != OnDeleteSetNull || r.f.Kind == KindGenericObject || r.f.ClearedByHooks {
				continue
			}
			ids, err := r.ids(ctx, tx, t, p.ids[t])
			if err != nil {
				return err
			}
			var stay []int
			for _, id := range ids {
				if !p.in[r.d][id] {
					stay = append(stay, id)
				}
			}
			if len(stay) == 0 {
				continue
			}
			if !r.d.Logged || r.f.NoReverse {
				if err := setNull(ctx, tx, r.d.Table, r.f.Column, stay); err != nil {
					return err
				}
				continue
			}
			err = rawsql.Chunks(stay, func(chunk []int) error {
				m, err := r.d.manyRows(tx.Client, ent.OpUpdate, chunk)
				if err != nil {
					return err
				}
				if err := m.ClearField(r.f.Column); err != nil {
					return fmt.Errorf("clear %s.%s: %w", r.d.Type, r.f.Column, err)
				}
				if _, err := tx.Client.Mutate(ctx, m); err != nil {
					return translate(r.d, err)
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// setNull clears col of the rows ids of table.
func setNull(ctx context.Context, tx *Tx, table, col string, ids []int) error {
	return execWhereIn(ctx, tx, fmt.Sprintf(`UPDATE %s SET %s = NULL`, quote(table), quote(col)), "id", ids)
}

// unlink removes the many-to-many links of the objects of the set, from
// either side of each join table (rule 6: only the link rows go).
func (p *deletion) unlink(ctx context.Context, tx *Tx) error {
	for _, t := range p.order {
		done := map[string]bool{}
		for _, od := range All() {
			for _, f := range od.Fields {
				if f.Kind != KindM2M || f.Join == "" {
					continue
				}
				var cols []string
				if f.target == t {
					cols = append(cols, f.JoinTarget)
				}
				if od == t {
					cols = append(cols, f.JoinOwn)
				}
				for _, col := range cols {
					if key := f.Join + "." + col; !done[key] {
						done[key] = true
						if err := deleteWhereIn(ctx, tx, f.Join, col, p.ids[t]); err != nil {
							return err
						}
					}
				}
			}
		}
	}
	return nil
}

// deleteWhereIn deletes the rows of table whose col is one of ids.
func deleteWhereIn(ctx context.Context, tx *Tx, table, col string, ids []int) error {
	return execWhereIn(ctx, tx, "DELETE FROM "+quote(table), col, ids)
}

// execWhereIn runs stmt + " WHERE col IN (...)" over ids, in chunks that
// stay under the databases' bind-parameter limits.
func execWhereIn(ctx context.Context, tx *Tx, stmt, col string, ids []int) error {
	for _, chunk := range chunks(ids) {
		if len(chunk) == 0 {
			continue
		}
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = id
		}
		q := fmt.Sprintf(`%s WHERE %s IN (%s)`, stmt, quote(col), placeholders(tx.Dialect, 1, len(chunk)))
		if _, err := tx.Client.ExecContext(ctx, q, args...); err != nil {
			return err
		}
	}
	return nil
}

// deleteRows deletes every object of the set through mutations, so that
// each gets its delete record and event. Models go after the models
// referring to them, tree nodes deepest first. msgs carries the
// changelog_message of the objects the request named.
//
// The rows of a model go together, in many-row deletes of at most
// rawsql.ChunkSize rows (the hooks and the change capture see each batch
// at once, as they see a queryset's delete): a device of 10 000
// interfaces went one row at a time, fourteen statements each, 140 000
// statements and a minute. A row goes alone where order or its own
// context matters: an object the request named with a changelog_message,
// and rows that cascade from other rows of their model (deleted after
// them, in reverse order of discovery); tree nodes go a level at a time.
func (p *deletion) deleteRows(ctx context.Context, tx *Tx, root *Descriptor, msgs map[int]context.Context) error {
	for _, d := range p.deleteOrder() {
		ids := p.ids[d]
		var groups [][]int // deleted in this order, each group at once
		switch {
		case d.Tree:
			var err error
			if groups, err = deepestFirst(ctx, tx, d, ids); err != nil {
				return err
			}
		case selfCascade(d):
			// Found level by level: the later rows hang on the earlier.
			for i := len(ids) - 1; i >= 0; i-- {
				groups = append(groups, []int{ids[i]})
			}
		default:
			groups = [][]int{ids}
		}
		for _, g := range groups {
			var many []int
			for _, id := range g {
				c, named := msgs[id]
				if d != root || !named || MessageFrom(c) == "" {
					many = append(many, id)
					continue
				}
				if err := deleteOne(c, tx, d, id); err != nil {
					return err
				}
			}
			if len(many) == 1 {
				if err := deleteOne(ctx, tx, d, many[0]); err != nil {
					return err
				}
				continue
			}
			err := rawsql.Chunks(many, func(chunk []int) error {
				m, err := d.manyRows(tx.Client, ent.OpDelete, chunk)
				if err != nil {
					return err
				}
				if _, err := tx.Client.Mutate(ctx, m); err != nil {
					return translate(d, err)
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// deleteOne deletes one row through its own mutation.
func deleteOne(ctx context.Context, tx *Tx, d *Descriptor, id int) error {
	if err := d.DeleteOne(ctx, tx.Client, id); err != nil {
		if gen.IsNotFound(err) {
			return nil // gone already: the set holds only existing rows, so by a hook
		}
		return translate(d, err)
	}
	return nil
}

// manyRows is a mutation of op (ent.OpDelete or ent.OpUpdate) over the
// rows ids of d, run with tx.Client.Mutate: what ent's own
// Delete().Where(...) or Update().Where(...) builds, without the typed
// builders, so that every hook and the change capture see the rows as
// one many-row write.
func (d *Descriptor) manyRows(c *gen.Client, op ent.Op, ids []int) (ent.Mutation, error) {
	m := d.NewCreate(c)
	pm, ok := m.(interface {
		SetOp(ent.Op)
		WhereP(...func(*sql.Selector))
	})
	if !ok {
		return nil, fmt.Errorf("%s: mutation %T cannot be made a many-row write", d.Type, m)
	}
	pm.SetOp(op)
	pm.WhereP(func(s *sql.Selector) { s.Where(inIDs(s.Dialect(), s.C("id"), ids)) })
	return m, nil
}

// selfCascade says whether rows of d cascade from other rows of d (a
// parent that is no tree's).
func selfCascade(d *Descriptor) bool {
	for _, r := range referencing(d) {
		if r.d == d && r.rule() == OnDeleteCascade {
			return true
		}
	}
	return false
}

// deleteOrder orders the models of the set so that a model comes before
// every other model of the set it refers to (its rows then never hold a
// key to a deleted row, and their change records still render what they
// point at, generic objects included). A cycle falls back to the order of
// discovery.
func (p *deletion) deleteOrder() []*Descriptor {
	// refersTo: rows of o may point at rows of t; hard leaves out keys the
	// database clears itself (SET_NULL), which matter only to break a
	// cycle (an interface's primary MAC address, whose generic
	// assigned_object points back).
	refersTo := func(o, t *Descriptor, hard bool) bool {
		for _, r := range referencing(t) {
			if r.d == o && !(hard && r.rule() == OnDeleteSetNull) {
				return true
			}
		}
		for _, f := range o.Fields {
			if f.target == t && f.Column != "" && !(hard && f.OnDelete == OnDeleteSetNull) {
				return true
			}
		}
		return false
	}
	rest := append([]*Descriptor(nil), p.order...)
	var out []*Descriptor
	for len(rest) > 0 {
		pick := -1
		for _, hard := range []bool{false, true} {
			for i, t := range rest {
				blocked := false
				for _, o := range rest {
					if o != t && refersTo(o, t, hard) {
						blocked = true
						break
					}
				}
				if !blocked {
					pick = i
					break
				}
			}
			if pick >= 0 {
				break
			}
		}
		if pick < 0 {
			return append(out, rest...)
		}
		out = append(out, rest[pick])
		rest = append(rest[:pick], rest[pick+1:]...)
	}
	return out
}

// deepestFirst groups tree nodes by depth, deepest first, each level in
// id order.
func deepestFirst(ctx context.Context, tx *Tx, d *Descriptor, ids []int) ([][]int, error) {
	depth := map[int]int{}
	for _, chunk := range chunks(ids) {
		if len(chunk) == 0 {
			continue
		}
		s := sql.Dialect(tx.Dialect).Select("id", "_depth").From(sql.Table(d.Table))
		s.Where(sql.InInts(s.C("id"), chunk...))
		q, args := s.Query()
		rs, err := tx.Client.QueryContext(ctx, q, args...)
		if err != nil {
			return nil, err
		}
		for rs.Next() {
			var id, dep int
			if err := rs.Scan(&id, &dep); err != nil {
				rs.Close()
				return nil, err
			}
			depth[id] = dep
		}
		rs.Close()
	}
	out := append([]int(nil), ids...)
	sort.SliceStable(out, func(i, j int) bool {
		if depth[out[i]] != depth[out[j]] {
			return depth[out[i]] > depth[out[j]]
		}
		return out[i] < out[j]
	})
	var levels [][]int
	for i, id := range out {
		if i == 0 || depth[id] != depth[out[i-1]] {
			levels = append(levels, nil)
		}
		levels[len(levels)-1] = append(levels[len(levels)-1], id)
	}
	return levels, nil
}
