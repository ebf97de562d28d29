package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/inventory/inventory/ent/logic/jinja"
	"github.com/inventory/inventory/ent/logic/jsonlimit"
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
func conformBadInput(t *testing.T, e *servertest.Env, d *resource.Descriptor, w *world, p []map[string]any) {
	p0 := p[0]
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
	conformValidation(t, e, d, id)
	conformDeep(t, e, d, id, p)
}

// withRaw is the JSON object of body with one more member, name, whose
// value is the JSON text raw (values too deep to marshal).
func withRaw(t *testing.T, body map[string]any, name, raw string) string {
	rest := map[string]any{}
	for k, v := range body {
		if k != name {
			rest[k] = v
		}
	}
	b, err := json.Marshal(rest)
	if err != nil {
		t.Fatal(err)
	}
	member := jsonString(name) + ":" + raw
	if len(rest) == 0 {
		return "{" + member + "}"
	}
	return string(b[:len(b)-1]) + "," + member + "}"
}

// conformDeep: no input of a model nests deeper than the limits of issue
// 32 (a stack overflow ends the process: it cannot be recovered). Every
// field, and a name that is none, given a value of 100,000 levels on
// create, update and bulk create, is a 400 naming it, before anything
// decodes or walks it; a value at the limit (jsonlimit.MaxDepth) is never
// refused for its depth. Every field that parses templates (it refuses
// one that does not parse) refuses templates beyond the limits of
// ent/logic/jinja, naming the field. A node of a tree cannot move under
// itself or its descendant. No refused value is written.
func conformDeep(t *testing.T, e *servertest.Env, d *resource.Descriptor, id int, p []map[string]any) {
	if d.ReadOnlyAPI {
		return
	}
	list, detail := listPath(d), detailPath(d, id)
	before := must(t, e, http.StatusOK, "GET", list+"?ordering=id", nil).Body
	names := []string{"tags", "add_tags", "remove_tags", "custom_fields", "changelog_message", "no_such_field"}
	for _, f := range d.Fields {
		names = append(names, f.Name)
	}
	msg := jsonlimit.Message()
	named := func(r *servertest.Response, index int, name string) bool {
		var body any
		if r.Status != http.StatusBadRequest || json.Unmarshal(r.Body, &body) != nil {
			return false
		}
		if index >= 0 {
			list, _ := body.([]any)
			if len(list) <= index {
				return false
			}
			body = list[index]
		}
		obj, _ := body.(map[string]any)
		return fmt.Sprint(obj[name]) == "["+msg+"]"
	}
	atLimit := strings.Repeat("[", jsonlimit.MaxDepth) + strings.Repeat("]", jsonlimit.MaxDepth)
	for i, name := range names {
		deep := deepArray
		if i%2 == 1 {
			deep = deepObject
		}
		if r := e.Do("POST", list, withRaw(t, p[0], name, deep)); !named(r, -1, name) {
			t.Errorf("POST %s of %d levels: %d %.200s", name, levels, r.Status, r.Body)
		}
		if r := e.Do("PATCH", detail, withRaw(t, nil, name, deep)); !named(r, -1, name) {
			t.Errorf("PATCH %s of %d levels: %d %.200s", name, levels, r.Status, r.Body)
		}
	}
	bulk := "[" + withRaw(t, p[1], "description", `""`) + "," + withRaw(t, p[2], names[len(names)-1], deepArray) + "]"
	if r := e.Do("POST", list, bulk); !named(r, 1, names[len(names)-1]) {
		t.Errorf("bulk POST with %s of %d levels: %d %.200s", names[len(names)-1], levels, r.Status, r.Body)
	}
	if after := must(t, e, http.StatusOK, "GET", list+"?ordering=id", nil).Body; !bytes.Equal(after, before) {
		t.Errorf("refused deep writes changed the list:\n%s\n%s", before, after)
	}
	conformDeepTemplates(t, e, d, detail)
	for _, name := range names {
		if r := e.Do("PATCH", detail, withRaw(t, nil, name, atLimit)); strings.Contains(string(r.Body), msg) || r.Status >= 500 {
			t.Errorf("PATCH %s of %d levels: %d %.200s", name, jsonlimit.MaxDepth, r.Status, r.Body)
		}
	}
	conformTreeCycles(t, e, d, p)
}

