package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestChoiceSetChoices: NetBox's choices action of a custom field choice
// set (a model endpoint whose handler lives in ent/logic/extras): base
// choices then extra ones (merged by value when alphabetical), searchable,
// paginated, 404 for a missing set or one outside the caller's
// constraints. Cases in testdata/endpoints/choiceset-choices.json.
func TestChoiceSetChoices(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../testdata/endpoints/choiceset-choices.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Sets []struct {
			Set   map[string]any `json:"set"`
			Cases []struct {
				Query  string          `json:"query"`
				Status int             `json:"status"`
				Body   json.RawMessage `json:"body"`
			} `json:"cases"`
		} `json:"sets"`
	}
	if err := json.Unmarshal(raw, &golden); err != nil {
		t.Fatal(err)
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		admin := e.Admin()
		var path string
		for _, g := range golden.Sets {
			set := admin.Must(http.StatusCreated, "POST", "/api/extras/custom-field-choice-sets/", g.Set).Object()
			id := int(set["id"].(float64))
			path = fmt.Sprintf("/api/extras/custom-field-choice-sets/%d/choices/", id)
			for _, c := range g.Cases {
				r := admin.Must(c.Status, "GET", path+c.Query, nil)
				want := strings.ReplaceAll(string(c.Body), "{id}", fmt.Sprint(id))
				if !jsonEqual(t, r.Body, []byte(want)) {
					t.Errorf("%s%s: got %s\nwant %s", g.Set["name"], c.Query, r.Body, want)
				}
			}
		}
		admin.Must(http.StatusNotFound, "GET", "/api/extras/custom-field-choice-sets/999999/choices/", nil)
		// A user may view only sets named "Other": this one is hidden.
		u, uid := e.NewUser("chooser")
		u.Must(http.StatusForbidden, "GET", path, nil)
		e.Grant(uid, []string{"extras.customfieldchoiceset"}, []string{"view"}, map[string]any{"name": "Other"})
		u.Must(http.StatusNotFound, "GET", path, nil)
	})
}

