package resource

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/filters"
)

// View says which representation of an object to render.
type View struct {
	Brief  bool
	Fields []string // ?fields=: only these (wins over Omit and Brief)
	Omit   []string // ?omit=
	// Exclude is NetBox's ?exclude=: only config_context may be left out
	// this way (the expensive field of devices and virtual machines).
	Exclude []string
	// Nested renders the nested representation (a related object's).
	Nested bool
	// Base is the scheme and host for absolute URLs ("http://host"); empty
	// renders relative paths, as NetBox does in webhook payloads.
	Base string
}

// Page is a set of rows of one model with everything their representation
// needs, loaded in a fixed number of batched queries whatever the row count.
type Page struct {
	d         *Descriptor
	st        Store
	base      string
	fields    []*Field
	nested    bool
	related   map[*Descriptor]map[int]*Row // FK targets, by model then id
	tags      map[int][]*Row
	counts    map[*Field]map[int]int
	generic   map[*Field]map[string]map[int]*Row
	cfs       []CustomFieldDef
	cfObjs    map[string]map[int]*Row // custom field object targets: content type → id → row
	cfScratch []cfMember              // cfValues' members of the row being read
	m2m       map[*Field]map[int][]*Row
	full      map[*Field]*Page        // KindM2M fields rendered in full: their rows' page
	reverse   map[*Field]map[int]*Row // KindReverse: own id → the row pointing here
	// more are rows loaded beside the page (reverse rows) whose FK fields
	// loadRelated resolves with the page's own.
	more   []relatedWant
	reveal *Reveal
	// computed are the KindComputed fields' values by row id.
	computed map[*Field]map[int]json.RawMessage
	// refs are the KindComputedRefs results by RefsFunc, then row id.
	refs map[string]map[int][]api.Ref
}

// fieldsFor picks the fields a view renders, in representation order.
func (d *Descriptor) fieldsFor(v View) []*Field {
	if v.Nested {
		return d.nested
	}
	out := d.viewFields(v)
	for _, n := range v.Exclude {
		if strings.TrimSpace(n) != Excludable {
			continue
		}
		kept := make([]*Field, 0, len(out))
		for _, f := range out {
			if f.Name != Excludable {
				kept = append(kept, f)
			}
		}
		out = kept
	}
	return out
}

// Excludable is the one field ?exclude= drops, as NetBox's
// ConfigContextQuerySetMixin does.
const Excludable = "config_context"

// viewFields applies brief, fields and omit.
func (d *Descriptor) viewFields(v View) []*Field {
	base := d.full
	if v.Brief {
		base = d.brief
	}
	if len(v.Fields) > 0 {
		want := map[string]bool{}
		for _, n := range v.Fields {
			want[strings.TrimSpace(n)] = true
		}
		var out []*Field
		for _, f := range d.full {
			if want[f.Name] {
				out = append(out, f)
			}
		}
		return out
	}
	if len(v.Omit) > 0 {
		skip := map[string]bool{}
		for _, n := range v.Omit {
			skip[strings.TrimSpace(n)] = true
		}
		var out []*Field
		for _, f := range base {
			if !skip[f.Name] {
				out = append(out, f)
			}
		}
		return out
	}
	return base
}

// nestedFields is the representation of a related object inside another
// (computeNested, nestedform.go).
func (d *Descriptor) nestedFields() []*Field { return d.nested }

// Load prepares rows of d for rendering with view v.
func (d *Descriptor) Load(ctx context.Context, st Store, rows []*Row, v View) (*Page, error) {
	p := &Page{d: d, st: st, base: v.Base, fields: d.fieldsFor(v), nested: v.Nested, reveal: RevealFrom(ctx)}
	return p, p.load(ctx, rows)
}

