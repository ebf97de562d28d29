package extras

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/inventory/inventory/ent/schema/api"
)

// Script modules without Python. NetBox imports an uploaded module and
// lists its Script subclasses with their Meta and variables; this server
// runs no Python, so ParseScriptModule reads the source statically: a
// tokenizer that knows Python's strings, brackets, comments, line
// continuations and indentation (and refuses a module where these are
// broken, as the import would), then the top-level imports from
// extras.scripts and the top-level classes deriving from Script (directly,
// through an alias or extras.scripts.Script, or through another script
// class of the module). Of a class it keeps the name, Meta.description and
// the script variables assigned in its body (name = SomeVar(...), where
// SomeVar comes from extras.scripts), inherited ones after its own as
// NetBox's _get_vars, reordered by Meta.field_order. What a static reading
// cannot see (classes built at run time, imports from other modules,
// conditional definitions) is not listed: README, Differences from NetBox.

// MaxScriptModuleSize is the largest script module accepted, in bytes.
const MaxScriptModuleSize = 1 << 20

// MaxScriptAncestors is the most classes of its module a Script class may
// derive from, directly or not. Each class's variables are resolved
// through its ancestry, so a module of thousands of classes each deriving
// from the one before took minutes to read; real modules derive a level
// or two.
const MaxScriptAncestors = 100

// ParsedScript is one Script class of a module.
type ParsedScript struct {
	Name        string
	Description string
	// Vars are the script variables in NetBox's order: name and class.
	Vars []ScriptVar
}

// ScriptVar is one script variable of a class.
type ScriptVar struct{ Name, Class string }

// ScriptDisplay is a script's display: "<name> (<module>)", NetBox's
// ScriptSerializer.get_display.
func ScriptDisplay(get api.Getter) string {
	n, _ := get("name").(string)
	m, _ := get("module_name").(string)
	return n + " (" + m + ")"
}

// RunScript answers POST /api/extras/scripts/<id>/: NetBox enqueues a job
// running the script's Python class; this server runs no Python, so every
// script is refused with NetBox's answer for a script that cannot run.
func RunScript(api.Request) (any, error) {
	return nil, &api.StatusError{Status: http.StatusBadRequest,
		Detail: "This script is not currently executable: this server does not run Python scripts."}
}

// token kinds.
const (
	tName = iota
	tString
	tNumber
	tOp
)

type token struct {
	kind int
	text string // the name, operator or number; a string's value
}

// logicalLine is one Python logical line: its indentation and tokens.
type logicalLine struct {
	indent int
	line   int // 1-based line number where it starts
	toks   []token
}

// syntaxError is what an import would report, with the line.
func syntaxError(line int, msg string) error {
	return fmt.Errorf("%s (line %d)", msg, line)
}

