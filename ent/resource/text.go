package resource

import (
	"fmt"
	"unicode/utf8"
)

// CheckJSONText reports why a JSON request body cannot be stored as text,
// in the words of NetBox's JSON parse errors ("" when it can). Go's
// encoding/json silently turns invalid UTF-8 and lone UTF-16 surrogate
// escapes ("\ud800") into U+FFFD, so a client's corrupt bytes would be
// stored as replacement characters; NetBox's parser refuses invalid UTF-8
// (and PostgreSQL cannot store a lone surrogate), so both are a 400 here,
// before any field is decoded.
func CheckJSONText(raw []byte) string {
	for i := 0; i < len(raw); {
		r, n := utf8.DecodeRune(raw[i:])
		if r == utf8.RuneError && n <= 1 {
			return fmt.Sprintf("'utf-8' codec can't decode byte 0x%02x in position %d: %s", raw[i], i, utf8Problem(raw[i:]))
		}
		i += n
	}
	in := false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == '"':
			in = !in
		case c == '\\' && in && i+1 < len(raw):
			i++
			if raw[i] != 'u' || i+4 >= len(raw) {
				continue
			}
			u := hex4(raw[i+1 : i+5])
			switch {
			case u >= 0xd800 && u <= 0xdbff:
				if i+10 < len(raw) && raw[i+5] == '\\' && raw[i+6] == 'u' {
					if lo := hex4(raw[i+7 : i+11]); lo >= 0xdc00 && lo <= 0xdfff {
						i += 10
						continue
					}
				}
				return fmt.Sprintf("lone surrogate '\\u%04x' in position %d: strings must be valid Unicode", u, i-1)
			case u >= 0xdc00 && u <= 0xdfff:
				return fmt.Sprintf("lone surrogate '\\u%04x' in position %d: strings must be valid Unicode", u, i-1)
			}
			i += 4
		}
	}
	return ""
}

// utf8Problem names the fault of an invalid UTF-8 sequence as Python's
// codec does.
func utf8Problem(b []byte) string {
	c := b[0]
	if c < 0xc2 || c > 0xf4 {
		return "invalid start byte"
	}
	want := 2
	if c >= 0xe0 {
		want = 3
	}
	if c >= 0xf0 {
		want = 4
	}
	if len(b) < want && !utf8.FullRune(b) {
		for _, x := range b[1:] {
			if x&0xc0 != 0x80 {
				return "invalid continuation byte"
			}
		}
		return "unexpected end of data"
	}
	return "invalid continuation byte"
}

// hex4 reads four hex digits (-1 when they are not).
func hex4(b []byte) int {
	n := 0
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			n = n*16 + int(c-'0')
		case c >= 'a' && c <= 'f':
			n = n*16 + int(c-'a'+10)
		case c >= 'A' && c <= 'F':
			n = n*16 + int(c-'A'+10)
		default:
			return -1
		}
	}
	return n
}
