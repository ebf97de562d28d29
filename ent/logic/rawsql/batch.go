package rawsql

import (
	"context"
	"fmt"
	"math/bits"
	"strings"

	"entgo.io/ent/dialect"
)

// Multi-row statements (an INSERT of many rows, an UPDATE ... CASE over
// many ids) bind a fixed number of parameters per row, and each database
// caps the parameters of one statement: a request that writes enough rows
// at once (a device of a type with 10 000 interface templates) would fail
// with "too many SQL variables" (SQLite) or "extended protocol limited to
// 65535 parameters" (PostgreSQL). Every such writer cuts its rows with
// Batches, by the rows' parameter count, so that no statement passes the
// limit whatever the number of rows.
//
// Within the limit, a statement holds at most StatementParams parameters
// and, past SmallPiece rows, a power of two of rows. Both drivers keep
// every statement they
// prepare, by its text, for reuse (pgx's statement cache, 512 a
// connection, and the server-side prepared statement with it;
// go-sqlite3's, 128): a multi-row INSERT of n rows is a new text for each
// n, and one of 5 000 rows held several megabytes of a PostgreSQL
// backend's memory. Pieces of 2^k rows give a table at most a dozen large
// texts whatever the requests, each of bounded size. Beyond a few
// thousand parameters a statement saves nothing measurable: the work is
// per row.
//
// IN lists of ids for reads and deletes use Chunks (smaller pieces plan
// faster) or, in the resource layer, one array parameter (resource.inIDs).

// MaxParams is the most bind parameters one statement may carry on
// dialect: SQLite's SQLITE_MAX_VARIABLE_NUMBER, 32766 in the SQLite that
// go-sqlite3 bundles (its default since SQLite 3.32; go-sqlite3 does not
// override it), and PostgreSQL's 65535 (the extended protocol counts
// parameters in 16 bits; pgx refuses more before sending).
func MaxParams(dia string) int {
	if dia == dialect.Postgres {
		return 65535
	}
	return 32766
}

// StatementParams is the most parameters Batches gives one statement,
// below either database's limit.
const StatementParams = 16384

// RowsPer is how many rows of perRow parameters one statement of dialect
// carries beside fixed other parameters: the largest power of two within
// StatementParams and the dialect's limit, at least one.
func RowsPer(dia string, perRow, fixed int) int {
	if perRow < 1 {
		perRow = 1
	}
	n := max(1, (min(MaxParams(dia), StatementParams)-fixed)/perRow)
	return 1 << (bits.Len(uint(n)) - 1)
}

// SmallPiece is the most rows Batches leaves together at the end
// whatever their number: the usual writes (a device's few dozen
// components and their change records) stay one statement each, and a
// table has at most this many small texts.
const SmallPiece = 256

// Batches calls fn with consecutive pieces of rows, in order: pieces of
// RowsPer rows, then what is left in pieces of descending powers of two
// until at most SmallPiece rows are left, which go together (1 000 rows
// of 13 parameters: 512, 256, 232). No rows, no call.
func Batches[T any](dia string, rows []T, perRow, fixed int, fn func([]T) error) error {
	return Ranges(dia, len(rows), perRow, fixed, func(lo, hi int) error { return fn(rows[lo:hi]) })
}

// Ranges is Batches over n rows held elsewhere: fn gets [lo, hi).
func Ranges(dia string, n, perRow, fixed int, fn func(lo, hi int) error) error {
	size := RowsPer(dia, perRow, fixed)
	for lo := 0; lo < n; {
		k := n - lo
		if k > SmallPiece {
			k = 1 << (bits.Len(uint(k)) - 1)
		}
		k = min(k, size)
		if err := fn(lo, lo+k); err != nil {
			return err
		}
		lo += k
	}
	return nil
}