// tokenize splits source into logical lines, checking what Python's
// tokenizer checks: strings terminated, brackets balanced and matched,
// indentation consistent.
func tokenize(src string) ([]logicalLine, error) {
	var (
		out     []logicalLine
		cur     *logicalLine
		stack   []rune // open brackets
		opened  []int  // their lines
		indents = []int{0}
		line    = 1
		atStart = true // at the start of a physical line outside brackets
		cont    = false
	)
	rs := []rune(src)
	n := len(rs)
	closing := map[rune]rune{')': '(', ']': '[', '}': '{'}
	for i := 0; i < n; {
		r := rs[i]
		if atStart && len(stack) == 0 && !cont {
			// Measure the indentation of a new logical line.
			col, j := 0, i
			for j < n && (rs[j] == ' ' || rs[j] == '\t' || rs[j] == '\f') {
				switch rs[j] {
				case ' ':
					col++
				case '\t':
					col = (col/8 + 1) * 8
				case '\f':
					col = 0
				}
				j++
			}
			i, atStart = j, false
			if i >= n || rs[i] == '\n' || rs[i] == '\r' || rs[i] == '#' {
				// Blank or comment-only line: no indentation meaning.
				for i < n && rs[i] != '\n' {
					i++
				}
				continue
			}
			top := indents[len(indents)-1]
			switch {
			case col > top:
				if len(out) == 0 || !endsWithColon(out[len(out)-1]) {
					return nil, syntaxError(line, "unexpected indent")
				}
				indents = append(indents, col)
			case col < top:
				for len(indents) > 1 && indents[len(indents)-1] > col {
					indents = indents[:len(indents)-1]
				}
				if indents[len(indents)-1] != col {
					return nil, syntaxError(line, "unindent does not match any outer indentation level")
				}
			default:
				if len(out) > 0 && endsWithColon(out[len(out)-1]) {
					return nil, syntaxError(line, "expected an indented block")
				}
			}
			out = append(out, logicalLine{indent: col, line: line})
			cur = &out[len(out)-1]
			continue
		}
		cont = false
		switch {
		case r == '\n':
			line++
			i++
			atStart = true
		case r == ' ' || r == '\t' || r == '\f' || r == '\r':
			i++
		case r == '#':
			for i < n && rs[i] != '\n' {
				i++
			}
		case r == '\\':
			j := i + 1
			if j < n && rs[j] == '\r' {
				j++
			}
			if j >= n || rs[j] != '\n' {
				return nil, syntaxError(line, "unexpected character after line continuation character")
			}
			i, cont = j+1, true
			line++
		case isStringStart(rs, i):
			val, next, lines, err := readString(rs, i)
			if err != nil {
				return nil, syntaxError(line, err.Error())
			}
			cur.toks = append(cur.toks, token{kind: tString, text: val})
			i, line = next, line+lines
		case r == '_' || unicode.IsLetter(r):
			j := i
			for j < n && (rs[j] == '_' || unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j])) {
				j++
			}
			cur.toks = append(cur.toks, token{kind: tName, text: string(rs[i:j])})
			i = j
		case unicode.IsDigit(r) || r == '.' && i+1 < n && unicode.IsDigit(rs[i+1]):
			j := i
			for j < n && (rs[j] == '_' || rs[j] == '.' || unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j])) {
				j++
			}
			cur.toks = append(cur.toks, token{kind: tNumber, text: string(rs[i:j])})
			i = j
		default:
			switch r {
			case '(', '[', '{':
				stack, opened = append(stack, r), append(opened, line)
			case ')', ']', '}':
				if len(stack) == 0 {
					return nil, syntaxError(line, fmt.Sprintf("unmatched '%c'", r))
				}
				if stack[len(stack)-1] != closing[r] {
					return nil, syntaxError(line, fmt.Sprintf("closing parenthesis '%c' does not match opening parenthesis '%c' on line %d", r, stack[len(stack)-1], opened[len(opened)-1]))
				}
				stack, opened = stack[:len(stack)-1], opened[:len(opened)-1]
			}
			if r == 0 {
				return nil, syntaxError(line, "source code cannot contain null bytes")
			}
			cur.toks = append(cur.toks, token{kind: tOp, text: string(r)})
			i++
		}
	}
	if len(stack) > 0 {
		return nil, syntaxError(opened[len(opened)-1], fmt.Sprintf("'%c' was never closed", stack[len(stack)-1]))
	}
	if cont {
		return nil, syntaxError(line, "unexpected EOF while parsing")
	}
	if len(out) > 0 && endsWithColon(out[len(out)-1]) {
		return nil, syntaxError(line, "expected an indented block")
	}
	return out, nil
}

// endsWithColon says whether a logical line opens a block (a compound
// statement whose body follows on the next lines).
func endsWithColon(l logicalLine) bool {
	return len(l.toks) > 0 && l.toks[len(l.toks)-1].kind == tOp && l.toks[len(l.toks)-1].text == ":"
}

// isStringStart says whether a string literal, with any prefix, starts
// at i.
func isStringStart(rs []rune, i int) bool {
	j := i
	for j < len(rs) && j-i < 2 && strings.ContainsRune("rRbBuUfFtT", rs[j]) {
		j++
	}
	if j < len(rs) && (rs[j] == '"' || rs[j] == '\'') {
		// A prefix must not be the tail of a longer name ("xr'..'" is no
		// string: the name check runs first only for non-prefix letters).
		return i == 0 || !(rs[i-1] == '_' || unicode.IsLetter(rs[i-1]) || unicode.IsDigit(rs[i-1]))
	}
	return false
}

// readString reads the string literal at i: its value (escapes of a
// non-raw string resolved for the common cases), the index after it and
// the newlines it spans.
func readString(rs []rune, i int) (string, int, int, error) {
	raw := false
	for strings.ContainsRune("rRbBuUfFtT", rs[i]) {
		if rs[i] == 'r' || rs[i] == 'R' {
			raw = true
		}
		i++
	}
	q := rs[i]
	triple := i+2 < len(rs) && rs[i+1] == q && rs[i+2] == q
	if triple {
		i += 3
	} else {
		i++
	}
	var b strings.Builder
	lines := 0
	for i < len(rs) {
		r := rs[i]
		switch {
		case r == '\\' && i+1 < len(rs):
			e := rs[i+1]
			if e == '\n' {
				lines++
			}
			if raw {
				b.WriteRune(r)
				b.WriteRune(e)
			} else {
				switch e {
				case 'n':
					b.WriteRune('\n')
				case 't':
					b.WriteRune('\t')
				case '\n':
				case '\\', '\'', '"':
					b.WriteRune(e)
				default:
					b.WriteRune(r)
					b.WriteRune(e)
				}
			}
			i += 2
		case r == q && (!triple || i+2 < len(rs) && rs[i+1] == q && rs[i+2] == q):
			if triple {
				return b.String(), i + 3, lines, nil
			}
			return b.String(), i + 1, lines, nil
		case r == '\n':
			if !triple {
				return "", 0, 0, errors.New("unterminated string literal")
			}
			lines++
			b.WriteRune(r)
			i++
		default:
			b.WriteRune(r)
			i++
		}
	}
	if triple {
		return "", 0, 0, errors.New("unterminated triple-quoted string literal")
	}
	return "", 0, 0, errors.New("unterminated string literal")
}