// TestChoiceSetRules: NetBox's CustomFieldChoiceSet.clean() and save():
// choices_count counts base and extra choices (kept on every change of
// either), a set needs choices, extra values are unique, color mappings
// name existing (base or extra) choices, alphabetical sets store their
// extra choices sorted.
func TestChoiceSetRules(t *testing.T) {
	t.Parallel()
	const list = "/api/extras/custom-field-choice-sets/"
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		admin := e.Admin()
		for _, tc := range []struct {
			name   string
			body   map[string]any
			status int
			want   string // the error body, or fields of the created set
		}{
			{"base and extra", map[string]any{"name": "a", "base_choices": "IATA", "extra_choices": [][]string{{"zz", "ZZ"}}},
				201, `{"choices_count": 9766}`},
			{"base only", map[string]any{"name": "b", "base_choices": "UN_LOCODE", "extra_choices": [][]string{}},
				201, `{"choices_count": 115770}`},
			{"sorted on save", map[string]any{"name": "c", "extra_choices": [][]string{{"b", "B"}, {"a", "A"}}, "order_alphabetically": true},
				201, `{"choices_count": 2, "extra_choices": [["a", "A"], ["b", "B"]]}`},
			{"base color", map[string]any{"name": "d", "base_choices": "ISO_3166", "extra_choices": [][]string{}, "choice_colors": map[string]string{"AD": "red"}},
				201, `{"choices_count": 249, "choice_colors": {"AD": "red"}}`},
			{"no choices", map[string]any{"name": "e", "extra_choices": [][]string{}},
				400, `{"__all__": ["Must define base or extra choices."]}`},
			{"duplicate", map[string]any{"name": "f", "extra_choices": [][]string{{"a", "A"}, {"a", "B"}}},
				400, `{"__all__": ["Duplicate value 'a' found in extra choices."]}`},
			{"unknown color value", map[string]any{"name": "g", "base_choices": "ISO_3166", "extra_choices": [][]string{{"q", "Q"}}, "choice_colors": map[string]string{"ZZ": "red", "AD": "red", "Q": "blue"}},
				400, `{"choice_colors": ["Color mappings must reference an existing choice value. Invalid value(s): Q, ZZ."]}`},
			// Pairs of exactly two texts (a number is its text), as
			// NetBox's ListField(child=ListField(min_length=2,
			// max_length=2)); these were a 500 (index out of range) or
			// stored null as "" (schemathesis).
			{"pair of none", map[string]any{"name": "p1", "base_choices": "IATA", "extra_choices": []any{[]any{}}},
				400, `{"extra_choices": ["Ensure this field has at least 2 elements."]}`},
			{"null pair", map[string]any{"name": "p2", "base_choices": "IATA", "extra_choices": []any{nil}},
				400, `{"extra_choices": ["This field may not be null."]}`},
			{"pair of three", map[string]any{"name": "p3", "extra_choices": []any{[]any{"a", "b", "c"}}},
				400, `{"extra_choices": ["Ensure this field has no more than 2 elements."]}`},
			{"null in a pair", map[string]any{"name": "p4", "extra_choices": []any{[]any{nil, "A"}}},
				400, `{"extra_choices": ["This field may not be null."]}`},
			{"number in a pair", map[string]any{"name": "p5", "extra_choices": []any{[]any{1, "One"}}},
				201, `{"extra_choices": [["1", "One"]]}`},
		} {
			r := admin.Must(tc.status, "POST", list, tc.body)
			got := r.Body
			if tc.status == 201 {
				var obj, want map[string]any
				_ = json.Unmarshal(r.Body, &obj)
				_ = json.Unmarshal([]byte(tc.want), &want)
				sub := map[string]any{}
				for k := range want {
					sub[k] = obj[k]
				}
				got, _ = json.Marshal(sub)
			}
			if !jsonEqual(t, got, []byte(tc.want)) {
				t.Errorf("%s: got %s, want %s", tc.name, r.Body, tc.want)
			}
		}
		// The count follows base_choices and extra_choices changes.
		id := admin.Must(201, "POST", list, map[string]any{"name": "h", "extra_choices": [][]string{{"a", "A"}}}).Object()["id"]
		for _, step := range []struct {
			patch map[string]any
			count float64
		}{
			{map[string]any{"base_choices": "ISO_3166"}, 250},
			{map[string]any{"extra_choices": [][]string{{"a", "A"}, {"b", "B"}}}, 251},
			{map[string]any{"base_choices": nil}, 2},
		} {
			obj := admin.Must(200, "PATCH", fmt.Sprintf("%s%v/", list, id), step.patch).Object()
			if obj["choices_count"] != step.count {
				t.Errorf("after %v: choices_count %v, want %v", step.patch, obj["choices_count"], step.count)
			}
		}
	})
}