func (p *Page) load(ctx context.Context, rows []*Row) error {
	if len(rows) == 0 {
		return nil
	}
	ids := make([]int, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	var fks []*Field
	for _, f := range p.fields {
		var err error
		switch f.Kind {
		case KindFK:
			if !f.PK {
				fks = append(fks, f)
			}
		case KindCoalesce:
			for _, name := range f.Of {
				if of := p.d.byName[name]; !slices.Contains(fks, of) {
					fks = append(fks, of)
				}
			}
		case KindTags:
			err = p.loadTags(ctx, rows, ids)
		case KindCount:
			if !p.nested {
				err = p.loadCount(ctx, f, ids)
			}
		case KindGenericObject:
			err = p.loadGeneric(ctx, p.d, f, rows)
		case KindGenericRefs:
			err = p.loadGenericRefs(ctx, f, rows)
		case KindComputedRefs:
			if !p.nested {
				err = p.loadComputedRefs(ctx, f, rows)
			}
		case KindM2M:
			err = p.loadM2M(ctx, f, ids)
		case KindReverse:
			if f.Reverse.Many {
				err = p.loadReverseMany(ctx, f, ids)
			} else {
				err = p.loadReverse(ctx, f, ids)
			}
		case KindCustomFields:
			err = p.loadCustomFields(ctx, rows)
		case KindComputed:
			if !p.nested {
				err = p.loadComputed(ctx, f, rows)
			}
		}
		if err != nil {
			return err
		}
	}
	if slices.ContainsFunc(p.fields, func(f *Field) bool { return f.Kind == KindDisplay }) {
		// A display naming related objects needs them loaded, whether
		// or not the view renders them as fields.
		for _, f := range p.d.displayRefs {
			switch {
			case f.Kind == KindFK && !slices.Contains(fks, f):
				fks = append(fks, f)
			case f.Kind == KindGenericObject && p.generic[f] == nil:
				if err := p.loadGeneric(ctx, p.d, f, rows); err != nil {
					return err
				}
			}
		}
	}
	if err := p.loadM2MFull(ctx); err != nil {
		return err
	}
	return p.loadRelated(ctx, fks, rows)
}

// relatedWant is a set of rows whose FK fields loadRelated resolves.
type relatedWant struct {
	fields []*Field
	rows   []*Row
}

// loadReverse loads, for a KindReverse field, the row of the other model
// pointing at each of ids: one query for the links, one for the rows (and
// one for the Through objects), whatever the page size.
func (p *Page) loadReverse(ctx context.Context, f *Field, ids []int) error {
	rv := f.Reverse
	td := ByContentType(rv.Model)
	if td == nil {
		return nil
	}
	if p.reverse == nil {
		p.reverse = map[*Field]map[int]*Row{}
	}
	m := map[int]*Row{}
	p.reverse[f] = m
	link := map[int]int{} // reverse row id → own id
	t := sql.Table(td.Table)
	s := sql.Dialect(p.st.Dialect).Select(t.C("id"), t.C(rv.Column)).From(t).Where(inIDs(p.st.Dialect, t.C(rv.Column), ids))
	if rv.TypeColumn != "" {
		// The id half of a generic relation: only rows of this type.
		s.Where(sql.EQ(t.C(td.column(rv.TypeColumn)), p.d.ContentType()))
	}
	q, args := s.Query()
	rs, err := p.st.Q.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("reverse %s: %w", f.Name, err)
	}
	for rs.Next() {
		var id, own int
		if err := rs.Scan(&id, &own); err != nil {
			rs.Close()
			return err
		}
		link[id] = own
	}
	rs.Close()
	if err := rs.Err(); err != nil {
		return err
	}
	if rv.Exists || len(link) == 0 {
		for id, own := range link {
			m[own] = &Row{ID: id}
		}
		return nil
	}
	rids := make([]int, 0, len(link))
	for id := range link {
		rids = append(rids, id)
	}
	sort.Ints(rids)
	var got []*Row
	if f.form != nil && rv.Through == "" {
		// A form of its own (a module bay's installed_module shows the
		// module's serial) may name columns beyond the nested ones.
		got, err = td.GetMany(ctx, p.st, rids)
	} else {
		got, err = td.getNested(ctx, p.st, rids)
	}
	if err != nil {
		return err
	}
	for _, r := range got {
		m[link[r.ID]] = r
	}
	var fks []*Field
	for _, nf := range td.nestedFields() {
		if nf.Kind == KindFK {
			fks = append(fks, nf)
		}
	}
	if tf := td.byName[rv.Through]; tf != nil && tf.Kind == KindFK {
		fks = append(fks, tf) // its object is the field's value
	}
	if len(fks) > 0 && len(got) > 0 {
		p.more = append(p.more, relatedWant{fks, got})
	}
	return nil
}

