package db_test

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/inventory/inventory/ent/db"
)

// TestStatementCounting: every statement sent on any of the pools counts
// once, at the driver, in DB.Statements, and in the Counter of the
// context it ran under: reads and writes, prepared statements per
// execution, a transaction's BEGIN and COMMIT or ROLLBACK; a statement
// under another context counts in the total only.
func TestStatementCounting(t *testing.T) {
	for _, kind := range []string{"sqlite", "postgres"} {
		t.Run(kind, func(t *testing.T) {
			dsn := filepath.Join(t.TempDir(), "count.db")
			if kind == "postgres" {
				dsn = countDatabase(t)
			}
			d, err := db.Open(context.Background(), dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if _, err := d.Write.Exec("CREATE TABLE probe (id integer)"); err != nil {
				t.Fatal(err)
			}
			ph := "?"
			if kind == "postgres" {
				ph = "$1"
			}
			insert := "INSERT INTO probe (id) VALUES (" + ph + ")"
			for _, c := range []struct {
				name string
				run  func(ctx context.Context) error
				want []string
			}{
				{"read pool query", func(ctx context.Context) error {
					rows, err := d.Read.QueryContext(ctx, "SELECT id FROM probe")
					if err == nil {
						rows.Close()
					}
					return err
				}, []string{"SELECT id FROM probe"}},
				{"write pool exec", func(ctx context.Context) error {
					_, err := d.Write.ExecContext(ctx, insert, 1)
					return err
				}, []string{insert}},
				{"prepared twice", func(ctx context.Context) error {
					st, err := d.Write.PrepareContext(ctx, insert)
					if err != nil {
						return err
					}
					defer st.Close()
					if _, err := st.ExecContext(ctx, 2); err != nil {
						return err
					}
					_, err = st.ExecContext(ctx, 3)
					return err
				}, []string{insert, insert}},
				{"committed transaction", func(ctx context.Context) error {
					tx, err := d.Write.BeginTx(ctx, nil)
					if err != nil {
						return err
					}
					if _, err := tx.ExecContext(ctx, insert, 4); err != nil {
						tx.Rollback()
						return err
					}
					return tx.Commit()
				}, []string{"BEGIN", insert, "COMMIT"}},
				{"rolled back transaction", func(ctx context.Context) error {
					tx, err := d.Write.BeginTx(ctx, nil)
					if err != nil {
						return err
					}
					var n int
					if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM probe").Scan(&n); err != nil {
						tx.Rollback()
						return err
					}
					return tx.Rollback()
				}, []string{"BEGIN", "SELECT count(*) FROM probe", "ROLLBACK"}},
			} {
				t.Run(c.name, func(t *testing.T) {
					var n db.Counter
					total := d.Statements.Load()
					var err error
					got := n.Record(func() { err = c.run(db.CountingStatements(context.Background(), &n)) })
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got, c.want) || n.Load() != int64(len(c.want)) {
						t.Errorf("counted %d: %q, want %q", n.Load(), got, c.want)
					}
					if all := d.Statements.Load() - total; all != int64(len(c.want)) {
						t.Errorf("DB.Statements grew by %d, want %d", all, len(c.want))
					}
					// Under a context without the counter: the total only.
					total, before := d.Statements.Load(), n.Load()
					if err := c.run(context.Background()); err != nil {
						t.Fatal(err)
					}
					if n.Load() != before || d.Statements.Load()-total != int64(len(c.want)) {
						t.Errorf("without the counter: counter +%d (want 0), total +%d (want %d)", n.Load()-before, d.Statements.Load()-total, len(c.want))
					}
				})
			}
		})
	}
}

// countDatabase creates a PostgreSQL database for the test (dropped
// afterwards) and returns its URL.
func countDatabase(t *testing.T) string {
	admin := os.Getenv("INVENTORY_TEST_POSTGRES")
	if admin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("INVENTORY_TEST_POSTGRES is not set in CI: the PostgreSQL suite must run")
		}
		t.Skip("INVENTORY_TEST_POSTGRES not set")
	}
	conn, err := stdsql.Open("pgx", admin)
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("inv_count_%d_%d", os.Getpid(), time.Now().UnixNano()%1e6)
	if _, err := conn.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
		conn.Close()
	})
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}
