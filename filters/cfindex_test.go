package filters

import (
	"context"
	"errors"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
)

// TestCustomFieldIndexes creates the B-tree indexes CFIndexes asks for on
// the test table and checks, on both databases, that the planner serves
// the custom field filters through them (SQLite's EXPLAIN QUERY PLAN,
// PostgreSQL's EXPLAIN with sequential scans off: a plan that ignores an
// index would still scan) and that every custom field case of the filter
// suite answers as without them. It fails when the filter's expression
// and the index's stop being the same text. (PostgreSQL's trigram indexes
// need pg_trgm, which this suite does not install: server's
// TestCustomFieldIndexes plans those.)
func TestCustomFieldIndexes(t *testing.T) {
	ctx := context.Background()
	spec := testSpec()
	cfs, _ := spec.CustomFields(ctx)
	uses := []struct{ q, index string }{
		{"cf_num=5", "cfx_num"},
		{"cf_num=5&cf_num=7", "cfx_num"},
		{"cf_num__gt=0", "cfx_num"},
		{"cf_num__lte=5", "cfx_num"},
		{"cf_dec=1.25", "cfx_dec"},
		{"cf_dec__gte=1.25", "cfx_dec"},
		{"cf_obj=1", "cfx_obj"},
		{"cf_day=2021-05-01", "cfx_day"},
		{"cf_day__lt=2021-01-01", "cfx_day"},
		{"cf_txte=hello", "cfx_txte"},
		{"cf_txte=hello&cf_txte=HELLO", "cfx_txte"},
		{"cf_sel=a", "cfx_sel"},
		// A substring: on SQLite a scan of the values' index instead
		// of the table (PostgreSQL's trigram index is not made here).
		{"cf_txt=hello", "cfx_txt"},
	}
	for _, d := range openDBs(t) {
		pg := d.dialect == dialect.Postgres
		conn, err := d.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if pg {
			if _, err := conn.ExecContext(ctx, "SET enable_seqscan = off"); err != nil {
				t.Fatal(err)
			}
		}
		made := map[string]bool{}
		for _, cf := range cfs {
			for _, x := range CFIndexes(cf, "cfd", pg) {
				if x.Trigram {
					continue
				}
				name := "cfx_" + cf.Name
				if _, err := conn.ExecContext(ctx, "CREATE INDEX "+name+" ON items ("+x.Expr+")"); err != nil {
					t.Fatalf("%s: %s: %v", d.name, x.Expr, err)
				}
				made[name] = true
			}
		}
		for _, n := range []string{"cfx_num", "cfx_dec", "cfx_obj", "cfx_day", "cfx_txte", "cfx_sel"} {
			if !made[n] {
				t.Errorf("%s: no index %s", d.name, n)
			}
		}
		for _, n := range []string{"cfx_flag", "cfx_when", "cfx_ms", "cfx_mobj", "cfx_js", "cfx_off"} {
			if made[n] {
				t.Errorf("%s: index %s: its filter cannot use it", d.name, n)
			}
		}
		run := func(q string, mode Unknown, explain bool) ([]int64, string, error) {
			v, err := url.ParseQuery(q)
			if err != nil {
				t.Fatal(err)
			}
			preds, err := spec.Apply(ctx, v, Options{Unknown: mode, Reserved: Reserved, Dialect: d.dialect, Exec: d.db})
			if err != nil {
				return nil, "", err
			}
			sel := sql.Dialect(d.dialect).Select().From(sql.Table("items").As("t1"))
			sel.Select(sel.C("id"))
			for _, p := range preds {
				p(sel)
			}
			if !explain {
				// The plan is asked whether an index serves the
				// condition, not how the rows are sorted.
				ApplyOrder(sel, []OrderTerm{{Column: "id"}})
			}
			query, args := sel.Query()
			if explain {
				prefix := "EXPLAIN QUERY PLAN "
				if pg {
					prefix = "EXPLAIN "
				}
				query = prefix + query
			}
			rows, err := conn.QueryContext(ctx, query, args...)
			if err != nil {
				return nil, "", err
			}
			defer rows.Close()
			cols, _ := rows.Columns()
			var ids []int64
			var plan []string
			for rows.Next() {
				vals := make([]any, len(cols))
				ptrs := make([]any, len(cols))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				if err := rows.Scan(ptrs...); err != nil {
					return nil, "", err
				}
				for _, v := range vals {
					switch x := v.(type) {
					case int64:
						ids = append(ids, x)
					case []byte:
						plan = append(plan, string(x))
					case string:
						plan = append(plan, x)
					}
				}
			}
			return ids, strings.Join(plan, "\n") + "\n" + query, rows.Err()
		}
		for _, c := range uses {
			if pg && c.index == "cfx_txt" {
				continue
			}
			_, plan, err := run(c.q, Strict, true)
			if err != nil {
				t.Fatalf("%s %s: %v", d.name, c.q, err)
			}
			if !strings.Contains(plan, c.index) {
				t.Errorf("%s %s: the plan does not use %s:\n%s", d.name, c.q, c.index, plan)
			}
		}
		// The same answers with the indexes in place (and, on
		// PostgreSQL, preferred).
		for _, c := range filterCases {
			if !strings.HasPrefix(c.q, "cf_") || c.err != nil {
				continue
			}
			mode := c.mode
			if mode == "" {
				mode = Strict
			}
			got, _, err := run(c.q, mode, false)
			var fe Errors
			switch {
			case errors.As(err, &fe):
				t.Errorf("%s %s: %v", d.name, c.q, err)
			case err != nil:
				t.Fatalf("%s %s: %v", d.name, c.q, err)
			case !reflect.DeepEqual(append([]int64{}, got...), c.want):
				t.Errorf("%s %s with indexes: got %v, want %v", d.name, c.q, got, c.want)
			}
		}
	}
}