// scriptsModule is the module script classes and variables come from.
const scriptsModule = "extras.scripts"

// moduleNames is what the module's top-level imports make of
// extras.scripts: local names bound to its members, and names bound to
// the module itself.
type moduleNames struct {
	members map[string]string // local name → member name ("SV" → "StringVar")
	modules map[string]bool   // dotted local names of the module ("extras.scripts", "scripts")
	star    bool              // from extras.scripts import *
}

// member resolves a dotted name to a member of extras.scripts ("" when it
// is none).
func (m *moduleNames) member(dotted string) string {
	if v, ok := m.members[dotted]; ok {
		return v
	}
	if i := strings.LastIndexByte(dotted, '.'); i > 0 && m.modules[dotted[:i]] {
		return dotted[i+1:]
	}
	if m.star && !strings.Contains(dotted, ".") {
		return dotted
	}
	return ""
}

// dotted reads a dotted name at toks[i:], returning it and the index
// after it.
func dotted(toks []token, i int) (string, int) {
	var parts []string
	for i < len(toks) && toks[i].kind == tName {
		parts = append(parts, toks[i].text)
		if i+2 < len(toks) && toks[i+1].text == "." && toks[i+2].kind == tName {
			i += 2
			continue
		}
		i++
		break
	}
	return strings.Join(parts, "."), i
}

// imports records a top-level import statement.
func (m *moduleNames) imports(toks []token) {
	if len(toks) == 0 || toks[0].kind != tName {
		return
	}
	switch toks[0].text {
	case "import": // import extras.scripts [as s], ...
		for i := 1; i < len(toks); {
			name, j := dotted(toks, i)
			local := name
			if j+1 < len(toks) && toks[j].text == "as" {
				local, j = toks[j+1].text, j+2
			}
			if name == scriptsModule {
				m.modules[local] = true
			}
			i = j + 1 // past the comma
		}
	case "from": // from extras.scripts import a [as b], ... / from extras import scripts
		from, j := dotted(toks, 1)
		if j >= len(toks) || toks[j].text != "import" {
			return
		}
		for i := j + 1; i < len(toks); {
			if toks[i].kind == tOp {
				if toks[i].text == "*" && from == scriptsModule {
					m.star = true
				}
				i++
				continue
			}
			name, local := toks[i].text, toks[i].text
			i++
			if i+1 < len(toks) && toks[i].text == "as" {
				local, i = toks[i+1].text, i+2
			}
			switch {
			case from == scriptsModule:
				m.members[local] = name
			case from+"."+name == scriptsModule:
				m.modules[local] = true
			}
		}
	}
}

// pyClass is a top-level class of the module as read.
type pyClass struct {
	name   string
	bases  []string
	vars   []ScriptVar
	meta   map[string]token // Meta's attributes assigned a string
	order  []string         // Meta.field_order
	hasMet bool
}

// ParseScriptModule reads a script module's source and returns its Script
// classes in source order; an error is the reason an import would fail
// (text that is not UTF-8, a broken string, bracket or indentation).
func ParseScriptModule(src []byte) ([]ParsedScript, error) {
	if !utf8.Valid(src) {
		return nil, errors.New("the file is not UTF-8 text")
	}
	lines, err := tokenize(string(src))
	if err != nil {
		return nil, err
	}
	names := &moduleNames{members: map[string]string{}, modules: map[string]bool{}}
	var classes []*pyClass
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if l.indent != 0 {
			continue
		}
		names.imports(l.toks)
		if len(l.toks) < 3 || l.toks[0].text != "class" || l.toks[1].kind != tName {
			continue
		}
		c := &pyClass{name: l.toks[1].text, meta: map[string]token{}}
		if l.toks[2].text == "(" {
			for j := 3; j < len(l.toks) && l.toks[j].text != ")"; {
				name, k := dotted(l.toks, j)
				if k < len(l.toks) && l.toks[k].text == "=" { // metaclass=...
					name = ""
				}
				if name != "" {
					c.bases = append(c.bases, name)
				}
				// Skip to the next top-level comma of the bases.
				depth := 0
				for k < len(l.toks) {
					t := l.toks[k].text
					if depth == 0 && (t == "," || t == ")") {
						break
					}
					switch t {
					case "(", "[", "{":
						depth++
					case ")", "]", "}":
						depth--
					}
					k++
				}
				if k < len(l.toks) && l.toks[k].text == "," {
					k++
				}
				j = max(k, j+1)
			}
		}
		// The class body: the following lines indented deeper.
		body := i + 1
		for body < len(lines) && lines[body].indent > 0 {
			body++
		}
		c.read(lines[i+1:body], names)
		classes = append(classes, c)
		i = body - 1
	}
	byName := map[string]*pyClass{}
	isScript := map[string]bool{}
	for _, c := range classes {
		for _, b := range c.bases {
			if names.member(b) == "Script" || isScript[b] {
				isScript[c.name] = true
			}
		}
		byName[c.name] = c
	}
	var out []ParsedScript
	seen := map[string]bool{}
	for _, c := range classes {
		if !isScript[c.name] || seen[c.name] {
			continue
		}
		seen[c.name] = true // a class defined twice: the first position, as dict order keeps it
		ps, err := byName[c.name].script(byName)
		if err != nil {
			return nil, err
		}
		out = append(out, ps)
	}
	return out, nil
}

