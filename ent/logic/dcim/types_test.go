package dcim

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/inventory/inventory/ent/schema/api"
)

// fieldErr returns the field and message of a *api.FieldError ("" for nil).
func fieldErr(t *testing.T, err error) (string, string) {
	t.Helper()
	if err == nil {
		return "", ""
	}
	var fe *api.FieldError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v is no *api.FieldError", err)
	}
	return fe.Field, fe.Message
}

func TestDecimals(t *testing.T) {
	cases := []struct {
		name  string
		check func(float64) error
		v     float64
		field string
		text  string
	}{
		{"u_height 1", ValidateUHeight, 1, "", ""},
		{"u_height 0", ValidateUHeight, 0, "", ""},
		{"u_height 2.5", ValidateUHeight, 2.5, "", ""},
		{"u_height 999.5", ValidateUHeight, 999.5, "", ""},
		{"u_height 1.3", ValidateUHeight, 1.3, "u_height", "increments of 0.5"},
		{"u_height 1.25", ValidateUHeight, 1.25, "u_height", "no more than 1 decimal places"},
		{"u_height 1000", ValidateUHeight, 1000, "u_height", "no more than 3 digits before the decimal point"},
		{"u_height -1", ValidateUHeight, -1, "u_height", "greater than or equal to 0"},
		{"weight 74.55", ValidateWeight, 74.55, "", ""},
		{"weight 0.125", ValidateWeight, 0.125, "weight", "no more than 2 decimal places"},
		{"weight 1e6", ValidateWeight, 1e6, "weight", "no more than 6 digits"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, msg := fieldErr(t, c.check(c.v))
			if f != c.field || !strings.Contains(msg, c.text) {
				t.Errorf("got %q %q, want %q containing %q", f, msg, c.field, c.text)
			}
		})
	}
}

func TestJSONSchema(t *testing.T) {
	schema := `{"properties": {"watts": {"type": "integer", "minimum": 1}}, "required": ["watts"]}`
	cases := []struct {
		name   string
		schema map[string]any // for ValidateJSONSchema
		attrs  any            // for ValidateAttributes against schema
		field  string
		text   string
	}{
		{name: "valid schema", schema: map[string]any{"properties": map[string]any{"a": map[string]any{"type": "string"}}}},
		{name: "unknown type", schema: map[string]any{"type": "no-such-type"}, field: "schema", text: "Invalid JSON schema definition: "},
		{name: "type not a string", schema: map[string]any{"type": 12}, field: "schema", text: "Invalid JSON schema definition: "},
		{name: "unresolvable $ref", schema: map[string]any{"$ref": "#/definitions/missing"}, field: "schema", text: "Invalid JSON schema definition: "},
		{name: "attributes valid", attrs: map[string]any{"watts": 20}},
		{name: "attributes missing", attrs: map[string]any{}, field: "attributes", text: "Invalid schema: "},
		{name: "attributes below minimum", attrs: map[string]any{"watts": 0}, field: "attributes", text: "(at /watts)"},
		{name: "attributes of another type", attrs: map[string]any{"watts": "x"}, field: "attributes", text: "Invalid schema: "},
		// properties and required apply to objects only: null passes, as
		// with Python's jsonschema.
		{name: "attributes null", attrs: nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			if c.schema != nil {
				err = ValidateJSONSchema(c.schema)
			} else {
				err = ValidateAttributes([]byte(schema), c.attrs)
			}
			f, msg := fieldErr(t, err)
			if f != c.field || !strings.Contains(msg, c.text) {
				t.Errorf("got %q %q, want %q containing %q", f, msg, c.field, c.text)
			}
		})
	}
}

func TestTemplateDisplay(t *testing.T) {
	for _, c := range []struct{ name, label, want string }{
		{"ge-0/0/0", "", "ge-0/0/0"},
		{"ge-0/0/0", "uplink", "ge-0/0/0 (uplink)"},
	} {
		get := func(f string) any { return map[string]any{"name": c.name, "label": c.label}[f] }
		if got := TemplateDisplay(get); got != c.want {
			t.Errorf("TemplateDisplay(%q, %q) = %q, want %q", c.name, c.label, got, c.want)
		}
	}
}

