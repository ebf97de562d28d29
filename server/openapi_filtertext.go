package server

import (
	"fmt"
	"strconv"
	"strings"
)

// Query values as texts: the values a list filter of a number or a date
// reads (filters.Resolve), and the special endpoints' integers and
// booleans, as ECMA 262 patterns; boolean filters and __empty as an enum
// of their words. The filters' are named schemas (FilterInteger,
// FilterDateTime...) that the filter parameters' items reference.
//
// Why text and not {type: integer} (the trade-off): a query value may be
// blank (dropped, as NetBox's filter sets drop it: ?created__gte= filters
// nothing) and, on nullable and related-object filters, "null" (none).
// Said as anyOf[integer, {enum: ["", "null"]}], the document gave no 400
// that the server does not give, but a fuzzer negating one branch of the
// anyOf (or the anyOf itself) makes values such as the string "0", [[5]]
// or None that are invalid as JSON and valid once sent (?id=0, ?id=5,
// ?owner_id=null), and schemathesis cannot tell for a repeatable (array)
// parameter: it reported schema-violating requests accepted (issue 16).
// A scalar boolean beside a blank fared no better: negating the anyOf
// gives lists (?name__empty=5&name__empty=true, which the server reads
// as true, the last value counting), and schemathesis, which forgives
// that alone, does not when another parameter's type was changed in the
// same request. A string with a pattern (or an enum) has one negation
// only, a text the pattern refuses, and no type change (a query string is
// text already), and the pattern is exactly what the server reads, so
// every such text is a 400. Generated clients get a string per value
// instead of an int or a bool (NetBox's own document says integer and
// boolean, and admits neither the blank nor "null" it accepts).
//
// The patterns use only what ECMA 262 (schemathesis, jsonschema), Go's
// RE2 (kin-openapi, which reads \uXXXX) and Python agree on: no \s or \d
// (Unicode or not depending on the engine), classes spelled out. The one
// thing they cannot say: a decimal's magnitude beyond float64 (1e400),
// which the server refuses with a 400; bounding it needs counting digits
// against the exponent, which no regular expression does.
//
// TestOpenAPIFilterTexts checks each pattern against the server's own
// parsing on a corpus of texts.

// oasFilterBlank is what strings.TrimSpace removes around a value
// (unicode.IsSpace: ASCII blanks, U+0085, U+00A0 and Unicode's
// White_Space).
const oasFilterBlank = `[\t\n\v\f\r \x85\xa0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]`

// oasUpTo matches the decimal numbers from 0 to n (digits only, n without
// leading zeros; shorter numbers with leading zeros too).
func oasUpTo(n string) string {
	alts := []string{fmt.Sprintf("[0-9]{1,%d}", len(n)-1)}
	for i := 0; i < len(n); i++ {
		if n[i] == '0' {
			continue
		}
		alt := n[:i] + "[0-" + string(n[i]-1) + "]"
		if rest := len(n) - i - 1; rest > 0 {
			alt += "[0-9]{" + strconv.Itoa(rest) + "}"
		}
		alts = append(alts, alt)
	}
	return "(?:" + strings.Join(append(alts, n), "|") + ")"
}

var (
	// An int64 in base 10 with a sign, leading zeros and a ".000"
	// fraction (filters.parseInt, Django's IntegerField).
	oasFilterIntBody = oasAtoiBody + `(?:\.0*)?`
	// An int64 as strconv.Atoi reads it (the special endpoints' integers,
	// after strings.TrimSpace).
	oasAtoiBody = `(?:[+-]?0*` + oasUpTo("9223372036854775807") + `|-0*9223372036854775808)`

	// A float as strconv.ParseFloat reads it (Go's floating-point literal
	// syntax: digits separated by single underscores, hexadecimal with a
	// p exponent), not Inf or NaN.
	oasFilterNumBody = func() string {
		dd := `[0-9](?:_?[0-9])*`
		hd := `[0-9a-fA-F](?:_?[0-9a-fA-F])*`
		dec := `(?:` + dd + `(?:\.(?:` + dd + `)?)?|\.` + dd + `)(?:[eE][+-]?` + dd + `)?`
		hex := `0[xX](?:_?` + hd + `(?:\.(?:` + hd + `)?)?|\.` + hd + `)[pP][+-]?` + dd
		return `[+-]?(?:` + dec + `|` + hex + `)`
	}()

	// Dates as the filters' layouts read them (filters.dateLayouts:
	// 2006-01-02, 01/02/2006, 01/02/06), real calendar days only: time.Parse
	// checks the day against the month and leap years. A two-digit year
	// is 19yy from 69, 20yy below; time.Parse also reads a sign and one
	// digit there (-5 is 1995, +4 2004).
	oasISODate, oasUSDate = func() (iso, us string) {
		m31, d31 := `(?:0[13578]|1[02])`, `(?:0[1-9]|[12][0-9]|3[01])`
		m30, d30 := `(?:0[469]|11)`, `(?:0[1-9]|[12][0-9]|30)`
		d28 := `(?:0[1-9]|1[0-9]|2[0-8])`
		y4, leap4 := `[0-9]{4}`, `(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)`
		y2, leap2 := `(?:[0-9]{2}|[-+][0-9])`, `(?:[02468][048]|[13579][26]|[-+][048])`
		iso = `(?:` + y4 + `-(?:` + m31 + `-` + d31 + `|` + m30 + `-` + d30 + `|02-` + d28 + `)|` + leap4 + `-02-29)`
		md := `(?:` + m31 + `/` + d31 + `|` + m30 + `/` + d30 + `|02/` + d28 + `)/`
		us = `(?:` + md + y4 + `|02/29/` + leap4 + `|` + md + y2 + `|02/29/` + leap2 + `)`
		return iso, us
	}()
	oasFilterDateBody = `(?:` + oasISODate + `|` + oasUSDate + `)`

	// Date/times as filters.dateTimeLayouts read them: an ISO date, T or
	// spaces, the hour (one or two digits), minutes, optional seconds
	// with any fraction (time.Parse reads one after the seconds) and an
	// optional zone (Z, ±hh:mm, ±hhmm, ±hh; time.Parse allows hours to 24
	// and minutes to 60); a US date, spaces and a time without zone; a
	// date alone.
	oasFilterDateTimeBody = func() string {
		hms := `(?:[01]?[0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:[.,][0-9]+)?)?`
		zone := `(?:Z|[+-](?:[01][0-9]|2[0-4])(?::?(?:[0-5][0-9]|60))?)`
		return `(?:` + oasFilterDateBody + `|` + oasISODate + `(?:T| +)` + hms + zone + `?|` + oasUSDate + ` +` + hms + `)`
	}()
)

// oasQueryBoolText is a special endpoint's boolean (the rack elevation's
// expand_devices: DRF's words in any letter case, not trimmed) or blank.
var oasQueryBoolText = "^" + oasBoolWords + "?$"

// oasFilterText is the pattern of a filter value of one of these bodies:
// the body between blanks, "null" when the filter takes it, or nothing.
func oasFilterText(body string, null bool) string {
	alts := oasFilterBlank + `*` + body + oasFilterBlank + `*`
	if null {
		alts += `|null`
	}
	return `^(?:` + alts + `)?$`
}
