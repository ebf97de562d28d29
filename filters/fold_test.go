package filters

import (
	"context"
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
)

// foldWords are names whose case folding differs between ASCII-only and
// Unicode folding, or which hold LIKE wildcards, NULs or nothing.
var foldWords = []any{
	"Straße", "STRASSE", "École Élémentaire", "école", "ÅNGSTRÖM", "Ångström", "Δέλτα", "ΔΈΛΤΑ", "Ärger-3", "ärger",
	"İstanbul", "istanbul", "KELVIN", "Kelvin sign", "naïve_50%", "NAÏVE", "plain", "PLAIN ascii", "日本語テキスト", "", nil,
	"\u212aelvin sign", "İSTANBUL",
	// quotes, backslashes, placeholders: PostgreSQL's searches render
	// their patterns as constants (pgLiteral)
	"it's a?b", `back\slash`, "$1 and ?", "E'x'",
}

// foldValues are the filter values tried with every case-insensitive
// lookup on every word.
var foldValues = []string{"é", "É", "école", "ÉCOLE", "ström", "STRÖM", "ß", "δέλ", "ΔΈΛ", "ärg", "ÄRG", "i", "İ", "k", "K",
	"ï", "Ï", "_", "%", "plain", "PLAIN", "テキ", "語", "e",
	// three characters or more: the trigram prefilter's needles
	"İst", "ist", "IST", "kel", "KEL", "\u212aelvin", "naïve_5", "ïve_50%", "Straße", "STRASSE", "テキスト", "ngstr", "LAIN A", "aïv",
	"'", "?", `\`, "'s a?", `k\s`, "$1", "$1 AND ?", "e'x", "\\"}

// TestCaseFoldingUnicode pins the case-insensitive lookups' results on
// non-ASCII text against a reference computed in Go, on both databases:
// SQLite serves ASCII values with its own folding and the rest through
// inventory_lower (sqliteFolded), and the two paths must give exactly what
// inventory_lower alone gave. PostgreSQL folds with LOWER, which follows
// the database's LC_CTYPE: a "C" database folds ASCII only, so the
// reference folds the stored side the same way there.
func TestCaseFoldingUnicode(t *testing.T) {
	ctx := context.Background()
	spec := &Spec{Table: "words", Filters: []*Filter{
		{Name: "id", Kind: Integer, Column: "id"},
		{Name: "name", Kind: String, Column: "name", Nullable: true},
		{Name: "q", Kind: Custom, Func: Search("name")},
	}}
	for _, d := range openDBs(t) {
		if _, err := d.db.Exec("CREATE TABLE words (id INTEGER PRIMARY KEY, name TEXT NULL)"); err != nil {
			t.Fatal(err)
		}
		for i, w := range foldWords {
			q, args := sql.Dialect(d.dialect).Insert("words").Columns("id", "name").Values(i+1, w).Query()
			if _, err := d.db.Exec(q, args...); err != nil {
				t.Fatal(err)
			}
		}
		checkFolding(t, ctx, d, spec, "words")
		if d.dialect == dialect.SQLite && trigramIndexed(t, d, "trigram_words") {
			// The same through the trigram prefilter (trigram.go).
			checkFolding(t, ctx, d, spec, "trigram_words")
		}
	}
}

// trigramIndexed copies the words into table with a trigram index of
// name, reporting false when this build of SQLite has no FTS5.
func trigramIndexed(t *testing.T, d testDB, table string) bool {
	t.Helper()
	if !hasFTS5(t, d) {
		t.Log("go-sqlite3 built without FTS5 (-tags sqlite_fts5): the trigram prefilter is not tried")
		return false
	}
	if _, err := d.db.Exec("CREATE TABLE " + table + " (id INTEGER PRIMARY KEY, name TEXT NULL)"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.db.Exec("INSERT INTO " + table + " SELECT * FROM words"); err != nil {
		t.Fatal(err)
	}
	trigramIndex(t, d, table, "name")
	return true
}

// hasFTS5 reports whether this build of SQLite has FTS5.
func hasFTS5(t *testing.T, d testDB) bool {
	t.Helper()
	var fts5 bool
	if err := d.db.QueryRow("SELECT sqlite_compileoption_used('ENABLE_FTS5')").Scan(&fts5); err != nil {
		t.Fatal(err)
	}
	return fts5
}

// trigramIndex gives table a trigram index of columns (the migration's
// DDL) and registers it.
func trigramIndex(t *testing.T, d testDB, table string, columns ...string) {
	t.Helper()
	_, build := SQLiteSearchIndex(table, columns)
	for _, stmt := range build {
		if _, err := d.db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	IndexedSearch(table, columns)
}

// sqliteOf is the SQLite database of openDBs.
func sqliteOf(t *testing.T) testDB {
	t.Helper()
	for _, x := range openDBs(t) {
		if x.dialect == dialect.SQLite {
			return x
		}
	}
	t.Fatal("no SQLite database")
	return testDB{}
}

// renderQuery is the SQL of spec's filters q over table, as Apply
// renders it with opt.
func renderQuery(t *testing.T, ctx context.Context, spec *Spec, d testDB, table string, q url.Values, finish func(*sql.Selector)) (string, []any) {
	t.Helper()
	preds, err := spec.Apply(ctx, q, Options{Unknown: Strict, Reserved: Reserved, Dialect: d.dialect, Exec: d.db})
	if err != nil {
		t.Fatalf("%s: %v", q.Encode(), err)
	}
	sel := sql.Dialect(d.dialect).Select("id").From(sql.Table(table))
	for _, p := range preds {
		p(sel)
	}
	if finish != nil {
		finish(sel)
	}
	return sel.Query()
}

// checkFolding compares every case-insensitive lookup on table's words
// (foldWords, ids from 1) with the reference folding in Go.
func checkFolding(t *testing.T, ctx context.Context, d testDB, spec *Spec, table string) {
	t.Helper()
	foldStored := strings.ToLower
	if d.dialect == dialect.Postgres {
		var unicode bool
		if err := d.db.QueryRow("SELECT LOWER('É') = 'é'").Scan(&unicode); err != nil {
			t.Fatal(err)
		}
		if !unicode {
			t.Log("postgres: LC_CTYPE folds ASCII only; the reference does too")
			foldStored = asciiLower
		}
	}
	for _, v := range foldValues {
		lv := strings.ToLower(v)
		for _, c := range []struct {
			lookup string
			match  func(s string) bool
		}{
			{"ic", func(s string) bool { return strings.Contains(foldStored(s), lv) }},
			{"isw", func(s string) bool { return strings.HasPrefix(foldStored(s), lv) }},
			{"iew", func(s string) bool { return strings.HasSuffix(foldStored(s), lv) }},
			{"ie", func(s string) bool { return foldStored(s) == lv }},
		} {
			want, wantNot := []int64{}, []int64{}
			for i, w := range foldWords {
				s, ok := w.(string)
				switch {
				case ok && c.match(s):
					want = append(want, int64(i+1))
				default: // NULL is kept by the negation, as Django's exclude()
					wantNot = append(wantNot, int64(i+1))
				}
			}
			check := func(param string, want []int64) {
				t.Helper()
				got, err := listTable(ctx, d, spec, table, url.Values{param: {v}})
				if err != nil {
					t.Fatalf("%s %s %s=%q: %v", d.name, table, param, v, err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s %s %s=%q: got %v, want %v", d.name, table, param, v, got, want)
				}
			}
			check("name__"+c.lookup, want)
			check("name__n"+c.lookup, wantNot)
			if c.lookup == "ic" {
				check("q", want)
			}
		}
	}
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// listTable is list on another table than items.
func listTable(ctx context.Context, d testDB, spec *Spec, table string, q url.Values) ([]int64, error) {
	preds, err := spec.Apply(ctx, q, Options{Unknown: Strict, Reserved: Reserved, Dialect: d.dialect, Exec: d.db})
	if err != nil {
		return nil, err
	}
	sel := sql.Dialect(d.dialect).Select().From(sql.Table(table))
	sel.Select(sel.C("id"))
	for _, p := range preds {
		p(sel)
	}
	sel.OrderBy(sel.C("id"))
	query, args := sel.Query()
	rows, err := d.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s %v: %w", query, args, err)
	}
	defer rows.Close()
	out := []int64{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}
