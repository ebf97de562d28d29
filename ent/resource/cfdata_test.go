package resource

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestCFValues: reading stored custom field data member by member gives
// what decoding the whole document with encoding/json gives, for every
// kind of value and layout, and documents it does not take go through
// encoding/json.
func TestCFValues(t *testing.T) {
	names := []string{"a", "b", "c", "d", "e", "missing", `k"q`, "é"}
	for _, tc := range []struct {
		doc  string
		fast bool // read by cfFields
	}{
		{`{}`, true},
		{` { } `, true},
		{`{"a":1,"b":"x","c":true,"d":false,"e":null}`, true},
		{`{"a": -1.5e3, "b": "with spaces", "c": [1, "two", {"x": [3]}], "d": {"n": {"m": "}]"}}}`, true},
		{`{"a":9007199254740993,"b":"é ünïcode","c":0.1}`, true},
		{`{"a":"<&>","b":"\u00e9 \"q\" \\ \n","c":"\ud83d\ude00"}`, true},
		{`{"a":1,"a":2}`, true}, // the last one, as encoding/json
		{"{\n  \"a\": [1, 2],\n  \"b\": {}\n}\n", true},
		{`{"é":"key in UTF-8"}`, true},
		{`{"a":"]}","b":"{["}`, true},
		{`{"k\"q":1,"a":2}`, false}, // an escaped key
		{`{"a":1,}`, false},
		{`{"a" 1}`, false},
		{`{"a":1`, false},
		{`{"a":"unterminated}`, false},
		{`[1,2]`, false},
		{`null`, false},
		{`{"a":1} x`, false},
	} {
		var p Page
		doc := p.cfValues(json.RawMessage(tc.doc))
		if _, fast := cfFields(nil, []byte(tc.doc)); fast != tc.fast {
			t.Errorf("%s: read member by member = %v, want %v", tc.doc, fast, tc.fast)
		}
		want := cfData(json.RawMessage(tc.doc))
		for _, name := range names {
			if got := doc.get(name); !reflect.DeepEqual(got, want[name]) {
				t.Errorf("%s: %q = %#v, want %#v", tc.doc, name, got, want[name])
			}
		}
	}
	var p Page
	if v := p.cfValues(nil).get("a"); v != nil {
		t.Errorf("no document: %v", v)
	}
}
