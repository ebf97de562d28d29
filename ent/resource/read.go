package resource

import (
	"bytes"
	"context"
	stdsql "database/sql"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/filters"
)

// Querier runs reads. *sql.DB, *sql.Tx and the generated *ent.Tx (with the
// execquery feature) all satisfy it.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*stdsql.Rows, error)
}

// Store is a database as the resource layer reads it.
type Store struct {
	Dialect string // dialect.SQLite or dialect.Postgres
	Q       Querier
	// Cache, when set, keeps counts and custom field definitions between
	// requests (nil inside write transactions, which must read fresh).
	Cache *Cache
}

type cacheKey struct{}

// WithCache makes the reads of a Store with a Cache, under the returned
// context, use c instead: a read served by a PostgreSQL hot standby keeps
// what it read in that standby's own cache (ent/db), so that nothing read
// from a standby that is behind is ever answered from the primary's cache.
func WithCache(ctx context.Context, c *Cache) context.Context {
	return context.WithValue(ctx, cacheKey{}, c)
}

// CacheIn is the cache st's reads use under ctx: nil inside a write
// transaction (st.Cache nil), else the one WithCache chose, else st.Cache.
func (st Store) CacheIn(ctx context.Context) *Cache {
	if st.Cache == nil {
		return nil
	}
	if c, ok := ctx.Value(cacheKey{}).(*Cache); ok && c != nil {
		return c
	}
	return st.Cache
}

// Row is one selected object: its values in the descriptor's column order.
type Row struct {
	ID   int
	Vals []any
	// tagIDs are the ids of the row's tags when the statement that read
	// the row read them too (Get); its page then needs no statement for
	// them (loadTags). tagsRead tells an untagged row from one whose
	// tags were not read.
	tagIDs   []int
	tagsRead bool
	// cached are the counts of the descriptor's cachedCounts, read with
	// the row when it is read for a nested representation (nestedform.go).
	cached []int
}

// Value returns the row's value of the named API field (nil when absent).
func (d *Descriptor) Value(r *Row, name string) any {
	if f := d.byName[name]; f != nil && f.col >= 0 {
		return r.Vals[f.col]
	}
	return nil
}

// ListParams selects a page.
type ListParams struct {
	Preds []func(*sql.Selector)
	Order []filters.OrderTerm
	// Limit < 0 means no limit.
	Limit, Offset int
	// Start switches to cursor mode: id >= Start, ordered by id.
	Start *int
	// Count asks for the total number of matching rows.
	Count bool
}

// Selector starts a SELECT of the descriptor's columns.
func (d *Descriptor) Selector(dia string) *sql.Selector { return d.selectCols(dia, d.allCols) }

// List selects a page and, when asked, the total count.
//
// The count costs a second query only when the page cannot tell it: a
// page shorter than its limit ends the list, so the count is its offset
// plus its length. Otherwise it is cached per filter set (the count query
// leaves ordering, limit and offset out), until the next write.
func (d *Descriptor) List(ctx context.Context, st Store, p ListParams) ([]*Row, int, error) {
	rows, err := d.page(ctx, st, p)
	if err != nil || !p.Count {
		return rows, -1, err
	}
	if p.Start == nil && (p.Limit < 0 || len(rows) < p.Limit) && (len(rows) > 0 || p.Offset == 0) {
		return rows, p.Offset + len(rows), nil
	}
	cs := sql.Dialect(st.Dialect).Select(sql.Count("*")).From(sql.Table(d.Table))
	for _, pr := range p.Preds {
		pr(cs)
	}
	q, args := cs.Query()
	key := "count:" + q + fmt.Sprint(args)
	cache := st.CacheIn(ctx)
	if v, ok := cache.Get(key); ok {
		return rows, v.(int), nil
	}
	gen := cache.Gen()
	count, err := queryInt(ctx, st, q, args...)
	if err != nil {
		return nil, 0, err
	}
	cache.Put(key, gen, count)
	return rows, count, nil
}