// BulkRows is the most rows BulkRanges gives one bulk create on
// PostgreSQL. ent's bulk create nests the hook chain of each row inside
// the previous row's (the last one's runs the INSERT), so a piece of n
// rows is a goroutine stack n chains deep, grown by copying: 1 024 rows
// (about 2 MB of stack) keep that small beside the rows' own work, where
// 4 096 spent more in stack growth than a statement costs.
const BulkRows = 1024

// BulkRanges cuts n rows of an ent bulk create (BatchCreate) of at most
// perRow parameters each into consecutive pieces, fn getting [lo, hi): on
// PostgreSQL pieces of BulkRows rows, as one array INSERT carries them
// whatever the number of columns (a piece that must go as VALUES is cut
// again by the parameter limit there: valuesBatchCreate); elsewhere the
// pieces of Ranges. Each piece is a statement and a round trip: a device
// of a 10 000-interface type made 40 on PostgreSQL, 10 now.
func BulkRanges(dia string, n, perRow int, fn func(lo, hi int) error) error {
	if dia != dialect.Postgres {
		return Ranges(dia, n, perRow, 0, fn)
	}
	for lo := 0; lo < n; lo += BulkRows {
		if err := fn(lo, min(lo+BulkRows, n)); err != nil {
			return err
		}
	}
	return nil
}

// InsertRows inserts rows (one value per column of cols each, in that
// order) into table: on PostgreSQL with array INSERTs of UnnestRows rows
// at most (unnest.go), on SQLite with multi-row INSERTs cut by Batches.
func InsertRows(ctx context.Context, ex Execer, dia, table string, cols []string, rows [][]any) error {
	_, err := insertRows(ctx, ex, nil, dia, table, cols, rows)
	return err
}

// InsertRowsReturning is InsertRows returning the new rows' ids, in the
// order of rows: each statement's RETURNING lists its rows in the order
// of its VALUES (PostgreSQL and SQLite both return an INSERT's rows in
// the order they were inserted; ent's bulk create relies on the same).
func InsertRowsReturning(ctx context.Context, q Querier, dia, table string, cols []string, rows [][]any) ([]int, error) {
	return insertRows(ctx, nil, q, dia, table, cols, rows)
}

// insertRows runs the INSERTs with ex, or with q and RETURNING id.
func insertRows(ctx context.Context, ex Execer, q Querier, dia, table string, cols []string, rows [][]any) ([]int, error) {
	if dia == dialect.Postgres && len(cols) > 0 && len(rows) > 0 {
		// One array a column (unnest.go).
		if ids, ok, err := insertArrays(ctx, ex, q, table, cols, rows); ok {
			return ids, err
		}
	}
	var ids []int
	quoted := make([]string, len(cols))
	for i, c := range cols {
		quoted[i] = `"` + c + `"`
	}
	head := `INSERT INTO "` + table + `" (` + strings.Join(quoted, ", ") + `) VALUES `
	err := Batches(dia, rows, len(cols), 0, func(part [][]any) error {
		a := &Args{PG: dia == dialect.Postgres, List: make([]any, 0, len(part)*len(cols))}
		var b strings.Builder
		b.Grow(len(head) + len(part)*len(cols)*8)
		b.WriteString(head)
		for _, row := range part {
			if len(row) != len(cols) {
				return fmt.Errorf("insert into %s: a row of %d values for %d columns", table, len(row), len(cols))
			}
		}
		a.Tuples(&b, part, nil)
		if q == nil {
			return Exec(ctx, ex, b.String(), a)
		}
		b.WriteString(" RETURNING id")
		rs, err := q.QueryContext(ctx, b.String(), a.List...)
		if err != nil {
			return err
		}
		defer rs.Close()
		n := 0
		for rs.Next() {
			var id int
			if err := rs.Scan(&id); err != nil {
				return err
			}
			ids = append(ids, id)
			n++
		}
		if err := rs.Err(); err != nil {
			return err
		}
		if n != len(part) {
			return fmt.Errorf("insert into %s: %d rows returned for %d inserted", table, n, len(part))
		}
		return nil
	})
	return ids, err
}