// encodeReverse renders a KindReverse field of r.
func (p *Page) encodeReverse(b []byte, f *Field, r *Row) []byte {
	t := p.reverse[f][r.ID]
	if f.Reverse.Exists {
		off := false
		if f.Reverse.OrNot != "" {
			v, isBool := p.d.Value(r, f.Reverse.OrNot).(bool)
			off = isBool && !v
		}
		return strconv.AppendBool(b, t != nil || off)
	}
	if t == nil {
		return append(b, "null"...)
	}
	td := ByContentType(f.Reverse.Model)
	if f.Reverse.Through == "" {
		form := td.nestedFields()
		if f.form != nil {
			form = f.form // api.Reverse.Nested
		}
		return p.encode(b, td, t, form, true)
	}
	tf := td.byName[f.Reverse.Through]
	id, _ := t.Vals[tf.col].(int)
	obj := p.related[tf.target][id]
	if obj == nil {
		return append(b, "null"...)
	}
	form, asForm := tf.target.nestedFields(), td.nestedFields()
	if f.form != nil {
		form, asForm = f.form, f.asForm
	}
	b = p.encode(b, tf.target, obj, form, true)
	if f.Reverse.As == "" {
		return b
	}
	b = append(b[:len(b)-1], ',')
	b = appendString(b, f.Reverse.As)
	b = append(b, ':')
	b = p.encode(b, td, t, asForm, true)
	return append(b, '}')
}

// loadRelated loads the objects the FK fields of rows point at, and
// theirs in turn (a device's device type shows its manufacturer, as
// NetBox's nested serializers do), level by level: one batched query per
// model and level, whatever the page size. Objects are shared by model, so
// an object already loaded at an earlier level (the manufacturer of a
// template and of its device type) is not asked for again, and cycles end.
func (p *Page) loadRelated(ctx context.Context, fields []*Field, rows []*Row) error {
	p.related = map[*Descriptor]map[int]*Row{}
	type want = relatedWant
	level := append([]want{{fields, rows}}, p.more...)
	for len(level) > 0 {
		ids := map[*Descriptor][]int{}
		var order []*Descriptor
		for _, w := range level {
			for _, f := range w.fields {
				m := p.related[f.target]
				if m == nil {
					m = map[int]*Row{}
					p.related[f.target] = m
				}
				for _, r := range w.rows {
					if id, ok := r.Vals[f.col].(int); ok {
						if _, seen := m[id]; !seen {
							m[id] = nil // claimed: asked for once
							if ids[f.target] == nil {
								order = append(order, f.target)
							}
							ids[f.target] = append(ids[f.target], id)
						}
					}
				}
			}
		}
		// Generic objects that a nested form shows (a circuit's
		// termination_a shows what the termination attaches to), by the
		// model holding them.
		forms := map[*Descriptor][]*Field{}
		// A form's own relations beyond the brief ones (a device's
		// primary_ip4 shows the address's nat_inside and nat_outside):
		// FKs resolved at the next level, reverse lists loaded with the
		// rows, one query each per level whatever the page size.
		formFKs := map[*Descriptor][]*Field{}
		formLists := map[*Descriptor][]*Field{}
		for _, w := range level {
			for _, f := range w.fields {
				for _, ff := range f.form {
					switch {
					case ff.Kind == KindGenericObject && !slices.Contains(forms[f.target], ff):
						forms[f.target] = append(forms[f.target], ff)
					case ff.Kind == KindFK && !ff.PK && !slices.Contains(formFKs[f.target], ff):
						formFKs[f.target] = append(formFKs[f.target], ff)
					case ff.inForm && !slices.Contains(formLists[f.target], ff):
						formLists[f.target] = append(formLists[f.target], ff)
					}
				}
			}
		}
		level = nil
		for _, t := range order {
			got, err := t.getNested(ctx, p.st, ids[t])
			if err != nil {
				return err
			}
			for _, r := range got {
				p.related[t][r.ID] = r
			}
			for _, g := range forms[t] {
				more := len(p.more)
				if err := p.loadGeneric(ctx, t, g, got); err != nil {
					return err
				}
				level = append(level, p.more[more:]...)
				p.more = p.more[:more]
			}
			if lists := formLists[t]; len(lists) > 0 && len(got) > 0 {
				gotIDs := make([]int, len(got))
				for i, r := range got {
					gotIDs[i] = r.ID
				}
				for _, lf := range lists {
					more := len(p.more)
					if err := p.loadReverseManyOf(ctx, t, lf, gotIDs); err != nil {
						return err
					}
					level = append(level, p.more[more:]...)
					p.more = p.more[:more]
				}
			}
			var nested []*Field
			for _, nf := range t.nestedFields() {
				if nf.Kind == KindFK {
					nested = append(nested, nf)
				}
			}
			for _, ff := range formFKs[t] {
				if !slices.Contains(nested, ff) {
					nested = append(nested, ff)
				}
			}
			if len(nested) > 0 && len(got) > 0 {
				level = append(level, want{nested, got})
			}
		}
	}
	return nil
}

