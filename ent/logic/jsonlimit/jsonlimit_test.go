package jsonlimit

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestScan(t *testing.T) {
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	for _, c := range []struct {
		raw  string
		max  int
		path []any // nil: within max
	}{
		{`{"a": 1}`, 1, nil},
		{`{"a": {"b": 1}}`, 1, []any{"a"}},
		{`{"a": {"b": 1}}`, 2, nil},
		{`[1, 2, [3]]`, 1, []any{2}},
		{`[{}, {"x": 1, "y\"z": [[1]]}]`, 3, []any{1, `y"z`, 0}},
		{`{"s": "[[[[{{{{", "t": "\\\"[[["}`, 1, nil},
		{`{"a": [], "b": [[]]}`, 2, []any{"b", 0}},
		{`{"\u00e9": [[]]}`, 2, []any{"é", 0}},
		{deep, MaxDepth, slices.Repeat([]any{0}, MaxDepth)},
		{`"x"`, 0, nil},
		{`{}`, 0, []any{}},
	} {
		path, over := Scan([]byte(c.raw), c.max)
		if over != (c.path != nil) || !slices.Equal(path, c.path) {
			t.Errorf("%.40s (max %d): %q %v, want %q", c.raw, c.max, path, over, c.path)
		}
	}
}

func TestExceeds(t *testing.T) {
	var v any
	if err := json.Unmarshal([]byte(strings.Repeat(`{"a":[`, 5000)+strings.Repeat(`]}`, 5000)), &v); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(Message(), "64") {
		t.Errorf("message %q", Message())
	}
	for _, c := range []struct {
		v    any
		max  int
		want bool
	}{
		{v, 10000, false},
		{v, 9999, true},
		{v, MaxDepth, true},
		{map[string]any{"a": []any{1}}, 2, false},
		{map[string]any{"a": []any{[]any{}}}, 2, true},
		{json.RawMessage(`[[[[]]]]`), 1, false},
		{"x", 0, false},
		{nil, 0, false},
	} {
		if got := Exceeds(c.v, c.max); got != c.want {
			t.Errorf("Exceeds(%.30v, %d) = %v", c.v, c.max, got)
		}
	}
}