// conformDeepTemplates: a text field that parses templates refuses those
// beyond the template limits, naming the field.
func conformDeepTemplates(t *testing.T, e *servertest.Env, d *resource.Descriptor, detail string) {
	over := jinja.MaxNesting + 1
	short := "{{ " + strings.Repeat("(", over) + "1" + strings.Repeat(")", over) + " }}"
	for _, f := range writableFields(d, isText) {
		r := e.Do("PATCH", detail, map[string]any{f.Name: "{{ x"})
		if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "Invalid template") {
			continue // no template
		}
		for _, tmpl := range []string{short, deepParens, deepBlocks, longChain, longFilters} {
			if f.MaxLen > 0 && len(tmpl) > f.MaxLen {
				continue
			}
			r := e.Do("PATCH", detail, map[string]any{f.Name: tmpl})
			var body map[string][]string
			if r.Status != http.StatusBadRequest || json.Unmarshal(r.Body, &body) != nil || len(body[f.Name]) != 1 ||
				!strings.Contains(body[f.Name][0], "Invalid template: ") {
				t.Errorf("PATCH template %s of %d bytes (%.20s…): %d %.200s", f.Name, len(tmpl), tmpl, r.Status, r.Body)
			}
		}
	}
}

// conformTreeCycles: a node of a tree cannot become its own parent or its
// child's child (NetBox's message; for itself, a model's own where it has
// one: api.Model.SelfParent). The two nodes are made of the fixture's
// second payload (the first one's object took bad values by now), the
// child with the third one's name.
func conformTreeCycles(t *testing.T, e *servertest.Env, d *resource.Descriptor, p []map[string]any) {
	if !d.Tree || !writable(d, "parent") {
		return
	}
	r := e.Do("POST", listPath(d), p[1])
	if r.Status != http.StatusCreated {
		t.Errorf("POST a parent: %d %.300s", r.Status, r.Body)
		return
	}
	parent := int(r.Object()["id"].(float64))
	defer e.Must(http.StatusNoContent, "DELETE", detailPath(d, parent), nil)
	// The child: the parent's payload (same device, site...) with the
	// third payload's name and slug.
	body := map[string]any{}
	for k, v := range p[1] {
		body[k] = v
	}
	for _, k := range []string{"name", "slug"} {
		if v, ok := p[2][k]; ok {
			body[k] = v
		}
	}
	body["parent"] = parent
	if r = e.Do("POST", listPath(d), body); r.Status != http.StatusCreated {
		t.Errorf("POST a child of %d: %d %.300s", parent, r.Status, r.Body)
		return
	}
	child := int(r.Object()["id"].(float64))
	defer e.Must(http.StatusNoContent, "DELETE", detailPath(d, child), nil)
	for _, to := range []int{parent, child} {
		want := `{"parent":["Cannot assign self or child ` + d.Verbose + ` as parent."]}`
		if to == parent && d.SelfParent != "" {
			want = `{"parent":["` + d.SelfParent + `"]}` // the model's own clean()
		}
		if r := e.Do("PATCH", detailPath(d, parent), map[string]any{"parent": to}); r.Status != http.StatusBadRequest || string(r.Body) != want {
			t.Errorf("PATCH parent of %d to %d: %d %.200s, want %s", parent, to, r.Status, r.Body, want)
		}
	}
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

// conformValidation: the validation classes of issue 11 hold on every
// model, from its descriptor and fixture alone. Refused writes (corrupt
// text, decimals out of their digits, places or bounds, integers beyond
// 64 bits, integer custom fields given floats or huge numbers) answer 400
// naming the field and change no row; strings are trimmed as DRF's
// CharField trims them; every filter refuses a value it cannot parse;
// object-type fields accept NetBox's object types, served or not.
func conformValidation(t *testing.T, e *servertest.Env, d *resource.Descriptor, id int) {
	list, detail := listPath(d), detailPath(d, id)
	if !d.ReadOnlyAPI {
		before := must(t, e, http.StatusOK, "GET", list+"?ordering=id", nil).Body
		current := must(t, e, http.StatusOK, "GET", detail, nil).Object()
		conformCorruptText(t, e, d, current)
		conformNumbers(t, e, d, detail)
		conformCustomFieldIntegers(t, e, d, detail)
		if after := must(t, e, http.StatusOK, "GET", list+"?ordering=id", nil).Body; !bytes.Equal(after, before) {
			t.Errorf("refused writes changed the list:\n%s\n%s", before, after)
		}
		conformTrimming(t, e, d, detail)
		conformObjectTypes(t, e, d, detail)
		conformObjectType(t, e, d, detail)
	}
	conformFilterValues(t, e, d)
}

// writableFields are the fields a client may write on update.
func writableFields(d *resource.Descriptor, keep func(f *resource.Field) bool) []*resource.Field {
	var out []*resource.Field
	for _, f := range d.Fields {
		if !f.ReadOnly && !f.CreateOnly && f.Column != "" && keep(f) {
			out = append(out, f)
		}
	}
	return out
}

// isText: a plain CharField or TextField (no codec, no choices).
func isText(f *resource.Field) bool {
	return (f.Kind == resource.KindString || f.Kind == resource.KindText) && len(f.Choices) == 0
}

// conformCorruptText: invalid UTF-8 and lone UTF-16 surrogates in any
// string of a body are refused with NetBox's JSON parse error, on create
// and on update.
func conformCorruptText(t *testing.T, e *servertest.Env, d *resource.Descriptor, current map[string]any) {
	const marker = "conformance-corrupt-marker"
	for _, f := range writableFields(d, func(f *resource.Field) bool { return isText(f) || f.Kind == resource.KindSlug }) {
		body, _ := json.Marshal(map[string]any{f.Name: marker})
		for _, bad := range []string{"\"N\xff\xfe\"", `"\ud800"`, `"x\udc00"`} {
			raw := bytes.Replace(body, []byte(`"`+marker+`"`), []byte(bad), 1)
			for _, m := range []string{"POST", "PATCH"} {
				path := listPath(d)
				if m == "PATCH" {
					path = detailPath(d, current["id"])
				}
				r := e.Do(m, path, raw)
				if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), `"detail":"JSON parse error - `) {
					t.Errorf("%s %s=%q: %d %.200s", m, f.Name, bad, r.Status, r.Body)
				}
			}
		}
	}
}

