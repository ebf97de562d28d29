package extras

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCompileValidationRegex: patterns Python and RE2 both refuse get
// NetBox's message; those only RE2 refuses say so; a compiled pattern
// matches from the start of the value only, as re.match.
func TestCompileValidationRegex(t *testing.T) {
	const re2 = " is not a valid regular expression for this service, which uses RE2 syntax"
	for _, tc := range []struct{ pattern, msg string }{
		{"(", "( is not a valid regular expression."},
		{"[a-", "[a- is not a valid regular expression."},
		{"a)", "a) is not a valid regular expression."},
		{"(?=a)", "(?=a)" + re2},
		{"(?<!a)b", "(?<!a)b" + re2},
		{`(a)\1`, `(a)\1` + re2},
		{`(?P<x>a)(?P=x)`, `(?P<x>a)(?P=x)` + re2},
		{"a{1001}", "a{1001}" + re2},
		{"a*+", "a*+" + re2},
	} {
		_, err := CompileValidationRegex(tc.pattern)
		if err == nil || !strings.HasPrefix(err.Error(), tc.msg) {
			t.Errorf("%q: %v, want %q...", tc.pattern, err, tc.msg)
		}
	}
	for _, tc := range []struct {
		pattern, value string
		match          bool
	}{
		{"[0-9]+", "123abc", true},
		{"[0-9]+", "abc123", false},
		{"^[A-Z]{3}$", "ABC", true},
		{"a|b", "b", true}, // the alternation is grouped before anchoring
		{"(?i)abc", "ABC", true},
		{"", "anything", true},
	} {
		re, err := CompileValidationRegex(tc.pattern)
		if err != nil {
			t.Fatalf("%q: %v", tc.pattern, err)
		}
		if got := re.MatchString(tc.value); got != tc.match {
			t.Errorf("%q on %q: %v, want %v", tc.pattern, tc.value, got, tc.match)
		}
	}
}

// TestCustomFieldValueRules: NetBox's CustomField.validate() as a default
// is checked with it, Python's int and float told apart.
func TestCustomFieldValueRules(t *testing.T) {
	ten, twenty := 10.0, 20.0
	for _, tc := range []struct {
		rules cfRules
		value string // JSON
		msg   string
	}{
		{cfRules{typ: "integer"}, `5`, ""},
		{cfRules{typ: "integer"}, `5.0`, "Value must be an integer."},
		{cfRules{typ: "integer"}, `true`, "Value must be an integer."},
		{cfRules{typ: "integer", min: &ten, max: &twenty}, `9`, "Value must be at least 10.0000"},
		{cfRules{typ: "integer", min: &ten, max: &twenty}, `21`, "Value must not exceed 20.0000"},
		{cfRules{typ: "decimal"}, `"1.5"`, ""},
		{cfRules{typ: "decimal"}, `"x"`, "Value must be a decimal."},
		{cfRules{typ: "boolean"}, `1`, ""},
		{cfRules{typ: "boolean"}, `2`, "Value must be true or false."},
		{cfRules{typ: "date"}, `"2026-02-30"`, "Date values must be in ISO 8601 format (YYYY-MM-DD)."},
		{cfRules{typ: "datetime"}, `"2026-01-31T10:00:00+02:00"`, ""},
		{cfRules{typ: "datetime"}, `"yesterday"`, "Date and time values must be in ISO 8601 format (YYYY-MM-DD HH:MM:SS)."},
		{cfRules{typ: "url", regex: "https://"}, `"http://x"`, "Value must match regex 'https://'"},
		{cfRules{typ: "url"}, `5`, "Value must be a string."},
		{cfRules{typ: "select", choiceSet: "S", extra: map[string]bool{"a": true}}, `"b"`, "Invalid choice (b) for choice set S."},
		{cfRules{typ: "multiselect", choiceSet: "S", extra: map[string]bool{"a": true}}, `["a", "b"]`, "Invalid choice(s) (['a', 'b']) for choice set S."},
		{cfRules{typ: "multiselect", choiceSet: "S", extra: map[string]bool{"a": true}}, `["it's", "b"]`, `Invalid choice(s) (["it's", 'b']) for choice set S.`},
		{cfRules{typ: "object"}, `"7"`, "Value must be an object ID, not str"},
		{cfRules{typ: "multiobject"}, `[1, 2.5]`, "Found invalid object ID: 2.5"},
		{cfRules{typ: "json", schema: []byte(`{"type": "object"}`)}, `{"a": 1}`, ""},
		{cfRules{typ: "text", required: true}, `""`, "Required field cannot be empty."},
	} {
		v, _, err := jsonOf(json.RawMessage(tc.value))
		if err != nil {
			t.Fatal(err)
		}
		if got := tc.rules.check(v); got != tc.msg {
			t.Errorf("%s %s: %q, want %q", tc.rules.typ, tc.value, got, tc.msg)
		}
	}
}
