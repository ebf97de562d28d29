package resource_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/ent/resource"
)

// TestBatchLoadOneStatement: the related rows of a page are loaded in one
// statement per relation whatever the number of rows (inIDs binds the ids
// as one parameter), past the 1000 ids an IN list of placeholders was cut
// at, and every row gets its own.
func TestBatchLoadOneStatement(t *testing.T) {
	const n = 1201
	for name, d := range testDBs(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			tags, groups, tenants := resource.ByContentType("extras.tag"), resource.ByContentType("tenancy.tenantgroup"), resource.ByContentType("tenancy.tenant")
			err := d.InTx(ctx, func(ctx context.Context, etx *ent.Tx) error {
				for i := range 2 {
					if _, err := tags.Create(ctx, tx(d, etx), input(t, map[string]any{"name": fmt.Sprintf("t%d", i), "slug": fmt.Sprintf("t%d", i)})); err != nil {
						return err
					}
					if _, err := groups.Create(ctx, tx(d, etx), input(t, map[string]any{"name": fmt.Sprintf("g%d", i), "slug": fmt.Sprintf("g%d", i)})); err != nil {
						return err
					}
				}
				for i := range n {
					// Odd tenants have both tags and the second group.
					kv := map[string]any{"name": fmt.Sprintf("tenant %04d", i), "slug": fmt.Sprintf("tenant-%04d", i),
						"tags": []int{1 + i%2}, "group": 1 + i%2}
					if i%2 == 1 {
						kv["tags"] = []int{1, 2}
					}
					if _, err := tenants.Create(ctx, tx(d, etx), input(t, kv)); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			st := d.Store()
			st.Cache = nil // measure the loads, not the read cache
			rows, _, err := tenants.List(ctx, st, resource.ListParams{Limit: -1, Order: tenants.Filters().Order("")})
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != n {
				t.Fatalf("%d rows listed, want %d", len(rows), n)
			}
			load := func(rows []*resource.Row) (*resource.Page, int64) {
				var c db.Counter
				page, err := tenants.Load(db.CountingStatements(ctx, &c), st, rows, resource.View{Base: "http://inventory.test"})
				if err != nil {
					t.Fatal(err)
				}
				return page, c.Load()
			}
			_, few := load(rows[:3])
			page, all := load(rows)
			if all != few {
				var c db.Counter
				log := c.Record(func() {
					tenants.Load(db.CountingStatements(ctx, &c), st, rows, resource.View{Base: "http://inventory.test"})
				})
				for i := range log {
					if len(log[i]) > 200 {
						log[i] = log[i][:200]
					}
				}
				t.Errorf("loading %d rows: %d statements, %d for 3 rows:\n%s", n, all, few, strings.Join(log, "\n"))
			}
			// A page of ids far apart (every third row: its tags are
			// looked up id by id) and one of close ids with a gap (one
			// range of the tag index, which holds the missing row's tags
			// too) render each row as the whole list does.
			var apart, close []*resource.Row
			for i, r := range rows {
				if i%3 == 0 {
					apart = append(apart, r)
				}
				if i >= 10 && i < 20 && i != 15 {
					close = append(close, r)
				}
			}
			for _, pick := range [][]*resource.Row{apart, close} {
				p, _ := load(pick)
				for _, r := range pick {
					if got, want := string(p.JSON(r)), string(page.JSON(r)); got != want {
						t.Errorf("row %d in a page of %d: %s, in the whole list: %s", r.ID, len(pick), got, want)
					}
				}
			}
			// Rows read one by one come with their tags (Get), and render
			// as the whole list does without a statement for them; an
			// untagged row too.
			var untagged int
			err = d.InTx(ctx, func(ctx context.Context, etx *ent.Tx) error {
				untagged, err = tenants.Create(ctx, tx(d, etx), input(t, map[string]any{"name": "untagged", "slug": "untagged"}))
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			ids := []int{untagged}
			for _, r := range close {
				ids = append(ids, r.ID)
			}
			var got []*resource.Row
			for _, id := range ids {
				r, err := tenants.Get(ctx, st, id)
				if err != nil || r == nil {
					t.Fatalf("Get(%d): %v, %v", id, r, err)
				}
				got = append(got, r)
			}
			p, withTags := load(got)
			if _, listed := load(close); withTags != listed-1 {
				t.Errorf("loading %d rows read with their tags: %d statements, %d for the listed rows (want one less)", len(got), withTags, listed)
			}
			for _, r := range got {
				want := `"tags":[]`
				if r.ID != untagged {
					want = string(page.JSON(r))
				}
				if j := string(p.JSON(r)); !strings.Contains(j, want) {
					t.Errorf("row %d read by id: %s, want %s", r.ID, j, want)
				}
			}
			// Rows past the first 1000 have their own tags and group.
			for _, c := range []struct {
				row       int
				want, not []string
			}{
				{1199, []string{`"name":"tenant 1199"`, `"slug":"t0"`, `"slug":"t1"`, `"slug":"g1"`}, []string{`"slug":"g0"`}},
				{1200, []string{`"name":"tenant 1200"`, `"slug":"t0"`, `"slug":"g0"`}, []string{`"slug":"t1"`, `"slug":"g1"`}},
			} {
				got := string(page.JSON(rows[c.row]))
				for _, w := range c.want {
					if !strings.Contains(got, w) {
						t.Errorf("row %d lacks %s: %s", c.row, w, got)
					}
				}
				for _, w := range c.not {
					if strings.Contains(got, w) {
						t.Errorf("row %d has %s: %s", c.row, w, got)
					}
				}
			}
		})
	}
}