// conformNumbers: decimal fields refuse what NetBox's DecimalField refuses
// (too many digits, too many places, out of bounds) with DRF's messages;
// integer fields refuse numbers beyond 64 bits and huge floats.
func conformNumbers(t *testing.T, e *servertest.Env, d *resource.Descriptor, detail string) {
	expect := func(f *resource.Field, v any, want string) {
		t.Helper()
		r := e.Do("PATCH", detail, map[string]any{f.Name: v})
		var body map[string][]string
		if r.Status != http.StatusBadRequest || json.Unmarshal(r.Body, &body) != nil || len(body[f.Name]) == 0 ||
			want != "" && body[f.Name][0] != want {
			t.Errorf("PATCH %s=%v: %d %.200s, want 400 %q", f.Name, v, r.Status, r.Body, want)
		}
	}
	for _, f := range writableFields(d, func(f *resource.Field) bool { return f.Decimal != nil }) {
		dec := f.Decimal
		expect(f, 1e30, fmt.Sprintf("Ensure that there are no more than %d digits in total.", dec.Digits))
		expect(f, json.Number(fmt.Sprintf("1e-%d", dec.Places+1)), fmt.Sprintf("Ensure that there are no more than %d decimal places.", dec.Places))
		expect(f, json.Number("1"+strings.Repeat("0", dec.Digits-dec.Places)), fmt.Sprintf("Ensure that there are no more than %d digits before the decimal point.", dec.Digits-dec.Places))
		expect(f, "not a number", "A valid number is required.")
		if dec.Max != "" {
			lim, _ := strconv.ParseFloat(dec.Max, 64)
			expect(f, lim+1, "Ensure this value is less than or equal to "+dec.Max+".")
		}
		if dec.Min != "" {
			lim, _ := strconv.ParseFloat(dec.Min, 64)
			expect(f, lim-1, "Ensure this value is greater than or equal to "+dec.Min+".")
		}
	}
	for _, f := range writableFields(d, func(f *resource.Field) bool { return f.Kind == resource.KindInt && len(f.Choices) == 0 }) {
		expect(f, json.Number("1180591620717411303424"), "") // 2^70
		expect(f, 1e30, "")
		expect(f, json.Number(strconv.FormatUint(math.MaxUint64, 10)), "")
	}
}

