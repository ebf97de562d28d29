package server_test

import (
	"context"
	"strings"
	"testing"

	"entgo.io/ent/dialect/sql"

	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/server/servertest"
)

// TestOrderingIndexes: every model's default ordering (of its own
// columns) is served by an index on both databases, for a page of rows and for a deep page's ids
// (selected first; on SQLite from the index alone): the planner walks an index instead of
// sorting the table. PostgreSQL is asked with sorting priced out
// (enable_sort off), as its tables are empty here and a sort of nothing
// would otherwise win; SQLite's plan names the sort ("USE TEMP B-TREE FOR
// ORDER BY") whatever the table's size.
func TestOrderingIndexes(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ctx := context.Background()
		conn, err := e.DB.Read.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		pg := e.DB.Dialect == "postgres"
		if pg {
			if _, err := conn.ExecContext(ctx, "SET enable_sort = off"); err != nil {
				t.Fatal(err)
			}
		}
		for _, d := range resource.All() {
			if !d.OrderingIndexable() {
				t.Logf("%s: its default ordering goes through a related table: no index of its own can serve it", d.ContentType())
				continue
			}
			for _, shape := range []string{"rows", "ids"} {
				s := d.IDSelector(e.DB.Dialect, d.Filters().Order(""))
				if shape == "rows" {
					s = d.Selector(e.DB.Dialect)
					ids := d.IDSelector(e.DB.Dialect, d.Filters().Order(""))
					q, _ := ids.Query()
					_, terms, _ := strings.Cut(q, " ORDER BY ")
					s.OrderExpr(sql.Expr(terms))
				}
				s.Limit(50).Offset(1000)
				q, args := s.Query()
				explain := "EXPLAIN QUERY PLAN "
				if pg {
					explain = "EXPLAIN "
				}
				rows, err := conn.QueryContext(ctx, explain+q, args...)
				if err != nil {
					t.Fatalf("%s: %s: %v", d.ContentType(), q, err)
				}
				var plan []string
				for rows.Next() {
					vals := make([]any, 4)
					ptrs := make([]any, 0, 4)
					cols, _ := rows.Columns()
					for i := range cols {
						ptrs = append(ptrs, &vals[i])
					}
					if err := rows.Scan(ptrs...); err != nil {
						t.Fatal(err)
					}
					for _, v := range vals {
						if b, ok := v.([]byte); ok {
							v = string(b)
						}
						if s, ok := v.(string); ok {
							plan = append(plan, s)
						}
					}
				}
				rows.Close()
				text := strings.Join(plan, "\n")
				if strings.Contains(text, "TEMP B-TREE FOR") || strings.Contains(text, "Sort") {
					t.Errorf("%s (%s): the default ordering sorts:\n%s\n%s", d.ContentType(), shape, q, text)
				}
				// SQLite: a deep page's ids come from the index alone,
				// without reading the skipped rows (read.go's page).
				if !pg && shape == "ids" && strings.Contains(text, " INDEX ") && !strings.Contains(text, "COVERING INDEX") {
					t.Errorf("%s (ids): the ids of a page read the table:\n%s\n%s", d.ContentType(), q, text)
				}
			}
		}
	})
}
