package server

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/inventory/inventory/filters"
)

// TestOpenAPIFilterTexts: each filter value pattern (openapi_filtertext.go)
// accepts exactly the texts the filters accept, so that the document
// promises no 400 the server does not give and the reverse. The corpus:
// examples and edge cases, every month and day of a few years in each date
// layout, and random edits of them (deterministic).
func TestOpenAPIFilterTexts(t *testing.T) {
	cases := []struct {
		kind     filters.Kind
		nullable bool
		examples []string
	}{
		{filters.Integer, false, []string{"0", "5", "-5", "+5", "007", "5.", "5.000", " 5\t", "\u00a05\u3000", "5.0 ",
			"9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
			"000000000000000000000009223372036854775807", "+9223372036854775807.0", "5e3", "0x10", "1_000", ".0",
			"-", "+", "null", "NULL", " null", "\u00855\u2028", "\ufeff5", "\u200b5", "٥"}},
		{filters.ForeignID, true, []string{"1", "null", "null ", "Null", "-1", "1.0", " 2 "}},
		{filters.Decimal, false, []string{"0", "1.5", "-1.5", "+.5", "5.", ".", "1e5", "1E-5", "1e+5", "1e", "1_000.5", "1__0",
			"_1", "1_", "1_.5", "1._5", "1e_5", "1e5_0", "0x1p-2", "0X1.8P3", "0x_1p0", "0x1", "0x.8p1", "0x.p1", "0xg",
			"inf", "-Inf", "NaN", "infinity", "1e-400", "1e400", "-0x1p99999", " 2.5 ", "1,5", "٥", "0b101", "0o7", "1e5.5"}},
		{filters.Date, false, []string{"2024-02-29", "2023-02-29", "2000-02-29", "1900-02-29", "0000-02-29", "2024-13-01",
			"2024-04-31", "2024-1-01", "02/29/2024", "02/29/24", "02/29/23", "12/31/-5", "02/29/-4", "02/29/+8", "02/29/-2",
			" 2024-01-01 ", "2024-01-01T00:00", "20240101", "2024/01/01", "01/02/2024x"}},
		{filters.DateTime, true, []string{"2024-01-01", "2024-01-01T10:00", "2024-01-01T1:00", "2024-01-01T10:00:00",
			"2024-01-01T10:00:00.123456789123Z", "2024-01-01T10:00:00,5+02:00", "2024-01-01 10:00+0200", "2024-01-01   10:00-02",
			"2024-01-01T24:00", "2024-01-01T23:60", "2024-01-01T10:00:60", "2024-01-01T10:00+24:60", "2024-01-01T10:00+25:00",
			"2024-01-01T10:00+02:61", "2024-01-01T10:00z", "2024-01-01t10:00", "2024-01-01T10:00.5", "2024-01-01T10:00:00.",
			"01/02/2024 10:00", "01/02/24 10:00:00.5", "01/02/2024 10:00Z", "01/02/2024T10:00", "2024-01-0110:00",
			"2024-02-30T10:00", "null", " 2024-01-01T10:00Z\n", "2024-01-01T10:00 +02:00"}},
	}
	alphabet := []rune("0123456789+-.,_eExXpPabcdfTZ:/ \t\u00a0\u2028\u0085\ufeffnul")
	rnd := rand.New(rand.NewPCG(16, 16))
	edit := func(s string) string {
		r := []rune(s)
		for range 1 + rnd.IntN(3) {
			i := rnd.IntN(len(r) + 1)
			c := alphabet[rnd.IntN(len(alphabet))]
			switch op := rnd.IntN(3); {
			case op == 0 || len(r) == 0 || i == len(r):
				r = append(r[:i], append([]rune{c}, r[i:]...)...)
			case op == 1:
				r = append(r[:i], r[i+1:]...)
			default:
				r[i] = c
			}
		}
		return string(r)
	}
	var dates []string
	for _, y := range []int{0, 1900, 1969, 2000, 2023, 2024, 2068, 2100} {
		for m := 0; m <= 13; m++ {
			for d := 0; d <= 32; d++ {
				dates = append(dates, fmt.Sprintf("%04d-%02d-%02d", y, m, d), fmt.Sprintf("%02d/%02d/%04d", m, d, y),
					fmt.Sprintf("%02d/%02d/%02d", m, d, y%100))
			}
		}
	}
	for _, c := range cases {
		s := &openapi3.Schema{Type: &openapi3.Types{"string"}, Pattern: oasFilterText(oasFilterTexts[c.kind].body, c.nullable)}
		if c.kind == filters.ForeignID {
			s.Pattern = oasFilterText(oasFilterIntBody, true)
		}
		f := &filters.Filter{Name: "f", Kind: c.kind, Column: "c", Nullable: c.nullable}
		spec := &filters.Spec{Table: "t", Filters: []*filters.Filter{f}}
		corpus := append([]string{""}, c.examples...)
		for _, e := range c.examples {
			for range 500 {
				corpus = append(corpus, edit(e))
			}
		}
		if c.kind == filters.Date || c.kind == filters.DateTime {
			for _, d := range dates {
				corpus = append(corpus, d, edit(d), edit(d))
				if c.kind == filters.DateTime {
					corpus = append(corpus, d+"T10:00", edit(d+" 23:59:59.5"))
				}
			}
		}
		accepted := 0
		for _, v := range corpus {
			if !utf8.ValidString(v) {
				continue
			}
			_, err := spec.Resolve(context.Background(), url.Values{"f": {v}}, filters.Options{})
			var fe filters.Errors
			if err != nil && !errors.As(err, &fe) {
				t.Fatalf("%q: %v", v, err)
			}
			matches := s.VisitJSON(v) == nil
			if c.kind == filters.Decimal && matches && err != nil {
				// The one thing a pattern cannot say: beyond float64.
				if _, perr := strconv.ParseFloat(strings.TrimSpace(v), 64); errors.Is(perr, strconv.ErrRange) {
					continue
				}
			}
			if matches != (err == nil) {
				t.Errorf("kind %d: %q: pattern matches %v, filter error %v", c.kind, v, matches, err)
			}
			if matches {
				accepted++
			}
		}
		t.Logf("kind %d: %d texts, %d accepted", c.kind, len(corpus), accepted)
	}

	// The special endpoints' integers (strconv.Atoi after
	// strings.TrimSpace: the task list's webhook_id, the rack elevation's
	// exclude) and booleans (the elevation's expand_devices: lowered, one
	// of DRF's words), and the boolean filters' words (filters.BoolValue).
	query := &openapi3.Schema{Type: &openapi3.Types{"string"}, Pattern: oasFilterText(oasAtoiBody, false)}
	queryBool := &openapi3.Schema{Type: &openapi3.Types{"string"}, Pattern: oasQueryBoolText}
	drf := map[string]bool{"": true, "true": true, "false": true, "1": true, "0": true, "yes": true, "no": true,
		"on": true, "off": true, "t": true, "f": true, "y": true, "n": true}
	words := oasFilterBool()
	var corpus []string
	for _, e := range append(cases[0].examples, "true", "True", "TRUE", "1", "0", "false", "yes", " true", "Off", "N") {
		corpus = append(corpus, e)
		for range 500 {
			corpus = append(corpus, edit(e))
		}
	}
	for _, v := range corpus {
		_, err := strconv.Atoi(strings.TrimSpace(v))
		if matches := query.VisitJSON(v) == nil; matches != (v == "" || err == nil) {
			t.Errorf("QueryInteger %q: pattern matches %v, Atoi error %v", v, matches, err)
		}
		if matches, want := queryBool.VisitJSON(v) == nil, drf[strings.ToLower(v)]; matches != want {
			t.Errorf("QueryBoolean %q: pattern matches %v, want %v", v, matches, want)
		}
		_, err = filters.BoolValue(v)
		if matches := words.VisitJSON(v) == nil; matches != (v == "" || err == nil) {
			t.Errorf("boolean filter %q: enum has it %v, filter error %v", v, matches, err)
		}
	}
}
