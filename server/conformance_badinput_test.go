package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/server/servertest"
)

// badValues are values of every wrong shape a client may send for a field.
var badValues = []any{
	nil, true, -1, 1e300, 3.5, "", strings.Repeat("x", 5000), "\x00\u2028é", "not-a-date",
	[]any{}, []any{1, "x", nil}, map[string]any{}, map[string]any{"id": 999999},
	map[string]any{"name": map[string]any{"x": 1}}, map[string]any{"nope": 1},
}

// conformBadInput: a bad value for any field, on create and on update,
// is answered without a 500 (some of them are valid for some fields);
// so is every filter with odd values.
func conformBadInput(t *testing.T, e *servertest.Env, d *resource.Descriptor, w *world, p0 map[string]any) {
	list := listPath(d)
	created := must(t, e, http.StatusCreated, "POST", list, p0).Object()
	id := int(created["id"].(float64))
	names := []string{"tags", "add_tags", "remove_tags", "custom_fields", "changelog_message"}
	for _, f := range d.Fields {
		if !f.ReadOnly {
			names = append(names, f.Name)
		}
	}
	// The other fields' values come from p0, minus write-only fields that
	// may be left out (a password: hashing is slow on purpose, and would
	// cost seconds per model here).
	optionalSecret := func(name string) bool {
		f := d.Field(name)
		return f != nil && f.WriteOnly && (!f.Required || f.HasDefault)
	}
	for _, name := range names {
		for _, v := range badValues {
			body := map[string]any{}
			for k, x := range p0 {
				if k != name && optionalSecret(k) {
					continue
				}
				body[k] = x
			}
			body[name] = v
			if r := e.Do("POST", list, body); r.Status >= 500 {
				t.Errorf("POST %s=%#v: %d %s", name, v, r.Status, r.Body)
			}
			if r := e.Do("PATCH", detailPath(d, id), map[string]any{name: v}); r.Status >= 500 {
				t.Errorf("PATCH %s=%#v: %d %s", name, v, r.Status, r.Body)
			}
		}
	}
	// Every filter, with every lookup, and bad values: a 4xx at worst.
	for _, f := range d.Filters().Filters {
		params := []string{f.Name}
		for _, l := range f.Lookups {
			params = append(params, f.Name+"__"+l)
		}
		for _, p := range params {
			for _, v := range []string{"\x00", strings.Repeat("9", 400), "-1", "1e300", "null", "[]", "((", "\u2028é"} {
				if r := e.Do("GET", list+"?"+url.Values{p: {v}}.Encode(), nil); r.Status >= 500 {
					t.Errorf("GET ?%s=%q: %d %s", p, v, r.Status, r.Body)
				}
			}
		}
	}
}