// conformCustomFieldIntegers: an integer custom field takes JSON integers
// within 64 bits only (NetBox: type(value) is int).
func conformCustomFieldIntegers(t *testing.T, e *servertest.Env, d *resource.Descriptor, detail string) {
	if !d.Custom {
		return
	}
	r := must(t, e, http.StatusCreated, "POST", "/api/extras/custom-fields/",
		map[string]any{"name": "conformance_bigint", "type": "integer", "object_types": []string{d.ContentType()}})
	cf := int(r.Object()["id"].(float64))
	defer e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/extras/custom-fields/%d/", cf), nil)
	for v, want := range map[string]string{
		"1e30":                   "Value must be an integer.",
		"5.0":                    "Value must be an integer.",
		"1180591620717411303424": "Value must be an integer between -9223372036854775808 and 9223372036854775807.",
	} {
		r := e.Do("PATCH", detail, `{"custom_fields":{"conformance_bigint":`+v+`}}`)
		w := `{"__all__":["Invalid value for custom field 'conformance_bigint': ` + want + `"]}`
		if r.Status != http.StatusBadRequest || string(r.Body) != w {
			t.Errorf("PATCH integer custom field %s: %d %.300s\nwant %s", v, r.Status, r.Body, w)
		}
	}
}

// conformTrimming: strings are trimmed as DRF's CharField trims them: one
// of blanks is blank, refused where NetBox's field is not blank=True
// (required ones among them) and stored empty (or null) where it is, and
// a value with surrounding blanks is stored without them.
func conformTrimming(t *testing.T, e *servertest.Env, d *resource.Descriptor, detail string) {
	current := must(t, e, http.StatusOK, "GET", detail, nil).Object()
	for _, f := range writableFields(d, isText) {
		if !f.Blank {
			r := e.Do("PATCH", detail, map[string]any{f.Name: " \t "})
			if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), `"`+f.Name+`":["This field may not be blank."]`) {
				t.Errorf("PATCH required %s of blanks: %d %.200s", f.Name, r.Status, r.Body)
			}
		} else if !f.WriteOnly {
			r := e.Do("PATCH", detail, map[string]any{f.Name: " "})
			switch v := r.Object()[f.Name]; {
			case r.Status == http.StatusOK && v != "" && v != nil:
				t.Errorf("PATCH optional %s of a blank: stored %q", f.Name, v)
			case r.Status != http.StatusOK && r.Status != http.StatusBadRequest,
				strings.Contains(string(r.Body), `"`+f.Name+`":["This field may not be blank."]`):
				t.Errorf("PATCH blank=True %s of a blank: %d %.200s", f.Name, r.Status, r.Body)
			}
		}
		v, ok := current[f.Name].(string)
		if !ok || v == "" || f.WriteOnly {
			continue
		}
		r := e.Do("PATCH", detail, map[string]any{f.Name: "  " + v + " \n"})
		if r.Status != http.StatusOK || r.Object()[f.Name] != v {
			t.Errorf("PATCH %s with surrounding blanks: %d %.200s, want %q", f.Name, r.Status, r.Body, v)
		}
	}
}

