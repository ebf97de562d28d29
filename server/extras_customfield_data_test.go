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

// TestCustomFieldUnique: a value of a unique custom field held by another
// object of the model is refused (NetBox's CustomFieldsMixin.clean), on a
// create, an update and within one bulk create; the object's own value,
// other values, empty values and a value differing in case are not.
func TestCustomFieldUnique(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		const sites = "/api/dcim/sites/"
		ten := id(e.Must(http.StatusCreated, "POST", "/api/tenancy/tenants/", map[string]any{"name": "T", "slug": "t"}))
		ten2 := id(e.Must(http.StatusCreated, "POST", "/api/tenancy/tenants/", map[string]any{"name": "T2", "slug": "t2"}))
		e.Must(http.StatusCreated, "POST", "/api/extras/custom-field-choice-sets/", map[string]any{
			"name": "colours", "extra_choices": [][]string{{"red", "Red"}, {"blue", "Blue"}}})
		for _, tc := range []struct {
			typ        string
			def        map[string]any
			v, other   any
			sameButNot any // a value that is not the same value (nil: none)
		}{
			{"text", nil, "abc", "abd", "ABC"},
			{"integer", nil, 5, 6, nil},
			{"decimal", nil, 1.5, 2.5, nil},
			{"date", nil, "2026-01-02", "2026-01-03", nil},
			{"url", nil, "https://a.example/", "https://b.example/", nil},
			{"json", nil, map[string]any{"k": []any{1, 2}}, map[string]any{"k": []any{2, 1}}, nil},
			{"select", map[string]any{"choice_set": "colours"}, "red", "blue", nil},
			{"multiselect", map[string]any{"choice_set": "colours"}, []string{"red", "blue"}, []string{"red"}, nil},
			{"object", map[string]any{"related_object_type": "tenancy.tenant"}, ten, ten2, nil},
		} {
			name := "u_" + tc.typ
			body := map[string]any{"name": name, "type": tc.typ, "object_types": []string{"dcim.site"}, "unique": true}
			if cs, ok := tc.def["choice_set"]; ok {
				rs := e.Must(http.StatusOK, "GET", "/api/extras/custom-field-choice-sets/?name="+cs.(string), nil).Results()
				body["choice_set"] = rs[0]["id"]
			}
			for k, v := range tc.def {
				if k != "choice_set" {
					body[k] = v
				}
			}
			e.Must(http.StatusCreated, "POST", "/api/extras/custom-fields/", body)
			site := func(n string, v any) map[string]any {
				return map[string]any{"name": n, "slug": n, "custom_fields": map[string]any{name: v}}
			}
			refused := fmt.Sprintf(`{"__all__":["Custom field '%s' must have a unique value."]}`, name)
			a := id(e.Must(http.StatusCreated, "POST", sites, site(name+"-a", tc.v)))
			b := id(e.Must(http.StatusCreated, "POST", sites, site(name+"-b", tc.other)))
			count := func() any { return e.Must(http.StatusOK, "GET", sites+"?limit=1", nil).Object()["count"] }
			before := count()
			for step, r := range map[string]*servertest.Response{
				"create": e.Do("POST", sites, site(name+"-c", tc.v)),
				"update": e.Do("PATCH", fmt.Sprintf("%s%d/", sites, b), map[string]any{"custom_fields": map[string]any{name: tc.v}}),
				"bulk":   e.Do("POST", sites, []any{site(name+"-d", "x"), site(name+"-e", tc.v)}),
			} {
				if step == "bulk" {
					if r.Status != http.StatusBadRequest {
						t.Errorf("%s %s: %d %s", tc.typ, step, r.Status, r.Body)
					}
					continue
				}
				if r.Status != http.StatusBadRequest || string(r.Body) != refused {
					t.Errorf("%s %s: %d %s, want 400 %s", tc.typ, step, r.Status, r.Body, refused)
				}
			}
			if got := count(); got != before {
				t.Errorf("%s: %v sites after the refused writes, want %v", tc.typ, got, before)
			}
			// Two new objects with one new value in one bulk: the second
			// sees the first.
			if tc.typ == "text" {
				r := e.Do("POST", sites, []any{site(name+"-f", "new"), site(name+"-g", "new")})
				if r.Status != http.StatusBadRequest || count() != before {
					t.Errorf("%s: one new value twice in a bulk: %d %s", tc.typ, r.Status, r.Body)
				}
			}
			// Allowed: the object's own value again, empty values on
			// several objects, a value that differs (in case for text).
			e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", sites, a), map[string]any{"custom_fields": map[string]any{name: tc.v}, "description": "again"})
			e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", sites, b), map[string]any{"custom_fields": map[string]any{name: nil}})
			e.Must(http.StatusCreated, "POST", sites, site(name+"-h", nil))
			if tc.sameButNot != nil {
				e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", sites, b), map[string]any{"custom_fields": map[string]any{name: tc.sameButNot}})
			}
		}
	})
}
