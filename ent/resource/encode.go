package resource

import (
	"encoding/json"
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// JSON output mirrors NetBox's renderer: compact, non-ASCII characters raw,
// U+2028/U+2029 escaped, HTML characters not escaped.

func itoa(n int) string { return strconv.Itoa(n) }

const hexDigits = "0123456789abcdef"

func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// FormatTime renders a timestamp as NetBox does: UTC, "Z", microseconds
// only when non-zero (then always six digits, like Python's isoformat).
func FormatTime(t time.Time) string { return string(appendTime(nil, t)) }

// appendTime appends FormatTime(t) to b.
//
// Digit by digit rather than with time.AppendFormat, which reads its
// layout anew on every call: every object has two timestamps, and on a
// page of 1000 AppendFormat was a sixth of the encoding. Years of other
// than four digits (never stored by the service) take AppendFormat.
func appendTime(b []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		if t.Nanosecond()/1000 != 0 {
			return t.AppendFormat(b, "2006-01-02T15:04:05.000000Z")
		}
		return t.AppendFormat(b, "2006-01-02T15:04:05Z")
	}
	hour, minute, sec := t.Clock()
	b = appendDigits(b, year, 4)
	b = appendDigits(append(b, '-'), int(month), 2)
	b = appendDigits(append(b, '-'), day, 2)
	b = appendDigits(append(b, 'T'), hour, 2)
	b = appendDigits(append(b, ':'), minute, 2)
	b = appendDigits(append(b, ':'), sec, 2)
	if us := t.Nanosecond() / 1000; us != 0 {
		b = appendDigits(append(b, '.'), us, 6)
	}
	return append(b, 'Z')
}

// appendDigits appends n (0 <= n < 10^width, width at most 6) as width
// digits, zero-padded.
func appendDigits(b []byte, n, width int) []byte {
	start := len(b)
	b = append(b, "000000"[:width]...)
	for i := len(b) - 1; i >= start && n > 0; i-- {
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return b
}

// ETag is NetBox's weak ETag of a timestamp: Python's isoformat with +00:00.
func ETag(t time.Time) string {
	t = t.UTC()
	if t.Nanosecond()/1000 != 0 {
		return `W/"` + t.Format("2006-01-02T15:04:05.000000") + `+00:00"`
	}
	return `W/"` + t.Format("2006-01-02T15:04:05") + `+00:00"`
}

func appendAny(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case string:
		return appendString(b, x)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case int64:
		return strconv.AppendInt(b, x, 10)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return append(b, "null"...)
		}
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.AppendInt(b, int64(x), 10)
		}
		return strconv.AppendFloat(b, x, 'f', -1, 64)
	case bool:
		return strconv.AppendBool(b, x)
	case time.Time:
		b = appendTime(append(b, '"'), x) // nothing in it to escape
		return append(b, '"')
	case json.RawMessage:
		if len(x) == 0 {
			return append(b, "null"...)
		}
		return append(b, x...)
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendAny(b, e)
		}
		return append(b, ']')
	case map[string]any:
		raw, _ := json.Marshal(x)
		return append(b, raw...)
	}
	raw, _ := json.Marshal(v)
	return append(b, raw...)
}