// conformObjectTypes: a field taking object types accepts every type
// NetBox accepts there, served here or not, and refuses the others with
// NetBox's message.
func conformObjectTypes(t *testing.T, e *servertest.Env, d *resource.Descriptor, detail string) {
	for _, f := range writableFields(d, func(f *resource.Field) bool { return f.ObjectTypes != "" && f.Kind != resource.KindGenericType }) {
		var unserved string
		for _, ct := range resource.ObjectTypes(f.ObjectTypes) {
			if resource.ByContentType(ct) == nil {
				unserved = ct
				break
			}
		}
		if unserved == "" {
			// Every model NetBox accepts here is served: any of them.
			unserved = resource.ObjectTypes(f.ObjectTypes)[0]
		}
		r := e.Do("PATCH", detail, map[string]any{f.Name: []string{unserved}})
		if got := fmt.Sprint(r.Object()[f.Name]); r.Status != http.StatusOK || got != "["+unserved+"]" {
			t.Errorf("PATCH %s=[%s]: %d %.200s", f.Name, unserved, r.Status, r.Body)
		}
		for _, ct := range []string{"users.token", "core.objecttype", "users.userconfig", "auth.permission"} {
			if resource.ObjectTypeAccepted(f.ObjectTypes, ct) {
				continue
			}
			r := e.Do("PATCH", detail, map[string]any{f.Name: []string{ct}})
			if want := `{"` + f.Name + `":["Invalid content type: ` + ct + `"]}`; r.Status != http.StatusBadRequest || string(r.Body) != want {
				t.Errorf("PATCH %s=[%s]: %d %.200s, want %s", f.Name, ct, r.Status, r.Body, want)
			}
		}
	}
}

// conformObjectType: a field naming one object type (a custom field's
// related_object_type: any of NetBox's) accepts a NetBox model not served
// here and refuses a name that is none. A rule of the model may still
// refuse the object as a whole (a text custom field defines no object
// type, CustomField.clean()), without faulting the type itself.
func conformObjectType(t *testing.T, e *servertest.Env, d *resource.Descriptor, detail string) {
	for _, f := range writableFields(d, func(f *resource.Field) bool { return f.Kind == "content-type" }) {
		r := e.Do("PATCH", detail, map[string]any{f.Name: "vpn.tunneltermination"})
		accepted := r.Status == http.StatusOK && r.Object()[f.Name] == "vpn.tunneltermination"
		refusedByModel := r.Status == http.StatusBadRequest && r.Object()[f.Name] == nil
		if !accepted && !refusedByModel {
			t.Errorf("PATCH %s=vpn.tunneltermination: %d %.200s", f.Name, r.Status, r.Body)
		}
		r = e.Do("PATCH", detail, map[string]any{f.Name: "nosuch.model"})
		if want := `{"` + f.Name + `":["Invalid content type: nosuch.model"]}`; r.Status != http.StatusBadRequest || string(r.Body) != want {
			t.Errorf("PATCH %s=nosuch.model: %d %.200s, want %s", f.Name, r.Status, r.Body, want)
		}
	}
}

// badFilterValues are values each filter kind cannot parse.
var badFilterValues = map[filters.Kind]string{
	filters.Integer: "abc", filters.Decimal: "abc", filters.Boolean: "asdf", filters.DateTime: "not-a-date",
	filters.Date: "not-a-date", filters.Choice: "no-such-choice", filters.ForeignID: "abc", filters.TreeID: "abc",
	filters.TagID: "abc", filters.ForeignAttr: "no-such-object", filters.TreeAttr: "no-such-object",
	filters.TagSlug: "no-such-tag",
}

// conformFilterValues: a filter value that does not parse is a 400 naming
// the parameter, for every filter kind (strict filtering never returns an
// unfiltered list for a typo), as are __empty values that are no boolean
// and text that is no UTF-8.
func conformFilterValues(t *testing.T, e *servertest.Env, d *resource.Descriptor) {
	list := listPath(d)
	check := func(p, v string) {
		t.Helper()
		r := e.Do("GET", list+"?"+url.Values{p: {v}}.Encode(), nil)
		var body map[string]any
		if r.Status != http.StatusBadRequest || json.Unmarshal(r.Body, &body) != nil || body[p] == nil {
			t.Errorf("GET ?%s=%q: %d %.200s", p, v, r.Status, r.Body)
		}
	}
	for _, f := range d.Filters().Filters {
		if slices.Contains(filters.Reserved, f.Name) {
			continue
		}
		if v, ok := badFilterValues[f.Kind]; ok {
			check(f.Name, v)
		}
		if f.HasLookup("empty") {
			check(f.Name+"__empty", "asdf")
		}
		for _, p := range sweepParams(f) {
			check(p, "N\xff\xfe")
			check(p, "\xed\xa0\x80") // a UTF-16 surrogate, UTF-8 encoded
		}
	}
}
