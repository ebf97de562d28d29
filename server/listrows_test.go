package server_test

import (
	"testing"

	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/servertest"
)

// With the smallest bound, one row in flight, lists of every size still
// answer one after the other: each page takes the whole bound and gives it
// back (a page that kept it would leave the next waiting for ever).
func TestListRowsInFlight(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		admin := e.Admin()
		admin.Must(201, "POST", "/api/dcim/regions/", map[string]any{"name": "r1", "slug": "r1"})
		for _, q := range []string{"", "?limit=1000", "?limit=1", "?brief=1&limit=0", "?limit=1000"} {
			if got := admin.Must(200, "GET", "/api/dcim/regions/"+q, nil).Object()["count"]; got != 1.0 {
				t.Errorf("regions%s: count %v", q, got)
			}
		}
	}, func(c *server.Config) { c.ListRowsInFlight = 1 })
}
