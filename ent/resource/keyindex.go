package resource

import (
	"context"
	"fmt"

	"github.com/inventory/inventory/ent/migrate"
)

// Every foreign key column is indexed, as Django indexes every ForeignKey
// (db_index=True) in NetBox's database. Without one, deleting a row makes
// the database look for the rows referring to it by reading the whole
// referring table, for each deleted row: deleting a device of 10 000
// interfaces read the interface table three times per interface (an
// interface's lag, parent and bridge are interfaces), quadratic, 41 s on
// PostgreSQL and over a minute on SQLite; the delete's own reads of
// dependants (collectDeletion) and the hooks' reads by key scanned too.
//
// The ent schemas declare the indexes their constraints and queries need;
// a key column that no declared index begins with gets one here, created
// by Migrate. A nullable key gets a partial index of its non-NULL rows:
// most such keys are NULL (a component's module, an interface's bridge),
// so a row without one costs an insert nothing; both databases use such an
// index for "col = ?", which implies "col IS NOT NULL".

// KeyIndexes creates the index of every foreign key column that none of
// its table's declared indexes begins with.
func KeyIndexes(ctx context.Context, ex SQLExecer, dia string) error {
	for _, stmt := range keyIndexes() {
		if _, err := ex.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("key index: %s: %w", stmt, err)
		}
	}
	return nil
}

// keyIndexes are the CREATE INDEX statements of KeyIndexes (the same on
// both databases).
func keyIndexes() []string {
	var out []string
	for _, t := range migrate.Tables {
		led := map[string]bool{}
		if len(t.PrimaryKey) > 0 {
			led[t.PrimaryKey[0].Name] = true
		}
		for _, ix := range t.Indexes {
			if len(ix.Columns) > 0 {
				led[ix.Columns[0].Name] = true
			}
		}
		for _, fk := range t.ForeignKeys {
			if len(fk.Columns) != 1 {
				continue
			}
			c := fk.Columns[0]
			if led[c.Name] || c.Unique { // a unique column has its index
				continue
			}
			led[c.Name] = true
			stmt := fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s (%s)", quote(indexName(t.Name, c.Name, "_fk")), quote(t.Name), quote(c.Name))
			if c.Nullable {
				stmt += fmt.Sprintf(" WHERE %s IS NOT NULL", quote(c.Name))
			}
			out = append(out, stmt)
		}
	}
	return out
}
