package server_test

import (
	"net/http"
	"testing"

	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/servertest"
)

// TestPrefixUnique: a duplicate prefix is refused in the global table when
// ENFORCE_GLOBAL_UNIQUE is on (NetBox's default) and in a VRF that
// enforces uniqueness, on create and when an update moves a prefix onto
// another (NetBox's Prefix.clean()). With the setting off, the global table takes duplicates and
// VRFs still decide for themselves.
func TestPrefixUnique(t *testing.T) {
	const path = "/api/ipam/prefixes/"
	for _, enforce := range []bool{true, false} {
		t.Run(map[bool]string{true: "enforced", false: "setting off"}[enforce], func(t *testing.T) {
			servertest.Each(t, func(t *testing.T, e *servertest.Env) {
				a := e.Admin()
				strict := idOf(a.Must(http.StatusCreated, "POST", "/api/ipam/vrfs/", map[string]any{"name": "strict", "rd": "65000:1"}).Object())
				lax := idOf(a.Must(http.StatusCreated, "POST", "/api/ipam/vrfs/", map[string]any{"name": "lax", "enforce_unique": false}).Object())
				a.Must(http.StatusCreated, "POST", path, map[string]any{"prefix": "10.0.0.0/24"})
				a.Must(http.StatusCreated, "POST", path, map[string]any{"prefix": "10.0.0.0/24", "vrf": strict})
				a.Must(http.StatusCreated, "POST", path, map[string]any{"prefix": "10.0.0.0/24", "vrf": lax})
				other := idOf(a.Must(http.StatusCreated, "POST", path, map[string]any{"prefix": "10.0.1.0/24"}).Object())
				inStrict := idOf(a.Must(http.StatusCreated, "POST", path, map[string]any{"prefix": "10.0.1.0/24", "vrf": strict}).Object())
				for _, c := range []struct {
					name, method, path string
					body               map[string]any
					refused            bool
					message            string
				}{
					{"global duplicate", "POST", path, map[string]any{"prefix": "10.0.0.0/24"}, enforce,
						"Duplicate prefix found in global table: 10.0.0.0/24"},
					{"update onto a global duplicate", "PATCH", path + itoa(other) + "/", map[string]any{"prefix": "10.0.0.0/24"}, enforce,
						"Duplicate prefix found in global table: 10.0.0.0/24"},
					{"VRF enforcing uniqueness", "POST", path, map[string]any{"prefix": "10.0.0.0/24", "vrf": strict}, true,
						"Duplicate prefix found in VRF strict (65000:1): 10.0.0.0/24"},
					{"moved into a VRF enforcing uniqueness", "PATCH", path + itoa(other) + "/", map[string]any{"prefix": "10.0.0.0/24", "vrf": strict}, true,
						"Duplicate prefix found in VRF strict (65000:1): 10.0.0.0/24"},
					{"VRF without uniqueness", "POST", path, map[string]any{"prefix": "10.0.0.0/24", "vrf": lax}, false, ""},
					{"another length", "POST", path, map[string]any{"prefix": "10.0.0.0/25"}, false, ""},
					{"unchanged prefix, other field", "PATCH", path + itoa(inStrict) + "/", map[string]any{"description": "x"}, false, ""},
				} {
					if c.refused {
						refused(t, a, c.method, c.path, c.body, "prefix", c.message)
						continue
					}
					if r := a.Do(c.method, c.path, c.body); r.Status/100 != 2 {
						t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
					}
				}
			}, func(c *server.Config) { c.EnforceGlobalUnique = enforce })
		})
	}
}
