package server_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"sort"
	"strings"
	"testing"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/filters"
	"github.com/inventory/inventory/server/servertest"
)

// TestCustomFieldIndexes: a custom field's indexes (ent/resource/cfindex.go)
// follow its definition through the API, in the writing transaction: made
// on every table of its object types when it is created, replaced when
// its filter logic changes, dropped from a table it loses and with the
// field; Migrate makes the missing ones. The planner serves the list
// filters through them (SQLite's EXPLAIN QUERY PLAN, PostgreSQL's EXPLAIN
// with sequential scans off), so the test fails when the expressions the
// filters render and those indexed drift apart, and the filtered lists
// answer as NetBox's would.
func TestCustomFieldIndexes(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ctx := context.Background()
		pg := e.DB.Dialect == dialect.Postgres
		// indexes lists the custom field indexes as "table field".
		indexes := func() []string {
			t.Helper()
			q := `SELECT tbl_name, name FROM sqlite_master WHERE type = 'index' AND name LIKE 'cfidx\_%' ESCAPE '\'`
			if pg {
				q = `SELECT tablename, indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE 'cfidx\_%' ESCAPE '\'`
			}
			rows, err := e.DB.Read.QueryContext(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			out := []string{}
			for rows.Next() {
				var table, name string
				if err := rows.Scan(&table, &name); err != nil {
					t.Fatal(err)
				}
				field := strings.TrimPrefix(name, "cfidx_"+table+"_")
				out = append(out, table+" "+field[:strings.LastIndex(field, "_")])
			}
			sort.Strings(out)
			return out
		}
		want := func(step string, w ...string) {
			t.Helper()
			if got := indexes(); !reflect.DeepEqual(got, append([]string{}, w...)) {
				t.Errorf("%s: indexes %q, want %q", step, got, w)
			}
		}
		// plan is the plan of the prefixes' ids under the filter q.
		plan := func(q string) string {
			t.Helper()
			d := resource.ByContentType("ipam.prefix")
			v, _ := url.ParseQuery(q)
			preds, err := d.Filters().Apply(resource.WithStore(ctx, e.DB.Store()), v,
				filters.Options{Unknown: filters.Strict, Dialect: e.DB.Dialect, Exec: e.DB.Read})
			if err != nil {
				t.Fatal(err)
			}
			sel := sql.Dialect(e.DB.Dialect).Select().From(sql.Table(d.Table).As("t1"))
			sel.Select(sel.C("id"))
			for _, p := range preds {
				p(sel)
			}
			query, args := sel.Query()
			conn, err := e.DB.Read.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			explain := "EXPLAIN QUERY PLAN "
			if pg {
				explain = "EXPLAIN "
				if _, err := conn.ExecContext(ctx, "SET enable_seqscan = off"); err != nil {
					t.Fatal(err)
				}
				defer conn.ExecContext(ctx, "RESET enable_seqscan")
			}
			rows, err := conn.QueryContext(ctx, explain+query, args...)
			if err != nil {
				t.Fatalf("%s: %v", query, err)
			}
			defer rows.Close()
			cols, _ := rows.Columns()
			var out []string
			for rows.Next() {
				vals := make([]any, len(cols))
				ptrs := make([]any, len(cols))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				if err := rows.Scan(ptrs...); err != nil {
					t.Fatal(err)
				}
				for _, v := range vals {
					if b, ok := v.([]byte); ok {
						v = string(b)
					}
					if s, ok := v.(string); ok {
						out = append(out, s)
					}
				}
			}
			return strings.Join(out, "\n") + "\n" + query
		}
		uses := func(q, field string) {
			t.Helper()
			index := "cfidx_ipam_prefix_" + field + "_"
			if field == "" {
				// On SQLite a loose text field's substring goes through
				// the table's FTS5 trigram index (filters.cfNeedles).
				index, field = "ipam_prefix_search", "the trigram index"
			}
			if p := plan(q); !strings.Contains(p, index) {
				t.Errorf("%s: the plan does not use the index of %s:\n%s", q, field, p)
			}
		}
		ids := func(q string) []int {
			t.Helper()
			var out []int
			for _, r := range e.Must(http.StatusOK, "GET", "/api/ipam/prefixes/?ordering=id&"+q, nil).Object()["results"].([]any) {
				out = append(out, int(r.(map[string]any)["id"].(float64)))
			}
			return out
		}
		cf := func(body map[string]any) int {
			return int(e.Must(http.StatusCreated, "POST", "/api/extras/custom-fields/", body).Object()["id"].(float64))
		}
		want("before")
		num := cf(map[string]any{"name": "cfi_num", "type": "integer", "object_types": []string{"ipam.prefix", "dcim.site"}})
		txt := cf(map[string]any{"name": "cfi_txt", "type": "text", "object_types": []string{"ipam.prefix"}})
		cf(map[string]any{"name": "cfi_day", "type": "date", "object_types": []string{"ipam.prefix"}})
		cf(map[string]any{"name": "cfi_flag", "type": "boolean", "object_types": []string{"ipam.prefix"}})
		// The loose text field: a trigram index on PostgreSQL, the
		// B-tree its count scans on SQLite (where the table's FTS5
		// trigram index over all custom field data serves its filter).
		want("created", "dcim_site cfi_num", "ipam_prefix cfi_day", "ipam_prefix cfi_num", "ipam_prefix cfi_txt")

		var made []int
		for i, v := range []map[string]any{
			{"cfi_num": 5, "cfi_txt": "Alpha beta", "cfi_day": "2024-01-02", "cfi_flag": true},
			{"cfi_num": 7, "cfi_txt": "gamma", "cfi_day": "2024-03-04", "cfi_flag": false},
			{"cfi_num": -1, "cfi_txt": "BETA", "cfi_day": "2023-12-31"},
			{},
		} {
			r := e.Must(http.StatusCreated, "POST", "/api/ipam/prefixes/", map[string]any{
				"prefix": fmt.Sprintf("10.77.%d.0/24", i), "custom_fields": v})
			made = append(made, int(r.Object()["id"].(float64)))
		}
		for _, c := range []struct {
			q     string
			field string // whose index serves it
			want  []int
		}{
			{"cf_cfi_num=5", "cfi_num", []int{made[0]}},
			{"cf_cfi_num=5&cf_cfi_num=7", "cfi_num", []int{made[0], made[1]}},
			{"cf_cfi_num__gte=0", "cfi_num", []int{made[0], made[1]}},
			{"cf_cfi_num__lt=0", "cfi_num", []int{made[2]}},
			{"cf_cfi_day=2024-03-04", "cfi_day", []int{made[1]}},
			{"cf_cfi_day__lte=2024-01-02", "cfi_day", []int{made[0], made[2]}},
			{"cf_cfi_txt=beta", "cfi_txt", []int{made[0], made[2]}},
			{"cf_cfi_flag=true", "-", []int{made[0]}},
			{"cf_cfi_num=null", "-", []int{made[3]}},
		} {
			if got := ids(c.q); !reflect.DeepEqual(got, c.want) {
				t.Errorf("%s: %v, want %v", c.q, got, c.want)
			}
			switch {
			case c.field == "cfi_txt" && !pg:
				uses(c.q, "")
			case c.field != "-":
				uses(c.q, c.field)
			}
		}

		// Exact text: a B-tree on both databases (under a new name on
		// PostgreSQL: the trigram index goes).
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/extras/custom-fields/%d/", txt), map[string]any{"filter_logic": "exact"})
		want("exact", "dcim_site cfi_num", "ipam_prefix cfi_day", "ipam_prefix cfi_num", "ipam_prefix cfi_txt")
		if got := ids("cf_cfi_txt=gamma"); !reflect.DeepEqual(got, []int{made[1]}) {
			t.Errorf("exact cf_cfi_txt=gamma: %v", got)
		}
		uses("cf_cfi_txt=gamma", "cfi_txt")
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/extras/custom-fields/%d/", txt), map[string]any{"filter_logic": "disabled"})
		want("disabled", "dcim_site cfi_num", "ipam_prefix cfi_day", "ipam_prefix cfi_num")
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/extras/custom-fields/%d/", num), map[string]any{"object_types": []string{"ipam.prefix"}})
		want("lost a type", "ipam_prefix cfi_day", "ipam_prefix cfi_num")
		e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/extras/custom-fields/%d/", num), nil)
		want("deleted", "ipam_prefix cfi_day")

		// Migrate makes what is missing (a database from before, or an
		// index dropped by hand) and drops what no field asks for.
		for _, s := range []string{
			"DROP INDEX " + indexName(t, e, "cfi_day"),
			`CREATE INDEX "cfidx_dcim_site_gone_00000000" ON "dcim_site" ("name")`,
		} {
			if _, err := e.DB.Write.ExecContext(ctx, s); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
		want("by hand", "dcim_site gone")
		if err := e.DB.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		want("migrated", "ipam_prefix cfi_day")
		uses("cf_cfi_day=2024-03-04", "cfi_day")
	})
}

// indexName is the quoted name of the index of field on ipam_prefix.
func indexName(t *testing.T, e *servertest.Env, field string) string {
	t.Helper()
	q := `SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE ?`
	arg := "cfidx_ipam_prefix_" + field + "_%"
	if e.DB.Dialect == dialect.Postgres {
		q = `SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE $1`
	}
	var name string
	if err := e.DB.Read.QueryRowContext(context.Background(), q, arg).Scan(&name); err != nil {
		t.Fatal(err)
	}
	return `"` + name + `"`
}
