package filters

import (
	"strings"
	"unicode"
)

// NaturalDigits is the width to which NaturalKey left-pads every run of
// ASCII digits. Numbers of up to 20 significant digits (all of uint64)
// compare by value; longer runs keep their digits unpadded and compare
// after every shorter number, among themselves by their leading digits.
const NaturalDigits = 20

// naturalSep ends the case-folded part of a key: below every character a
// name can hold (NUL is refused, PostgreSQL text cannot store it), so that
// a prefix sorts first ("Site" before "Site 1").
const naturalSep = "\x01"

// NaturalNull is the sort key of a NULL value (an unnamed device): above
// every key NaturalKey makes, so that a NULL sorts last ascending and first
// descending, where PostgreSQL's default places NULLs (and so NetBox lists
// them), on both databases and through the same index as the names. It is
// U+10FFFF, the last code point, twice: a key beginning with it would need
// a name beginning with two of that noncharacter, and then only its place
// among the NULLs would be off.
const NaturalNull = "\U0010FFFF\U0010FFFF"

// NaturalKey is the sort key of s under NetBox's natural_sort collation
// (PostgreSQL's ICU "und-u-kn-true"), as far as byte order can follow it:
// keys compared byte-wise (COLLATE "C" on PostgreSQL, BINARY on SQLite)
// order their values alike on both databases.
//
// The key is the value case-folded, with each run of ASCII digits stripped
// of leading zeros and left-padded with zeros to NaturalDigits, so that
// numbers compare by value ("site9" before "site10") and case matters
// only between otherwise equal values, as in ICU ("site 1" before
// "Site 1a"); then, to break such ties, the padded value with its ASCII
// letter case swapped (ICU sorts lower case first). Beyond ICU's numeric
// ordering the approximation is byte order: punctuation keeps its ASCII
// place and non-ASCII letters sort after ASCII ones.
func NaturalKey(s string) string {
	padded := padDigits(s)
	var b strings.Builder
	b.Grow(2*len(padded) + 1)
	b.WriteString(strings.ToLower(padded))
	b.WriteString(naturalSep)
	for _, r := range padded {
		switch {
		case r >= 'a' && r <= 'z':
			r = unicode.ToUpper(r)
		case r >= 'A' && r <= 'Z':
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

func padDigits(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] < '0' || s[i] > '9' {
			j := i
			for j < len(s) && (s[j] < '0' || s[j] > '9') {
				j++
			}
			b.WriteString(s[i:j])
			i = j
			continue
		}
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		run := strings.TrimLeft(s[i:j], "0")
		for k := len(run); k < NaturalDigits; k++ {
			b.WriteByte('0')
		}
		b.WriteString(run)
		i = j
	}
	return b.String()
}
