package filters

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
)

// TestPrefixIndex: on PostgreSQL the isw and ie lookups of a column with
// a prefix B-tree (IndexedPrefix) put its prefilter in front of the exact
// predicate; the results stay the reference folding's for every word and
// value of TestCaseFoldingUnicode (quotes, wildcards, Unicode, values
// longer than the B-tree's PrefixLen characters), and the planner can
// answer both lookups from the B-tree.
func TestPrefixIndex(t *testing.T) {
	ctx := context.Background()
	spec := &Spec{Table: "prefixed_words", Filters: []*Filter{
		{Name: "id", Kind: Integer, Column: "id"},
		{Name: "name", Kind: String, Column: "name", Nullable: true},
	}}
	long := strings.Repeat("Ab", PrefixLen) // 400 characters
	for _, d := range openDBs(t) {
		if d.dialect != dialect.Postgres {
			continue
		}
		for _, stmt := range []string{
			"CREATE TABLE words (id INTEGER PRIMARY KEY, name TEXT NULL)",
			"CREATE TABLE prefixed_words (id INTEGER PRIMARY KEY, name TEXT NULL)",
			"CREATE INDEX prefixed_words_lpfx ON prefixed_words (" + PrefixIndexExpr("name") + ")",
		} {
			if _, err := d.db.Exec(stmt); err != nil {
				t.Fatal(err)
			}
		}
		words := append(append([]any{}, foldWords...), long+"x", long+"y", long)
		for i, w := range words {
			for _, table := range []string{"words", "prefixed_words"} {
				q, args := sql.Dialect(d.dialect).Insert(table).Columns("id", "name").Values(i+1, w).Query()
				if _, err := d.db.Exec(q, args...); err != nil {
					t.Fatal(err)
				}
			}
		}
		IndexedPrefix("prefixed_words", []string{"name"})
		values := append(append([]string{}, foldValues...), long, strings.ToUpper(long)+"X", long[:PrefixLen+1])
		for _, v := range values {
			for _, lookup := range []string{"isw", "ie", "nisw", "nie"} {
				param := url.Values{"name__" + lookup: {v}}
				want, err := listTable(ctx, d, &Spec{Table: "words", Filters: spec.Filters}, "words", param)
				if err != nil {
					t.Fatal(err)
				}
				got, err := listTable(ctx, d, spec, "prefixed_words", param)
				if err != nil {
					t.Fatalf("name__%s=%q: %v", lookup, v, err)
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("name__%s=%q: %v, want %v (as without the prefix index)", lookup, v, got, want)
				}
			}
		}
		// The plan, with scans of the table priced out: the B-tree serves
		// the prefilter of both lookups.
		for _, q := range []string{"name__isw=ab%25c", "name__ie=%C3%A9cole"} {
			vals, _ := url.ParseQuery(q)
			text, args := renderQuery(t, ctx, spec, d, "prefixed_words", vals, nil)
			tx, err := d.db.Begin()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tx.Exec("SET LOCAL enable_seqscan = off"); err != nil {
				t.Fatal(err)
			}
			rows, err := tx.Query("EXPLAIN "+text, args...)
			if err != nil {
				t.Fatal(err)
			}
			var plan []string
			for rows.Next() {
				var line string
				rows.Scan(&line)
				plan = append(plan, line)
			}
			rows.Close()
			tx.Rollback()
			if !strings.Contains(strings.Join(plan, "\n"), "prefixed_words_lpfx") {
				t.Errorf("%s: the plan does not use the prefix B-tree:\n%s\n%s", q, text, strings.Join(plan, "\n"))
			}
		}
	}
}