// page selects the rows of a page.
//
// A page past the first selects the ids of the page first and then its
// rows by id. PostgreSQL's executor builds every row it skips, so OFFSET
// 90000 over full rows (wide JSON columns and all) cost 90,000 row
// projections, where the ids alone come from the ordering's index (an
// index-only scan once the table is vacuumed) at little more than the
// first page's cost. SQLite does not build skipped rows, but walking the
// ordering index it still reads each skipped row from the table (the
// index does not hold the columns selected): 90% of 100,000 prefixes cost
// 5x the first page. Its indexes hold the rowid, so the ids alone are an
// index-only walk there too (the ordering index, OrderingIndexes).
func (d *Descriptor) page(ctx context.Context, st Store, p ListParams) ([]*Row, error) {
	ids := p.Start == nil && p.Offset > 0
	var s *sql.Selector
	if ids {
		s = d.IDSelector(st.Dialect, p.Order)
	} else {
		s = d.Selector(st.Dialect)
		if p.Start != nil {
			s.Where(sql.GTE(s.C("id"), *p.Start))
			s.OrderBy(s.C("id"))
		} else {
			d.applyOrder(s, p.Order)
		}
	}
	for _, pr := range p.Preds {
		pr(s)
	}
	if ids && p.Offset >= deepOffset && p.Limit >= 0 && st.Cache != nil {
		if order, ok, err := d.orderedIDs(ctx, st, s); err != nil {
			return nil, err
		} else if ok {
			return d.rowsInOrder(ctx, st, order.page(p.Offset, p.Limit))
		}
	}
	if p.Limit >= 0 {
		s.Limit(p.Limit)
	}
	if p.Offset > 0 {
		if p.Limit < 0 {
			// SQLite needs a LIMIT before OFFSET.
			s.Limit(-1)
		}
		s.Offset(p.Offset)
	}
	if !ids {
		return d.query(ctx, st, s)
	}
	q, args := s.Query()
	var order []int
	rs, err := st.Q.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("select %s ids: %w", d.Table, err)
	}
	for rs.Next() {
		var id int
		if err := rs.Scan(&id); err != nil {
			rs.Close()
			return nil, err
		}
		order = append(order, id)
	}
	rs.Close()
	if err := rs.Err(); err != nil {
		return nil, err
	}
	return d.rowsInOrder(ctx, st, order)
}

// rowsInOrder reads the rows of ids, in that order. The predicates that
// selected the ids are not repeated: a row written in between is shown
// as it is now, as any page shows the rows of the moment they were read.
func (d *Descriptor) rowsInOrder(ctx context.Context, st Store, order []int) ([]*Row, error) {
	if len(order) == 0 {
		return nil, nil
	}
	rows, err := d.GetMany(ctx, st, order)
	if err != nil {
		return nil, err
	}
	byID := make(map[int]*Row, len(rows))
	for _, r := range rows {
		byID[r.ID] = r
	}
	out := make([]*Row, 0, len(order))
	for _, id := range order {
		if r := byID[id]; r != nil { // deleted in between
			out = append(out, r)
		}
	}
	return out, nil
}

var identRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// IDSelector selects the ids of d's rows in the given order, as a deep
// page does (page); TestOrderingIndexes plans it.
func (d *Descriptor) IDSelector(dia string, order []filters.OrderTerm) *sql.Selector {
	t := sql.Table(d.Table)
	s := sql.Dialect(dia).Select(t.C("id")).From(t)
	d.applyOrder(s, order)
	return s
}

