package filters

import (
	"context"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
)

// TestTrigramPrefilter checks which searches go through the SQLite trigram
// index (trigram.go) and that the triggers keep it in step with inserts,
// updates and deletes: after each write every lookup answers what the
// reference folding in Go says. Without FTS5 in the build the searches
// must scan, with the same answers.
func TestTrigramPrefilter(t *testing.T) {
	ctx := context.Background()
	var d testDB
	for _, x := range openDBs(t) {
		if x.dialect == dialect.SQLite {
			d = x
		}
	}
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
	var fts5 bool
	if err := d.db.QueryRow("SELECT sqlite_compileoption_used('ENABLE_FTS5')").Scan(&fts5); err != nil {
		t.Fatal(err)
	}
	if fts5 {
		_, build := SQLiteSearchIndex(table, []string{"name", "description"})
		for _, stmt := range build {
			if _, err := d.db.Exec(stmt); err != nil {
				t.Fatalf("%s: %v", stmt, err)
			}
		}
		IndexedSearch(table, []string{"name", "description"})
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
			preds, err := spec.Apply(ctx, q, Options{Unknown: Strict, Reserved: Reserved, Dialect: d.dialect, Exec: d.db})
			if err != nil {
				t.Fatal(err)
			}
			sel := sql.Dialect(d.dialect).Select("id").From(sql.Table(table))
			for _, p := range preds {
				p(sel)
			}
			query, _ := sel.Query()
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