func (p *Page) loadTags(ctx context.Context, rows []*Row, ids []int) error {
	if p.tags != nil {
		return nil
	}
	// Sized for the page: growing a map of a thousand entries step by
	// step cost a third of reading the tags.
	p.tags = make(map[int][]*Row, len(ids))
	// Two small queries rather than one join: the assignments through the
	// covering (object_type, object_id, tag_id) index, then the few tags.
	// With a join, SQLite's planner may loop over the small tag table and
	// scan each tag's assignments instead. Rows read with their tags
	// (Get) need only the second.
	var oids, tids []int
	if slices.ContainsFunc(rows, func(r *Row) bool { return !r.tagsRead }) {
		var err error
		if oids, tids, err = p.readAssignments(ctx, ids); err != nil {
			return err
		}
	} else {
		for _, r := range rows {
			for _, t := range r.tagIDs {
				oids, tids = append(oids, r.ID), append(tids, t)
			}
		}
	}
	// A page of 1000 has thousands of assignments: they are collected
	// flat and grouped in one backing array rather than in a slice per
	// object (allocations are a good part of a large page's cost).
	type assignment struct{ oid, tid int }
	pairs := make([]assignment, len(oids))
	for i := range pairs {
		pairs[i] = assignment{oids[i], tids[i]}
	}
	if len(pairs) == 0 {
		return nil
	}
	tag := ByContentType("extras.tag")
	tagRows, err := tag.getNested(ctx, p.st, dedupe(tids))
	if err != nil {
		return err
	}
	byID := make(map[int]*Row, len(tagRows))
	for _, r := range tagRows {
		byID[r.ID] = r
	}
	weight, name := tag.byName["weight"].col, tag.byName["name"].col
	// NetBox's tag ordering within an object: weight, then name.
	slices.SortFunc(pairs, func(a, b assignment) int {
		if a.oid != b.oid {
			return a.oid - b.oid
		}
		ra, rb := byID[a.tid], byID[b.tid]
		if ra == nil || rb == nil {
			return a.tid - b.tid
		}
		wa, _ := ra.Vals[weight].(int)
		wb, _ := rb.Vals[weight].(int)
		if wa != wb {
			return wa - wb
		}
		na, _ := ra.Vals[name].(string)
		nb, _ := rb.Vals[name].(string)
		return strings.Compare(na, nb)
	})
	all := make([]*Row, 0, len(pairs))
	for i := 0; i < len(pairs); {
		start := len(all)
		o := pairs[i].oid
		for ; i < len(pairs) && pairs[i].oid == o; i++ {
			if r := byID[pairs[i].tid]; r != nil {
				all = append(all, r)
			}
		}
		p.tags[o] = all[start:len(all):len(all)]
	}
	return nil
}

