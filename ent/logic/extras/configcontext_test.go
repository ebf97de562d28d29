package extras

import (
	"encoding/json"
	"testing"
)

// TestDeepMerge: NetBox's utilities.data.deepmerge, case by case.
func TestDeepMerge(t *testing.T) {
	for _, tc := range []struct{ name, old, new, want string }{
		{"disjoint keys", `{"a":1}`, `{"b":2}`, `{"a":1,"b":2}`},
		{"scalar replaced", `{"a":1}`, `{"a":"x"}`, `{"a":"x"}`},
		{"objects merge", `{"a":{"x":1,"y":2}}`, `{"a":{"y":3,"z":4}}`, `{"a":{"x":1,"y":3,"z":4}}`},
		{"nested objects merge", `{"a":{"b":{"c":1}}}`, `{"a":{"b":{"d":2}}}`, `{"a":{"b":{"c":1,"d":2}}}`},
		{"lists replaced", `{"a":[1,2]}`, `{"a":[3]}`, `{"a":[3]}`},
		{"empty object replaces", `{"a":{"x":1}}`, `{"a":{}}`, `{"a":{}}`},
		{"object replaces scalar", `{"a":1}`, `{"a":{"x":1}}`, `{"a":{"x":1}}`},
		{"scalar replaces object", `{"a":{"x":1}}`, `{"a":null}`, `{"a":null}`},
		{"nothing new", `{"a":1}`, `{}`, `{"a":1}`},
	} {
		var old, new map[string]any
		if err := json.Unmarshal([]byte(tc.old), &old); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(tc.new), &new); err != nil {
			t.Fatal(err)
		}
		oldText := tc.old
		got, _ := json.Marshal(DeepMerge(old, new))
		if string(got) != tc.want {
			t.Errorf("%s: %s into %s = %s, want %s", tc.name, tc.new, tc.old, got, tc.want)
		}
		if again, _ := json.Marshal(old); string(again) != oldText {
			t.Errorf("%s: the original changed to %s", tc.name, again)
		}
	}
}

// TestDecodeObject: a JSON object as drivers and the resource layer hand
// it over, numbers kept exact; anything else is no object.
func TestDecodeObject(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want string
	}{
		{nil, "null"},
		{`{"n":12345678901234567890}`, `{"n":12345678901234567890}`},
		{[]byte(`{"a":[1]}`), `{"a":[1]}`},
		{json.RawMessage(`{"a":1.50}`), `{"a":1.50}`},
		{map[string]any{"x": "y"}, `{"x":"y"}`},
		{`[1,2]`, "null"},
	} {
		m, err := decodeObject(tc.in)
		if err != nil {
			t.Fatalf("%v: %v", tc.in, err)
		}
		got, _ := json.Marshal(m)
		if string(got) != tc.want {
			t.Errorf("decodeObject(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