// read reads a class body: its variables and its Meta.
func (c *pyClass) read(body []logicalLine, names *moduleNames) {
	if len(body) == 0 {
		return
	}
	level := body[0].indent
	for i := 0; i < len(body); i++ {
		l := body[i]
		if l.indent != level || len(l.toks) < 3 {
			continue
		}
		t := l.toks
		if t[0].text == "class" && t[1].text == "Meta" {
			c.hasMet = true
			for j := i + 1; j < len(body) && body[j].indent > level; j++ {
				c.readMeta(body[j].toks)
			}
			continue
		}
		// name = Callee(...)
		if t[0].kind == tName && t[1].text == "=" {
			callee, k := dotted(t, 2)
			if k < len(t) && t[k].text == "(" {
				if m := names.member(callee); strings.HasSuffix(m, "Var") {
					c.vars = append(c.vars, ScriptVar{Name: t[0].text, Class: m})
				}
			}
		}
	}
}

// readMeta reads one line of a Meta body: a string attribute, or
// field_order as a list or tuple of strings.
func (c *pyClass) readMeta(t []token) {
	if len(t) < 3 || t[0].kind != tName || t[1].text != "=" {
		return
	}
	if t[0].text == "field_order" {
		c.order = nil
		for _, x := range t[2:] {
			if x.kind == tString {
				c.order = append(c.order, x.text)
			}
		}
		return
	}
	// Adjacent literals concatenate ("a" "b"), with or without brackets.
	var b strings.Builder
	ok := false
	for _, x := range t[2:] {
		switch {
		case x.kind == tString:
			b.WriteString(x.text)
			ok = true
		case x.text == "(" || x.text == ")":
		default:
			return
		}
	}
	if ok {
		c.meta[t[0].text] = token{kind: tString, text: b.String()}
	}
}

// script resolves a class's description and variables through its
// module-defined bases (depth first, as a single-inheritance MRO).
func (c *pyClass) script(byName map[string]*pyClass) (ParsedScript, error) {
	s := ParsedScript{Name: c.name}
	var chain []*pyClass
	seen := map[string]bool{}
	// Depth first without recursion: a module may chain thousands of
	// classes (issue 32); bases are pushed last first, so the first base's
	// ancestry is walked first, as before.
	for stack := []*pyClass{c}; len(stack) > 0; {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == nil || seen[x.name] {
			continue
		}
		seen[x.name] = true
		if chain = append(chain, x); len(chain) > MaxScriptAncestors+1 {
			return s, fmt.Errorf("class %s derives from more than %d classes of its module", c.name, MaxScriptAncestors)
		}
		for i := len(x.bases) - 1; i >= 0; i-- {
			stack = append(stack, byName[x.bases[i]])
		}
	}
	have := map[string]bool{}
	var order []string
	metaFound := false
	for _, x := range chain {
		for _, v := range x.vars {
			if !have[v.Name] {
				have[v.Name] = true
				s.Vars = append(s.Vars, v)
			}
		}
		// Meta is looked up as a class attribute: the first class of the
		// chain that defines one.
		if x.hasMet && !metaFound {
			metaFound = true
			s.Description = x.meta["description"].text
			order = x.order
		}
	}
	if len(order) > 0 {
		// NetBox: the variables named in field_order first, in its order,
		// then the others.
		var first, rest []ScriptVar
		for _, name := range order {
			if i := slices.IndexFunc(s.Vars, func(v ScriptVar) bool { return v.Name == name }); i >= 0 {
				first = append(first, s.Vars[i])
			}
		}
		for _, v := range s.Vars {
			if !slices.Contains(order, v.Name) {
				rest = append(rest, v)
			}
		}
		s.Vars = append(first, rest...)
	}
	return s, nil
}
