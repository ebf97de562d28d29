package resource

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"entgo.io/ent/dialect/sql"

	"github.com/inventory/inventory/ent/logic/pyrepr"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/filters"
)

// Many-to-many relations (KindM2M) live in a join table per relation,
// declared by the schema's edge. They are written as lists of ids and read
// as lists of nested brief objects, loaded in one batched query per page.

// relatedOrder orders the related rows of a many-to-many list, or of a
// reverse list (an interface's MAC addresses), as NetBox's related
// managers do: by the target model's default ordering (its columns and
// natural sort keys; an ordering through another table is left out), then
// by id, with NULLs and text placed as in every list (filters.ApplyOrder):
// the same list on every database, whatever order the rows were created
// in. tt is the target table's alias in s.
func relatedOrder(s *sql.Selector, t *Descriptor, tt *sql.SelectTable) {
	var terms []filters.OrderTerm
	if t.spec != nil {
		for _, o := range t.spec.Order("") {
			if o.Column != "id" && t.byCol[o.Column] == nil && !slices.ContainsFunc(t.Fields, func(f *Field) bool { return f.Natural == o.Column }) &&
				!ipKeyColumn(t, o.Column) {
				continue
			}
			o.Column = tt.C(o.Column)
			terms = append(terms, o)
		}
	}
	if len(terms) == 0 {
		terms = []filters.OrderTerm{{Column: tt.C("id")}}
	}
	filters.ApplyOrder(s, terms)
}

// ipKeyColumn says whether col is one of t's hidden IP key columns (an
// address's host and prefix length): related addresses (nat_outside) sort
// as NetBox's inet ordering does, like the list.
func ipKeyColumn(t *Descriptor, col string) bool {
	ip := t.IP
	return ip != nil && col != "" && (col == ip.Family || col == ip.Network || col == ip.Broadcast || col == ip.Length)
}

