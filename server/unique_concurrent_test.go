package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestUniqueConcurrentWriters: writers that send the same unique values at
// once, on one server, get one 201 and the rest 400 with the set's
// message; never two rows and never a 5xx (a deadlock or a unique index
// answering first). On PostgreSQL this holds only through the advisory
// locks of the unique checks (resource.lockUnique): most sets are
// conditional and have no index, and the writers' snapshots would each
// find no clash. The bursts mix writers whose checks overlap in different
// sets (the same name with another slug, the same slug with another name),
// whose locks are taken in one statement in key order.
func TestUniqueConcurrentWriters(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		mk(t, e, "/api/extras/custom-fields/", map[string]any{
			"name": "serial", "type": "text", "unique": true, "object_types": []string{"dcim.site"},
		})
		const n = 16
		for _, c := range []struct {
			name, path string
			body       func(i int) map[string]any
			want       map[string]int // filter → rows after the burst
			field      string         // the field every refusal names
		}{
			{"a conditional set (tenant name without a group)", "/api/tenancy/tenants/",
				func(i int) map[string]any { return map[string]any{"name": "Same", "slug": fmt.Sprintf("same-%d", i)} },
				map[string]int{"name=Same": 1}, "name"},
			{"two sets, overlapping across writers", "/api/extras/tags/",
				func(i int) map[string]any {
					if i%2 == 0 {
						return map[string]any{"name": "Same", "slug": fmt.Sprintf("s-%d", i)}
					}
					return map[string]any{"name": fmt.Sprintf("N %d", i), "slug": "same"}
				},
				map[string]int{"name=Same": 1, "slug=same": 1}, ""},
			{"a unique custom field", "/api/dcim/sites/",
				func(i int) map[string]any {
					return map[string]any{"name": fmt.Sprintf("S%d", i), "slug": fmt.Sprintf("s%d", i), "custom_fields": map[string]any{"serial": "X1"}}
				},
				map[string]int{"cf_serial=X1": 1}, "__all__"},
		} {
			t.Run(c.name, func(t *testing.T) {
				rs := burst(e, n, "POST", c.path, c.body)
				created := 0
				for i, r := range rs {
					switch {
					case r.Status == http.StatusCreated:
						created++
					case r.Status != http.StatusBadRequest:
						t.Fatalf("writer %d: status %d: %s", i, r.Status, r.Body)
					case c.field != "" && !strings.Contains(string(r.Body), `"`+c.field+`"`):
						t.Fatalf("writer %d: refusal does not name %s: %s", i, c.field, r.Body)
					}
				}
				if created == 0 {
					t.Fatal("every writer was refused")
				}
				for filter, want := range c.want {
					if got := countOf(t, e, c.path+"?"+filter); got != want {
						t.Errorf("%s: %d rows, want %d", filter, got, want)
					}
				}
			})
		}
	})
}

// TestUngroupingConcurrentWithCreates: a tenant group's delete (whose
// ungrouping check locks its tenants' names and slugs) races creates of
// top-level tenants holding the same name and slug (which lock both too).
// Every request is answered 2xx, 400 or 409, never 5xx (both take their
// locks in one order, so neither waits for the other in a deadlock), and
// no two top-level tenants share the name.
func TestUngroupingConcurrentWithCreates(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		for round := 0; round < 8; round++ {
			name, slug := fmt.Sprintf("A%d", round), fmt.Sprintf("a%d", round)
			g := mk(t, e, "/api/tenancy/tenant-groups/", map[string]any{"name": "G" + name, "slug": "g" + slug})
			mk(t, e, "/api/tenancy/tenants/", map[string]any{"name": name, "slug": slug, "group": g})
			rs := together(8, func(i int) *servertest.Response {
				if i == 0 {
					return e.Do("DELETE", fmt.Sprintf("/api/tenancy/tenant-groups/%d/", g), nil)
				}
				return e.Do("POST", "/api/tenancy/tenants/", map[string]any{"name": name, "slug": slug})
			})
			for i, r := range rs {
				ok := r.Status == http.StatusCreated || r.Status == http.StatusBadRequest
				if i == 0 {
					ok = r.Status == http.StatusNoContent || r.Status == http.StatusConflict
				}
				if !ok {
					t.Fatalf("round %d, request %d: status %d: %s", round, i, r.Status, r.Body)
				}
			}
			if got := countOf(t, e, "/api/tenancy/tenants/?group_id=null&name="+name); got > 1 {
				t.Fatalf("round %d: %d top-level tenants named %s", round, got, name)
			}
		}
	})
}
