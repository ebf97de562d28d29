package server_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestCustomFieldDataLifecycle: objects' custom field data follows the
// field's definition as in NetBox (BEHAVIOUR.md §13.1): a field created
// with a default writes it into existing objects, a renamed field moves
// the values, object types gained get the default and object types lost
// lose the value, a deleted field leaves nothing behind for a field made
// later under its name. None of this writes change records.
func TestCustomFieldDataLifecycle(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		const cfPath = "/api/extras/custom-fields/"
		s1 := id(e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "S1", "slug": "s1"}))
		s2 := id(e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "S2", "slug": "s2"}))
		ten := id(e.Must(http.StatusCreated, "POST", "/api/tenancy/tenants/", map[string]any{"name": "T", "slug": "t"}))
		cf := func(path string, id int, name string) any {
			t.Helper()
			return e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", path, id), nil).Object()["custom_fields"].(map[string]any)[name]
		}
		want := func(step string, path string, id int, name string, v any) {
			t.Helper()
			if got := cf(path, id, name); fmt.Sprint(got) != fmt.Sprint(v) {
				t.Errorf("%s: %s%d/ custom_fields[%s] = %#v, want %#v", step, path, id, name, got, v)
			}
		}
		const sites, tenants = "/api/dcim/sites/", "/api/tenancy/tenants/"
		changes := func() any {
			return e.Must(http.StatusOK, "GET", "/api/core/object-changes/?limit=1&changed_object_type=dcim.site", nil).Object()["count"]
		}
		before := changes()

		f := id(e.Must(http.StatusCreated, "POST", cfPath, map[string]any{"name": "cfa", "type": "text", "object_types": []string{"dcim.site"}, "default": "dflt"}))
		num := id(e.Must(http.StatusCreated, "POST", cfPath, map[string]any{"name": "cfnum", "type": "integer", "object_types": []string{"dcim.site"}, "default": 5}))
		e.Must(http.StatusCreated, "POST", cfPath, map[string]any{"name": "cfnone", "type": "text", "object_types": []string{"dcim.site"}})
		want("created with a default", sites, s1, "cfa", "dflt")
		want("created with a default", sites, s2, "cfnum", 5)
		want("created without a default", sites, s2, "cfnone", nil)

		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", sites, s1), map[string]any{"custom_fields": map[string]any{"cfa": "v1"}})
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", cfPath, f), map[string]any{"name": "cfb"})
		want("renamed", sites, s1, "cfb", "v1")
		want("renamed", sites, s2, "cfb", "dflt")
		if _, has := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", sites, s1), nil).Object()["custom_fields"].(map[string]any)["cfa"]; has {
			t.Errorf("renamed: the old name is still shown")
		}
		if n := e.Must(http.StatusOK, "GET", sites+"?cf_cfb=v1", nil).Object()["count"]; n != float64(1) {
			t.Errorf("renamed: ?cf_cfb=v1 counts %v", n)
		}

		// A type gained gets the default; a type lost loses the values, and
		// gained again gets the default, not the old value.
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", cfPath, f), map[string]any{"object_types": []string{"tenancy.tenant"}})
		want("type gained", tenants, ten, "cfb", "dflt")
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", cfPath, f), map[string]any{"object_types": []string{"tenancy.tenant", "dcim.site"}})
		want("type lost, then gained", sites, s1, "cfb", "dflt")

		// A default added later is not backfilled (NetBox neither).
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", sites, s1), map[string]any{"custom_fields": map[string]any{"cfb": "v2"}})
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", cfPath, num), map[string]any{"default": 7})
		want("default changed", sites, s2, "cfnum", 5)

		// Deleted, then made again under the same name: no old value.
		e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", cfPath, f), nil)
		e.Must(http.StatusCreated, "POST", cfPath, map[string]any{"name": "cfb", "type": "text", "object_types": []string{"dcim.site", "tenancy.tenant"}})
		want("deleted and made again", sites, s1, "cfb", nil)
		want("deleted and made again", tenants, ten, "cfb", nil)

		// The PATCHes of s1 are its only change records.
		if got, was := changes(), before; got != was.(float64)+2 {
			t.Errorf("site change records %v → %v, want the two PATCHes only", was, got)
		}
	})
}
