package pyrepr

import (
	"bytes"
	"encoding/json"
	"testing"
)

// pyCases were printed once by CPython 3.11 (json.loads of the text, then
// repr(v), str(v), type(v).__name__); plain says whether encoding/json's
// decoding without UseNumber (every number a float64) keeps Python's
// answer: it cannot for integral floats such as 1.0, which read as the
// int 1, nor for ints beyond 2^53 or numbers beyond float64's range.
var pyCases = []struct {
	json, repr, str, typ string
	plain                bool
}{
	{`null`, `None`, `None`, `NoneType`, true},
	{`true`, `True`, `True`, `bool`, true},
	{`false`, `False`, `False`, `bool`, true},
	{`0`, `0`, `0`, `int`, true},
	{`-0`, `0`, `0`, `int`, true},
	{`7`, `7`, `7`, `int`, true},
	{`-42`, `-42`, `-42`, `int`, true},
	{`123456789012345678901234567890`, `123456789012345678901234567890`, `123456789012345678901234567890`, `int`, false},
	{`0.0`, `0.0`, `0.0`, `float`, false},
	{`-0.0`, `-0.0`, `-0.0`, `float`, false},
	{`1.0`, `1.0`, `1.0`, `float`, false},
	{`1.5`, `1.5`, `1.5`, `float`, true},
	{`-2.25`, `-2.25`, `-2.25`, `float`, true},
	{`1e5`, `100000.0`, `100000.0`, `float`, false},
	{`1E5`, `100000.0`, `100000.0`, `float`, false},
	{`2.5e-3`, `0.0025`, `0.0025`, `float`, true},
	{`1e-4`, `0.0001`, `0.0001`, `float`, true},
	{`1e-5`, `1e-05`, `1e-05`, `float`, true},
	{`0.00001234`, `1.234e-05`, `1.234e-05`, `float`, true},
	{`1e15`, `1000000000000000.0`, `1000000000000000.0`, `float`, false},
	{`1e16`, `1e+16`, `1e+16`, `float`, true},
	{`1.5e16`, `1.5e+16`, `1.5e+16`, `float`, true},
	{`9999999999999998.0`, `9999999999999998.0`, `9999999999999998.0`, `float`, true},
	{`123456789.123456789`, `123456789.12345679`, `123456789.12345679`, `float`, true},
	{`0.1`, `0.1`, `0.1`, `float`, true},
	{`1e22`, `1e+22`, `1e+22`, `float`, true},
	{`1e400`, `inf`, `inf`, `float`, false},
	{`-1e400`, `-inf`, `-inf`, `float`, false},
	{`1e-400`, `0.0`, `0.0`, `float`, false},
	{`3.141592653589793`, `3.141592653589793`, `3.141592653589793`, `float`, true},
	{`100.0`, `100.0`, `100.0`, `float`, false},
	{`""`, `''`, ``, `str`, true},
	{`"abc"`, `'abc'`, `abc`, `str`, true},
	{`"it's"`, `"it's"`, `it's`, `str`, true},
	{`"say \"hi\""`, `'say "hi"'`, `say "hi"`, `str`, true},
	{`"both ' and \""`, `'both \' and "'`, `both ' and "`, `str`, true},
	{`"back\\slash"`, `'back\\slash'`, `back\slash`, `str`, true},
	{`"tab\there"`, `'tab\there'`, "tab\u0009here", `str`, true},
	{`"line\nbreak\r"`, `'line\nbreak\r'`, "line\u000abreak\u000d", `str`, true},
	{`"\u0000\u001f\u007f"`, `'\x00\x1f\x7f'`, "\u0000\u001f\u007f", `str`, true},
	{`"caf\u00e9"`, "'caf\u00e9'", "caf\u00e9", `str`, true},
	{`"\u00a0nbsp"`, `'\xa0nbsp'`, "\u00a0nbsp", `str`, true},
	{`"\u00ad"`, `'\xad'`, "\u00ad", `str`, true},
	{`"\u2028"`, `'\u2028'`, "\u2028", `str`, true},
	{`"\u200b"`, `'\u200b'`, "\u200b", `str`, true},
	{`"\ue000"`, `'\ue000'`, "\ue000", `str`, true},
	{`"\ud83d\ude00"`, "'\U0001f600'", "\U0001f600", `str`, true},
	{`"\u3000"`, `'\u3000'`, "\u3000", `str`, true},
	{`"\u0085"`, `'\x85'`, "\u0085", `str`, true},
	{`"\ufeff"`, `'\ufeff'`, "\ufeff", `str`, true},
	{`"\ufffd"`, "'\ufffd'", "\ufffd", `str`, true},
	{`"\udb80\udc00"`, `'\U000f0000'`, "\U000f0000", `str`, true},
	{`"Gr\u00fc\u00dfe \u65e5\u672c"`, "'Gr\u00fc\u00dfe \u65e5\u672c'", "Gr\u00fc\u00dfe \u65e5\u672c", `str`, true},
	{`[]`, `[]`, `[]`, `list`, true},
	{`{}`, `{}`, `{}`, `dict`, true},
	{`[1, "a", null, true, 1.0, [2.5, {}]]`, `[1, 'a', None, True, 1.0, [2.5, {}]]`, `[1, 'a', None, True, 1.0, [2.5, {}]]`, `list`, false},
	{`["a", "b"]`, `['a', 'b']`, `['a', 'b']`, `list`, true},
	{`["it's", "x"]`, `["it's", 'x']`, `["it's", 'x']`, `list`, true},
	{`{"a": 1, "b": [1, 2], "c": {"d": null}}`, `{'a': 1, 'b': [1, 2], 'c': {'d': None}}`, `{'a': 1, 'b': [1, 2], 'c': {'d': None}}`, `dict`, true},
	{`{"it's": "x", "slug": "conformance-zz"}`, `{"it's": 'x', 'slug': 'conformance-zz'}`, `{"it's": 'x', 'slug': 'conformance-zz'}`, `dict`, true},
	{`{"": ""}`, `{'': ''}`, `{'': ''}`, `dict`, true},
	{" \u0009\u000a [1]", `[1]`, `[1]`, `list`, true},
	{` "x" `, `'x'`, `x`, `str`, true},
}

