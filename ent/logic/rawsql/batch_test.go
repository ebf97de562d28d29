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
		{dialect.SQLite, 256, 13, 0, []int{256}},
		{dialect.SQLite, 257, 13, 0, []int{256, 1}},
		{dialect.SQLite, 1000, 13, 0, []int{512, 256, 232}},
		{dialect.SQLite, 2521, 13, 0, []int{1024, 1024, 256, 217}}, // 16384/13 = 1260: 1024 a piece
		{dialect.Postgres, 4096, 4, 0, []int{4096}},                // 16384/4 = 4096
		{dialect.Postgres, 4097, 4, 1, []int{2048, 2048, 1}},       // one parameter besides: 2048
		{dialect.Postgres, 3, 70000, 0, []int{1, 1, 1}},            // a row wider than the limit still goes, alone
		{dialect.Postgres, 4, 0, 0, []int{4}},                      // no parameters per row: as one each
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
				if len(part) > 1 && len(part)*tc.per+tc.fixed > min(MaxParams(tc.dia), StatementParams) {
					t.Errorf("piece of %d rows binds %d parameters, over %d", len(part), len(part)*tc.per+tc.fixed, StatementParams)
				}
				sizes = append(sizes, len(part))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(sizes) != fmt.Sprint(tc.want) || next != tc.n {
				t.Errorf("pieces %v, want %v", sizes, tc.want)
			}
		})
	}
}

// statementsFor is how many statements Batches makes of n rows.
func statementsFor(dia string, n, perRow int) int {
	k := 0
	_ = Ranges(dia, n, perRow, 0, func(int, int) error { k++; return nil })
	return k
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
			// Two parameters a row: more rows than one statement of the
			// database may carry.
			n := MaxParams(dia)/2 + 7
			want := statementsFor(dia, n, 2)
			if dia == dialect.Postgres {
				want = (n + UnnestRows - 1) / UnnestRows // arrays: UnnestRows a statement
			}
			rows := make([][]any, n)
			for i := range rows {
				rows[i] = []any{i, fmt.Sprint("row ", i)}
			}
			q := &countingQuerier{Conn: conn}
			ids, err := InsertRowsReturning(ctx, q, dia, "batch_probe", []string{"a", "b"}, rows)
			if err != nil {
				t.Fatal(err)
			}
			if q.n != want || len(ids) != n {
				t.Fatalf("%d statements, %d ids; want %d statements and %d ids", q.n, len(ids), want, n)
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
			if err := InsertRows(ctx, q, dia, "batch_probe", []string{"a", "b"}, rows); err != nil || q.n != want {
				t.Fatalf("InsertRows: %d statements, %v; want %d", q.n, err, want)
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

// TestBulkRanges: a bulk create's pieces are BulkRows rows on PostgreSQL
// whatever the columns (one array each), Ranges' pieces on SQLite.
func TestBulkRanges(t *testing.T) {
	for _, tc := range []struct {
		dia    string
		n, per int
		want   []int
	}{
		{dialect.Postgres, 0, 40, nil},
		{dialect.Postgres, 52, 40, []int{52}},
		{dialect.Postgres, 2500, 40, []int{BulkRows, BulkRows, 2500 - 2*BulkRows}},
		{dialect.SQLite, 1000, 40, []int{256, 256, 256, 232}}, // 16384/40 = 409: 256 a piece
	} {
		t.Run(fmt.Sprintf("%s/%d/%d", tc.dia, tc.n, tc.per), func(t *testing.T) {
			var sizes []int
			next := 0
			err := BulkRanges(tc.dia, tc.n, tc.per, func(lo, hi int) error {
				if lo != next || hi <= lo {
					t.Fatalf("piece [%d, %d) after %d", lo, hi, next)
				}
				next = hi
				sizes = append(sizes, hi-lo)
				return nil
			})
			if err != nil || fmt.Sprint(sizes) != fmt.Sprint(tc.want) || next != tc.n {
				t.Fatalf("pieces %v (to %d), %v; want %v", sizes, next, err, tc.want)
			}
		})
	}
}
