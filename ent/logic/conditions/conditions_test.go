package conditions

import (
	"strings"
	"testing"
)

const data = `{"id": 4, "name": "Site 1", "status": {"value": "active", "label": "Active"},
 "tenant": null, "latitude": 1.5, "asn": 65000, "enabled": true,
 "tags": [{"slug": "core"}, {"slug": "edge"}], "custom_fields": {"cost": 10, "owner": "ops"},
 "nested": [{"a": null}]}`

func TestEvaluate(t *testing.T) {
	cases := []struct {
		name, cond string
		want       bool
		invalid    bool
	}{
		{"empty object", `{}`, true, false},
		{"null", `null`, true, false},
		{"empty list is falsy", `[]`, true, false},
		{"eq default op", `{"attr": "name", "value": "Site 1"}`, true, false},
		{"eq false", `{"attr": "name", "value": "Site 2"}`, false, false},
		{"negate", `{"attr": "name", "value": "Site 2", "negate": true}`, true, false},
		{"choice value", `{"attr": "status.value", "value": "active"}`, true, false},
		{"int eq float", `{"attr": "id", "value": 4.0}`, true, false},
		{"bool eq 1", `{"attr": "enabled", "value": 1}`, true, false},
		{"null eq", `{"attr": "tenant", "value": null}`, true, false},
		{"gt", `{"attr": "asn", "op": "gt", "value": 64999}`, true, false},
		{"gte", `{"attr": "asn", "op": "gte", "value": 65000}`, true, false},
		{"lt float", `{"attr": "latitude", "op": "lt", "value": 2}`, true, false},
		{"lte false", `{"attr": "latitude", "op": "lte", "value": 1}`, false, false},
		{"in", `{"attr": "status.value", "op": "in", "value": ["planned", "active"]}`, true, false},
		{"in false", `{"attr": "status.value", "op": "in", "value": ["planned"]}`, false, false},
		{"contains substring", `{"attr": "name", "op": "contains", "value": "te 1"}`, true, false},
		{"contains over list path", `{"attr": "tags.slug", "op": "contains", "value": "edge"}`, true, false},
		{"contains key", `{"attr": "custom_fields", "op": "contains", "value": "cost"}`, true, false},
		{"contains on number is invalid", `{"attr": "id", "op": "contains", "value": 4}`, false, true},
		{"regex anchored at start", `{"attr": "name", "op": "regex", "value": "Site"}`, true, false},
		{"regex not at start", `{"attr": "name", "op": "regex", "value": "1"}`, false, false},
		{"regex full", `{"attr": "name", "op": "regex", "value": ".*1$"}`, true, false},
		{"custom field", `{"attr": "custom_fields.cost", "op": "gte", "value": 10}`, true, false},
		{"missing key invalid", `{"attr": "nope", "value": 1}`, false, true},
		{"null intermediate invalid", `{"attr": "tenant.slug", "value": "x"}`, false, true},
		{"null in list invalid", `{"attr": "nested.a.b", "value": "x"}`, false, true},
		{"string vs number gt invalid", `{"attr": "name", "op": "gt", "value": 1}`, false, true},
		{"and", `{"and": [{"attr": "id", "value": 4}, {"attr": "status.value", "value": "active"}]}`, true, false},
		{"and false", `{"and": [{"attr": "id", "value": 4}, {"attr": "status.value", "value": "planned"}]}`, false, false},
		{"or", `{"or": [{"attr": "id", "value": 5}, {"attr": "status.value", "value": "active"}]}`, true, false},
		{"or short-circuit skips invalid", `{"or": [{"attr": "id", "value": 4}, {"attr": "nope", "value": 1}]}`, true, false},
		{"invalid inside or fails the rule", `{"or": [{"attr": "nope", "value": 1}, {"attr": "id", "value": 4}]}`, false, true},
		{"nested groups", `{"and": [{"or": [{"attr": "id", "value": 9}, {"attr": "tags.slug", "op": "contains", "value": "core"}]}, {"attr": "enabled", "value": true}]}`, true, false},
		{"upper-case logic", `{"AND": [{"attr": "id", "value": 4}]}`, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := EvaluateJSON([]byte(c.cond), []byte(data))
			if c.invalid {
				if _, ok := err.(*InvalidCondition); !ok {
					t.Fatalf("want InvalidCondition, got %v (result %v)", err, got)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	cases := []struct{ cond, msg string }{
		{`[1]`, "Ruleset must be a dictionary, not <class 'list'>."},
		{`"x"`, "Ruleset must be a dictionary, not <class 'str'>."},
		{`{"xor": []}`, "Invalid logic type: must be 'AND' or 'OR'. Please check documentation."},
		{`{"attr": "a", "value": 1, "bogus": 2}`, "Incorrect key(s) informed. Please check documentation."},
		{`{"attr": "a", "op": "eq"}`, "Incorrect key(s) informed. Please check documentation."},
		{`{"and": [{"attr": "a", "value": 1, "x": 1}]}`, "Incorrect key(s) informed. Please check documentation."},
		{`{"attr": "a", "value": 1, "op": "like"}`, "Unknown operator: like. Must be one of: eq, gt, gte, lt, lte, in, contains, regex"},
		// An op that is no string is shown as Python's str() shows it.
		{`{"attr": "a", "value": 1, "op": ["x", 1.0]}`, "Unknown operator: ['x', 1.0]. Must be one of: eq, gt, gte, lt, lte, in, contains, regex"},
		{`{"attr": "a", "value": 1, "op": 2.50}`, "Unknown operator: 2.5. Must be one of: eq, gt, gte, lt, lte, in, contains, regex"},
		{`{"attr": "a", "value": {"x": 1}}`, "Unsupported value type: <class 'dict'>"},
		{`{"attr": "a", "value": "x", "op": "gt"}`, "Invalid type for gt operation: <class 'str'>"},
		{`{"attr": "a", "value": [1], "op": "regex"}`, "Invalid type for regex operation: <class 'list'>"},
		{`{"attr": "a", "value": null, "op": "contains"}`, "Invalid type for contains operation: <class 'NoneType'>"},
		{`{"attr": "a", "value": true, "op": "in"}`, "Invalid type for in operation: <class 'bool'>"},
		{`{"attr": "a", "value": 1.5, "op": "regex"}`, "Invalid type for regex operation: <class 'float'>"},
		{`{"attr": "a", "value": "(", "op": "regex"}`, "Invalid regular expression: error parsing regexp: missing closing ): `(`"},
	}
	for _, c := range cases {
		err := Validate([]byte(c.cond))
		if err == nil || err.Error() != c.msg {
			t.Errorf("%s: got %v, want %q", c.cond, err, c.msg)
		}
	}
	for _, ok := range []string{`{}`, `null`, `{"attr": "a", "value": 1}`, `{"or": [{"and": []}]}`} {
		if err := Validate([]byte(ok)); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

// TestDepth: a ruleset nests at most jsonlimit.MaxDepth levels (31 groups
// around a condition), on save and when a stored rule is evaluated; one
// beyond, and one of 100,000 levels, is an error, never a crash.
func TestDepth(t *testing.T) {
	groups := func(n int, inner string) string {
		return strings.Repeat(`{"and": [`, n) + inner + strings.Repeat(`]}`, n)
	}
	cond := `{"attr": "id", "value": 4}`
	if err := Validate([]byte(groups(31, cond))); err != nil {
		t.Fatalf("31 groups: %v", err)
	}
	if ok, err := EvaluateJSON([]byte(groups(31, cond)), []byte(data)); err != nil || !ok {
		t.Fatalf("31 groups evaluated: %v %v", ok, err)
	}
	for _, raw := range []string{
		groups(32, cond),
		groups(50000, cond),
		`{"attr": "tags", "value": ` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`,
	} {
		err := Validate([]byte(raw))
		if err == nil || !strings.Contains(err.Error(), "Nested too deeply") {
			t.Errorf("%.40s…: %v", raw, err)
		}
		if ok, err := EvaluateJSON([]byte(raw), []byte(data)); ok || err == nil {
			t.Errorf("%.40s… evaluated: %v %v", raw, ok, err)
		}
	}
}
