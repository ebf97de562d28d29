package resource

import (
	"context"
	"fmt"
	"strings"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
)

// Every model's default ordering is served by an index: its list pages
// (and on PostgreSQL the ids of a deep page, read.go's page) walk the
// index instead of sorting the table per request. The ent schemas declare
// the indexes their constraints need; the orderings are the descriptors'
// (NetBox's Meta.ordering, with pinned NULL placement, byte collation and
// a final id), so their indexes are derived from them here, created by
// Migrate, and follow a model's ordering when it changes or a model is
// added. TestOrderingIndexes asks each database's planner to confirm that
// no default ordering needs a sort.

// OrderingIndexes creates the index of every model's default ordering.
func OrderingIndexes(ctx context.Context, ex SQLExecer, dia string) error {
	for _, d := range All() {
		stmt := d.orderingIndex(dia)
		if stmt == "" {
			continue
		}
		if _, err := ex.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("ordering index: %s: %w", stmt, err)
		}
	}
	return nil
}

// orderingIndex is the CREATE INDEX statement of d's default ordering, ""
// when it is the id alone (the primary key serves it).
func (d *Descriptor) orderingIndex(dia string) string {
	if !d.OrderingIndexable() {
		return ""
	}
	s := sql.Dialect(dia).Select("id").From(sql.Table(d.Table))
	d.applyOrder(s, d.spec.Order(""))
	q, _ := s.Query()
	_, terms, ok := strings.Cut(q, " ORDER BY ")
	if !ok || terms == `"id" ASC NULLS LAST` || terms == `"id" ASC` {
		return ""
	}
	// The terms name their columns qualified by the table, which an index
	// definition does not take.
	x := s.C("x")
	terms = strings.ReplaceAll(terms, x[:len(x)-len("x")-2], "")
	if dia == dialect.SQLite {
		// SQLite's index terms take no NULLS placement: applyOrder
		// leaves it out where it changes nothing (NOT NULL columns),
		// and where it does SQLite cannot walk an index for it anyway.
		terms = strings.NewReplacer(" NULLS LAST", "", " NULLS FIRST", "").Replace(terms)
	}
	return fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s (%s)", quote(orderingIndexName(d.Table)), quote(d.Table), terms)
}

func orderingIndexName(table string) string {
	n := table + "_ordering"
	if len(n) <= 63 {
		return n
	}
	return searchIndexName(table, "ordering")
}

// OrderingIndexable tells whether d's default ordering names columns of
// its own table only. An ordering through a related table (a tagged
// item's tag weight and name: a subquery per row) cannot be held by an
// index of this table; such a list sorts its (filtered) rows.
func (d *Descriptor) OrderingIndexable() bool {
	for _, t := range d.spec.Order("") {
		if !identRe.MatchString(t.Column) {
			return false
		}
	}
	return true
}
