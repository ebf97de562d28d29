package resource

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// Reading a row's stored custom field data for its response. The document
// is one flat JSON object written by decodeCustomFields; a response shows
// each defined field's value in the definitions' order. Decoding the
// whole document into a map with encoding/json was a seventh of the cost
// of a page of 1000 prefixes (reflection, a validating pass, a map per
// row); cfFields finds the members in one pass instead and decodes a
// value only when it is shown, into the same Go values encoding/json
// gives (float64, string, bool, nil, []any, map[string]any), so the
// response is the same bytes.

// cfMember is one member of a stored custom field document: the key's and
// the value's JSON text.
type cfMember struct{ key, val []byte }

// cfFields appends the members of raw to into. ok is false when raw is not
// a flat object this reader takes as it is (a key with an escape, text it
// cannot parse): the caller decodes it with encoding/json instead.
func cfFields(into []cfMember, raw []byte) ([]cfMember, bool) {
	i := skipBlank(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return into, false
	}
	i = skipBlank(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return into, skipBlank(raw, i+1) == len(raw)
	}
	for {
		end, ok := skipString(raw, i)
		if !ok || bytes.IndexByte(raw[i:end], '\\') >= 0 {
			return into, false
		}
		key := raw[i+1 : end-1]
		i = skipBlank(raw, end)
		if i >= len(raw) || raw[i] != ':' {
			return into, false
		}
		i = skipBlank(raw, i+1)
		end, ok = skipValue(raw, i)
		if !ok {
			return into, false
		}
		into = append(into, cfMember{key, raw[i:end]})
		i = skipBlank(raw, end)
		if i >= len(raw) {
			return into, false
		}
		switch raw[i] {
		case ',':
			i = skipBlank(raw, i+1)
		case '}':
			return into, skipBlank(raw, i+1) == len(raw)
		default:
			return into, false
		}
	}
}

// cfDoc is one row's stored custom field data, read for lookups by name.
type cfDoc struct {
	members []cfMember
	m       map[string]any // what encoding/json made of a document cfFields did not take
}

// cfValues reads stored custom field data v (a json.RawMessage or nil).
// The members are kept in the page's scratch slice: a cfDoc is good until
// the next call.
func (p *Page) cfValues(v any) cfDoc {
	raw, _ := v.(json.RawMessage)
	if len(raw) == 0 {
		return cfDoc{}
	}
	members, ok := cfFields(p.cfScratch[:0], raw)
	p.cfScratch = members
	if !ok {
		return cfDoc{m: cfData(v)}
	}
	return cfDoc{members: members}
}

// get is the value of the named field, decoded; nil when absent or null.
func (d cfDoc) get(name string) any {
	if d.m != nil {
		return d.m[name]
	}
	return cfLookup(d.members, name)
}

// cfLookup is the value of the member named name (the last one, as
// encoding/json keeps), decoded; nil when absent or null.
func cfLookup(members []cfMember, name string) any {
	for i := len(members) - 1; i >= 0; i-- {
		if string(members[i].key) == name {
			return cfDecode(members[i].val)
		}
	}
	return nil
}

// cfDecode decodes one JSON value: scalars directly, arrays and objects
// with encoding/json.
func cfDecode(v []byte) any {
	switch c := v[0]; {
	case string(v) == "null":
		return nil
	case string(v) == "true":
		return true
	case string(v) == "false":
		return false
	case c == '"':
		s := v[1 : len(v)-1]
		if bytes.IndexByte(s, '\\') < 0 && utf8.Valid(s) {
			return string(s)
		}
	case c == '-' || c >= '0' && c <= '9':
		if f, err := strconv.ParseFloat(string(v), 64); err == nil {
			return f
		}
	}
	var x any
	_ = json.Unmarshal(v, &x)
	return x
}

func skipBlank(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the end of the JSON string starting at b[i].
func skipString(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return i, false
	}
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1, true
		}
	}
	return i, false
}

// skipValue returns the end of the JSON value starting at b[i]. It checks
// the nesting and the strings, not the scalars: cfDecode does.
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				end, ok := skipString(b, i)
				if !ok {
					return end, false
				}
				i = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, true
				}
			}
		}
		return i, false
	}
	start := i
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\n' && b[i] != '\t' && b[i] != '\r' {
		i++
	}
	return i, i > start
}
