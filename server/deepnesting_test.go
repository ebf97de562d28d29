package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/inventory/inventory/ent/logic/jinja"
	"github.com/inventory/inventory/ent/logic/jsonlimit"
	"github.com/inventory/inventory/server/servertest"
)

// levels is the depth of the inputs of issue 32: 100,000 levels, about
// 200 KB, which overflowed the stack of the template parser and ended the
// process (Go cannot recover a stack overflow).
const levels = 100000

var (
	deepArray    = strings.Repeat("[", levels) + strings.Repeat("]", levels)
	deepObject   = strings.Repeat(`{"a":`, levels) + "1" + strings.Repeat("}", levels)
	deepParens   = "{{ " + strings.Repeat("(", levels) + "1" + strings.Repeat(")", levels) + " }}"
	deepBlocks   = strings.Repeat("{% if true %}", levels) + "x" + strings.Repeat("{% endif %}", levels)
	longChain    = "{{ 1" + strings.Repeat(" + 1", levels) + " }}"
	longFilters  = "{{ 'a'" + strings.Repeat("|upper", levels) + " }}"
	selfNamspace = "{% set ns = namespace() %}{% set ns.x = ns %}{{ ns }}"
)

// jsonString quotes s as a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// deepWorld holds the objects the entry points of TestDeepNesting need.
type deepWorld struct {
	site, vm, configTemplate, moduleType, region int
}

func newDeepWorld(t *testing.T, e *servertest.Env) deepWorld {
	mk := func(path string, body map[string]any) int {
		return idOf(e.Must(http.StatusCreated, "POST", path, body).Object())
	}
	var w deepWorld
	w.site = mk("/api/dcim/sites/", map[string]any{"name": "Deep", "slug": "deep"})
	w.configTemplate = mk("/api/extras/config-templates/", map[string]any{"name": "deep", "template_code": "{{ x }}"})
	w.vm = mk("/api/virtualization/virtual-machines/", map[string]any{"name": "deep", "site": w.site, "config_template": w.configTemplate})
	profile := mk("/api/dcim/module-type-profiles/", map[string]any{"name": "deep", "schema": map[string]any{"type": "object"}})
	man := mk("/api/dcim/manufacturers/", map[string]any{"name": "Deep", "slug": "deep"})
	w.moduleType = mk("/api/dcim/module-types/", map[string]any{"manufacturer": man, "model": "deep", "profile": profile, "attributes": map[string]any{}})
	w.region = mk("/api/dcim/regions/", map[string]any{"name": "Deep", "slug": "deep"})
	mk("/api/extras/custom-fields/", map[string]any{"name": "deep_json", "type": "json", "object_types": []string{"dcim.site"}})
	return w
}