// readAssignments reads the tag assignments of the objects ids: each
// object's id and its tag's, in the same order.
func (p *Page) readAssignments(ctx context.Context, ids []int) (oids, tids []int, err error) {
	// The assignments come back as two values, the objects' ids and the
	// tags' ids in the same order ("1,1,2" and "5,7,5"), not as a row
	// each: handing over thousands of two-integer rows one by one
	// (database/sql's Next and Scan, the driver's values) cost more than
	// finding them. Two lists rather than one of "object:tag" pairs: the
	// database's concatenation of each pair cost as much as the rest
	// (SQLite: 0.26 against 0.12 ms for 1,800 assignments). Both
	// aggregates see the rows in the same order, being computed in the
	// same pass.
	ti := sql.Table("extras_taggeditem")
	agg := func(c string) string { return "group_concat(" + ti.C(c) + ")" }
	if p.st.Dialect == dialect.Postgres {
		// An integer array (read as "{1,1,2}"): PostgreSQL builds it in
		// two thirds of the time string_agg takes to write the numbers.
		agg = func(c string) string { return "array_agg(" + ti.C(c) + ")" }
	}
	// A page's ids are often close together (most orderings follow the
	// order of creation): then one range of the index is read, rather
	// than the index searched once per id. The assignments of the few
	// objects in the range but not on the page are kept and never shown.
	lo, hi := slices.Min(ids), slices.Max(ids)
	match := inIDs(p.st.Dialect, ti.C("object_id"), ids)
	if len(ids) > 1 && hi-lo < 2*len(ids) {
		match = sql.And(sql.GTE(ti.C("object_id"), lo), sql.LTE(ti.C("object_id"), hi))
	}
	s := sql.Dialect(p.st.Dialect).Select(agg("object_id"), agg("tag_id")).From(ti).
		Where(sql.And(sql.EQ(ti.C("object_type"), p.d.ContentType()), match))
	q, args := s.Query()
	var objects, tags []byte
	if _, err := filters.QueryRow(ctx, p.st.Q, q, args, &objects, &tags); err != nil {
		return nil, nil, err
	}
	if oids, err = parseTagList(nil, objects); err != nil {
		return nil, nil, fmt.Errorf("tags of %s: %w", p.d.Table, err)
	}
	tids, err = parseTagList(make([]int, 0, len(oids)), tags)
	if err != nil || len(tids) != len(oids) {
		return nil, nil, fmt.Errorf("tags of %s: %d objects for %d tags (%v)", p.d.Table, len(oids), len(tids), err)
	}
	return oids, tids, nil
}

// appendIntList appends the non-negative integers of a comma-separated
// list ("1,20,3"; empty for none) to dst.
func appendIntList(dst []int, list []byte) ([]int, error) {
	if len(list) == 0 {
		return dst, nil
	}
	n, digits := 0, 0
	for _, c := range list {
		switch {
		case c >= '0' && c <= '9':
			n, digits = n*10+int(c-'0'), digits+1
		case c == ',' && digits > 0:
			dst, n, digits = append(dst, n), 0, 0
		default:
			return dst, fmt.Errorf("unexpected %q in %q", c, list)
		}
	}
	if digits == 0 {
		return dst, fmt.Errorf("list %q ends with a comma", list)
	}
	return append(dst, n), nil
}

// countTable is the table a count field counts rows of.
func countTable(c *Count) string {
	if c.Table != "" {
		return c.Table
	}
	if d := ByContentType(c.Model); d != nil {
		return d.Table
	}
	return ""
}

func (p *Page) loadCount(ctx context.Context, f *Field, ids []int) error {
	if p.counts == nil {
		p.counts = map[*Field]map[int]int{}
	}
	// A count the page has loaded already (a VLAN group's utilization is
	// its vlan_count as a percentage) is not asked for again.
	for g, m := range p.counts {
		c, o := *g.Count, *f.Count
		c.Percent, o.Percent = "", ""
		if c == o {
			p.counts[f] = m
			return nil
		}
	}
	m := map[int]int{}
	p.counts[f] = m
	table := countTable(f.Count)
	var q string
	args := []any{idsParam(p.st.Dialect, ids)}
	first := placeholders(p.st.Dialect, 1, 1)
	if b := f.Count.Between; b[0] != "" {
		// Rows whose column lies between this row's two fields.
		q = fmt.Sprintf(`SELECT o.id, COUNT(c.id) FROM %[1]s o JOIN %[2]s c ON c.%[3]s >= o.%[4]s AND c.%[3]s <= o.%[5]s `+
			`WHERE %[6]s GROUP BY o.id`,
			quote(p.d.Table), quote(table), quote(f.Count.Column), quote(p.d.column(b[0])), quote(p.d.column(b[1])),
			idsMatch(p.st.Dialect, "o.id", first))
	} else if f.Count.Cumulative && p.d.Tree {
		// Rows pointing at the node or any of its descendants.
		counted := "c.id"
		if f.Count.Distinct != "" {
			counted = "DISTINCT c." + quote(f.Count.Distinct)
		}
		q = fmt.Sprintf(`WITH RECURSIVE sub(root, id) AS (SELECT id, id FROM %[1]s WHERE %[2]s `+
			`UNION SELECT sub.root, n.id FROM %[1]s n JOIN sub ON n.parent_id = sub.id) `+
			`SELECT sub.root, COUNT(%[5]s) FROM sub JOIN %[3]s c ON c.%[4]s = sub.id GROUP BY sub.root`,
			quote(p.d.Table), idsMatch(p.st.Dialect, "id", first), quote(table), quote(f.Count.Column), counted)
	} else {
		where := ""
		if tc := f.Count.TypeColumn; tc != "" {
			// A generic relation: only rows pointing at this model.
			where = " AND " + quote(tc) + " = " + placeholders(p.st.Dialect, 2, 1)
			args = append(args, p.d.ContentType())
		}
		q = fmt.Sprintf(`SELECT %[2]s, COUNT(*) FROM %[1]s WHERE %[3]s%[4]s GROUP BY %[2]s`,
			quote(table), quote(f.Count.Column), idsMatch(p.st.Dialect, quote(f.Count.Column), first), where)
	}
	rs, err := p.st.Q.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("count %s: %w", f.Name, err)
	}
	for rs.Next() {
		var id, n int
		if err := rs.Scan(&id, &n); err != nil {
			rs.Close()
			return err
		}
		m[id] = n
	}
	rs.Close()
	if err := rs.Err(); err != nil {
		return err
	}
	return nil
}

