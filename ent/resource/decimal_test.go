package resource

import (
	"encoding/json"
	"testing"
)

// TestDecimalLikeDRF: a site's latitude (DecimalField(max_digits=8,
// decimal_places=6) between -90.0 and 90.0) reads each JSON value as DRF
// does; the expectations were computed with Python's json and decimal
// following DRF's DecimalField.to_internal_value and validate_precision.
func TestDecimalLikeDRF(t *testing.T) {
	ptr := func(v float64) *float64 { return &v }
	f := &Field{Name: "latitude", Kind: KindFloat, Decimal: &Decimal{Digits: 8, Places: 6, Min: "-90.0", Max: "90.0"}}
	for _, c := range []struct {
		raw  string
		want *float64
		msg  string
	}{
		{"1000", nil, "Ensure that there are no more than 2 digits before the decimal point."},
		{"1e30", nil, "Ensure that there are no more than 8 digits in total."},
		{"12.1234567", nil, "Ensure that there are no more than 8 digits in total."},
		{"12.123456", ptr(12.123456), ""},
		{"-90", ptr(-90.0), ""},
		{"-90.000001", nil, "Ensure this value is greater than or equal to -90.0."},
		{"90.5", nil, "Ensure this value is less than or equal to 90.0."},
		{"\"  45.5 \"", ptr(45.5), ""},
		{"\"abc\"", nil, "A valid number is required."},
		{"true", nil, "A valid number is required."},
		{"\"NaN\"", nil, "A valid number is required."},
		{"\"Infinity\"", nil, "A valid number is required."},
		{"1e400", nil, "A valid number is required."},
		{"0.00001", ptr(1e-05), ""},
		{"1e-7", nil, "Ensure that there are no more than 6 decimal places."},
		{"12.0", ptr(12.0), ""},
		{"100000000.0", nil, "Ensure that there are no more than 8 digits in total."},
		{"99.999999", nil, "Ensure this value is less than or equal to 90.0."},
		{"-180", nil, "Ensure that there are no more than 2 digits before the decimal point."},
		{"1180591620717411303424", nil, "Ensure that there are no more than 8 digits in total."},
		{"\"1e2\"", nil, "Ensure that there are no more than 2 digits before the decimal point."},
		{"0", ptr(0.0), ""},
		{"\"-0.0000001\"", nil, "Ensure that there are no more than 6 decimal places."},
		{"45.0000001", nil, "Ensure that there are no more than 8 digits in total."},
		{"12345678", nil, "Ensure that there are no more than 2 digits before the decimal point."},
		{"1e15", nil, "Ensure that there are no more than 8 digits in total."},
		{"1e16", nil, "Ensure that there are no more than 8 digits in total."},
		{"123456789012345678", nil, "Ensure that there are no more than 8 digits in total."},
		{"0.0001", ptr(0.0001), ""},
		{"\".\"", nil, "A valid number is required."},
		{"\"+5\"", ptr(5.0), ""},
		{"\"5.\"", ptr(5.0), ""},
		{"\".5\"", ptr(0.5), ""},
	} {
		v, msgs := decodeFloat(f, json.RawMessage(c.raw))
		switch {
		case c.want == nil && (len(msgs) != 1 || msgs[0] != c.msg):
			t.Errorf("%s: %v %q, want %q", c.raw, v, msgs, c.msg)
		case c.want != nil && (msgs != nil || v != *c.want):
			t.Errorf("%s: %v %q, want %v", c.raw, v, msgs, *c.want)
		}
	}
}