// TestDeepNesting feeds every entry point that parses or walks user input
// recursively a 100,000-level input, one at a time: each answers 400
// naming the field (or, for a body that is not an object, NetBox's JSON
// parse error), writes nothing, and the server still answers after it.
// The limits are jsonlimit.MaxDepth for JSON values and those of
// ent/logic/jinja/limits.go for templates; TestConformance's bad-input
// sweep holds every field of every model to them.
func TestDeepNesting(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		w := newDeepWorld(t, e)
		detail := func(path string, id int) string { return fmt.Sprintf("%s%d/", path, id) }
		// with returns an object body of the given members, raw JSON values.
		with := func(members ...string) string { return "{" + strings.Join(members, ",") + "}" }
		m := func(name, raw string) string { return jsonString(name) + ":" + raw }
		site := detail("/api/dcim/sites/", w.site)
		for _, c := range []struct {
			name, method, path, body string
			field                    string // "": a JSON parse error; "[1]x": item 1 names x
			want                     string // in the message
		}{
			// JSON bodies and JSON fields.
			{"custom field data", "POST", "/api/dcim/sites/", with(m("name", `"S"`), m("slug", `"s"`), m("custom_fields", `{"deep_json":`+deepArray+`}`)), "custom_fields", "Nested too deeply"},
			{"custom field data on update", "PATCH", site, with(m("custom_fields", `{"deep_json":`+deepObject+`}`)), "custom_fields", "Nested too deeply"},
			{"a bulk create", "POST", "/api/dcim/sites/", "[" + with(m("name", `"S1"`), m("slug", `"s1"`)) + "," + with(m("name", `"S2"`), m("slug", `"s2"`), m("custom_fields", deepObject)) + "]", "[1]custom_fields", "Nested too deeply"},
			{"a bulk update", "PATCH", "/api/dcim/sites/", "[" + with(m("id", fmt.Sprint(w.site)), m("description", deepArray)) + "]", "[0]description", "Nested too deeply"},
			{"a related object's attributes", "PATCH", site, with(m("region", strings.Repeat(`{"parent":`, levels)+`{"id":1}`+strings.Repeat("}", levels))), "region", "Nested too deeply"},
			{"tags", "PATCH", site, with(m("tags", deepArray)), "tags", "Nested too deeply"},
			{"an unknown field", "PATCH", site, with(m("nosuchfield", deepArray)), "nosuchfield", "Nested too deeply"},
			{"a body of nested lists", "POST", "/api/dcim/sites/", deepArray, "", "JSON parse error - Nested too deeply"},
			{"a replacement", "PUT", site, with(m("name", `"D"`), m("slug", `"d"`), m("comments", deepObject)), "comments", "Nested too deeply"},
			{"config context data", "POST", "/api/extras/config-contexts/", with(m("name", `"c"`), m("data", deepObject)), "data", "Nested too deeply"},
			{"local context data", "PATCH", detail("/api/virtualization/virtual-machines/", w.vm), with(m("local_context_data", deepObject)), "local_context_data", "Nested too deeply"},
			{"environment_params", "POST", "/api/extras/config-templates/", with(m("name", `"e"`), m("template_code", `"x"`), m("environment_params", deepObject)), "environment_params", "Nested too deeply"},
			{"export environment_params", "POST", "/api/extras/export-templates/", with(m("name", `"e"`), m("object_types", `["dcim.site"]`), m("template_code", `"x"`), m("environment_params", deepObject)), "environment_params", "Nested too deeply"},
			{"a config context profile's schema", "POST", "/api/extras/config-context-profiles/", with(m("name", `"p"`), m("schema", strings.Repeat(`{"items":`, levels)+"{}"+strings.Repeat("}", levels))), "schema", "Nested too deeply"},
			{"a module type profile's schema", "POST", "/api/dcim/module-type-profiles/", with(m("name", `"p"`), m("schema", strings.Repeat(`{"properties":{"a":`, levels/2)+"{}"+strings.Repeat("}}", levels/2))), "schema", "Nested too deeply"},
			{"module type attributes", "PATCH", detail("/api/dcim/module-types/", w.moduleType), with(m("attributes", deepObject)), "attributes", "Nested too deeply"},
			{"event rule conditions", "POST", "/api/extras/event-rules/", with(m("name", `"r"`), m("object_types", `["dcim.site"]`), m("event_types", `["object_created"]`),
				m("action_type", `"script"`), m("conditions", strings.Repeat(`{"and":[`, levels/2)+`{"attr":"id","value":1}`+strings.Repeat("]}", levels/2))), "conditions", "Nested too deeply"},
			{"saved filter parameters", "POST", "/api/extras/saved-filters/", with(m("name", `"f"`), m("slug", `"f"`), m("object_types", `["dcim.site"]`), m("parameters", deepObject)), "parameters", "Nested too deeply"},
			{"permission constraints", "POST", "/api/users/permissions/", with(m("name", `"p"`), m("object_types", `["dcim.site"]`), m("actions", `["view"]`), m("constraints", deepObject)), "constraints", "Nested too deeply"},
			{"a custom field's default", "POST", "/api/extras/custom-fields/", with(m("name", `"d"`), m("type", `"json"`), m("object_types", `["dcim.site"]`), m("default", deepArray)), "default", "Nested too deeply"},
			{"extra choices", "POST", "/api/extras/custom-field-choice-sets/", with(m("name", `"c"`), m("extra_choices", deepArray)), "extra_choices", "Nested too deeply"},
			{"user preferences", "PATCH", "/api/users/config/", with(m("tables", deepObject)), "tables", "Nested too deeply"},
			{"a template's render context", "POST", detail("/api/extras/config-templates/", w.configTemplate) + "render/", with(m("x", deepObject)), "x", "Nested too deeply"},
			{"a render-config context", "POST", detail("/api/virtualization/virtual-machines/", w.vm) + "render-config/", with(m("x", deepArray)), "x", "Nested too deeply"},
			// Templates, checked when saved.
			{"nested parentheses", "POST", "/api/extras/config-templates/", with(m("name", `"t"`), m("template_code", jsonString(deepParens))), "template_code", "nested too deeply"},
			{"nested blocks", "POST", "/api/extras/config-templates/", with(m("name", `"t"`), m("template_code", jsonString(deepBlocks))), "template_code", "blocks are nested too deeply"},
			{"a chain of operators", "PATCH", detail("/api/extras/config-templates/", w.configTemplate), with(m("template_code", jsonString(longChain))), "template_code", "too many operators"},
			{"a chain of filters", "POST", "/api/extras/export-templates/", with(m("name", `"t"`), m("object_types", `["dcim.site"]`), m("template_code", jsonString(longFilters))), "template_code", "too many operators"},
			{"a webhook body", "POST", "/api/extras/webhooks/", with(m("name", `"h"`), m("payload_url", `"https://hooks.example.com/"`), m("body_template", jsonString(deepParens))), "body_template", "nested too deeply"},
			// A URL is at most 500 characters: one level beyond the limit.
			{"a webhook URL", "POST", "/api/extras/webhooks/", with(m("name", `"h"`), m("payload_url", jsonString("https://hooks.example.com/{{ "+strings.Repeat("(", jinja.MaxNesting+1)+"1"+strings.Repeat(")", jinja.MaxNesting+1)+" }}"))), "payload_url", "nested too deeply"},
			{"webhook headers", "POST", "/api/extras/webhooks/", with(m("name", `"h"`), m("payload_url", `"https://hooks.example.com/"`), m("additional_headers", jsonString("X-A: "+deepBlocks))), "additional_headers", "blocks are nested too deeply"},
		} {
			t.Run(c.name, func(t *testing.T) {
				r := e.Do(c.method, c.path, c.body)
				if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), c.want) {
					t.Fatalf("%d %.300s, want 400 naming %q", r.Status, r.Body, c.want)
				}
				var got any
				if err := json.Unmarshal(r.Body, &got); err != nil {
					t.Fatalf("body %.300s: %v", r.Body, err)
				}
				field := c.field
				if strings.HasPrefix(field, "[") {
					var i int
					fmt.Sscanf(field, "[%d]", &i)
					field = field[strings.Index(field, "]")+1:]
					list, _ := got.([]any)
					if len(list) <= i {
						t.Fatalf("item %d: %.300s", i, r.Body)
					}
					got = list[i]
				}
				obj, _ := got.(map[string]any)
				if field == "" {
					field = "detail"
				}
				if obj[field] == nil {
					t.Fatalf("%.300s: no %q", r.Body, field)
				}
				e.Must(http.StatusOK, "GET", "/api/status/", nil)
			})
		}
		// Nothing was written by any of them.
		for path, want := range map[string]int{"/api/dcim/sites/": 1, "/api/extras/config-templates/": 1, "/api/extras/webhooks/": 0,
			"/api/extras/config-contexts/": 0, "/api/extras/event-rules/": 0, "/api/users/permissions/": 0} {
			if n := e.Must(http.StatusOK, "GET", path+"?limit=1", nil).Object()["count"]; n != float64(want) {
				t.Errorf("%s: %v objects", path, n)
			}
		}
		if code := e.Must(http.StatusOK, "GET", detail("/api/extras/config-templates/", w.configTemplate), nil).Object()["template_code"]; code != "{{ x }}" {
			t.Errorf("template changed to %.50q", code)
		}

		t.Run("values at the limit", func(t *testing.T) {
			atLimit := strings.Repeat(`{"a":`, jsonlimit.MaxDepth-1) + "{}" + strings.Repeat("}", jsonlimit.MaxDepth-1)
			e.Must(http.StatusOK, "PATCH", detail("/api/virtualization/virtual-machines/", w.vm), with(m("local_context_data", atLimit)))
			got := e.Must(http.StatusOK, "GET", detail("/api/virtualization/virtual-machines/", w.vm), nil).Object()["local_context_data"]
			if b, _ := json.Marshal(got); string(b) != strings.ReplaceAll(atLimit, `{"a":`, `{"a":`) {
				t.Errorf("stored %.80s", b)
			}
			// It renders, on both databases (SQLite's JSON functions stop
			// at 1,000 levels, PostgreSQL's jsonb at its stack limit).
			e.Must(http.StatusOK, "POST", detail("/api/virtualization/virtual-machines/", w.vm)+"render-config/", nil)
			r := e.Do("PATCH", detail("/api/virtualization/virtual-machines/", w.vm), with(m("local_context_data", `{"b":`+atLimit+`}`)))
			if r.Status != http.StatusBadRequest || string(r.Body) != `{"local_context_data":["`+jsonlimit.Message()+`"]}` {
				t.Errorf("one level beyond: %d %.200s", r.Status, r.Body)
			}
		})

		t.Run("templates rendered", func(t *testing.T) {
			// A template that parses but builds a value containing itself
			// (it overflowed the stack when printed) fails when rendered,
			// as a config template, a render-config and an export.
			tid := idOf(e.Must(http.StatusCreated, "POST", "/api/extras/config-templates/", map[string]any{"name": "cycle", "template_code": selfNamspace}).Object())
			r := e.Must(http.StatusBadRequest, "POST", detail("/api/extras/config-templates/", tid)+"render/", nil)
			if !strings.Contains(string(r.Body), jinja.ErrNestedNamespace.Error()) || r.Object()["template_code"] == nil {
				t.Errorf("render: %.300s", r.Body)
			}
			e.Must(http.StatusBadRequest, "POST", detail("/api/virtualization/virtual-machines/", w.vm)+"render-config/", map[string]any{"config_template_id": tid})
			e.Must(http.StatusCreated, "POST", "/api/extras/export-templates/", map[string]any{"name": "cycle", "object_types": []string{"dcim.site"}, "template_code": selfNamspace})
			r = e.Must(http.StatusBadRequest, "GET", "/api/dcim/sites/?export=cycle", nil)
			if !strings.Contains(string(r.Body), jinja.ErrNestedNamespace.Error()) {
				t.Errorf("export: %.300s", r.Body)
			}
			// Depth built one level per loop iteration.
			loop := "{% set ns = namespace(l=[]) %}{% for i in range(100000) %}{% set ns.l = [ns.l] %}{% endfor %}{{ ns.l }}"
			tid = idOf(e.Must(http.StatusCreated, "POST", "/api/extras/config-templates/", map[string]any{"name": "loop", "template_code": loop}).Object())
			r = e.Must(http.StatusBadRequest, "POST", detail("/api/extras/config-templates/", tid)+"render/", nil)
			// The depth limit ends it; on a machine busy enough the render's
			// time limit may come first: either way a 400 on template_code.
			if b := string(r.Body); !strings.Contains(b, "nested too deeply") && !strings.Contains(b, "exceeded the time limit") || r.Object()["template_code"] == nil {
				t.Errorf("loop: %.300s", r.Body)
			}
			e.Must(http.StatusOK, "GET", "/api/status/", nil)
		})

		t.Run("filter values", func(t *testing.T) {
			// Filter values are at most filters.MaxValueLength characters
			// and parsed without recursion: brackets are plain text.
			for _, p := range []string{"name", "q", "description__ic", "cf_deep_json", "region", "id"} {
				for _, v := range []string{strings.Repeat("(", 1000), strings.Repeat("[", 1000), strings.Repeat("{", 1000), strings.Repeat(`{"a":`, 200)} {
					if r := e.Do("GET", "/api/dcim/sites/?"+url.Values{p: {v}}.Encode(), nil); r.Status >= 500 {
						t.Errorf("?%s=%.20s…: %d %.200s", p, v, r.Status, r.Body)
					}
				}
			}
		})

		t.Run("trees", func(t *testing.T) {
			// A node cannot move under itself or its descendants, in every
			// tree (NetBox's message); a long chain is walked to its end.
			for _, tree := range []string{"/api/dcim/regions/", "/api/dcim/site-groups/", "/api/tenancy/tenant-groups/", "/api/tenancy/contact-groups/"} {
				a := idOf(e.Must(http.StatusCreated, "POST", tree, map[string]any{"name": "A", "slug": "a"}).Object())
				b := idOf(e.Must(http.StatusCreated, "POST", tree, map[string]any{"name": "B", "slug": "b", "parent": a}).Object())
				c := idOf(e.Must(http.StatusCreated, "POST", tree, map[string]any{"name": "C", "slug": "c", "parent": b}).Object())
				for _, parent := range []int{a, b, c} {
					r := e.Do("PATCH", detail(tree, a), map[string]any{"parent": parent})
					if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), `{"parent":["Cannot assign self or child `) {
						t.Errorf("%s: %d under %d: %d %s", tree, a, parent, r.Status, r.Body)
					}
				}
				if d := e.Must(http.StatusOK, "GET", detail(tree, c), nil).Object()["_depth"]; d != float64(2) {
					t.Errorf("%s: _depth %v", tree, d)
				}
			}
			parent := w.region
			for i := range 100 {
				parent = idOf(e.Must(http.StatusCreated, "POST", "/api/dcim/regions/", map[string]any{
					"name": fmt.Sprintf("R%d", i), "slug": fmt.Sprintf("r%d", i), "parent": parent}).Object())
			}
			if d := e.Must(http.StatusOK, "GET", detail("/api/dcim/regions/", parent), nil).Object()["_depth"]; d != float64(100) {
				t.Errorf("chain: _depth %v", d)
			}
			e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "Leaf", "slug": "leaf", "region": parent})
			if n := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/sites/?region_id=%d&limit=1", w.region), nil).Object()["count"]; n != float64(1) {
				t.Errorf("chain: %v sites below the root", n)
			}
			r := e.Do("PATCH", detail("/api/dcim/regions/", w.region), map[string]any{"parent": parent})
			if r.Status != http.StatusBadRequest {
				t.Errorf("chain: the root under its deepest descendant: %d %s", r.Status, r.Body)
			}

			// Modules in module bays of modules: a module cannot move into
			// a bay of its own or of a module installed within it.
			mw := modulesWorld(t, e)
			e.Must(http.StatusCreated, "POST", tplPath("module-bay"), map[string]any{"device_type": mw["dtP"], "name": "FPC", "position": "0"})
			e.Must(http.StatusCreated, "POST", tplPath("module-bay"), map[string]any{"module_type": mw["mt"], "name": "Sub{module}", "position": "{module}"})
			e.Must(http.StatusCreated, "POST", tplPath("module-bay"), map[string]any{"module_type": mw["mt"], "name": "Spare{module}", "position": "{module}"})
			dev := idOf(e.Must(http.StatusCreated, "POST", devPath, map[string]any{"name": "deep", "device_type": mw["dtP"], "role": mw["r"], "site": mw["s1"]}).Object())
			// bayOf is the module bay of the device named, or of the module.
			bayOf := func(query string) int {
				rs := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s?device_id=%d&%s", mbPath, dev, query), nil).Results()
				if len(rs) != 1 {
					t.Fatalf("module bay %s: %d", query, len(rs))
				}
				return int(rs[0]["id"].(float64))
			}
			m1 := idOf(e.Must(http.StatusCreated, "POST", modPath, map[string]any{"device": dev, "module_bay": bayOf("name=FPC"), "module_type": mw["mt"]}).Object())
			m2 := idOf(e.Must(http.StatusCreated, "POST", modPath, map[string]any{"device": dev, "module_bay": bayOf(fmt.Sprintf("module_id=%d&name__isw=Sub", m1)), "module_type": mw["mt"]}).Object())
			const nesting = `{"__all__":["A module bay cannot belong to a module installed within it."]}`
			for _, b := range []int{bayOf(fmt.Sprintf("module_id=%d&name__isw=Spare", m1)), bayOf(fmt.Sprintf("module_id=%d&name__isw=Spare", m2))} {
				r := e.Do("PATCH", detail(modPath, m1), map[string]any{"module_bay": b})
				if r.Status != http.StatusBadRequest || string(r.Body) != nesting {
					t.Errorf("module %d into bay %d: %d %s", m1, b, r.Status, r.Body)
				}
			}
			// The other way round (ModuleBay.clean): the bay m1 sits in
			// cannot become a bay of m1, or of m2 installed within m1, alone
			// or in a bulk update; a bay of the device can.
			fpc := bayOf("name=FPC")
			for _, mod := range []int{m1, m2} {
				for _, r := range []*servertest.Response{
					e.Do("PATCH", detail(mbPath, fpc), map[string]any{"module": mod}),
					e.Do("PATCH", mbPath, []map[string]any{{"id": fpc, "module": mod}}),
				} {
					if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), nesting[1:len(nesting)-1]) {
						t.Errorf("bay %d onto module %d: %d %s", fpc, mod, r.Status, r.Body)
					}
				}
			}
			if got := e.Must(http.StatusOK, "GET", detail(mbPath, fpc), nil).Object()["module"]; got != nil {
				t.Errorf("bay %d: module %v after refused moves", fpc, got)
			}
			extra := idOf(e.Must(http.StatusCreated, "POST", mbPath, map[string]any{"device": dev, "name": "Extra"}).Object())
			e.Must(http.StatusOK, "PATCH", detail(mbPath, extra), map[string]any{"module": m2})
		})
	})
}
