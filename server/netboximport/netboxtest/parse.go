package netboxtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
)

// object is a JSON object with its keys in their order: Scaled writes its
// copies in NetBox's key order, as NetBox would.
type object []field

type field struct {
	k string
	v any
}

func (o object) get(key string) any {
	for _, f := range o {
		if f.k == key {
			return f.v
		}
	}
	return nil
}

func (o object) set(key string, v any) {
	for i := range o {
		if o[i].k == key {
			o[i].v = v
			return
		}
	}
}

// maxDepth bounds the nesting parseJSON follows (NetBox's objects nest a
// few levels; a deeper document would only exhaust the stack).
const maxDepth = 200

// parseJSON decodes one JSON value: objects as object, arrays as []any,
// numbers as json.Number, strings, bools and nil.
func parseJSON(b []byte) (any, error) {
	p := parser{b: b}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.b) {
		return nil, p.fail("after the value")
	}
	return v, nil
}

type parser struct {
	b []byte
	i int
}

func (p *parser) fail(what string) error {
	return fmt.Errorf("JSON: unexpected %s at byte %d", what, p.i)
}

func (p *parser) space() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\n' || p.b[p.i] == '\r' || p.b[p.i] == '\t') {
		p.i++
	}
}

func (p *parser) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, errors.New("JSON: nested too deep")
	}
	p.space()
	if p.i >= len(p.b) {
		return nil, p.fail("end")
	}
	switch c := p.b[p.i]; {
	case c == '{':
		p.i++
		o := object{}
		p.space()
		if p.i < len(p.b) && p.b[p.i] == '}' {
			p.i++
			return o, nil
		}
		for {
			p.space()
			if p.i >= len(p.b) || p.b[p.i] != '"' {
				return nil, p.fail("character, not a key,")
			}
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			p.space()
			if p.i >= len(p.b) || p.b[p.i] != ':' {
				return nil, p.fail("character, not ':',")
			}
			p.i++
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			o = append(o, field{k, v})
			p.space()
			if p.i < len(p.b) && p.b[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.b) && p.b[p.i] == '}' {
				p.i++
				return o, nil
			}
			return nil, p.fail("character in an object")
		}
	case c == '[':
		p.i++
		a := []any{}
		p.space()
		if p.i < len(p.b) && p.b[p.i] == ']' {
			p.i++
			return a, nil
		}
		for {
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
			p.space()
			if p.i < len(p.b) && p.b[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.b) && p.b[p.i] == ']' {
				p.i++
				return a, nil
			}
			return nil, p.fail("character in an array")
		}
	case c == '"':
		return p.str()
	case c == 't' || c == 'f' || c == 'n':
		for _, w := range []struct {
			s string
			v any
		}{{"true", true}, {"false", false}, {"null", nil}} {
			if len(p.b)-p.i >= len(w.s) && string(p.b[p.i:p.i+len(w.s)]) == w.s {
				p.i += len(w.s)
				return w.v, nil
			}
		}
		return nil, p.fail("word")
	default:
		start := p.i
		for p.i < len(p.b) && (p.b[p.i] >= '0' && p.b[p.i] <= '9' || p.b[p.i] == '-' || p.b[p.i] == '+' || p.b[p.i] == '.' || p.b[p.i] == 'e' || p.b[p.i] == 'E') {
			p.i++
		}
		n := json.Number(p.b[start:p.i])
		if _, err := n.Float64(); err != nil || p.i == start {
			p.i = start
			return nil, p.fail("character")
		}
		return n, nil
	}
}

// str reads a string at p.i (its opening quote).
func (p *parser) str() (string, error) {
	start := p.i
	p.i++
	escaped := false
	for p.i < len(p.b) {
		switch c := p.b[p.i]; {
		case c == '\\':
			escaped = true
			p.i += 2
			continue
		case c == '"':
			p.i++
			if s := p.b[start+1 : p.i-1]; !escaped && utf8.Valid(s) {
				return string(s), nil
			}
			// Escapes and invalid bytes as encoding/json reads them.
			var s string
			if err := json.Unmarshal(p.b[start:p.i], &s); err != nil {
				return "", err
			}
			return s, nil
		case c < 0x20:
			return "", p.fail("control character in a string")
		}
		p.i++
	}
	return "", p.fail("end in a string")
}
