package pyrepr

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// exactInt bounds the float64 values taken for integers: below 2^53 every
// integer is exact, so an integral float64 there stands for the integer
// the client wrote.
const exactInt = 1 << 53

// Repr is Python's repr() of a decoded JSON value: None, True, False,
// 'str' (quoted and escaped as Python does), ints, floats (1.0, 1e+16),
// [lists] and {dicts}.
//
// Numbers are json.Number (decoded with UseNumber: its text decides int or
// float, as Python's json module does, so 1.0 is a float and 10 an int),
// Go integers, or float64. A float64 is how encoding/json decodes every
// number without UseNumber, which loses whether the client wrote 5 or 5.0;
// an integral one (below 2^53) is taken for the int most clients mean, any
// other is a float.
//
// A dict's keys come in sorted order: a Go map keeps no order, where
// Python's dict keeps the request's.
func Repr(v any) string {
	var b strings.Builder
	repr(&b, v)
	return b.String()
}

// Str is Python's str() of a decoded JSON value, as NetBox's messages
// format values with str.format(): a string bare, anything else (lists
// and dicts included, whose items are shown by repr) as Repr.
func Str(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return Repr(v)
}

// Type is the name of a decoded JSON value's Python type, with numbers
// told apart as Repr does. A value that is not decoded JSON gets its Go
// type, which no NetBox message shows: a bug to see, not to hide.
func Type(v any) string {
	switch x := v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case string:
		return "str"
	case json.Number:
		if isFloatText(string(x)) {
			return "float"
		}
		return "int"
	case int, int64:
		return "int"
	case float64:
		if isIntegral(x) {
			return "int"
		}
		return "float"
	case []any:
		return "list"
	case map[string]any:
		return "dict"
	}
	return fmt.Sprintf("%T", v)
}

// TypeOfJSON is Type of the value JSON text holds, read from its first
// non-space byte without decoding it (raw is assumed valid JSON; empty
// text is None). DRF names the type of a request's value this way before
// anything is decoded.
func TypeOfJSON(raw []byte) string {
	for len(raw) > 0 && (raw[0] == ' ' || raw[0] == '\t' || raw[0] == '\n' || raw[0] == '\r') {
		raw = raw[1:]
	}
	if len(raw) == 0 {
		return "NoneType"
	}
	switch raw[0] {
	case '"':
		return "str"
	case '[':
		return "list"
	case '{':
		return "dict"
	case 't', 'f':
		return "bool"
	case 'n':
		return "NoneType"
	}
	if isFloatText(string(raw)) {
		return "float"
	}
	return "int"
}

// isFloatText reports whether a JSON number's text is a float to Python's
// json module: one with a fraction or an exponent.
func isFloatText(s string) bool { return strings.ContainsAny(s, ".eE") }

func isIntegral(f float64) bool { return f == math.Trunc(f) && math.Abs(f) < exactInt }

func repr(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case string:
		reprString(b, x)
	case json.Number:
		reprNumber(b, string(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		if isIntegral(x) {
			b.WriteString(strconv.FormatInt(int64(x), 10))
		} else {
			reprFloat(b, x)
		}
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			repr(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			reprString(b, k)
			b.WriteString(": ")
			repr(b, x[k])
		}
		b.WriteByte('}')
	default:
		fmt.Fprint(b, v)
	}
}

// reprNumber writes a JSON number's text as Python shows the int or float
// its json module decodes it to.
func reprNumber(b *strings.Builder, s string) {
	if !isFloatText(s) {
		if s == "-0" { // int("-0") is 0; JSON allows no other non-canonical integer
			s = "0"
		}
		b.WriteString(s)
		return
	}
	// Out of range is ±inf (err is ErrRange with the infinity), as Python
	// reads 1e400.
	f, _ := strconv.ParseFloat(s, 64)
	reprFloat(b, f)
}

// reprFloat is Python's float repr: the shortest digits that read back to
// the same float, in positional notation with at least one decimal
// (1.0, 0.0001, 1000000000000000.0), or in exponent notation when the
// decimal exponent is below -4 or at least 16 (1e-05, 1.5e+16).
func reprFloat(b *strings.Builder, f float64) {
	switch {
	case math.IsInf(f, 1):
		b.WriteString("inf")
		return
	case math.IsInf(f, -1):
		b.WriteString("-inf")
		return
	case math.IsNaN(f):
		b.WriteString("nan")
		return
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX, XX at least two digits as Python's
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	if exp < -4 || exp >= 16 {
		b.WriteString(e)
		return
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	b.WriteString(s)
	if !strings.ContainsRune(s, '.') {
		b.WriteString(".0")
	}
}

// reprString is Python's repr of a str: in single quotes, or in double
// quotes when it holds a single quote and no double quote; the quote in
// use and backslashes escaped, \t \n \r by name, other control and
// unprintable characters as \xhh, \uhhhh or \Uhhhhhhhh.
func reprString(b *strings.Builder, s string) {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	b.WriteByte(quote)
	for _, r := range s {
		switch {
		case r == rune(quote) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < ' ' || r == 0x7f:
			fmt.Fprintf(b, `\x%02x`, r)
		case r < 0x7f:
			b.WriteRune(r)
		case unicode.IsPrint(r):
			// Python's str.isprintable: letters, marks, numbers,
			// punctuation and symbols; no other spaces, format or
			// private-use characters.
			b.WriteRune(r)
		case r <= 0xff:
			fmt.Fprintf(b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			fmt.Fprintf(b, `\U%08x`, r)
		}
	}
	b.WriteByte(quote)
}
