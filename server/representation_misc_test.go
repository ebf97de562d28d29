package server_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestRepresentationMisc: the smaller wire details of NetBox 4.6.8 on
// both databases: /api/status/ in StatusView's key order, the users
// app's root listing config (UserConfigViewSet on its router), and the
// messages of DRF's UniqueValidator for duplicate tenants, nested groups
// and users (the model field's unique message on the field, not a
// constraint's).
func TestRepresentationMisc(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		r := e.Must(http.StatusOK, "GET", "/api/status/", nil)
		want := []string{"django-version", "hostname", "installed_apps", "netbox-version", "netbox-full-version",
			"plugins", "python-version", "go-version", "rq-workers-running", "inventory-version", "inventory-commit", "database"}
		if got := keys(t, r.Body); !slices.Equal(got, want) {
			t.Errorf("status keys %v, want %v", got, want)
		}
		// This service's own release, commit and database (issue 36).
		st := r.Object()
		vendor := map[string]string{"sqlite3": "sqlite", "postgres": "postgresql"}[e.DB.Dialect]
		if db, _ := st["database"].(map[string]any); db["vendor"] != vendor || db["version"] == "" || db["version"] == nil {
			t.Errorf("status database = %v, want vendor %s and a version", st["database"], vendor)
		}
		if st["inventory-version"] == "" || st["inventory-commit"] == "" {
			t.Errorf("status inventory-version %v, inventory-commit %v", st["inventory-version"], st["inventory-commit"])
		}

		root := e.Must(http.StatusOK, "GET", "/api/users/", nil).Object()
		if u, _ := root["config"].(string); !strings.HasSuffix(u, "/api/users/config/") {
			t.Errorf("users root config = %v (root %v)", root["config"], root)
		}

		e.Must(http.StatusCreated, "POST", "/api/tenancy/tenant-groups/", map[string]any{"name": "G", "slug": "g"})
		e.Must(http.StatusCreated, "POST", "/api/tenancy/tenants/", map[string]any{"name": "T", "slug": "t"})
		e.Must(http.StatusCreated, "POST", "/api/dcim/regions/", map[string]any{"name": "R", "slug": "r"})
		for _, c := range []struct {
			name, path string
			body       map[string]any
			want       string
		}{
			{"tenant name and slug", "/api/tenancy/tenants/", map[string]any{"name": "T", "slug": "t"},
				`{"name":["tenant with this name already exists."],"slug":["tenant with this slug already exists."]}`},
			{"tenant name", "/api/tenancy/tenants/", map[string]any{"name": "T", "slug": "t2"},
				`{"name":["tenant with this name already exists."]}`},
			{"top-level region", "/api/dcim/regions/", map[string]any{"name": "R", "slug": "r2"},
				`{"name":["region with this name already exists."]}`},
			{"tenant group", "/api/tenancy/tenant-groups/", map[string]any{"name": "G", "slug": "g2"},
				`{"name":["tenant group with this name already exists."]}`},
			{"username", "/api/users/users/", map[string]any{"username": "admin", "password": "Secret-Passw0rd!"},
				`{"username":["A user with that username already exists."]}`},
		} {
			r := e.Must(http.StatusBadRequest, "POST", c.path, c.body)
			var got any
			if err := json.Unmarshal(r.Body, &got); err != nil {
				t.Fatal(err)
			}
			if g, _ := json.Marshal(got); string(g) != mustCompact(c.want) {
				t.Errorf("%s: %s, want %s", c.name, r.Body, c.want)
			}
		}
	})
}

func mustCompact(s string) string {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		panic(err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