// TestCustomFieldBaseChoices: select and multiselect custom field values
// are checked against the set's base and extra choices, with NetBox's
// messages.
func TestCustomFieldBaseChoices(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		admin := e.Admin()
		cs := admin.Must(201, "POST", "/api/extras/custom-field-choice-sets/", map[string]any{
			"name": "Places", "base_choices": "UN_LOCODE", "extra_choices": [][]string{{"home", "Home"}}}).Object()["id"]
		for _, f := range []map[string]any{
			{"name": "place", "type": "select", "choice_set": cs, "object_types": []string{"tenancy.tenant"}},
			{"name": "places", "type": "multiselect", "choice_set": cs, "object_types": []string{"tenancy.tenant"}},
		} {
			admin.Must(201, "POST", "/api/extras/custom-fields/", f)
		}
		for i, tc := range []struct {
			cf     map[string]any
			status int
			err    string
		}{
			{map[string]any{"place": "ADALV", "places": []string{"home", "USNYC"}}, 201, ""},
			{map[string]any{"place": "home"}, 201, ""},
			{map[string]any{"place": "XXXXX"}, 400, "Invalid value for custom field 'place': Invalid choice (XXXXX) for choice set Places."},
			{map[string]any{"place": 5}, 400, "Invalid value for custom field 'place': Invalid choice (5) for choice set Places."},
			{map[string]any{"places": []string{"ADALV", "nope"}}, 400, "Invalid value for custom field 'places': Invalid choice(s) (['ADALV', 'nope']) for choice set Places."},
		} {
			r := admin.Must(tc.status, "POST", "/api/tenancy/tenants/", map[string]any{
				"name": fmt.Sprint("t", i), "slug": fmt.Sprint("t", i), "custom_fields": tc.cf})
			if tc.err != "" && !jsonEqual(t, r.Body, []byte(`{"__all__": [`+strconv.Quote(tc.err)+`]}`)) {
				t.Errorf("%v: got %s, want %s", tc.cf, r.Body, tc.err)
			}
		}
	})
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%v: %s", err, a)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}

// TestChoiceSetRemovalInUse: an extra choice that objects still hold in a
// select or multiselect custom field of the set cannot be removed
// (NetBox's CustomFieldChoiceSet.clean()); nothing changes. Unused choices
// go.
func TestChoiceSetRemovalInUse(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		set := a.Must(http.StatusCreated, "POST", "/api/extras/custom-field-choice-sets/", map[string]any{
			"name": "Envs", "extra_choices": [][]string{{"a", "A"}, {"b", "B"}, {"c", "C"}, {"FR", "France"}}}).Object()["id"]
		setPath := fmt.Sprintf("/api/extras/custom-field-choice-sets/%v/", set)
		for _, cf := range []map[string]any{
			{"name": "env", "type": "select", "object_types": []string{"dcim.site"}, "choice_set": set},
			{"name": "envs", "type": "multiselect", "object_types": []string{"dcim.site", "dcim.device"}, "choice_set": set},
		} {
			a.Must(http.StatusCreated, "POST", "/api/extras/custom-fields/", cf)
		}
		a.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "S1", "slug": "s1", "custom_fields": map[string]any{"env": "a"}})
		a.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "S2", "slug": "s2", "custom_fields": map[string]any{"envs": []string{"c", "b"}}})
		for _, c := range []struct {
			extra [][]string
			base  string
			want  string // "" for success
		}{
			{[][]string{{"b", "B"}, {"c", "C"}, {"FR", "France"}}, "", "Cannot remove choice a as there are DCIM | site objects which reference it."},
			{[][]string{{"a", "A"}, {"c", "C"}, {"FR", "France"}}, "", "Cannot remove choice b as there are DCIM | site objects which reference it."},
			{[][]string{{"a", "A"}, {"b", "B"}, {"c", "C"}}, "", ""}, // FR is unused
			{[][]string{{"a", "A"}, {"b", "B"}}, "", "Cannot remove choice c as there are DCIM | site objects which reference it."},
		} {
			body := map[string]any{"extra_choices": c.extra}
			if c.want == "" {
				a.Must(http.StatusOK, "PATCH", setPath, body)
				continue
			}
			refused(t, a, "PATCH", setPath, body, "__all__", c.want)
			if got := a.Must(http.StatusOK, "GET", setPath, nil).Object()["extra_choices"]; len(got.([]any)) < 3 {
				t.Errorf("a refused removal changed the set: %v", got)
			}
		}
		// Once no object holds b, it may go.
		a.Must(http.StatusOK, "PATCH", "/api/dcim/sites/2/", map[string]any{"custom_fields": map[string]any{"envs": []string{"c"}}})
		a.Must(http.StatusOK, "PATCH", setPath, map[string]any{"extra_choices": [][]string{{"a", "A"}, {"c", "C"}}})
	})
}