// loadGeneric loads the objects the generic relation f of d's rows points
// at, one query per type (added to those loaded for f before).
func (p *Page) loadGeneric(ctx context.Context, d *Descriptor, f *Field, rows []*Row) error {
	tf, idf := d.byName[f.Generic+"_type"], d.byName[f.Generic+"_id"]
	byType := map[string][]int{}
	for _, r := range rows {
		ct, _ := r.Vals[tf.col].(string)
		id, ok := r.Vals[idf.col].(int)
		if ct != "" && ok {
			byType[ct] = append(byType[ct], id)
		}
	}
	if p.generic == nil {
		p.generic = map[*Field]map[string]map[int]*Row{}
	}
	m := p.generic[f]
	if m == nil {
		m = map[string]map[int]*Row{}
		p.generic[f] = m
	}
	types := make([]string, 0, len(byType))
	for ct := range byType {
		types = append(types, ct)
	}
	sort.Strings(types)
	for _, ct := range types {
		td := ByContentType(ct)
		if td == nil {
			continue
		}
		got, err := td.getNested(ctx, p.st, dedupe(byType[ct]))
		if err != nil {
			return err
		}
		if m[ct] == nil {
			m[ct] = map[int]*Row{}
		}
		for _, r := range got {
			m[ct][r.ID] = r
		}
		// The objects' own relations (an interface's device) render
		// nested, loaded with the page's.
		var fks []*Field
		for _, nf := range td.nestedFields() {
			if nf.Kind == KindFK {
				fks = append(fks, nf)
			}
		}
		if len(fks) > 0 && len(got) > 0 {
			p.more = append(p.more, relatedWant{fks, got})
		}
	}
	return nil
}

// displayOf is d.DisplayOf with the related objects the display rule
// names rendered as their own displays, from what the page loaded.
func (p *Page) displayOf(d *Descriptor, r *Row) string {
	if len(d.displayRefs) == 0 || d != p.d {
		return d.DisplayOf(r)
	}
	return d.display(r, func(f *Field, r *Row) string {
		switch f.Kind {
		case KindFK:
			id, _ := r.Vals[f.col].(int)
			if t := p.related[f.target][id]; t != nil {
				return f.target.DisplayOf(t)
			}
		case KindGenericObject:
			ct, _ := d.Value(r, f.Generic+"_type").(string)
			id, _ := d.Value(r, f.Generic+"_id").(int)
			if t := p.generic[f][ct][id]; t != nil {
				return ByContentType(ct).DisplayOf(t)
			}
		}
		return ""
	})
}

// Encode appends the JSON representation of r.
func (p *Page) Encode(b []byte, r *Row) []byte {
	return p.encode(b, p.d, r, p.fields, p.nested)
}

// JSON returns the representation of r as a byte slice.
func (p *Page) JSON(r *Row) json.RawMessage { return p.Encode(nil, r) }

func (p *Page) encode(b []byte, d *Descriptor, r *Row, fields []*Field, nested bool) []byte {
	b = append(b, '{')
	for i, f := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, f.Name)
		b = append(b, ':')
		b = p.value(b, d, r, f, nested)
	}
	return append(b, '}')
}

