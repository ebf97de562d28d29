package resource

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"sort"

	"entgo.io/ent/dialect"

	"github.com/inventory/inventory/filters"
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
// On SQLite each model with search columns gets an FTS5 trigram table
// over them, used as a candidate prefilter in front of the exact
// predicate (why, and what it cannot serve: filters/trigram.go). go-sqlite3
// compiles FTS5 in only under the sqlite_fts5 build tag (the Makefile sets
// it for every build and test); a binary built without it searches by
// scanning, with the same results, and Migrate logs it.

// SearchIndexes creates the trigram indexes of every model's search
// columns: pg_trgm GIN indexes on PostgreSQL, FTS5 trigram tables on
// SQLite. It reports false, without an error, when the database cannot
// have them (no pg_trgm; a go-sqlite3 built without FTS5).
func SearchIndexes(ctx context.Context, ex SQLExecer, dia string) (bool, error) {
	if dia == dialect.SQLite {
		return sqliteSearchIndexes(ctx, ex)
	}
	if dia != dialect.Postgres {
		return false, nil
	}
	for _, stmt := range prefixIndexStatements() {
		if _, err := ex.ExecContext(ctx, stmt); err != nil {
			return false, fmt.Errorf("prefix index: %s: %w", stmt, err)
		}
	}
	for _, d := range All() {
		if len(d.Search) > 0 {
			filters.IndexedPrefix(d.Table, d.Search)
		}
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

// prefixIndexStatements are the CREATE INDEX statements of the prefix
// B-trees of every model's search columns on PostgreSQL, which serve
// their isw and ie lookups (filters/prefix.go), in a stable order.
func prefixIndexStatements() []string {
	var out []string
	for _, d := range All() {
		for _, c := range d.Search {
			out = append(out, fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s (%s)",
				quote(indexName(d.Table, c, "_lpfx")), quote(d.Table), filters.PrefixIndexExpr(c)))
		}
	}
	sort.Strings(out)
	return out
}

// searchIndexName is "<table>_<column>_trgm", shortened with a hash to
// PostgreSQL's 63-byte identifiers.
func searchIndexName(table, column string) string { return indexName(table, column, "_trgm") }

// indexName is "<table>_<column><suffix>", shortened with a hash to
// PostgreSQL's 63-byte identifiers.
func indexName(table, column, suffix string) string {
	n := table + "_" + column + suffix
	if len(n) <= 63 {
		return n
	}
	h := sha1.Sum([]byte(n))
	return n[:50] + "_" + hex.EncodeToString(h[:6])
}

// sqliteSearchIndexes creates (or rebuilds, when a model's search columns
// changed) the FTS5 trigram index of every model with search columns and
// the triggers that keep it (filters.SQLiteSearchIndex), then tells the
// filters to use them.
func sqliteSearchIndexes(ctx context.Context, ex SQLExecer) (bool, error) {
	var fts5 int
	if _, err := filters.QueryRow(ctx, ex, "SELECT sqlite_compileoption_used('ENABLE_FTS5')", nil, &fts5); err != nil {
		return false, err
	}
	if fts5 == 0 {
		// A tagged build may have migrated this database: its triggers
		// would fail every write here (filters.DropSearchTriggers).
		return false, DropSearchTriggers(ctx, ex)
	}
	for _, d := range All() {
		cols := sqliteSearchColumns(d)
		if len(cols) == 0 {
			continue
		}
		if err := sqliteSearchIndex(ctx, ex, d.Table, cols); err != nil {
			return true, fmt.Errorf("search index of %s: %w", d.Table, err)
		}
		filters.IndexedSearch(d.Table, cols)
	}
	return true, nil
}

// sqliteSearchColumns are the columns of d's FTS5 trigram index on
// SQLite: those its q searches, and the custom field JSON of a model with
// custom fields, which prefilters the substring filters of its text
// fields (filters.cfPrefilter; on PostgreSQL each such field has a
// trigram index of its own, cfindex.go).
func sqliteSearchColumns(d *Descriptor) []string {
	cols := d.Search
	if d.Custom {
		cols = append(cols[:len(cols):len(cols)], customFieldColumn)
	}
	return cols
}

// DropSearchTriggers drops the triggers of every SQLite trigram index, as
// a build without FTS5 does at Migrate (filters.DropSearchTriggers says
// why); the next Migrate of a build with FTS5 rebuilds the indexes.
func DropSearchTriggers(ctx context.Context, ex SQLExecer) error {
	for _, d := range All() {
		if len(sqliteSearchColumns(d)) == 0 {
			continue
		}
		for _, stmt := range filters.DropSearchTriggers(d.Table) {
			if _, err := ex.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("search index of %s: %s: %w", d.Table, stmt, err)
			}
		}
	}
	return nil
}

func sqliteSearchIndex(ctx context.Context, ex SQLExecer, table string, columns []string) error {
	create, build := filters.SQLiteSearchIndex(table, columns)
	var have string
	if _, err := filters.QueryRow(ctx, ex, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", []any{table + filters.SearchIndexSuffix}, &have); err != nil {
		return err
	}
	if have == create {
		// Up to date unless a build without FTS5 dropped its triggers in
		// between (rows written since are missing from the index).
		names := filters.SearchTriggerNames(table)
		var n int
		if _, err := filters.QueryRow(ctx, ex, "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name IN (?, ?, ?)", []any{names[0], names[1], names[2]}, &n); err != nil {
			return err
		}
		if n == len(names) {
			return nil
		}
	}
	for _, stmt := range build {
		if _, err := ex.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("%s: %w", stmt, err)
		}
	}
	return nil
}
