package rawsql

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"entgo.io/ent/dialect"
	_ "github.com/jackc/pgx/v5/stdlib"
	_ "github.com/mattn/go-sqlite3"
)

func TestBatches(t *testing.T) {
	for _, tc := range []struct {
		dia           string
		n, per, fixed int
		want          []int // sizes of the pieces
	}{
		{dialect.SQLite, 0, 3, 0, nil},
		{dialect.SQLite, 5, 13, 0, []int{5}},
		{dialect.SQLite, 2520, 13, 0, []int{2520}}, // 2520*13 = 32760 <= 32766
		{dialect.SQLite, 2521, 13, 0, []int{2520, 1}},
		{dialect.SQLite, 5041, 13, 7, []int{2519, 2519, 3}}, // 2520*13+7 = 32767 > 32766: a row less
		{dialect.Postgres, 5041, 13, 0, []int{5041}},
		{dialect.Postgres, 5042, 13, 0, []int{5041, 1}},
		{dialect.Postgres, 3, 70000, 0, []int{1, 1, 1}}, // a row wider than the limit still goes, alone
		{dialect.Postgres, 4, 0, 0, []int{4}},           // no parameters per row: all at once
	} {
		t.Run(fmt.Sprintf("%s/%d/%d/%d", tc.dia, tc.n, tc.per, tc.fixed), func(t *testing.T) {
			rows := make([]int, tc.n)
			for i := range rows {
				rows[i] = i
			}
			var sizes []int
			next := 0
			err := Batches(tc.dia, rows, tc.per, tc.fixed, func(part []int) error {
				if part[0] != next {
					t.Fatalf("piece starts at %d, want %d", part[0], next)
				}
				next += len(part)
				if tc.per > 0 && len(part) > 1 && len(part)*tc.per+tc.fixed > MaxParams(tc.dia) {
					t.Errorf("piece of %d rows binds %d parameters, over %d", len(part), len(part)*tc.per+tc.fixed, MaxParams(tc.dia))
				}
				sizes = append(sizes, len(part))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(sizes) != fmt.Sprint(tc.want) {
				t.Errorf("pieces %v, want %v", sizes, tc.want)
			}
			var ranges []int
			_ = Ranges(tc.dia, tc.n, tc.per, tc.fixed, func(lo, hi int) error {
				ranges = append(ranges, hi-lo)
				return nil
			})
			if fmt.Sprint(ranges) != fmt.Sprint(sizes) {
				t.Errorf("Ranges %v, Batches %v", ranges, sizes)
			}
		})
	}
}

// countingQuerier counts the statements sent through it.
type countingQuerier struct {
	*sql.Conn
	n int
}

func (c *countingQuerier) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	c.n++
	return c.Conn.QueryContext(ctx, q, args...)
}

func (c *countingQuerier) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	c.n++
	return c.Conn.ExecContext(ctx, q, args...)
}

// TestInsertRowsAcrossStatements inserts more rows than one statement may
// carry on each database: every row arrives, in as few statements as the
// limit allows, and InsertRowsReturning gives each row its own id, in
// order.
func TestInsertRowsAcrossStatements(t *testing.T) {
	ctx := context.Background()
	for _, dia := range []string{dialect.SQLite, dialect.Postgres} {
		t.Run(dia, func(t *testing.T) {
			conn := testConn(t, dia)
			create := `CREATE TEMP TABLE "batch_probe" (id integer PRIMARY KEY AUTOINCREMENT, a integer NOT NULL, b text)`
			if dia == dialect.Postgres {
				create = `CREATE TEMP TABLE "batch_probe" (id serial PRIMARY KEY, a integer NOT NULL, b text)`
			}
			if _, err := conn.ExecContext(ctx, create); err != nil {
				t.Fatal(err)
			}
			// Two parameters a row: more rows than two statements hold.
			per := RowsPer(dia, 2, 0)
			n := 2*per + 7
			rows := make([][]any, n)
			for i := range rows {
				rows[i] = []any{i, fmt.Sprint("row ", i)}
			}
			q := &countingQuerier{Conn: conn}
			ids, err := InsertRowsReturning(ctx, q, dia, "batch_probe", []string{"a", "b"}, rows)
			if err != nil {
				t.Fatal(err)
			}
			if q.n != 3 || len(ids) != n {
				t.Fatalf("%d statements, %d ids; want 3 statements and %d ids", q.n, len(ids), n)
			}
			rs, err := conn.QueryContext(ctx, `SELECT id, a, b FROM "batch_probe" ORDER BY id`)
			if err != nil {
				t.Fatal(err)
			}
			defer rs.Close()
			i := 0
			for ; rs.Next(); i++ {
				var id, a int
				var b string
				if err := rs.Scan(&id, &a, &b); err != nil {
					t.Fatal(err)
				}
				if i < n && (id != ids[i] || a != i || b != fmt.Sprint("row ", i)) {
					t.Fatalf("row %d: id %d, a %d, b %q; want id %d (returned), a %d", i, id, a, b, ids[i], i)
				}
			}
			if err := rs.Err(); err != nil || i != n {
				t.Fatalf("%d rows stored, want %d (%v)", i, n, err)
			}
			// Without RETURNING: the same cut.
			q.n = 0
			if err := InsertRows(ctx, q, dia, "batch_probe", []string{"a", "b"}, rows); err != nil || q.n != 3 {
				t.Fatalf("InsertRows: %d statements, %v; want 3", q.n, err)
			}
			if err := InsertRows(ctx, q, dia, "batch_probe", []string{"a", "b"}, [][]any{{1}}); err == nil {
				t.Error("a row of one value for two columns was accepted")
			}
		})
	}
}

// testConn is one connection to a scratch database of dia: a fresh
// SQLite file, or PostgreSQL's INVENTORY_TEST_POSTGRES (temporary tables
// only, which live and die with the connection).
func testConn(t *testing.T, dia string) *sql.Conn {
	t.Helper()
	driver, dsn := "sqlite3", filepath.Join(t.TempDir(), "batch.db")
	if dia == dialect.Postgres {
		driver, dsn = "pgx", os.Getenv("INVENTORY_TEST_POSTGRES")
		if dsn == "" {
			if os.Getenv("CI") == "true" {
				t.Fatal("INVENTORY_TEST_POSTGRES is not set in CI: the PostgreSQL suite must run")
			}
			t.Skip("INVENTORY_TEST_POSTGRES not set")
		}
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}