func (p *Page) value(b []byte, d *Descriptor, r *Row, f *Field, nested bool) []byte {
	var v any
	if f.col >= 0 {
		v = r.Vals[f.col]
	}
	if f.nullWhen != nil && fmt.Sprint(r.Vals[f.nullWhen.col]) == f.nullWhenVal {
		return append(b, "null"...)
	}
	switch f.Kind {
	case KindURL:
		return d.appendURL(b, p.base, "/api/", r.ID)
	case KindDisplayURL:
		if d.UI != "" {
			b = append(append(append(append(b, '"'), p.base...), '/'), d.UI...)
			return append(strconv.AppendInt(append(b, '/'), int64(r.ID), 10), '/', '"')
		}
		return d.appendURL(b, p.base, "/", r.ID)
	case KindDisplay:
		return appendString(b, p.displayOf(d, r))
	case KindChoice:
		if v == nil || v == "" {
			return append(b, "null"...)
		}
		b = append(b, `{"value":`...)
		b = appendAny(b, v)
		b = append(b, `,"label":`...)
		return append(appendString(b, f.label(v)), '}')
	case KindFK:
		id, ok := v.(int)
		if !ok {
			return append(b, "null"...)
		}
		if f.PK {
			return appendAny(b, id)
		}
		t := p.related[f.target][id]
		if t == nil {
			return appendAny(b, id)
		}
		return p.encode(b, f.target, t, f.relatedForm(), true)
	case KindCoalesce:
		for _, name := range f.Of {
			of := d.byName[name]
			if id, ok := r.Vals[of.col].(int); ok {
				if t := p.related[of.target][id]; t != nil {
					return p.encode(b, of.target, t, of.relatedForm(), true)
				}
			}
		}
		return append(b, "null"...)
	case KindTags:
		b = append(b, '[')
		tag := ByContentType("extras.tag")
		for i, t := range p.tags[r.ID] {
			if i > 0 {
				b = append(b, ',')
			}
			b = p.encode(b, tag, t, tag.tagFields(), true)
		}
		return append(b, ']')
	case KindCount:
		if f.Count.Percent != "" {
			total, _ := d.Value(r, f.Count.Percent).(int)
			return appendPercent(b, p.counts[f][r.ID], total)
		}
		if nested {
			return appendNestedCount(b, d, f, r)
		}
		return appendAny(b, p.counts[f][r.ID])
	case KindEmpty:
		return appendAny(b, f.Empty)
	case KindReverse:
		if f.Reverse.Many {
			return p.encodeM2M(b, f, r, nested)
		}
		if nested {
			return append(b, "null"...)
		}
		return p.encodeReverse(b, f, r)
	case KindM2M:
		return p.encodeM2M(b, f, r, nested)
	case KindComputed:
		if v := p.computed[f][r.ID]; v != nil {
			return append(b, v...)
		}
		return append(b, "null"...)
	case KindGenericObject:
		ct, _ := d.Value(r, f.Generic+"_type").(string)
		id, _ := d.Value(r, f.Generic+"_id").(int)
		t := p.generic[f][ct][id]
		if t == nil {
			return append(b, "null"...)
		}
		td := ByContentType(ct)
		return p.encode(b, td, t, td.nestedFields(), true)
	case KindCustomFields:
		return p.encodeCustomFields(b, v)
	case KindGenericRefs:
		return p.encodeGenericRefs(b, f, v)
	case KindComputedRefs:
		return p.encodeComputedRefs(b, f, r.ID)
	case KindImage:
		if s, _ := v.(string); s != "" {
			return appendString(b, ImageURL(p.base, s))
		}
		return append(b, "null"...)
	case KindSecret:
		if s, ok := p.reveal.get(d.ContentType(), r.ID); ok {
			return appendString(b, s)
		}
		return append(b, "null"...)
	}
	if f.codec != nil && f.codec.encode != nil {
		return f.codec.encode(b, v)
	}
	return appendAny(b, v)
}

// tagFields is the nested tag form: NetBox renders every tag with
// id, url, display_url, display, name, slug and color.
func (d *Descriptor) tagFields() []*Field { return d.tagForm }

func (d *Descriptor) computeTagForm() {
	d.tagForm = nil
	for _, n := range []string{"id", "url", "display_url", "display", "name", "slug", "color"} {
		if f := d.byName[n]; f != nil {
			d.tagForm = append(d.tagForm, f)
		}
	}
}

