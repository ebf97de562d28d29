package server_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/filters"
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
		params := sweepParams(f)
		for _, p := range params {
			// The longest value allowed, of LIKE and regex metacharacters.
			for _, v := range []string{"\x00", strings.Repeat("9", 400), "-1", "1e300", "null", "[]", "((", "\u2028é", strings.Repeat(`%_\(*`, filters.MaxValueLength/5)} {
				if r := e.Do("GET", list+"?"+url.Values{p: {v}}.Encode(), nil); r.Status >= 500 {
					t.Errorf("GET ?%s=%q: %d %s", p, v, r.Status, r.Body)
				}
			}
		}
	}
	conformBadRefs(t, e, d, p0)
	conformLimits(t, e, d, id)
}

// wrongTyped are values of the wrong type for a column of each Go type:
// a lookup by them can match nothing, and on PostgreSQL asking would fail
// the statement and with it the rest of the transaction (issue 11:
// `"site": {"id": "abc"}` answered 500 "current transaction is aborted").
var wrongTyped = map[string][]any{
	"int":       {"abc", true, 1.5, 1e30, "99999999999999999999", []any{1}, map[string]any{"x": 1}},
	"string":    {[]any{"x"}, map[string]any{"x": 1}},
	"float64":   {"abc", true, []any{1.5}},
	"bool":      {"abc", 2, []any{true}},
	"time.Time": {"abc", 5, true},
}

// conformBadRefs: every FK field given a dictionary of attributes whose
// values have the wrong type for the target's columns (the id, each
// plain field, and one level further through the target's own FKs) is a
// 400 on both databases, and changes nothing.
func conformBadRefs(t *testing.T, e *servertest.Env, d *resource.Descriptor, p0 map[string]any) {
	if d.ReadOnlyAPI {
		return
	}
	list := listPath(d)
	before := must(t, e, http.StatusOK, "GET", list+"?ordering=id&brief=1&limit=0", nil).Body
	for _, f := range d.Fields {
		if f.Kind != resource.KindFK || f.ReadOnly {
			continue
		}
		target := resource.ByContentType(f.Target)
		// The id with every wrong type; each other column with one (the
		// sweep runs for every FK of every model: it must stay cheap);
		// one level further through the target's own FKs.
		refs := []map[string]any{}
		for _, v := range wrongTyped["int"] {
			refs = append(refs, map[string]any{"id": v})
		}
		for _, tf := range target.Fields {
			if tf.Column == "" || tf.WriteOnly || tf.Name == "id" || len(wrongTyped[tf.GoType]) == 0 {
				continue
			}
			v := wrongTyped[tf.GoType][0]
			if tf.Kind == resource.KindFK {
				refs = append(refs, map[string]any{tf.Name: map[string]any{"id": v}})
			} else {
				refs = append(refs, map[string]any{tf.Name: v})
			}
		}
		for _, ref := range refs {
			body := map[string]any{}
			for k, x := range p0 {
				body[k] = x
			}
			body[f.Name] = ref
			r := e.Do("POST", list, body)
			var got map[string]any
			if r.Status != http.StatusBadRequest || json.Unmarshal(r.Body, &got) != nil || got[f.Name] == nil {
				t.Errorf("POST %s=%v: %d %.300s", f.Name, ref, r.Status, r.Body)
			}
		}
	}
	if after := must(t, e, http.StatusOK, "GET", list+"?ordering=id&brief=1&limit=0", nil).Body; string(after) != string(before) {
		t.Errorf("refused references changed the list:\n%s\n%s", before, after)
	}
}

// conformLimits: the request limits hold on every model (issue 11). A
// bulk write over MAX_BULK_ITEMS and a body over
// DATA_UPLOAD_MAX_MEMORY_SIZE are refused and change nothing; a filter
// value over filters.MaxValueLength or a parameter repeated more than
// filters.MaxValues times is a 400 naming it; a lone unknown parameter is
// a 400 (FILTER_UNKNOWN=guard), one beside a known filter is ignored and
// named in X-Ignored-Filters.
func conformLimits(t *testing.T, e *servertest.Env, d *resource.Descriptor, id int) {
	list, detail := listPath(d), detailPath(d, id)
	before := must(t, e, http.StatusOK, "GET", list+"?ordering=id", nil).Body
	if !d.ReadOnlyAPI {
		over := "[" + strings.Repeat("{},", e.Config.MaxBulkItems) + "{}]"
		for _, m := range []string{"POST", "PUT", "PATCH", "DELETE"} {
			if r := e.Do(m, list, over); r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "MAX_BULK_ITEMS") {
				t.Errorf("%s of %d items: %d %.200s", m, e.Config.MaxBulkItems+1, r.Status, r.Body)
			}
		}
		huge := `{"description":"` + strings.Repeat("x", int(e.Config.MaxBodyBytes)) + `"}`
		for _, c := range [][2]string{{"POST", list}, {"PUT", detail}, {"PATCH", detail}, {"PATCH", list}, {"DELETE", detail}} {
			if r := e.Do(c[0], c[1], huge); r.Status != http.StatusRequestEntityTooLarge || !strings.Contains(string(r.Body), "DATA_UPLOAD_MAX_MEMORY_SIZE") {
				t.Errorf("%s %s with %d bytes: %d %.200s", c[0], c[1], len(huge), r.Status, r.Body)
			}
		}
	}
	if after := must(t, e, http.StatusOK, "GET", list+"?ordering=id", nil).Body; string(after) != string(before) {
		t.Errorf("refused writes changed the list:\n%s\n%s", before, after)
	}
	long := strings.Repeat("é", filters.MaxValueLength+1)
	for _, f := range d.Filters().Filters {
		params := sweepParams(f)
		for _, p := range params {
			if slices.Contains(filters.Reserved, p) {
				continue // a list parameter first (asn-ranges' start)
			}
			for _, q := range []url.Values{{p: {long}}, {p: slices.Repeat([]string{"1"}, filters.MaxValues+1)}} {
				r := e.Do("GET", list+"?"+q.Encode(), nil)
				var body map[string]any
				if r.Status != http.StatusBadRequest || json.Unmarshal(r.Body, &body) != nil || body[p] == nil {
					t.Errorf("GET ?%s (%d values of %d chars): %d %.200s", p, len(q[p]), len(q[p][0]), r.Status, r.Body)
				}
			}
		}
	}
	if !slices.ContainsFunc(d.Filters().Filters, func(f *filters.Filter) bool { return f.Name == "id" }) {
		return
	}
	if r := e.Do("GET", list+"?nosuchfilter=1", nil); r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), `"nosuchfilter"`) {
		t.Errorf("lone unknown filter: %d %.200s", r.Status, r.Body)
	}
	r := must(t, e, http.StatusOK, "GET", list+"?nosuchfilter=1&id="+strconv.Itoa(id), nil)
	if got := r.Header.Get("X-Ignored-Filters"); got != "nosuchfilter" || len(r.Results()) != 1 {
		t.Errorf("unknown filter beside id: X-Ignored-Filters %q, %d results", got, len(r.Results()))
	}
}

// sweepParams are the parameters of a filter the sweeps try: its name, its
// declared lookups and the pattern lookups of its kind (LIKE and regex).
func sweepParams(f *filters.Filter) []string {
	params := []string{f.Name}
	for _, l := range f.Lookups {
		params = append(params, f.Name+"__"+l)
	}
	for _, l := range []string{"ic", "regex", "iregex"} {
		if f.Lookups == nil && f.HasLookup(l) {
			params = append(params, f.Name+"__"+l)
		}
	}
	return params
}
