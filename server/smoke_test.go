package server_test

import (
	"net/http"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestSmoke walks the basic life of a site on every database.
func TestSmoke(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		r := e.Must(http.StatusCreated, "POST", "/api/dcim/regions/", map[string]any{"name": "Europe", "slug": "europe"})
		region := r.Object()["id"]
		r = e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "DC1", "slug": "dc1", "region": map[string]any{"slug": "europe"}})
		site := r.Object()
		if site["region"].(map[string]any)["id"] != region {
			t.Fatalf("region not resolved: %v", site["region"])
		}
		if r.Header.Get("ETag") == "" {
			t.Fatal("no ETag")
		}
		e.Must(http.StatusOK, "GET", "/api/dcim/sites/?region_id=1", nil)
		list := e.Must(http.StatusOK, "GET", "/api/dcim/regions/", nil).Results()
		if len(list) != 1 || list[0]["site_count"].(float64) != 1 {
			t.Fatalf("site_count: %v", list)
		}
		e.Must(http.StatusNoContent, "DELETE", "/api/dcim/sites/1/", nil)
	})
}
