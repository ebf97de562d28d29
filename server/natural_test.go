package server_test

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestNaturalOrdering: names NetBox orders with its natural_sort collation
// list with digit runs compared by value, case only breaking ties, the same
// on every database, by default and with ?ordering=name / -name; updates
// re-sort; the companion sort key is never shown; Migrate fills it for rows
// written before it existed.
func TestNaturalOrdering(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		for _, n := range []string{"Site 10", "Site 2", "site 1", "Site 1a"} {
			r := e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": n, "slug": slug(n)}).Object()
			if _, ok := r["_name_natural"]; ok {
				t.Errorf("_name_natural rendered: %v", r)
			}
		}
		names := func(q string) []string {
			var out []string
			for _, o := range e.Must(http.StatusOK, "GET", "/api/dcim/sites/"+q, nil).Results() {
				if _, ok := o["_name_natural"]; ok {
					t.Errorf("_name_natural rendered: %v", o)
				}
				out = append(out, o["name"].(string))
			}
			return out
		}
		want := []string{"site 1", "Site 1a", "Site 2", "Site 10"}
		rev := slices.Clone(want)
		slices.Reverse(rev)
		for q, w := range map[string][]string{"": want, "?ordering=name": want, "?ordering=-name": rev, "?brief=1": want} {
			if got := names(q); !slices.Equal(got, w) {
				t.Errorf("%q: got %q, want %q", q, got, w)
			}
		}
		// An update re-sorts.
		e.Must(http.StatusOK, "PATCH", "/api/dcim/sites/1/", map[string]any{"name": "Site 0"})
		if got, w := names(""), []string{"Site 0", "site 1", "Site 1a", "Site 2"}; !slices.Equal(got, w) {
			t.Errorf("after update: got %q, want %q", got, w)
		}
		// A database from before the companion column: Migrate fills it.
		if _, err := e.DB.Write.ExecContext(context.Background(), `UPDATE dcim_site SET _name_natural = ''`); err != nil {
			t.Fatal(err)
		}
		if err := e.DB.Migrate(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got, w := names("?ordering=name"), []string{"Site 0", "site 1", "Site 1a", "Site 2"}; !slices.Equal(got, w) {
			t.Errorf("after backfill: got %q, want %q", got, w)
		}
		// Another natural model.
		for _, n := range []string{"T10", "T9", "t1"} {
			e.Must(http.StatusCreated, "POST", "/api/tenancy/tenants/", map[string]any{"name": n, "slug": slug(n)})
		}
		var got []string
		for _, o := range e.Must(http.StatusOK, "GET", "/api/tenancy/tenants/", nil).Results() {
			got = append(got, o["name"].(string))
		}
		if w := []string{"t1", "T9", "T10"}; !slices.Equal(got, w) {
			t.Errorf("tenants: got %q, want %q", got, w)
		}
	})
}

func slug(s string) string {
	b := []byte{}
	for _, c := range []byte(s) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b = append(b, c)
		case c >= 'A' && c <= 'Z':
			b = append(b, c+32)
		default:
			b = append(b, '-')
		}
	}
	return string(b)
}