// appendURL appends the quoted URL base+mid+app/path/id/ (URLs need no
// escaping: app and path are plain names).
func (d *Descriptor) appendURL(b []byte, base, mid string, id int) []byte {
	b = append(b, '"')
	b = append(b, base...)
	b = append(b, mid...)
	b = append(b, d.App...)
	b = append(b, '/')
	b = append(b, d.Path...)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(id), 10)
	return append(b, '/', '"')
}

// URL is the API URL of object id.
func (d *Descriptor) URL(base string, id int) string {
	return base + "/api/" + d.App + "/" + d.Path + "/" + itoa(id) + "/"
}

// ListURL is the API URL of the model's list.
func (d *Descriptor) ListURL(base string) string {
	return base + "/api/" + d.App + "/" + d.Path + "/"
}

func (f *Field) label(v any) string {
	if s, ok := v.(string); ok { // the common case: no formatting
		for _, c := range f.Choices {
			if cs, ok := c.Value.(string); ok && cs == s {
				return c.Label
			}
		}
		return ""
	}
	if n, ok := v.(int); ok { // an integer choice (a prefix's family)
		for _, c := range f.Choices {
			if cn, ok := c.Value.(int); ok && cn == n {
				return c.Label
			}
		}
	}
	for _, c := range f.Choices {
		if fmt.Sprint(c.Value) == fmt.Sprint(v) {
			return c.Label
		}
	}
	return ""
}

func dedupe(ids []int) []int {
	seen := map[int]bool{}
	out := ids[:0:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// quote quotes an identifier for both SQLite and PostgreSQL.
func quote(id string) string { return `"` + strings.ReplaceAll(id, `"`, `""`) + `"` }

// appendPercent renders n as a percentage of total the way NetBox renders
// Round(n * 100.0 / total, 2) (a PostgreSQL numeric: two decimals, half
// away from zero), or null when total is 0.
func appendPercent(b []byte, n, total int) []byte {
	if total <= 0 {
		return append(b, "null"...)
	}
	// NetBox annotates Round(count * 100.0 / total, 2), a FloatField, and
	// its CharField renders the float as Python's str does: "0.0",
	// "50.0", "33.33" (the shortest repr, with at least one decimal).
	hundredths := (int64(n)*20000 + int64(total)) / (2 * int64(total))
	s := strconv.FormatFloat(float64(hundredths)/100, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return appendString(b, s)
}

// nestedOf renders objects of model ct nested, by id, read from the
// page's store with its base URL (PageQuery.Nested).
func (p *Page) nestedOf(ctx context.Context, ct string, ids []int) (map[int]json.RawMessage, error) {
	out := map[int]json.RawMessage{}
	d := ByContentType(ct)
	if d == nil || len(ids) == 0 {
		return out, nil
	}
	rows, err := d.GetMany(ctx, p.st, ids)
	if err != nil {
		return nil, err
	}
	page, err := d.Load(ctx, p.st, rows, View{Base: p.base, Nested: true})
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r.ID] = page.JSON(r)
	}
	return out, nil
}

// loadComputed asks a KindComputed field's PageFunc for the values of the
// whole page at once; it runs only when the view renders the field.
func (p *Page) loadComputed(ctx context.Context, f *Field, rows []*Row) error {
	if f.Compute == nil {
		return nil
	}
	q := api.PageQuery{ContentType: p.d.ContentType(), Postgres: p.st.Dialect == dialect.Postgres, Q: p.st.Q,
		IDs: make([]int, len(rows)), Rows: make([]api.Getter, len(rows))}
	for i, r := range rows {
		q.IDs[i] = r.ID
		q.Rows[i] = func(name string) any { return p.d.Value(r, name) }
	}
	q.Nested = func(ctx context.Context, ct string, ids []int) (map[int]json.RawMessage, error) {
		return p.nestedOf(ctx, ct, ids)
	}
	q.Cached = func(key string, load func() (any, error)) (any, error) {
		c := p.st.CacheIn(ctx)
		if c == nil {
			return load()
		}
		key = "computed:" + key
		if v, ok := c.Get(key); ok {
			return v, nil
		}
		gen := c.Gen()
		v, err := load()
		if err == nil {
			c.Put(key, gen, v)
		}
		return v, err
	}
	got, err := f.Compute(ctx, q)
	if err != nil {
		return fmt.Errorf("compute %s.%s: %w", p.d.Type, f.Name, err)
	}
	if p.computed == nil {
		p.computed = map[*Field]map[int]json.RawMessage{}
	}
	p.computed[f] = got
	return nil
}