// TestJSONSchemaBounds: compiling and validating recurse; a schema or an
// instance nested beyond jsonlimit.MaxDepth is refused before either runs
// (a schema of 5,000 levels took minutes to compile), reference cycles
// that consume no input are refused when compiled, and a schema that
// refers to itself through a property validates an instance as deep as
// the limit.
func TestJSONSchemaBounds(t *testing.T) {
	deep := func(n int, leaf any) any {
		v := leaf
		for range n {
			v = map[string]any{"x": v}
		}
		return v
	}
	recursive := []byte(`{"type": "object", "properties": {"x": {"$ref": "#"}}}`)
	for _, c := range []struct {
		name   string
		schema []byte
		attrs  any
		text   string // "": valid
	}{
		{"schema at the limit", []byte(strings.Repeat(`{"items":`, 63) + `{}` + strings.Repeat(`}`, 63)), nil, ""},
		{"schema beyond the limit", []byte(strings.Repeat(`{"items":`, 64) + `{}` + strings.Repeat(`}`, 64)), nil, "Nested too deeply"},
		{"schema of 100,000 levels", []byte(strings.Repeat(`{"items":`, 100000) + `{}` + strings.Repeat(`}`, 100000)), nil, "Nested too deeply"},
		{"self reference", []byte(`{"$ref": "#"}`), nil, "reference cycle"},
		{"mutual references", []byte(`{"definitions": {"a": {"$ref": "#/definitions/b"}, "b": {"$ref": "#/definitions/a"}}, "$ref": "#/definitions/a"}`), nil, "reference cycle"},
		{"self reference in allOf", []byte(`{"allOf": [{"$ref": "#"}]}`), nil, "reference cycle"},
		{"recursion through a property", recursive, deep(63, map[string]any{}), ""},
		{"instance beyond the limit", recursive, deep(64, map[string]any{}), "Nested too deeply"},
		{"instance of 5,000 levels", recursive, deep(5000, 1), "Nested too deeply"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, msg := fieldErr(t, ValidateAttributes(c.schema, c.attrs))
			if c.text == "" && msg != "" || !strings.Contains(msg, c.text) {
				t.Errorf("ValidateAttributes: %.200q, want %q", msg, c.text)
			}
			v, err := SchemaViolation(c.schema, c.attrs)
			if err != nil || c.text == "" && v != "" || !strings.Contains(v, c.text) {
				t.Errorf("SchemaViolation: %.200q %v, want %q", v, err, c.text)
			}
		})
	}
}

// TestJSONSchemaSteps: a schema whose subschemas use one another so that
// validation would take exponential time (each level doubles the work) is
// refused when saved and when used, before the validator runs; so is one
// whose work multiplies with each level of the value; ordinary schemas,
// and recursion that consumes the value, pass.
func TestJSONSchemaSteps(t *testing.T) {
	doubling := func(k int) map[string]any {
		defs := map[string]any{"a0": map[string]any{"type": "object"}}
		for i := 1; i <= k; i++ {
			ref := map[string]any{"$ref": fmt.Sprintf("#/definitions/a%d", i-1)}
			defs[fmt.Sprintf("a%d", i)] = map[string]any{"allOf": []any{ref, ref}}
		}
		return map[string]any{"definitions": defs, "$ref": fmt.Sprintf("#/definitions/a%d", k)}
	}
	doc := func(s map[string]any) []byte {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// Two subschemas for every member, at every level of the value.
	fanning := map[string]any{"properties": map[string]any{"x": map[string]any{"$ref": "#"}},
		"patternProperties": map[string]any{"^x$": map[string]any{"$ref": "#"}}}
	nested := func(n int) any {
		var v any = map[string]any{}
		for range n {
			v = map[string]any{"x": v}
		}
		return v
	}
	if err := ValidateJSONSchema(doubling(10)); err != nil {
		t.Fatalf("10 doublings: %v", err)
	}
	for _, k := range []int{20, 60} {
		if _, msg := fieldErr(t, ValidateJSONSchema(doubling(k))); !strings.Contains(msg, "too complex") {
			t.Errorf("%d doublings saved: %q", k, msg)
		}
		if _, msg := fieldErr(t, ValidateAttributes(doc(doubling(k)), map[string]any{})); !strings.Contains(msg, "too complex") {
			t.Errorf("%d doublings used: %q", k, msg)
		}
		if v, err := SchemaViolation(doc(doubling(k)), map[string]any{}); err != nil || !strings.Contains(v, "too complex") {
			t.Errorf("%d doublings in a profile: %q %v", k, v, err)
		}
	}
	if err := ValidateJSONSchema(fanning); err != nil {
		t.Fatalf("fanning schema: %v", err)
	}
	if _, msg := fieldErr(t, ValidateAttributes(doc(fanning), nested(10))); msg != "" {
		t.Errorf("fanning over 10 levels: %q", msg)
	}
	if _, msg := fieldErr(t, ValidateAttributes(doc(fanning), nested(40))); !strings.Contains(msg, "too complex") {
		t.Errorf("fanning over 40 levels: %q", msg)
	}
	recursive := []byte(`{"type": "object", "properties": {"x": {"$ref": "#"}}, "additionalProperties": {"type": "integer"}}`)
	if _, msg := fieldErr(t, ValidateAttributes(recursive, nested(60))); msg != "" {
		t.Errorf("recursion through a property: %q", msg)
	}
}
