package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestCustomFieldRegexRefusedAtSave is issue 32's reproduction: a
// validation_regex of "(" was stored and then silently not applied (a
// site with cfx "abc" was accepted). NetBox compiles the pattern when the
// field is saved: 400 naming validation_regex, with its message, and no
// field, so the site's cfx is refused as unknown. On both databases.
func TestCustomFieldRegexRefusedAtSave(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		r := a.Must(http.StatusBadRequest, "POST", "/api/extras/custom-fields/", map[string]any{
			"name": "cfx", "object_types": []string{"dcim.site"}, "type": "text", "validation_regex": "("})
		if want := `{"validation_regex":["( is not a valid regular expression."]}`; string(r.Body) != want {
			t.Errorf("regex \"(\": %s, want %s", r.Body, want)
		}
		if n := a.Must(http.StatusOK, "GET", "/api/extras/custom-fields/", nil).Object()["count"]; n != 0.0 {
			t.Errorf("%v custom fields stored", n)
		}
		r = a.Must(http.StatusBadRequest, "POST", "/api/dcim/sites/", map[string]any{"name": "S", "slug": "s",
			"custom_fields": map[string]any{"cfx": "abc"}})
		if !strings.Contains(string(r.Body), "Custom field 'cfx' does not exist for this object type.") {
			t.Errorf("site with cfx after the refused field: %s", r.Body)
		}

		// A field saved with a valid pattern may not be changed to "(".
		cf := idOf(a.Must(http.StatusCreated, "POST", "/api/extras/custom-fields/", map[string]any{
			"name": "cfx", "object_types": []string{"dcim.site"}, "type": "text", "validation_regex": "[0-9]+"}).Object())
		a.Must(http.StatusBadRequest, "PATCH", fmt.Sprintf("/api/extras/custom-fields/%d/", cf), map[string]any{"validation_regex": "("})
		// The pattern applies from the start of the value, as Python's
		// re.match: "abc123" does not match [0-9]+, "123abc" does.
		r = a.Must(http.StatusBadRequest, "POST", "/api/dcim/sites/", map[string]any{"name": "S", "slug": "s",
			"custom_fields": map[string]any{"cfx": "abc123"}})
		if want := `{"__all__":["Invalid value for custom field 'cfx': Value must match regex '[0-9]+'"]}`; string(r.Body) != want {
			t.Errorf("value not matching from its start: %s, want %s", r.Body, want)
		}
		a.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "S", "slug": "s",
			"custom_fields": map[string]any{"cfx": "123abc"}})
	})
}