// scanOwned runs s, whose columns are an owner's id then every column of
// t, into m: the rows of t by owner, in the order selected.
func (p *Page) scanOwned(ctx context.Context, s *sql.Selector, t *Descriptor, m map[int][]*Row) error {
	q, args := s.Query()
	rs, err := p.st.Q.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rs.Close()
	var oid int
	ptrs := make([]any, 1+len(t.columns))
	ptrs[0] = &oid
	idCol := t.byName["id"].col
	for rs.Next() {
		vals := make([]any, len(t.columns))
		for i := range vals {
			ptrs[1+i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			return err
		}
		for i, f := range t.colFields {
			vals[i] = normalize(f, vals[i])
		}
		m[oid] = append(m[oid], &Row{ID: vals[idCol].(int), Vals: vals})
	}
	return rs.Err()
}

// loadM2M loads the related rows of every row of the page in one query.
func (p *Page) loadM2M(ctx context.Context, f *Field, ids []int) error {
	if p.m2m == nil {
		p.m2m = map[*Field]map[int][]*Row{}
	}
	m := map[int][]*Row{}
	p.m2m[f] = m
	t := f.target
	tt := sql.Table(t.Table).As("t")
	j := sql.Table(f.Join).As("j")
	cols := append([]string{j.C(f.JoinOwn)}, t.columnList(p.st.Dialect, tt, t.allCols)...)
	s := sql.Dialect(p.st.Dialect).Select(cols...).From(j).Join(tt).On(j.C(f.JoinTarget), tt.C("id")).
		Where(inIDs(p.st.Dialect, j.C(f.JoinOwn), ids))
	relatedOrder(s, t, tt)
	if err := p.scanOwned(ctx, s, t, m); err != nil {
		return fmt.Errorf("load %s.%s: %w", p.d.Type, f.Name, err)
	}
	// The related objects' own relations (a config context's device
	// types show their manufacturer) render nested, as NetBox's nested
	// serializers do: loaded with the page's, not as bare ids.
	if !p.nested && !f.ByLookup && !f.Full {
		var fks []*Field
		for _, nf := range f.relatedForm() {
			if nf.Kind == KindFK && !nf.PK {
				fks = append(fks, nf)
			}
		}
		var all []*Row
		for _, rows := range m {
			all = append(all, rows...)
		}
		if len(fks) > 0 && len(all) > 0 {
			p.more = append(p.more, relatedWant{fks, all})
		}
	}
	return nil
}

// loadM2MFull loads what the full representation of the related rows of
// the Full many-to-many fields needs (their own relations, tags, custom
// fields) as one page per target model (a VRF's import and export targets
// share theirs): a fixed number of queries more, whatever the number of
// rows.
func (p *Page) loadM2MFull(ctx context.Context) error {
	var order []*Descriptor
	fields := map[*Descriptor][]*Field{}
	for _, f := range p.fields {
		if f.Kind == KindM2M && f.Full && !p.nested {
			if fields[f.target] == nil {
				order = append(order, f.target)
			}
			fields[f.target] = append(fields[f.target], f)
		}
	}
	for _, t := range order {
		var all []*Row
		seen := map[int]*Row{}
		for _, f := range fields[t] {
			for _, rows := range p.m2m[f] {
				for i, r := range rows {
					if s, ok := seen[r.ID]; ok {
						rows[i] = s // one row per object, shared by the owners
						continue
					}
					seen[r.ID] = r
					all = append(all, r)
				}
			}
		}
		sub, err := t.Load(ctx, p.st, all, View{Base: p.base})
		if err != nil {
			return err
		}
		if p.full == nil {
			p.full = map[*Field]*Page{}
		}
		for _, f := range fields[t] {
			p.full[f] = sub
		}
	}
	return nil
}

func (p *Page) encodeM2M(b []byte, f *Field, r *Row, nested bool) []byte {
	b = append(b, '[')
	for i, t := range p.m2m[f][r.ID] {
		if i > 0 {
			b = append(b, ',')
		}
		if nested && !f.inForm {
			b = appendAny(b, t.ID)
			continue
		}
		if f.ByLookup {
			b = appendAny(b, f.target.Value(t, f.Lookup))
			continue
		}
		if sub := p.full[f]; sub != nil {
			b = sub.Encode(b, t)
			continue
		}
		b = p.encode(b, f.target, t, f.relatedForm(), true)
	}
	return append(b, ']')
}

// decodeM2M validates a list of related ids (or {"id": n} objects). Every
// id must exist: DRF's `Invalid pk "n" - object does not exist.`.
func (d *Descriptor) decodeM2M(ctx context.Context, tx *Tx, f *Field, raw json.RawMessage) ([]int, []string) {
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil || bytes.TrimSpace(raw)[0] != '[' {
		return nil, []string{fmt.Sprintf(`Expected a list of items but got type "%s".`, pyrepr.TypeOfJSON(raw))}
	}
	if f.ByLookup {
		return decodeByLookup(ctx, tx, f, list)
	}
	ids := []int{}
	for _, item := range list {
		var id int
		var obj struct {
			ID *int `json:"id"`
		}
		switch {
		case json.Unmarshal(item, &id) == nil:
		case json.Unmarshal(item, &obj) == nil && obj.ID != nil:
			id = *obj.ID
		default:
			var s string
			if json.Unmarshal(item, &s) == nil {
				if n, err := strconv.Atoi(s); err == nil {
					id = n
					break
				}
			}
			return nil, []string{fmt.Sprintf("Incorrect type. Expected pk value, received %s.", pyrepr.TypeOfJSON(item))}
		}
		ids = append(ids, id)
	}
	ids = dedupe(ids)
	if len(ids) == 0 {
		return ids, nil
	}
	rows, err := f.target.GetMany(ctx, tx.Store(), ids)
	if err != nil {
		return nil, []string{"Related object lookup failed."} // decode returns tx.Err()
	}
	found := map[int]bool{}
	for _, r := range rows {
		found[r.ID] = true
	}
	for _, id := range ids {
		if !found[id] {
			return nil, []string{fmt.Sprintf(`Invalid pk "%d" - object does not exist.`, id)}
		}
	}
	return ids, nil
}

// writeM2M replaces the join rows of object id for every given relation.
func (d *Descriptor) writeM2M(ctx context.Context, tx *Tx, id int, ch *change, create bool) error {
	for f, ids := range ch.m2m {
		if f.Kind == KindReverse {
			if err := writeReverse(ctx, tx, f, id, ids); err != nil {
				return err
			}
			continue
		}
		if !create {
			q := fmt.Sprintf("DELETE FROM %s WHERE %s = %s", quote(f.Join), quote(f.JoinOwn), placeholders(tx.Dialect, 1, 1))
			if _, err := tx.Client.ExecContext(ctx, q, id); err != nil {
				return err
			}
		}
		// The links go in multi-row INSERTs cut by the parameter limit,
		// not one statement per link.
		rows := make([][]any, len(ids))
		for i, tid := range ids {
			rows[i] = []any{id, tid}
		}
		if err := rawsql.InsertRows(ctx, tx.Client, tx.Dialect, f.Join, []string{f.JoinOwn, f.JoinTarget}, rows); err != nil {
			return err
		}
	}
	return nil
}

// writeReverse moves the rows ids of a writable reverse relation
// (api.Reverse.Writable) to object id, as Django's RelatedManager.set() on
// a non-nullable key does (an update of the key only: no change records,
// as NetBox makes none); rows not listed stay where they are. A move that
// breaks the rows' own uniqueness (an account number the provider has
// already) is a 400 under the relation's name, with nothing written.
func writeReverse(ctx context.Context, tx *Tx, f *Field, id int, ids []int) error {
	t := f.target
	key := t.byCol[f.Reverse.Column]
	if key == nil {
		return fmt.Errorf("reverse %s: %s has no column %s", f.Name, t.ContentType(), f.Reverse.Column)
	}
	q := fmt.Sprintf("UPDATE %s SET %s = %s WHERE id = %s", quote(t.Table), quote(f.Reverse.Column),
		placeholders(tx.Dialect, 1, 1), placeholders(tx.Dialect, 2, 1))
	for _, tid := range ids {
		row, err := t.Get(ctx, tx.Store(), tid)
		if err != nil {
			return err
		}
		if row == nil || row.Vals[key.col] == id {
			continue
		}
		// One row at a time: each check sees the rows moved before it.
		if err := t.checkUnique(ctx, tx, &change{set: map[*Field]any{key: id}}, row); err != nil {
			var verr *ValidationError
			if !errors.As(err, &verr) {
				return err
			}
			out := &ValidationError{}
			for _, k := range slices.Sorted(maps.Keys(verr.Fields)) {
				if msgs, ok := verr.Fields[k].([]string); ok {
					out.add(f.Name, msgs...)
				}
			}
			return out.orNil()
		}
		if _, err := tx.Client.ExecContext(ctx, q, id, tid); err != nil {
			tx.fail(err)
			return err
		}
	}
	return nil
}

// m2mFilters are the filters of a many-to-many field, named after it in
// the singular as NetBox's filtersets name them: <name>_id by related id
// and, when the field declares a lookup attribute, <name> by that
// attribute ("user" by username on permissions).
func (d *Descriptor) m2mFilters(f *Field) []*filters.Filter {
	base := f.Name
	if len(base) > 1 && base[len(base)-1] == 's' {
		base = base[:len(base)-1]
	}
	in := func(attr string, numeric bool) func(string, []string) (func(*sql.Selector), error) {
		return m2mMatch(f.Join, f.JoinOwn, f.JoinTarget, f.target.Table, attr, numeric)
	}
	if f.target.Tree {
		// A tree's nodes match with their descendants, as NetBox's
		// TreeNodeMultipleChoiceFilter (a contact's group_id and group).
		hops := []filters.Hop{{Table: f.Join, Key: f.JoinOwn, Column: f.JoinTarget}}
		out := []*filters.Filter{{Name: base + "_id", Kind: filters.TreeID, Column: "id", RelTable: f.target.Table,
			RelParent: "parent_id", Into: hops}}
		if af := f.target.byName[f.Lookup]; af != nil && af.Column != "" {
			out = append(out, &filters.Filter{Name: base, Kind: filters.TreeAttr, Column: "id", RelTable: f.target.Table,
				RelColumn: af.Column, RelParent: "parent_id", Into: hops})
		}
		return out
	}
	out := []*filters.Filter{{Name: base + "_id", Kind: filters.Custom, Lookups: []string{"n"}, Func: in("id", true)}}
	if f.Lookup != "" {
		if af := f.target.byName[f.Lookup]; af != nil && af.Column != "" {
			out = append(out, &filters.Filter{Name: base, Kind: filters.Custom, Lookups: []string{"n"},
				Func: in(af.Column, af.Kind == KindInt)})
		}
	}
	return out
}

// m2mMatch is the predicate builder of a many-to-many filter: rows whose
// id is in column own of the join table, paired (column other) with a
// related row of relTable whose attr column is one of the values (numeric:
// the values are integers). __n negates.
func m2mMatch(join, own, other, relTable, attr string, numeric bool) func(string, []string) (func(*sql.Selector), error) {
	return func(lookup string, values []string) (func(*sql.Selector), error) {
		args := make([]any, 0, len(values))
		for _, v := range values {
			if numeric {
				n, err := strconv.Atoi(v)
				if err != nil {
					return nil, fmt.Errorf("“%s” is not a valid value.", v)
				}
				args = append(args, n)
			} else {
				args = append(args, v)
			}
		}
		return func(s *sql.Selector) {
			j := sql.Dialect(s.Dialect()).Select(own).From(sql.Table(join))
			if attr == "id" {
				j.Where(sql.In(other, args...))
			} else {
				t := sql.Dialect(s.Dialect()).Select("id").From(sql.Table(relTable)).Where(sql.In(attr, args...))
				j.Where(sql.In(other, t))
			}
			p := sql.In(s.C("id"), j)
			if lookup == "n" {
				p = sql.Not(p)
			}
			s.Where(p)
		}, nil
	}
}

// loadReverseMany loads, for a KindReverse field with Many, the objects
// of the other model whose FK column holds one of ids (a virtual chassis'
// members), in one query, in the model's order (relatedOrder).
func (p *Page) loadReverseMany(ctx context.Context, f *Field, ids []int) error {
	return p.loadReverseManyOf(ctx, p.d, f, ids)
}

// loadReverseManyOf is loadReverseMany for rows ids of the model own, the
// page's or that of related rows rendered in a form holding f; lists
// already loaded for f are kept.
func (p *Page) loadReverseManyOf(ctx context.Context, own *Descriptor, f *Field, ids []int) error {
	if p.m2m == nil {
		p.m2m = map[*Field]map[int][]*Row{}
	}
	m := p.m2m[f]
	if m == nil {
		m = map[int][]*Row{}
		p.m2m[f] = m
	}
	t := f.target
	key := t.column(f.Reverse.Column)
	tt := sql.Table(t.Table).As("t")
	cols := append([]string{tt.C(key)}, t.columnList(p.st.Dialect, tt, t.allCols)...)
	s := sql.Dialect(p.st.Dialect).Select(cols...).From(tt).
		Where(inIDs(p.st.Dialect, tt.C(key), ids))
	relatedOrder(s, t, tt)
	if tc := f.Reverse.TypeColumn; tc != "" {
		s.Where(sql.EQ(tt.C(t.column(tc)), own.ContentType()))
	}
	if err := p.scanOwned(ctx, s, t, m); err != nil {
		return fmt.Errorf("load %s.%s: %w", own.Type, f.Name, err)
	}
	// The rows' own relations (a bridge member's device) render nested,
	// loaded with the page's.
	var fks []*Field
	for _, nf := range t.nestedFields() {
		if nf.Kind == KindFK {
			fks = append(fks, nf)
		}
	}
	if len(fks) > 0 {
		var all []*Row
		for _, rows := range m {
			all = append(all, rows...)
		}
		if len(all) > 0 {
			p.more = append(p.more, relatedWant{fks, all})
		}
	}
	return nil
}

// withRelated hands the many-to-many lists of the change to the schema
// hooks (api.Related): they are written after the row, where no hook runs.
func (ch *change) withRelated(ctx context.Context) context.Context {
	if len(ch.m2m) == 0 {
		return ctx
	}
	lists := make(map[string][]int, len(ch.m2m))
	for f, ids := range ch.m2m {
		lists[f.Name] = ids
	}
	return api.WithRelated(ctx, lists)
}

// decodeByLookup resolves a ByLookup list (tag slugs) to ids, with DRF's
// SlugRelatedField messages.
func decodeByLookup(ctx context.Context, tx *Tx, f *Field, list []json.RawMessage) ([]int, []string) {
	vals := make([]any, 0, len(list))
	for _, item := range list {
		var s string
		var n json.Number
		switch {
		case json.Unmarshal(item, &s) == nil:
		case json.Unmarshal(item, &n) == nil: // Django looks a number up by its text
			s = n.String()
		default:
			return nil, []string{"Invalid value."}
		}
		vals = append(vals, s)
	}
	ids := []int{}
	if len(vals) == 0 {
		return ids, nil
	}
	col := f.target.byName[f.Lookup].Column
	rows, err := f.target.Where(ctx, tx.Store(), 0, func(s *sql.Selector) { s.Where(sql.In(s.C(col), vals...)) })
	if err != nil {
		return nil, []string{"Related object lookup failed."} // decode returns tx.Err()
	}
	byVal := map[any]int{}
	for _, r := range rows {
		byVal[f.target.Value(r, f.Lookup)] = r.ID
	}
	for _, v := range vals {
		id, ok := byVal[v]
		if !ok {
			return nil, []string{fmt.Sprintf("Object with %s=%s does not exist.", f.Lookup, v)}
		}
		ids = append(ids, id)
	}
	return dedupe(ids), nil
}
