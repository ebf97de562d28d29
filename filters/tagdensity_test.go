package filters

import (
	"context"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
)

// TestTagDensity: on SQLite a tag filter walks the list's order probing
// each row (EXISTS) when its tag is on a fair share of the table
// (denseTags) and collects the tagged rows (IN) when it is rare; both
// forms answer the same, on both databases, for tag, tag__any, AND of
// tags and tag__n.
func TestTagDensity(t *testing.T) {
	ctx := context.Background()
	const n = 640 // 1 in 64: 10 rows
	spec := &Spec{Table: "dense_items", TagTable: "dense_tagged", TagsTable: "dense_tags", ObjectType: "test.item",
		Filters: []*Filter{{Name: "tag", Kind: TagSlug}}}
	// "wide" is on every even item (dense), "rare" on items 5 and 600,
	// "few" on nine items (one short of dense), "other" is another
	// model's only.
	tagged := map[string][]int{"wide": {}, "rare": {5, 600}, "few": {1, 2, 3, 4, 5, 6, 7, 8, 9}}
	for i := 2; i <= n; i += 2 {
		tagged["wide"] = append(tagged["wide"], i)
	}
	for _, d := range openDBs(t) {
		for _, stmt := range []string{
			"CREATE TABLE dense_items (id INTEGER PRIMARY KEY)",
			"CREATE TABLE dense_tags (id INTEGER PRIMARY KEY, slug TEXT NOT NULL)",
			"CREATE TABLE dense_tagged (id INTEGER PRIMARY KEY, tag_id INTEGER NOT NULL, object_type TEXT NOT NULL, object_id INTEGER NOT NULL)",
		} {
			if _, err := d.db.Exec(stmt); err != nil {
				t.Fatal(err)
			}
		}
		ins := func(table string, cols []string, vals ...any) {
			t.Helper()
			q, args := sql.Dialect(d.dialect).Insert(table).Columns(cols...).Values(vals...).Query()
			if _, err := d.db.Exec(q, args...); err != nil {
				t.Fatal(err)
			}
		}
		for i := 1; i <= n; i++ {
			ins("dense_items", []string{"id"}, i)
		}
		row := 0
		tag := func(tagID int, objectType string, id int) {
			row++
			ins("dense_tagged", []string{"id", "tag_id", "object_type", "object_id"}, row, tagID, objectType, id)
		}
		slugs := []string{"wide", "rare", "few", "other"}
		for k, slug := range slugs {
			ins("dense_tags", []string{"id", "slug"}, k+1, slug)
			for _, id := range tagged[slug] {
				tag(k+1, "test.item", id)
			}
		}
		tag(4, "test.other", 1)
		has := func(id int, slug string) bool {
			for _, x := range tagged[slug] {
				if x == id {
					return true
				}
			}
			return false
		}
		for _, c := range []struct {
			q     string
			match func(id int) bool
			walk  bool // SQLite's form
		}{
			{"tag=wide", func(i int) bool { return has(i, "wide") }, true},
			{"tag=rare", func(i int) bool { return has(i, "rare") }, false},
			{"tag=few", func(i int) bool { return has(i, "few") }, false},
			{"tag=other", func(int) bool { return false }, false},
			{"tag=wide&tag=rare", func(i int) bool { return has(i, "wide") && has(i, "rare") }, false},
			{"tag=wide&tag=few", func(i int) bool { return has(i, "wide") && has(i, "few") }, false},
			{"tag__any=rare&tag__any=few", func(i int) bool { return has(i, "rare") || has(i, "few") }, true},
			{"tag__any=rare&tag__any=other", func(i int) bool { return has(i, "rare") }, false},
			{"tag__n=rare", func(i int) bool { return !has(i, "rare") }, false},
			{"tag__n=wide", func(i int) bool { return !has(i, "wide") }, false},
		} {
			want := []int64{}
			for i := 1; i <= n; i++ {
				if c.match(i) {
					want = append(want, int64(i))
				}
			}
			q, _ := url.ParseQuery(c.q)
			got, err := listTable(ctx, d, spec, "dense_items", q)
			if err != nil {
				t.Fatalf("%s %s: %v", d.name, c.q, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s: %d rows %v, want %d", d.name, c.q, len(got), got[:min(len(got), 12)], len(want))
			}
			text, _ := renderQuery(t, ctx, spec, d, "dense_items", q, nil)
			walks := d.dialect == dialect.SQLite && c.walk
			if strings.Contains(text, "EXISTS") != walks {
				t.Errorf("%s %s: walks %v, want %v: %s", d.name, c.q, !walks, walks, text)
			}
		}
	}

}
