package filters

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"entgo.io/ent/dialect/sql"
)

// TestTrigramPrefilter checks which searches go through the SQLite trigram
// index (trigram.go) and that the triggers keep it in step with inserts,
// updates and deletes: after each write every lookup answers what the
// reference folding in Go says. Without FTS5 in the build the searches
// must scan, with the same answers.
func TestTrigramPrefilter(t *testing.T) {
	ctx := context.Background()
	d := sqliteOf(t)
	const table = "trigram_items"
	spec := &Spec{Table: table, Filters: []*Filter{
		{Name: "name", Kind: String, Column: "name", Nullable: true},
		{Name: "description", Kind: String, Column: "description"},
		{Name: "q", Kind: Custom, Func: Search("name", "description")},
		{Name: "qname", Kind: Custom, Func: Search("name")},
		{Name: "qother", Kind: Custom, Func: Search("name", "other")},
	}}
	if _, err := d.db.Exec("CREATE TABLE " + table + " (id INTEGER PRIMARY KEY, name TEXT NULL, description TEXT NOT NULL DEFAULT '', other TEXT NULL)"); err != nil {
		t.Fatal(err)
	}
	rows := map[int64][2]any{ // id -> name, description
		1: {"Core Router", "Main site"}, 2: {"ÉCOLE router", ""}, 3: {nil, "router spare"},
		4: {"\u212aelvin Lab", "lab"}, 5: {"edge", "İSTANBUL pop"},
	}
	insert := func(id int64) {
		t.Helper()
		if _, err := d.db.Exec("INSERT INTO "+table+" (id, name, description) VALUES (?, ?, ?)", id, rows[id][0], rows[id][1]); err != nil {
			t.Fatal(err)
		}
	}
	insert(1)
	insert(2) // before the index: the build fills it
	fts5 := hasFTS5(t, d)
	if fts5 {
		trigramIndex(t, d, table, "name", "description")
	} else {
		t.Log("go-sqlite3 built without FTS5 (-tags sqlite_fts5): every search scans")
	}
	insert(3)
	insert(4)
	insert(5)

	// prefilter: whether the query goes through the index.
	cases := []struct {
		param, value string
		prefilter    bool
		match        func(name, desc string) bool
	}{
		{"q", "router", true, func(n, d string) bool { return has(n, "router") || has(d, "router") }},
		{"q", "ro", false, func(n, d string) bool { return has(n, "ro") || has(d, "ro") }},
		{"qname", "ROUTER", true, func(n, _ string) bool { return has(n, "router") }},
		{"qother", "router", false, func(n, _ string) bool { return has(n, "router") }},
		{"name__ic", "kelv", true, func(n, _ string) bool { return has(n, "kelv") }},
		{"name__isw", "école", true, func(n, _ string) bool { return strings.HasPrefix(strings.ToLower(n), "école") }},
		{"name__iew", "LAB", true, func(n, _ string) bool { return strings.HasSuffix(strings.ToLower(n), "lab") }},
		{"name__ie", "EDGE", true, func(n, _ string) bool { return strings.ToLower(n) == "edge" }},
		{"description__ic", "istanbul", true, func(_, d string) bool { return has(d, "istanbul") }},
		{"name__nic", "router", false, func(n, _ string) bool { return !has(n, "router") }},
		{"name__ie", "null", false, func(n, _ string) bool { return n == "\x00null" }},
	}
	check := func(step string) {
		t.Helper()
		for _, c := range cases {
			q := url.Values{c.param: {c.value}}
			want := []int64{}
			for id := int64(1); id <= 5; id++ {
				r, ok := rows[id]
				if !ok {
					continue
				}
				n, isName := r[0].(string)
				if !isName {
					n = "\x00null" // NULL: only ie=null and the negations match it
				}
				if c.match(n, r[1].(string)) {
					want = append(want, id)
				}
			}
			got, err := listTable(ctx, d, spec, table, q)
			if err != nil {
				t.Fatalf("%s %s: %v", step, q.Encode(), err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s: got %v, want %v", step, q.Encode(), got, want)
			}
			query, _ := renderQuery(t, ctx, spec, d, table, q, nil)
			if used := strings.Contains(query, " MATCH "); used != (c.prefilter && fts5) {
				t.Errorf("%s %s: prefilter used %v, want %v: %s", step, q.Encode(), used, c.prefilter && fts5, query)
			}
		}
	}
	check("inserted")
	rows[1] = [2]any{"Core switch", "Main site"}
	rows[3] = [2]any{"spare ROUTER", "router spare"}
	for _, id := range []int64{1, 3} {
		if _, err := d.db.Exec("UPDATE "+table+" SET name = ?, description = ? WHERE id = ?", rows[id][0], rows[id][1], id); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.db.Exec("UPDATE " + table + " SET other = 'router' WHERE id = 2"); err != nil { // no indexed column
		t.Fatal(err)
	}
	check("updated")
	delete(rows, 2)
	if _, err := d.db.Exec("DELETE FROM " + table + " WHERE id = 2"); err != nil {
		t.Fatal(err)
	}
	check("deleted")
	if fts5 {
		var n int
		if err := d.db.QueryRow("SELECT count(*) FROM " + table + SearchIndexSuffix + " WHERE " + table + SearchIndexSuffix + " MATCH '\"router\"'").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 1 { // row 3 only
			t.Errorf("index holds %d rows with router, want 1", n)
		}
	}
}

func has(s, sub string) bool { return strings.Contains(strings.ToLower(s), sub) }

// TestCustomFieldTrigramPrefilter checks the SQLite trigram prefilter of
// the substring filters of text custom fields (cfPrefilter): an index of
// the whole custom field JSON as the service writes it (Go's encoder,
// which escapes <, > and & and keeps other non-ASCII text as is), used
// only for needles whose characters JSON stores as themselves, and the
// same answers as the reference folding in Go whether used or not.
func TestCustomFieldTrigramPrefilter(t *testing.T) {
	ctx := context.Background()
	d := sqliteOf(t)
	const table = "cf_trigram_items"
	spec := &Spec{Table: table, CustomFieldColumn: "cfd", CustomFields: func(context.Context) ([]CustomField, error) {
		return []CustomField{{"txt", "text", "loose"}, {"txte", "text", "exact"}, {"ms", "multiselect", "loose"}}, nil
	}}
	if _, err := d.db.Exec("CREATE TABLE " + table + " (id INTEGER PRIMARY KEY, cfd JSON NULL)"); err != nil {
		t.Fatal(err)
	}
	fts5 := hasFTS5(t, d)
	if fts5 {
		trigramIndex(t, d, table, "cfd")
	} else {
		t.Log("go-sqlite3 built without FTS5 (-tags sqlite_fts5): every filter scans")
	}
	txt := map[int64]any{ // id -> the txt value (txte holds the same)
		1: "Value-42", 2: "value-420 <core> & edge", 3: "Straße İSTANBUL", 4: `say "hi" \ there`, 5: nil, 6: "other value-4",
	}
	for id := int64(1); id <= 7; id++ {
		var cfd any
		if v, ok := txt[id]; ok {
			raw, err := json.Marshal(map[string]any{"txt": v, "txte": v, "ms": []string{"value-42"}})
			if err != nil {
				t.Fatal(err)
			}
			cfd = string(raw)
		} // 7: no custom field data at all
		if _, err := d.db.Exec("INSERT INTO "+table+" (id, cfd) VALUES (?, ?)", id, cfd); err != nil {
			t.Fatal(err)
		}
	}
	contains := func(sub string) func(string) bool { return func(v string) bool { return has(v, strings.ToLower(sub)) } }
	cases := []struct {
		q         url.Values
		prefilter bool
		match     func(v string) bool
	}{
		{url.Values{"cf_txt": {"value-42"}}, true, contains("value-42")},
		{url.Values{"cf_txt": {"VALUE-42", "istanbul"}}, true, func(v string) bool { return has(v, "value-42") || has(v, "istanbul") }},
		{url.Values{"cf_txt": {"straße"}}, true, contains("straße")},
		{url.Values{"cf_txte__ic": {"core"}}, true, contains("core")},
		{url.Values{"cf_txte__isw": {"value"}}, true, func(v string) bool { return strings.HasPrefix(strings.ToLower(v), "value") }},
		{url.Values{"cf_txte__iew": {"-42"}}, true, func(v string) bool { return strings.HasSuffix(strings.ToLower(v), "-42") }},
		{url.Values{"cf_txte__ie": {"VALUE-42"}}, true, func(v string) bool { return strings.ToLower(v) == "value-42" }},
		// Characters Go's encoder escapes: no prefilter, same answers.
		{url.Values{"cf_txt": {"<core>"}}, false, contains("<core>")},
		{url.Values{"cf_txt": {"& edge"}}, false, contains("& edge")},
		{url.Values{"cf_txt": {`"hi"`}}, false, contains(`"hi"`)},
		{url.Values{"cf_txt": {`\ there`}}, false, contains(`\ there`)},
		// Too short, null, negations, exact matches, multi-valued fields.
		{url.Values{"cf_txt": {"42"}}, false, contains("42")},
		{url.Values{"cf_txt": {"null"}}, false, func(v string) bool { return v == "\x00null" }},
		{url.Values{"cf_txte__nic": {"value"}}, false, func(v string) bool { return !has(v, "value") }},
		{url.Values{"cf_txte": {"Value-42"}}, false, func(v string) bool { return v == "Value-42" }},
		{url.Values{"cf_ms": {"value-42"}}, false, func(v string) bool { return v != "\x00none" }},
	}
	for _, c := range cases {
		want := []int64{}
		for id := int64(1); id <= 7; id++ {
			v, ok := txt[id].(string)
			switch {
			case !ok && id == 7:
				v = "\x00none" // no data: like null, and no multiselect either
				if c.match("\x00null") && !c.q.Has("cf_ms") {
					want = append(want, id)
					continue
				}
			case !ok:
				v = "\x00null"
			}
			if c.match(v) {
				want = append(want, id)
			}
		}
		got, err := listTable(ctx, d, spec, table, c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.q.Encode(), err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %v, want %v", c.q.Encode(), got, want)
		}
		query, _ := renderQuery(t, ctx, spec, d, table, c.q, nil)
		if used := strings.Contains(query, " MATCH "); used != (c.prefilter && fts5) {
			t.Errorf("%s: prefilter used %v, want %v: %s", c.q.Encode(), used, c.prefilter && fts5, query)
		}
	}
}

// TestTrigramWalk checks planTrigrams' choices on SQLite: a search with
// many candidates (more than the square root of the table's rows) walks
// the list's order and probes the candidates (a unary plus keeps the IN
// from driving the query), a rarer one drives the query with its
// candidates; a needle is looked up by its rarest trigrams, at most
// three, none over 4 times as common as the rarest (every "other" row
// holds "oth", a few "r 4", one " 42"); and all answer the same pages as
// the scan.
func TestTrigramWalk(t *testing.T) {
	ctx := context.Background()
	d := sqliteOf(t)
	if !hasFTS5(t, d) {
		t.Skip("go-sqlite3 built without FTS5 (-tags sqlite_fts5): no trigram index to walk")
	}
	const table, rows = "walk_items", 400
	if _, err := d.db.Exec("CREATE TABLE " + table + " (id INTEGER PRIMARY KEY, name TEXT NOT NULL, rank INTEGER NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	trigramIndex(t, d, table, "name")
	name := func(i int) string {
		switch {
		case i%4 == 0:
			return fmt.Sprintf("Common item %d", i) // 100 rows: walked (100² > 400)
		case i%100 == 1:
			return fmt.Sprintf("Rarity %d", i) // 4 rows: driven (4² < 400)
		}
		return fmt.Sprintf("other %d", i)
	}
	for i := 1; i <= rows; i++ {
		if _, err := d.db.Exec("INSERT INTO "+table+" (id, name, rank) VALUES (?, ?, ?)", i, name(i), (i*37)%rows); err != nil {
			t.Fatal(err)
		}
	}
	spec := &Spec{Table: table, Filters: []*Filter{
		{Name: "name", Kind: String, Column: "name"},
		{Name: "q", Kind: Custom, Search: []string{"name"}},
	}}
	for _, c := range []struct {
		param, needle string
		walk          bool
		match         string // the FTS5 query
	}{
		{"q", "common", true, `{name} : (("com" "omm" "mmo"))`},
		{"name__ic", "COMMON ITEM", true, `{name} : (("com" "omm" "mmo"))`},
		{"q", "rarity", false, `{name} : (("rar" "ari" "rit"))`},
		{"name__isw", "rarity", false, `{name} : (("rar" "ari" "rit"))`},
		{"q", "other 4", false, `{name} : (("r 4"))`},
		{"q", "other 42", false, `{name} : ((" 42"))`},
	} {
		q := url.Values{c.param: {c.needle}}
		query, args := renderQuery(t, ctx, spec, d, table, q, func(sel *sql.Selector) { sel.OrderBy(sel.C("rank"), sel.C("id")).Limit(10) })
		if walked := strings.Contains(query, "+`"+table+"`.`id` IN"); walked != c.walk || !strings.Contains(query, " MATCH ") {
			t.Errorf("%s: walked %v, want %v: %s", q.Encode(), walked, c.walk, query)
		}
		if !slices.Contains(args, any(c.match)) {
			t.Errorf("%s: FTS5 query not %s: %v", q.Encode(), c.match, args)
		}
		got := []int{}
		r, err := d.db.QueryContext(ctx, query, args...)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		for r.Next() {
			var id int
			if err := r.Scan(&id); err != nil {
				t.Fatal(err)
			}
			got = append(got, id)
		}
		r.Close()
		want := []int{}
		for rank := 0; rank < rows && len(want) < 10; rank++ {
			for i := 1; i <= rows; i++ {
				n := strings.ToLower(name(i))
				match := strings.Contains(n, strings.ToLower(c.needle))
				if c.param == "name__isw" {
					match = strings.HasPrefix(n, c.needle)
				}
				if (i*37)%rows == rank && match {
					want = append(want, i)
				}
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %v, want %v", q.Encode(), got, want)
		}
	}
}

// TestTrigramCommon: a needle none of whose trigrams is rarer than
// maxMatchCount rows is looked up by its covering trigrams, and its
// candidates, counted, decide the walk.
func TestTrigramCommon(t *testing.T) {
	ctx := context.Background()
	d := sqliteOf(t)
	if !hasFTS5(t, d) {
		t.Skip("go-sqlite3 built without FTS5 (-tags sqlite_fts5): no trigram index")
	}
	const table = "common_items"
	if _, err := d.db.Exec("CREATE TABLE " + table + " (id INTEGER PRIMARY KEY, name TEXT NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	trigramIndex(t, d, table, "name")
	tx, err := d.db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= maxMatchCount+100; i++ {
		if _, err := tx.Exec("INSERT INTO "+table+" (id, name) VALUES (?, ?)", i, fmt.Sprintf("common row %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	spec := &Spec{Table: table, Filters: []*Filter{{Name: "q", Kind: Custom, Search: []string{"name"}}}}
	q := url.Values{"q": {"Common Row"}}
	query, args := renderQuery(t, ctx, spec, d, table, q, func(sel *sql.Selector) { sel.OrderBy(sel.C("id")).Limit(10) })
	if want := `{name} : (("com" "mon" " ro" "row"))`; !slices.Contains(args, any(want)) || !strings.Contains(query, "+`"+table+"`.`id` IN") {
		t.Errorf("not a walk with %s: %s %v", want, query, args)
	}
	var got []int
	r, err := d.db.QueryContext(ctx, query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for r.Next() {
		var id int
		if err := r.Scan(&id); err != nil {
			t.Fatal(err)
		}
		got = append(got, id)
	}
	if want := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
