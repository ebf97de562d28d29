package resource

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"sort"

	"entgo.io/ent/dialect"
)

// Substring searches (q and the ic/isw/iew/ie lookups) compare
// LOWER(column) with a LIKE pattern (filters.cmp). A B-tree cannot serve
// "%text%", so on PostgreSQL every column a model's q searches gets a
// trigram GIN index on exactly that expression: the planner answers the
// lookups on one column with a bitmap scan of its index, and q, an OR over
// the columns, with a BitmapOr of them, for the page and for its count.
// One index per column rather than one over their concatenation because
// the same indexes then serve the single-column lookups (name__ic) too.
//
// pg_trgm ships with PostgreSQL's contrib and is a trusted extension (the
// database's owner may create it), but a server without contrib, or a
// role without CREATE on the database, cannot have it: the searches then
// scan as before, with the same results, and Migrate logs it.
//
// SQLite has no index for "%text%" short of FTS5, which go-sqlite3 only
// compiles in under a build tag every build and `go test` would then need,
// and whose trigram folding is not Go's Unicode folding (it could only
// pre-filter); its scans are made cheap instead (filters.sqliteFolded).

// SearchIndexes creates the trigram indexes of every model's search
// columns on PostgreSQL (nothing on SQLite). It reports false, without an
// error, when pg_trgm cannot be created there.
func SearchIndexes(ctx context.Context, ex SQLExecer, dia string) (bool, error) {
	if dia != dialect.Postgres {
		return false, nil
	}
	if _, err := ex.ExecContext(ctx, "CREATE EXTENSION IF NOT EXISTS pg_trgm"); err != nil {
		return false, nil
	}
	for _, stmt := range searchIndexStatements() {
		if _, err := ex.ExecContext(ctx, stmt); err != nil {
			return true, fmt.Errorf("search index: %s: %w", stmt, err)
		}
	}
	return true, nil
}

// searchIndexStatements are the CREATE INDEX statements of every model's
// search columns, in a stable order.
func searchIndexStatements() []string {
	var out []string
	for _, d := range All() {
		for _, c := range d.Search {
			out = append(out, fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s USING gin (LOWER(%s) gin_trgm_ops)",
				quote(searchIndexName(d.Table, c)), quote(d.Table), quote(c)))
		}
	}
	sort.Strings(out)
	return out
}

// searchIndexName is "<table>_<column>_trgm", shortened with a hash to
// PostgreSQL's 63-byte identifiers.
func searchIndexName(table, column string) string {
	n := table + "_" + column + "_trgm"
	if len(n) <= 63 {
		return n
	}
	h := sha1.Sum([]byte(n))
	return n[:50] + "_" + hex.EncodeToString(h[:6])
}
