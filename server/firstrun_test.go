package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// A browser finds no dead ends (issue 36): "/" and NetBox's web page paths
// (every display_url) lead to the browsable API, and the OpenAPI document
// opened in a browser is the document, not a page built around it.
func TestBrowserLandings(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		site := e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "S", "slug": "s"}).Object()
		du, _ := site["display_url"].(string)
		i := strings.Index(du, "/dcim/")
		if i < 0 {
			t.Fatalf("display_url %q", du)
		}
		changes := e.Must(http.StatusOK, "GET", "/api/core/object-changes/?limit=1", nil).Results()
		if len(changes) != 1 {
			t.Fatal("no change record")
		}
		cdu, _ := changes[0]["display_url"].(string)
		j := strings.Index(cdu, "/core/changelog/")
		for _, c := range []struct{ path, want string }{
			{"/", "/api/"},
			{du[i:], "/api/dcim/sites/" + jsonID(site) + "/"},
			{"/dcim/sites/", "/api/dcim/sites/"},
			{"/dcim/sites/?status=active", "/api/dcim/sites/?status=active"},
			{cdu[j:], "/api/core/object-changes/" + jsonID(changes[0]) + "/"},
		} {
			r := e.Do("GET", c.path, nil, browserAccept)
			if r.Status != http.StatusFound || r.Header.Get("Location") != c.want {
				t.Errorf("GET %s: %d to %q, want 302 to %q", c.path, r.Status, r.Header.Get("Location"), c.want)
			}
		}
		for _, p := range []string{"/nothing/here/", "/dcim/nothing/", "/api/nothing/"} {
			if r := e.Do("GET", p, nil, browserAccept); r.Status != http.StatusNotFound {
				t.Errorf("GET %s: %d, want 404", p, r.Status)
			}
		}
		r := e.Anonymous().Do("GET", "/api/schema/", nil, browserAccept)
		var doc map[string]any
		if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") || json.Unmarshal(r.Body, &doc) != nil || doc["openapi"] == nil {
			t.Errorf("GET /api/schema/ in a browser: %d %s, %.100s", r.Status, r.Header.Get("Content-Type"), r.Body)
		}
	})
}

func jsonID(o map[string]any) string {
	b, _ := json.Marshal(o["id"])
	return string(b)
}