// applyOrder is filters.ApplyOrder, except that on SQLite the explicit
// NULLS placement is left out for NOT NULL columns: it changes nothing
// there, but SQLite cannot walk an index for "ASC NULLS LAST" and sorted
// the whole table for every page (100k prefixes: ~60 ms per list request
// instead of ~0.2 ms); nullable columns get their NULL placement as a
// term of its own, which an expression index serves (OrderingIndexes).
// PostgreSQL's defaults are the pinned placements, so its indexes serve
// either form.
func (d *Descriptor) applyOrder(s *sql.Selector, terms []filters.OrderTerm) {
	if s.Dialect() != dialect.SQLite {
		filters.ApplyOrder(s, terms)
		return
	}
	for _, t := range terms {
		if !d.notNull[t.Column] {
			if !identRe.MatchString(t.Column) {
				filters.ApplyOrder(s, []filters.OrderTerm{t})
				continue
			}
			// A nullable column: "x ASC NULLS LAST" is "(x IS NULL),
			// x", which an index on those two expressions serves
			// (OrderingIndexes), where SQLite sorts for the former.
			c := s.C(t.Column)
			if t.Desc {
				s.OrderExpr(sql.Expr("(" + c + " IS NULL) DESC, " + c + " DESC"))
			} else {
				s.OrderExpr(sql.Expr("(" + c + " IS NULL) ASC, " + c + " ASC"))
			}
			continue
		}
		if t.Desc {
			s.OrderExpr(sql.Expr(s.C(t.Column) + " DESC"))
		} else {
			s.OrderExpr(sql.Expr(s.C(t.Column) + " ASC"))
		}
	}
}

// Get selects one row by id, with extra predicates (filters on detail
// routes, permission constraints). It returns nil when nothing matches.
//
// The row is read with its tags, through a subquery (tagsExpr): on
// PostgreSQL the second statement loadTags would make cost more than the
// row's own (a round trip is 60 µs on the loopback), and on SQLite it was
// a fifth of a detail GET. Only one row by its id: a subquery per row
// costs more than loadTags' one statement past a few rows (six times as
// much for 1000), and a list's rows may be sorted after they are read,
// with the subquery evaluated for every row sorted; and the statements of
// a page must not depend on its size.
func (d *Descriptor) Get(ctx context.Context, st Store, id int, preds ...func(*sql.Selector)) (*Row, error) {
	rows, err := d.getMany(ctx, st, []int{id}, d.tagged, preds...)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	return rows[0], nil
}

// GetMany selects rows by id, ordered by id.
func (d *Descriptor) GetMany(ctx context.Context, st Store, ids []int, preds ...func(*sql.Selector)) ([]*Row, error) {
	return d.getMany(ctx, st, ids, false, preds...)
}

func (d *Descriptor) getMany(ctx context.Context, st Store, ids []int, tags bool, preds ...func(*sql.Selector)) ([]*Row, error) {
	s := d.Selector(st.Dialect)
	s.Where(inIDs(st.Dialect, s.C("id"), ids))
	for _, pr := range preds {
		pr(s)
	}
	s.OrderBy(s.C("id"))
	if tags {
		s.AppendSelectExpr(sql.Expr(tagsExpr(st.Dialect, d.ContentType(), s.C("id"))))
	}
	return d.queryCols(ctx, st, s, nil, tags)
}

// tagsExpr is the list of the tag ids of the row whose id is id, in one
// value ("3,7" on SQLite, "{3,7}" on PostgreSQL; NULL for none), read
// through the covering (object_type, object_id, tag_id) index.
// contentType is one of the registry's ("app.model"), never a client's.
func tagsExpr(dia, contentType, id string) string {
	agg := "group_concat(tag_id)"
	if dia == dialect.Postgres {
		agg = "array_agg(tag_id)"
	}
	return "(SELECT " + agg + " FROM extras_taggeditem WHERE object_type = '" + contentType + "' AND object_id = " + id + ")"
}

// parseTagList appends the ids of a list of tags as a tagsExpr or
// readAssignments' aggregates read it ("3,7" or "{3,7}"; nil for none)
// to dst.
func parseTagList(dst []int, v any) ([]int, error) {
	var b []byte
	switch x := v.(type) {
	case nil:
		return dst, nil
	case string:
		b = []byte(x)
	case []byte:
		b = x
	default:
		return dst, fmt.Errorf("a list of tags as %T", v)
	}
	return appendIntList(dst, bytes.Trim(b, "{}"))
}

// Where selects rows matching predicates (used by attribute lookups).
func (d *Descriptor) Where(ctx context.Context, st Store, limit int, preds ...func(*sql.Selector)) ([]*Row, error) {
	s := d.Selector(st.Dialect)
	for _, pr := range preds {
		pr(s)
	}
	s.OrderBy(s.C("id"))
	if limit > 0 {
		s.Limit(limit)
	}
	return d.query(ctx, st, s)
}