// TestCustomFieldClean: every check NetBox makes of a custom field's
// definition when it is saved (CustomFieldSerializer.validate_type, the
// validators of validation_regex and validation_schema,
// CustomField.clean()), each a 400 naming the field with NetBox's message
// and nothing written; and a JSON field's schema applied to the values.
// On both databases.
func TestCustomFieldClean(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		set := idOf(a.Must(http.StatusCreated, "POST", "/api/extras/custom-field-choice-sets/", map[string]any{
			"name": "Colours", "extra_choices": [][]string{{"red", "Red"}, {"blue", "Blue"}}}).Object())
		text := idOf(a.Must(http.StatusCreated, "POST", "/api/extras/custom-fields/", map[string]any{
			"name": "t1", "object_types": []string{"dcim.site"}, "type": "text"}).Object())
		field := func(typ string, kv ...any) map[string]any {
			b := map[string]any{"name": "f", "object_types": []string{"dcim.site"}, "type": typ}
			for i := 0; i+1 < len(kv); i += 2 {
				b[kv[i].(string)] = kv[i+1]
			}
			return b
		}
		re2 := "is not a valid regular expression for this service, which uses RE2 syntax " +
			"(no lookarounds, backreferences, atomic groups or possessive quantifiers): "
		cases := []struct {
			name, method, path string
			body               map[string]any
			field, message     string
			prefix             bool
		}{
			{"type changed", "PATCH", fmt.Sprintf("/api/extras/custom-fields/%d/", text), map[string]any{"type": "integer"},
				"type", "Changing the type of custom fields is not supported.", false},
			{"regex that does not compile", "POST", "", field("text", "validation_regex", "[a-"),
				"validation_regex", "[a- is not a valid regular expression.", false},
			{"regex with a lookahead", "POST", "", field("text", "validation_regex", "(?=a)b"),
				"validation_regex", "(?=a)b " + re2, true},
			{"regex with a backreference", "POST", "", field("text", "validation_regex", `(a)\1`),
				"validation_regex", `(a)\1 ` + re2, true},
			{"schema not an object", "POST", "", field("json", "validation_schema", []any{1}),
				"validation_schema", "Invalid JSON schema definition", false},
			{"schema not a valid JSON Schema", "POST", "", field("json", "validation_schema", map[string]any{"type": 5}),
				"validation_schema", "Invalid JSON schema definition: ", true},
			{"default not an integer", "POST", "", field("integer", "default", "abc"),
				"default", `Invalid default value "abc": Value must be an integer.`, false},
			{"default below the minimum", "POST", "", field("integer", "default", 5, "validation_minimum", 10),
				"default", `Invalid default value "5": Value must be at least 10.0000`, false},
			{"default not matching the regex", "POST", "", field("text", "default", "ABC", "validation_regex", "[a-z]+$"),
				"default", `Invalid default value "ABC": Value must match regex '[a-z]+$'`, false},
			{"default not a choice", "POST", "", field("select", "default", "green", "choice_set", set),
				"default", `Invalid default value "green": Invalid choice (green) for choice set Colours.`, false},
			{"default not conforming to the schema", "POST", "", field("json", "default", []any{1},
				"validation_schema", map[string]any{"type": "object"}),
				"default", `Invalid default value "[1]": Value does not conform to the assigned schema: `, true},
			{"minimum on a text field", "POST", "", field("text", "validation_minimum", 1),
				"validation_minimum", "A minimum value may be set only for numeric fields", false},
			{"maximum on a text field", "POST", "", field("text", "validation_maximum", 9),
				"validation_maximum", "A maximum value may be set only for numeric fields", false},
			{"regex on an integer field", "POST", "", field("integer", "validation_regex", "[0-9]"),
				"validation_regex", "Regular expression validation is supported only for text and URL fields", false},
			{"schema on a text field", "POST", "", field("text", "validation_schema", map[string]any{"type": "string"}),
				"validation_schema", "JSON schema validation is supported only for JSON fields", false},
			{"unique boolean", "POST", "", field("boolean", "unique", true),
				"unique", "Uniqueness cannot be enforced for boolean fields", false},
			{"selection without a choice set", "POST", "", field("select"),
				"choice_set", "Selection fields must specify a set of choices.", false},
			{"choice set on a text field", "POST", "", field("text", "choice_set", set),
				"choice_set", "Choices may be set only on selection fields.", false},
			{"object field without an object type", "POST", "", field("object"),
				"related_object_type", "Object fields must define an object type.", false},
			{"object type on a text field", "POST", "", field("text", "related_object_type", "dcim.site"),
				"type", "Text fields may not define an object type.", false},
			{"related object filter on a text field", "POST", "", field("text", "related_object_filter", map[string]any{"status": "active"}),
				"related_object_filter", "A related object filter can be defined only for object fields.", false},
			{"related object filter not an object", "POST", "", field("object", "related_object_type", "dcim.site",
				"related_object_filter", []any{"status"}),
				"related_object_filter", "Filter must be defined as a dictionary mapping attributes to values.", false},
		}
		count := func() any { return a.Must(http.StatusOK, "GET", "/api/extras/custom-fields/", nil).Object()["count"] }
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				path := c.path
				if path == "" {
					path = "/api/extras/custom-fields/"
				}
				before := count()
				r := a.Must(http.StatusBadRequest, c.method, path, c.body)
				wantOneFieldError(t, r, c.field, c.message, c.prefix)
				if after := count(); after != before {
					t.Errorf("custom fields %v → %v", before, after)
				}
			})
		}

		// What NetBox accepts is accepted: a default of each kind, an
		// object field with its filter, a minimum of 0 on a text field
		// (NetBox tests the bounds' truth).
		for i, b := range []map[string]any{
			field("integer", "default", 12, "validation_minimum", 10, "validation_maximum", 20),
			field("text", "default", 5, "validation_regex", "[0-9]"),
			field("select", "default", "red", "choice_set", set),
			field("multiselect", "default", []any{"red", "blue"}, "choice_set", set),
			field("object", "related_object_type", "dcim.site", "related_object_filter", map[string]any{"status": "active"}),
			field("json", "default", map[string]any{"a": 1}, "validation_schema", map[string]any{"type": "object", "required": []any{"a"}}),
			field("text", "validation_minimum", 0),
			field("boolean", "default", false),
			field("date", "default", "2026-01-31"),
			field("datetime", "default", "2026-01-31 10:00:00"),
		} {
			b["name"] = fmt.Sprintf("ok%d", i)
			a.Must(http.StatusCreated, "POST", "/api/extras/custom-fields/", b)
		}
		// The JSON field's schema applies to the values of objects.
		r := a.Must(http.StatusBadRequest, "POST", "/api/dcim/sites/", map[string]any{"name": "S", "slug": "s",
			"custom_fields": map[string]any{"ok5": map[string]any{"b": 2}}})
		if !strings.HasPrefix(string(r.Body), `{"__all__":["Invalid value for custom field 'ok5': Value does not conform to the assigned schema: `) {
			t.Errorf("a value against the field's schema: %s", r.Body)
		}
		a.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "S", "slug": "s",
			"custom_fields": map[string]any{"ok5": map[string]any{"a": 2}}})
	})
}

