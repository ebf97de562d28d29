package filters

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"net/url"
	"testing"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
)

// BenchmarkSearchSQLite counts the rows of 100,000 that a q (three
// columns), a name__ic and an equality filter on an indexed column match,
// on SQLite: the ratio of the first two to the third is what issue 15
// bounds.
func BenchmarkSearchSQLite(b *testing.B) {
	RegisterSQLite()
	db, err := stdsql.Open(SQLiteDriver, "file:fold_bench?mode=memory&cache=private")
	if err != nil {
		b.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	defer db.Close()
	for _, s := range []string{
		"CREATE TABLE rows (id INTEGER PRIMARY KEY, name TEXT NOT NULL, status TEXT NOT NULL, description TEXT NOT NULL, comments TEXT NOT NULL)",
		"CREATE INDEX rows_status ON rows (status)",
	} {
		if _, err := db.Exec(s); err != nil {
			b.Fatal(err)
		}
	}
	tx, _ := db.Begin()
	for i := 0; i < 100000; i++ {
		if _, err := tx.Exec("INSERT INTO rows VALUES (?, ?, ?, ?, ?)", i+1, fmt.Sprintf("Row %06d", i),
			[]string{"active", "reserved", "deprecated", "container"}[i%4], fmt.Sprintf("Description of row %d", i), ""); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	spec := &Spec{Table: "rows", Filters: []*Filter{
		{Name: "name", Kind: String, Column: "name"},
		{Name: "status", Kind: String, Column: "status"},
		{Name: "q", Kind: Custom, Func: Search("name", "description", "comments")},
	}}
	d := testDB{"sqlite", dialect.SQLite, db}
	for _, q := range []string{"status=reserved", "name__ic=row 0012", "q=row 0012"} {
		b.Run(q, func(b *testing.B) {
			v, _ := url.ParseQuery(q)
			preds, err := spec.Apply(context.Background(), v, Options{Unknown: Strict, Reserved: Reserved, Dialect: d.dialect, Exec: db})
			if err != nil {
				b.Fatal(err)
			}
			sel := sql.Dialect(d.dialect).Select(sql.Count("*")).From(sql.Table("rows"))
			for _, p := range preds {
				p(sel)
			}
			query, args := sel.Query()
			for b.Loop() {
				var n int
				if err := db.QueryRow(query, args...).Scan(&n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