func (d *Descriptor) query(ctx context.Context, st Store, s *sql.Selector) ([]*Row, error) {
	return d.queryCols(ctx, st, s, nil, false)
}

// queryCols runs s, whose select list is the columns at index idx (all
// columns when idx is nil), then with tags a tagsExpr, into full-width
// rows: columns not selected stay nil.
func (d *Descriptor) queryCols(ctx context.Context, st Store, s *sql.Selector, idx []int, tags bool) ([]*Row, error) {
	q, args := s.Query()
	rs, err := st.Q.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("select %s: %w", d.Table, err)
	}
	defer rs.Close()
	if idx == nil {
		idx = d.allCols
	}
	var out []*Row
	n := len(d.columns)
	nscan := len(idx)
	if tags {
		nscan++
	}
	scan := make([]any, nscan)
	ptrs := make([]any, nscan)
	for i := range scan {
		ptrs[i] = &scan[i]
	}
	idCol := d.byName["id"].col
	// Rows and their values are allocated a block at a time, not one by
	// one: on a page of 1000 the allocations are a good part of the cost.
	var rows []Row
	var vals []any
	for rs.Next() {
		if err := rs.Scan(ptrs...); err != nil {
			return nil, err
		}
		if len(rows) == cap(rows) {
			size := min(max(len(out), 8), 256)
			rows, vals = make([]Row, 0, size), make([]any, size*n)
		}
		v := vals[:n:n]
		vals = vals[n:]
		for i, c := range idx {
			v[c] = normalize(d.colFields[c], scan[i])
			scan[i] = nil
		}
		r := Row{ID: v[idCol].(int), Vals: v}
		if tags {
			if r.tagIDs, err = parseTagList(nil, scan[len(idx)]); err != nil {
				return nil, fmt.Errorf("tags of %s %d: %w", d.Table, r.ID, err)
			}
			r.tagsRead, scan[len(idx)] = true, nil
		}
		rows = append(rows, r)
		out = append(out, &rows[len(rows)-1])
	}
	return out, rs.Err()
}

// selectCols starts a SELECT of the columns at index idx.
func (d *Descriptor) selectCols(dia string, idx []int) *sql.Selector {
	t := sql.Table(d.Table)
	return sql.Dialect(dia).Select(d.columnList(dia, t, idx)...).From(t)
}

// columnList is the select list of the columns at index idx of t, a
// reference to d's table.
//
// On SQLite a timestamp column is selected as its text: go-sqlite3 turns a
// column declared as a timestamp into a time.Time by trying its layouts
// one by one with time.Parse, which was a fifth of the cost of reading a
// page of 1000 prefixes; parseStoredTime reads the one layout the driver
// writes directly (normalize).
func (d *Descriptor) columnList(dia string, t *sql.SelectTable, idx []int) []string {
	// The whole row, the most common list, is built once per dialect and
	// table reference (capped, so that appending copies).
	all := len(idx) == len(d.allCols) && len(idx) > 0 && &idx[0] == &d.allCols[0]
	key := ""
	if all {
		key = dia + " " + t.C("")
		if cols, ok := d.allColList.Load(key); ok {
			return cols.([]string)
		}
	}
	cols := make([]string, len(idx))
	for i, c := range idx {
		cols[i] = t.C(d.columns[c])
		if dia == dialect.SQLite && d.colFields[c].GoType == "time.Time" {
			cols[i] = "CAST(" + cols[i] + " AS TEXT)"
		}
	}
	if all {
		d.allColList.Store(key, cols[:len(cols):len(cols)])
	}
	return cols
}