// TestStoredExpressionsRefusedAtSave: every stored template or expression
// used later (custom links' text and URL, export and config template
// code, webhook bodies, event rule conditions, saved filter parameters)
// is refused when saved if it would fail or be ignored when used, with a
// 400 naming the field; nothing is written. On both databases.
func TestStoredExpressionsRefusedAtSave(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		link := idOf(a.Must(http.StatusCreated, "POST", "/api/extras/custom-links/", map[string]any{"name": "l1",
			"object_types": []string{"dcim.site"}, "link_text": "{{ object.name }}", "link_url": "https://x.example/{{ object.id }}"}).Object())
		saved := idOf(a.Must(http.StatusCreated, "POST", "/api/extras/saved-filters/", map[string]any{"name": "f1", "slug": "f1",
			"object_types": []string{"dcim.site"}, "parameters": map[string]any{"status": []any{"active", "planned"}, "q": "x",
				"name__ic": "a", "ordering": "name", "limit": 10}}).Object())
		hook := idOf(a.Must(http.StatusCreated, "POST", "/api/extras/webhooks/", map[string]any{"name": "w0",
			"payload_url": "https://hooks.example.com/"}).Object())
		sf := func(params any, types ...string) map[string]any {
			if types == nil {
				types = []string{"dcim.site"}
			}
			return map[string]any{"name": "f2", "slug": "f2", "object_types": types, "parameters": params}
		}
		cases := []struct {
			name, method, path string
			body               map[string]any
			field, message     string
			prefix             bool
		}{
			{"custom link text that does not parse", "POST", "/api/extras/custom-links/", map[string]any{"name": "l2",
				"object_types": []string{"dcim.site"}, "link_text": "{% if %}", "link_url": "https://x.example/"},
				"link_text", "Invalid template: ", true},
			{"custom link URL that does not parse", "POST", "/api/extras/custom-links/", map[string]any{"name": "l2",
				"object_types": []string{"dcim.site"}, "link_text": "x", "link_url": "https://x.example/{{ object.id "},
				"link_url", "Invalid template: ", true},
			{"custom link URL changed to one that does not parse", "PATCH", fmt.Sprintf("/api/extras/custom-links/%d/", link),
				map[string]any{"link_url": "{% for %}"}, "link_url", "Invalid template: ", true},
			{"export template code that does not parse", "POST", "/api/extras/export-templates/", map[string]any{"name": "e1",
				"object_types": []string{"dcim.site"}, "template_code": "{% for s in %}"}, "template_code", "Invalid template: ", true},
			{"config template code that does not parse", "POST", "/api/extras/config-templates/", map[string]any{"name": "c1",
				"template_code": "{{ device.name "}, "template_code", "Invalid template: ", true},
			{"webhook body that does not parse", "POST", "/api/extras/webhooks/", map[string]any{"name": "w1",
				"payload_url": "https://hooks.example.com/", "body_template": "{% if %}"}, "body_template", "Invalid template: ", true},
			{"event rule condition with a regex that does not compile", "POST", "/api/extras/event-rules/", map[string]any{
				"name": "r1", "object_types": []string{"dcim.site"}, "event_types": []string{"object_created"},
				"action_object_type": "extras.webhook", "action_object_id": hook,
				"conditions": map[string]any{"attr": "name", "op": "regex", "value": "("}},
				"conditions", "Invalid regular expression: ", true},
			{"saved filter parameters not an object", "POST", "/api/extras/saved-filters/", sf([]any{"status"}),
				"parameters", "Filter parameters must be stored as a dictionary of keyword arguments.", false},
			{"saved filter value that a query string cannot carry", "POST", "/api/extras/saved-filters/", sf(map[string]any{"status": map[string]any{"in": "active"}}),
				"parameters", `The value of "status" must be a string, a number, a boolean or a list of them.`, false},
			{"saved filter naming no filter", "POST", "/api/extras/saved-filters/", sf(map[string]any{"nosuch": "x"}),
				"parameters", `"nosuch" is not a valid filter for dcim.site: Unknown filter parameter.`, false},
			{"saved filter lookup the filter lacks", "POST", "/api/extras/saved-filters/", sf(map[string]any{"status__gt": "x"}),
				"parameters", `"status__gt" is not a valid filter for dcim.site: `, true},
			{"saved filter value the filter refuses", "POST", "/api/extras/saved-filters/", sf(map[string]any{"id": "abc"}),
				"parameters", `"id" is not a valid filter for dcim.site: `, true},
			{"saved filter value not a choice of the filter", "POST", "/api/extras/saved-filters/", sf(map[string]any{"status": "bogus"}),
				"parameters", `"status" is not a valid filter for dcim.site: `, true},
			{"saved filter moved to a type without the filter", "PATCH", fmt.Sprintf("/api/extras/saved-filters/%d/", saved),
				map[string]any{"object_types": []string{"dcim.site", "dcim.manufacturer"}},
				"parameters", `"status" is not a valid filter for dcim.manufacturer: Unknown filter parameter.`, false},
		}
		changes := func() any {
			return a.Must(http.StatusOK, "GET", "/api/core/object-changes/?limit=1", nil).Object()["count"]
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				before := changes()
				r := a.Must(http.StatusBadRequest, c.method, c.path, c.body)
				wantOneFieldError(t, r, c.field, c.message, c.prefix)
				if after := changes(); after != before {
					t.Errorf("a refused write left change records: %v → %v", before, after)
				}
			})
		}
		// A saved filter's other fields change freely; a filter of
		// custom field values is known once the field is.
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/extras/saved-filters/%d/", saved), map[string]any{"description": "active sites"})
		a.Must(http.StatusBadRequest, "POST", "/api/extras/saved-filters/", sf(map[string]any{"cf_colour": "red"}))
		a.Must(http.StatusCreated, "POST", "/api/extras/custom-fields/", map[string]any{"name": "colour",
			"object_types": []string{"dcim.site"}, "type": "text"})
		a.Must(http.StatusCreated, "POST", "/api/extras/saved-filters/", sf(map[string]any{"cf_colour": "red", "tag": []any{}}))
		// The objects a saved filter names are not looked up: they may be
		// created later (or deleted since), as in NetBox.
		a.Must(http.StatusCreated, "POST", "/api/extras/saved-filters/", map[string]any{"name": "f3", "slug": "f3",
			"object_types": []string{"dcim.site", "dcim.device"}, "parameters": map[string]any{"region": "nowhere", "tenant_id": 999999}})
	})
}

// wantOneFieldError: r's body names field alone, with the one message
// (or one starting with it, with prefix).
func wantOneFieldError(t *testing.T, r *servertest.Response, field, message string, prefix bool) {
	t.Helper()
	got, _ := r.Object()[field].([]any)
	ok := len(got) == 1 && len(r.Object()) == 1
	if ok {
		s, _ := got[0].(string)
		ok = s == message || (prefix && strings.HasPrefix(s, message))
	}
	if !ok {
		t.Errorf("body %s, want %s: [%q]", r.Body, field, message)
	}
}
