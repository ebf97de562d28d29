package server_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"entgo.io/ent/dialect"

	"github.com/inventory/inventory/server/servertest"
)

// One-column indexes of nullable key columns hold only the rows where the
// key is set (ent/entc.go partialIndexes): a database from before gets
// them rebuilt by Migrate, and a migrated database plans no change (an
// index the inspection read back differently would be rebuilt on every
// start).
func TestPartialKeyIndexes(t *testing.T) {
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		ctx := context.Background()
		def := func() string {
			q := `SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'deviceinterface__path_id'`
			if e.DB.Dialect == dialect.Postgres {
				q = `SELECT indexdef FROM pg_indexes WHERE indexname = 'deviceinterface__path_id'`
			}
			var s string
			if err := e.DB.Write.QueryRowContext(ctx, q).Scan(&s); err != nil {
				t.Fatal(err)
			}
			return s
		}
		partial := func(s string) bool { return strings.Contains(strings.ToUpper(s), "WHERE") }
		if d := def(); !partial(d) {
			t.Fatalf("index not partial: %s", d)
		}
		// A database from before: the same index over every row.
		for _, stmt := range []string{`DROP INDEX deviceinterface__path_id`,
			`CREATE INDEX deviceinterface__path_id ON dcim_interface (_path_id)`} {
			if _, err := e.DB.Write.ExecContext(ctx, stmt); err != nil {
				t.Fatal(err)
			}
		}
		if err := e.DB.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		if d := def(); !partial(d) {
			t.Fatalf("after Migrate, index not partial: %s", d)
		}
		var plan bytes.Buffer
		if err := e.DB.PlanMigration(ctx, &plan); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(plan.String(), "\n") {
			if u := strings.ToUpper(strings.TrimSpace(l)); strings.Contains(u, "INDEX") || strings.HasPrefix(u, "ALTER") || strings.HasPrefix(u, "CREATE") || strings.HasPrefix(u, "DROP") {
				t.Errorf("a migrated database plans a change: %s", l)
			}
		}
	})
}