// getNested selects rows by id with only the columns their nested
// representation needs (no timestamps or JSON to decode): the related
// objects of a page are many and small.
func (d *Descriptor) getNested(ctx context.Context, st Store, ids []int) ([]*Row, error) {
	// Related objects repeat from page to page (the same tags, sites,
	// tenants): cached until the next write. Rows are never modified after
	// they are read, so pages may share them.
	key := ""
	cache := st.CacheIn(ctx)
	if cache != nil {
		// The key is the set of ids: callers gather them from maps, in an
		// order that changes from one request to the next (a page's link
		// peers), and every caller indexes the rows by id.
		if !slices.IsSorted(ids) {
			ids = slices.Sorted(slices.Values(ids))
		}
		key = "nested:" + d.Table + ":" + fmt.Sprint(ids)
		if v, ok := cache.Get(key); ok {
			return v.([]*Row), nil
		}
	}
	gen := cache.Gen()
	out, err := d.fetchNested(ctx, st, ids)
	if err == nil && key != "" {
		cache.Put(key, gen, out)
	}
	return out, err
}

func (d *Descriptor) fetchNested(ctx context.Context, st Store, ids []int) ([]*Row, error) {
	s := d.selectCols(st.Dialect, d.narrow)
	s.Where(inIDs(st.Dialect, s.C("id"), ids))
	rows, err := d.queryCols(ctx, st, s, d.narrow, false)
	if err != nil || len(d.cachedCounts) == 0 || len(rows) == 0 {
		return rows, err
	}
	return rows, d.readCachedCounts(ctx, st, rows)
}

// normalize turns what either driver returns into one Go type per field:
// int, float64, string, bool, time.Time, json.RawMessage or nil.
func normalize(f *Field, v any) any {
	if v == nil {
		return nil
	}
	switch f.GoType {
	case "int", "int64":
		switch x := v.(type) {
		case int64:
			return int(x)
		case int32:
			return int(x)
		case int:
			return x
		case float64:
			return int(x)
		case []byte:
			n, _ := strconv.Atoi(string(x))
			return n
		case string:
			n, _ := strconv.Atoi(x)
			return n
		}
	case "float64":
		switch x := v.(type) {
		case float64:
			return x
		case float32:
			return float64(x)
		case int64:
			return float64(x)
		case []byte:
			n, _ := strconv.ParseFloat(string(x), 64)
			return n
		case string:
			n, _ := strconv.ParseFloat(x, 64)
			return n
		}
	case "bool":
		switch x := v.(type) {
		case bool:
			return x
		case int64:
			return x != 0
		case []byte:
			return string(x) == "1" || string(x) == "true" || string(x) == "t"
		case string:
			return x == "1" || x == "true" || x == "t"
		}
	case "time.Time":
		switch x := v.(type) {
		case time.Time:
			if x.Location() == time.UTC {
				return v // as is: a new interface value would allocate
			}
			return x.UTC()
		case string:
			return parseStoredTime(x)
		case []byte:
			return parseStoredTime(string(x))
		}
	case "string":
		switch x := v.(type) {
		case string:
			return v // as is: a new interface value would allocate
		case []byte:
			return string(x)
		}
	default: // JSON columns
		switch x := v.(type) {
		case []byte:
			return compactJSON(x)
		case string:
			return compactJSON([]byte(x))
		default:
			b, _ := json.Marshal(x)
			return json.RawMessage(b)
		}
	}
	return v
}

// compactJSON is a stored JSON document without insignificant whitespace:
// PostgreSQL's jsonb renders `[[1, 4094]]` where SQLite keeps `[[1,4094]]`,
// and responses must not depend on the database. b is the caller's own
// copy (database/sql copies bytes scanned into an any) and is compacted
// in place: blanks outside strings are dropped without json.Compact's
// validation and buffer, as a stored document is JSON already (a third
// of reading a page of 1000 prefixes on PostgreSQL went to json.Compact).
func compactJSON(b []byte) json.RawMessage {
	out := b[:0]
	in, esc := false, false
	for _, c := range b {
		switch {
		case esc:
			esc = false
		case in:
			if c == '\\' {
				esc = true
			} else if c == '"' {
				in = false
			}
		case c == '"':
			in = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		}
		out = append(out, c)
	}
	return json.RawMessage(out)
}

