package resource

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// A DecimalField (api.Field.Decimal) is read as DRF's DecimalField reads it:
// the JSON value becomes text as Python would print it (an integer
// literal exactly, a float by its shortest repr, a string stripped), that
// text a decimal, whose digits, decimal places and whole digits are
// checked against the declaration before its bounds, each with DRF's
// message. The value stored is the number itself (float columns): the
// checks guarantee it has no more places than NetBox would keep.

// maxDecimalString is DRF's DecimalField.MAX_STRING_LENGTH.
const maxDecimalString = 1000

var decimalRE = regexp.MustCompile(`^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$`)

// pyDecimal is Python's Decimal(text).as_tuple(): the coefficient's
// digits (no leading zeros; "0" for zero) and the exponent.
type pyDecimal struct {
	neg    bool
	digits string
	exp    int
}

// parsePyDecimal reads text as Python's Decimal constructor does (NaN and
// infinities are refused, as DRF refuses them).
func parsePyDecimal(text string) (pyDecimal, bool) {
	m := decimalRE.FindStringSubmatch(text)
	if m == nil || m[2] == "" && m[3] == "" {
		return pyDecimal{}, false
	}
	exp := 0
	if m[4] != "" {
		n, err := strconv.Atoi(m[4])
		if err != nil || n > 1<<20 || n < -(1<<20) {
			return pyDecimal{}, false
		}
		exp = n
	}
	digits := strings.TrimLeft(m[2]+m[3], "0")
	if digits == "" {
		digits = "0"
	}
	return pyDecimal{neg: m[1] == "-", digits: digits, exp: exp - len(m[3])}, true
}

// pyFloatDecimal is Decimal(repr(x)) for a Python float: the shortest
// digits that round-trip, printed in fixed notation with at least one
// decimal (100.0) between 1e-4 and 1e16, in scientific notation outside.
func pyFloatDecimal(x float64) pyDecimal {
	if x == 0 {
		return pyDecimal{digits: "0", exp: -1}
	}
	s := strconv.FormatFloat(x, 'e', -1, 64) // -d.ddde±XX
	s, neg := strings.CutPrefix(s, "-")
	mant, e, _ := strings.Cut(s, "e")
	e10, _ := strconv.Atoi(e)
	digits := strings.Replace(mant, ".", "", 1)
	n := len(digits)
	if e10 <= -5 || e10 >= 16 {
		return pyDecimal{neg: neg, digits: digits, exp: e10 - (n - 1)}
	}
	if frac := n - 1 - e10; frac > 0 {
		return pyDecimal{neg: neg, digits: digits, exp: -frac}
	}
	// A whole number: its zeros, then ".0".
	return pyDecimal{neg: neg, digits: digits + strings.Repeat("0", e10-(n-1)) + "0", exp: -1}
}

// precision is DRF's DecimalField.validate_precision.
func (d pyDecimal) precision() (total, whole, places int) {
	n := len(d.digits)
	switch {
	case d.exp >= 0:
		return n + d.exp, n + d.exp, 0
	case n > -d.exp:
		return n, n + d.exp, -d.exp
	}
	return -d.exp, 0, -d.exp
}

// decodeDecimal reads a DecimalField value.
func decodeDecimal(f *Field, raw json.RawMessage) (any, []string) {
	dec := f.Decimal
	invalid := []string{"A valid number is required."}
	text := strings.TrimSpace(string(raw))
	var d pyDecimal
	var ok bool
	switch {
	case text == "":
		return nil, invalid
	case text[0] == '"':
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, invalid
		}
		if s = TrimSpace(s); len(s) > maxDecimalString {
			return nil, []string{"String value too large."}
		}
		d, ok = parsePyDecimal(s)
	case strings.ContainsAny(text[:1], "-0123456789") && !strings.ContainsAny(text, ".eE"):
		// A JSON integer is a Python int: its digits exactly.
		d, ok = parsePyDecimal(text)
	case strings.ContainsAny(text[:1], "-0123456789"):
		x, err := strconv.ParseFloat(text, 64)
		if err != nil { // out of float range: Python's inf
			return nil, invalid
		}
		d, ok = pyFloatDecimal(x), true
	}
	if !ok {
		return nil, invalid
	}
	total, whole, places := d.precision()
	switch {
	case total > dec.Digits:
		return nil, []string{fmt.Sprintf("Ensure that there are no more than %d digits in total.", dec.Digits)}
	case places > dec.Places:
		return nil, []string{fmt.Sprintf("Ensure that there are no more than %d decimal places.", dec.Places)}
	case whole > dec.Digits-dec.Places:
		return nil, []string{fmt.Sprintf("Ensure that there are no more than %d digits before the decimal point.", dec.Digits-dec.Places)}
	}
	v, err := strconv.ParseFloat(d.text(), 64)
	if err != nil {
		return nil, invalid
	}
	if dec.Min != "" {
		if lim, _ := strconv.ParseFloat(dec.Min, 64); v < lim {
			return nil, []string{fmt.Sprintf("Ensure this value is greater than or equal to %s.", dec.Min)}
		}
	}
	if dec.Max != "" {
		if lim, _ := strconv.ParseFloat(dec.Max, 64); v > lim {
			return nil, []string{fmt.Sprintf("Ensure this value is less than or equal to %s.", dec.Max)}
		}
	}
	return v, nil
}

// text prints the decimal for strconv.ParseFloat.
func (d pyDecimal) text() string {
	s := d.digits + "e" + strconv.Itoa(d.exp)
	if d.neg {
		return "-" + s
	}
	return s
}
