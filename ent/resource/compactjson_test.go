package resource

import "testing"

func TestCompactJSON(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a":1}`, `{"a":1}`},
		{`{"a": 1, "b": [1, 2]}`, `{"a":1,"b":[1,2]}`},
		{`{"a b":"c d"}`, `{"a b":"c d"}`},     // blanks inside strings stay
		{`{"a\" b":"\\ "}`, `{"a\" b":"\\ "}`}, // escaped quote and backslash
		{`{"a\\": "x"}`, `{"a\\":"x"}`},        // a string ending in a backslash
		{"[1,\n\t2]\r\n", `[1,2]`},             // every kind of blank
		{`{"a": `, `{"a":`},                    // not JSON (never stored): blanks dropped all the same
		{`"x y" `, `"x y"`},
		{``, ``},
	} {
		if got := string(compactJSON([]byte(tc.in))); got != tc.want {
			t.Errorf("compactJSON(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