func parseStoredTime(s string) any {
	if t, ok := parseDriverTime(s); ok {
		return t
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05.999999999", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return nil
}

// parseDriverTime reads the layout go-sqlite3 writes a time.Time in,
// "2006-01-02 15:04:05.999999999-07:00" (or with a T, or Z for the zone),
// in UTC, at a tenth of time.Parse's cost. ok is false for anything else.
func parseDriverTime(s string) (t time.Time, ok bool) {
	if len(s) < 20 || s[4] != '-' || s[7] != '-' || (s[10] != ' ' && s[10] != 'T') || s[13] != ':' || s[16] != ':' {
		return t, false
	}
	num := func(s string) int {
		n := 0
		for i := 0; i < len(s); i++ {
			c := s[i] - '0'
			if c > 9 {
				return -1
			}
			n = n*10 + int(c)
		}
		return n
	}
	year, month, day := num(s[0:4]), num(s[5:7]), num(s[8:10])
	hour, minute, sec := num(s[11:13]), num(s[14:16]), num(s[17:19])
	if year < 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || sec < 0 || sec > 59 {
		return t, false
	}
	rest, nsec := s[19:], 0
	if rest[0] == '.' {
		i, scale := 1, 100000000
		for ; i < len(rest) && rest[i] >= '0' && rest[i] <= '9'; i++ {
			if i > 9 {
				return t, false
			}
			nsec += int(rest[i]-'0') * scale
			scale /= 10
		}
		if i == 1 {
			return t, false
		}
		rest = rest[i:]
	}
	offset := 0
	switch {
	case rest == "Z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		h, m := num(rest[1:3]), num(rest[4:6])
		if h < 0 || m < 0 || h > 23 || m > 59 {
			return t, false
		}
		offset = (h*60 + m) * 60
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return t, false
	}
	t = time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC)
	if t.Day() != day { // February 30th and the like
		return time.Time{}, false
	}
	return t.Add(-time.Duration(offset) * time.Second), true
}

// queryInt runs a query that returns one integer.
func queryInt(ctx context.Context, st Store, q string, args ...any) (int, error) {
	var n int
	_, err := filters.QueryRow(ctx, st.Q, q, args, &n)
	return n, err
}

// chunks splits ids into IN lists small enough for both databases.
func chunks(ids []int) [][]int {
	const size = 1000
	var out [][]int
	for len(ids) > size {
		out = append(out, ids[:size])
		ids = ids[size:]
	}
	if len(ids) > 0 || out == nil {
		out = append(out, ids)
	}
	return out
}

// placeholders renders n bind parameters starting at $start for PostgreSQL
// or ? for SQLite.
func placeholders(dia string, start, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		if dia == dialect.Postgres {
			b.WriteString("$" + strconv.Itoa(start+i))
		} else {
			b.WriteByte('?')
		}
	}
	return b.String()
}

// inIDs is `col IN (ids)` with the ids as one bind parameter: an array on
// PostgreSQL (= ANY), a JSON array read by json_each on SQLite. One
// statement serves every number of ids, so it is prepared once (pgx's
// statement cache, SQLite's) where an IN list of n placeholders is a new
// statement, parsed and planned again, for each n; binding a thousand
// parameters cost more than the lookups; and no list needs cutting into
// statements of at most so many ids. A single id (a detail page) is a
// plain equality, the cheapest of all to plan.
func inIDs(dia, col string, ids []int) *sql.Predicate {
	if len(ids) == 1 {
		return sql.EQ(col, ids[0])
	}
	return sql.P(func(b *sql.Builder) {
		before, after, _ := strings.Cut(idsMatch(dia, "", "?"), "?")
		b.Ident(col).WriteString(before).Arg(idsParam(dia, ids)).WriteString(after)
	})
}

// idsMatch and idsParam are rawsql's IDsMatch and IDsParam.
func idsMatch(dia, col, placeholder string) string {
	return rawsql.IDsMatch(dia == dialect.Postgres, col, placeholder)
}

func idsParam(dia string, ids []int) any { return rawsql.IDsParam(dia == dialect.Postgres, ids) }