func TestPython(t *testing.T) {
	for _, tc := range pyCases {
		dec := json.NewDecoder(bytes.NewReader([]byte(tc.json)))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s: %v", tc.json, err)
		}
		if got := Repr(v); got != tc.repr {
			t.Errorf("Repr(%s) = %s, Python: %s", tc.json, got, tc.repr)
		}
		if got := Str(v); got != tc.str {
			t.Errorf("Str(%s) = %q, Python: %q", tc.json, got, tc.str)
		}
		if got := Type(v); got != tc.typ {
			t.Errorf("Type(%s) = %s, Python: %s", tc.json, got, tc.typ)
		}
		if got := TypeOfJSON([]byte(tc.json)); got != tc.typ {
			t.Errorf("TypeOfJSON(%s) = %s, Python: %s", tc.json, got, tc.typ)
		}
		if !tc.plain {
			continue
		}
		var f any
		if err := json.Unmarshal([]byte(tc.json), &f); err != nil {
			t.Fatalf("%s: %v", tc.json, err)
		}
		if got := Repr(f); got != tc.repr {
			t.Errorf("Repr(%s decoded to float64) = %s, Python: %s", tc.json, got, tc.repr)
		}
		if got := Type(f); got != tc.typ {
			t.Errorf("Type(%s decoded to float64) = %s, Python: %s", tc.json, got, tc.typ)
		}
	}
}

// TestGoValues covers the Go values that are not json.Number: integers
// (ent/logic/jinja.Plain decodes JSON integers to int) and the float64s
// whose JSON text is lost, where an integral value is taken for the int a
// client most likely wrote.
func TestGoValues(t *testing.T) {
	for _, tc := range []struct {
		v         any
		repr, typ string
	}{
		{5, "5", "int"},
		{int64(-3), "-3", "int"},
		{float64(5), "5", "int"}, // 5 or 5.0 on the wire: taken for 5
		{float64(-0.0), "0", "int"},
		{2.5, "2.5", "float"},
		{float64(1 << 53), "9007199254740992.0", "float"}, // beyond exact integers: a float
		{1e300, "1e+300", "float"},
		{[]any{float64(1), 0.5, "a"}, "[1, 0.5, 'a']", "list"},
		{map[string]any{"b": float64(2), "a": nil}, "{'a': None, 'b': 2}", "dict"}, // keys sorted
		{[]string{"x"}, "[x]", "[]string"},                                         // not decoded JSON: shown as Go has it
	} {
		if got := Repr(tc.v); got != tc.repr {
			t.Errorf("Repr(%#v) = %s, want %s", tc.v, got, tc.repr)
		}
		if got := Type(tc.v); got != tc.typ {
			t.Errorf("Type(%#v) = %s, want %s", tc.v, got, tc.typ)
		}
	}
}

// TestTypeOfJSONEmpty: no value at all reads as None.
func TestTypeOfJSONEmpty(t *testing.T) {
	for _, raw := range []string{"", " \n\t\r"} {
		if got := TypeOfJSON([]byte(raw)); got != "NoneType" {
			t.Errorf("TypeOfJSON(%q) = %s, want NoneType", raw, got)
		}
	}
}
