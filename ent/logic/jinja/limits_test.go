package jinja

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// deep is 100 000 levels: far beyond every limit, and once enough to
// overflow the stack of gonja's recursive parser (issue 32).
const deep = 100000

// nested wraps inner in n levels of open/close.
func nested(open, inner, close string, n int) string {
	return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
}

// chain joins n+1 copies of term with op.
func chain(term, op string, n int) string {
	return term + strings.Repeat(op+term, n)
}

// TestScanLimits: a template beyond a limit of limits.go is refused
// before it is parsed, by Check, CheckOptions and every render alike,
// with a message naming the limit; one at the limit parses and renders.
func TestScanLimits(t *testing.T) {
	blocks := func(open, close string, n int) string { return nested(open, "x", close, n) }
	for _, c := range []struct {
		name     string
		ok, over func(n int) string // at the limit n, beyond it
		limit    int
		want     string
	}{
		{"parentheses", func(n int) string { return "{{ " + nested("(", "1", ")", n) + " }}" }, nil, MaxNesting, "nested too deeply"},
		{"lists", func(n int) string { return "{{ " + nested("[", "1", "]", n) + "|length }}" }, nil, MaxNesting, "nested too deeply"},
		{"dicts", func(n int) string { return "{{ " + nested("{'a': ", "1", "}", n) + "|length }}" }, nil, MaxNesting, "nested too deeply"},
		{"calls", func(n int) string { return "{{ " + nested("data.get(", "'a'", ")", n) + " }}" }, nil, MaxNesting, "nested too deeply"},
		{"set expression", func(n int) string { return "{% set x = " + nested("(", "1", ")", n) + " %}{{ x }}" }, nil, MaxNesting, "nested too deeply"},
		{"if blocks", func(n int) string { return blocks("{% if true %}", "{% endif %}", n) }, nil, MaxBlockDepth, "blocks are nested too deeply"},
		{"for blocks", func(n int) string { return blocks("{% for i in [1] %}", "{% endfor %}", n) }, nil, MaxBlockDepth, "blocks are nested too deeply"},
		{"filter blocks", func(n int) string { return blocks("{% filter upper %}", "{% endfilter %}", n) }, nil, MaxBlockDepth, "blocks are nested too deeply"},
		{"with blocks", func(n int) string { return blocks("{% with a = 1 %}", "{% endwith %}", n) }, nil, MaxBlockDepth, "blocks are nested too deeply"},
		{"block sets", func(n int) string { return blocks("{% set a %}", "{% endset %}", n) }, nil, MaxBlockDepth, "blocks are nested too deeply"},
		{"mixed blocks", func(n int) string {
			return nested("{% if true %}", blocks("{% if true %}{% for i in [1] %}", "{% endfor %}{% endif %}", n/2), "{% endif %}", n%2)
		}, nil, MaxBlockDepth, "blocks are nested too deeply"},
		{"unclosed blocks", func(n int) string { return strings.Repeat("{% if true %}", n) + strings.Repeat("{% endif %}", n) },
			func(n int) string { return strings.Repeat("{% if true %}", n) }, MaxBlockDepth, "blocks are nested too deeply"},
		{"additions", func(n int) string { return "{{ " + chain("1", "+", n) + " }}" }, nil, MaxOperators, "too many operators"},
		{"concatenations", func(n int) string { return "{{ " + chain("'a'", "~", n) + " }}" }, nil, MaxOperators, "too many operators"},
		{"comparisons", func(n int) string { return "{{ " + chain("1", " < ", n) + " }}" }, nil, MaxOperators, "too many operators"},
		{"logic", func(n int) string { return "{{ " + chain("true", " and ", n) + " }}" }, nil, MaxOperators, "too many operators"},
		{"filters", func(n int) string { return "{{ 'a'" + strings.Repeat("|upper", n) + " }}" }, nil, MaxOperators, "too many operators"},
		{"attributes", func(n int) string { return "{{ data" + strings.Repeat(".x", n) + " }}" }, nil, MaxOperators, "too many operators"},
		{"unary minus", func(n int) string { return "{{ " + chain("-1", "+", n) + " }}" }, nil, (MaxOperators - 1) / 2, "too many operators"},
		{"not", func(n int) string { return "{{ " + nested("not (", "true", ")", n) + " }}" }, nil, MaxNesting, "nested too deeply"},
	} {
		t.Run(c.name, func(t *testing.T) {
			over := c.over
			if over == nil {
				over = c.ok
			}
			for _, n := range []int{c.limit, c.limit + 1, deep} {
				src := c.ok(n)
				if n > c.limit {
					src = over(n)
				}
				errs := map[string]error{"Check": Check(src, false), "CheckOptions": CheckOptions(src, Options{})}
				_, errs["Render"] = Render(src, map[string]any{"data": map[string]any{}}, false, DefaultLimits)
				for via, err := range errs {
					switch {
					case n <= c.limit && err != nil && limitError(err):
						t.Errorf("%s at the limit (%d): %v", via, n, err)
					case n > c.limit && (err == nil || !strings.Contains(err.Error(), c.want)):
						t.Errorf("%s beyond the limit (%d): %v, want an error naming %q", via, n, err, c.want)
					case err != nil && len(err.Error()) > maxMessage+10:
						t.Errorf("%s (%d): a message of %d bytes", via, n, len(err.Error()))
					}
				}
			}
		})
	}
}

// limitError says whether err is one of scan's refusals.
func limitError(err error) bool {
	for _, m := range []string{"nested too deeply", "too many operators", "blocks are nested too deeply"} {
		if strings.Contains(err.Error(), m) {
			return true
		}
	}
	return false
}

// TestScanLines: the error names the line of the tag beyond the limit, and
// the limits follow the delimiters and line statements of the options.
func TestScanLines(t *testing.T) {
	err := Check("a\nb\n{{ "+nested("(", "1", ")", deep)+" }}", false)
	if err == nil || !strings.Contains(err.Error(), "Line: 3") {
		t.Fatalf("got %v, want an error at line 3", err)
	}
	o := Options{BlockStart: "<%", BlockEnd: "%>", VariableStart: "[[", VariableEnd: "]]"}
	if err := CheckOptions("[[ "+nested("(", "1", ")", deep)+" ]]", o); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Fatalf("other delimiters: %v", err)
	}
	if err := CheckOptions(nested("<% if true %>", "x", "<% endif %>", deep), o); err == nil || !strings.Contains(err.Error(), "blocks are nested") {
		t.Fatalf("other block delimiters: %v", err)
	}
	lines := Options{LineStatementPrefix: "#"}
	if err := CheckOptions(nested("# if true\n", "x\n", "# endif\n", deep), lines); err == nil || !strings.Contains(err.Error(), "blocks are nested") {
		t.Fatalf("line statements: %v", err)
	}
	// Sibling blocks and tags are not nested: any number of them parse.
	if err := Check(strings.Repeat("{% if true %}{{ (1) }}{% endif %}", 10000), false); err != nil {
		t.Fatalf("siblings: %v", err)
	}
	// Text, strings and comments are not counted.
	for _, src := range []string{nested("(", "x", ")", deep), "{{ '" + nested("(", "", "", deep) + "' }}",
		"{# " + nested("{{ (", "", "", deep) + " #}", "{% raw %}" + nested("{% if %}", "", "", deep) + "{% endraw %}"} {
		if err := Check(src, false); err != nil {
			t.Errorf("%.40q: %v", src, err)
		}
	}
}

// renderGuarded renders src and waits until its goroutine has returned:
// nothing a template does may run on after its render ended.
func renderGuarded(t *testing.T, src string, data map[string]any, lim Limits) (string, error) {
	t.Helper()
	var g *guard
	testHookRender = func(x *guard) { g = x }
	defer func() { testHookRender = nil }()
	out, err := Render(src, data, false, lim)
	if g != nil {
		select {
		case <-g.finished:
		case <-time.After(time.Minute):
			t.Fatalf("%.60q: the render's goroutine still runs a minute after the render ended", src)
		}
	}
	return out, err
}

// TestGuard: no value a template keeps can contain itself, nest deeper
// than MaxDataDepth or grow beyond the size limit, so nothing that walks
// it later (printing, comparing, filters) can overflow the stack or
// exhaust memory; and a render that timed out stops.
func TestGuard(t *testing.T) {
	data := map[string]any{"data": map[string]any{"a": 1, "tags": []any{"x", "y"}}}
	big := DefaultLimits
	big.MaxIterations = 1 << 30
	big.Timeout = time.Minute
	for _, c := range []struct{ src, want string }{
		// A namespace holding itself overflowed the stack when printed.
		{"{% set ns = namespace() %}{% set ns.x = ns %}{{ ns }}", ErrNestedNamespace.Error()},
		{"{% set ns = namespace() %}{% set ns.x = [ns] %}{{ ns }}", ErrNestedNamespace.Error()},
		{"{% set ns = namespace() %}{% set ns.x = {'a': ns} %}{{ ns }}", ErrNestedNamespace.Error()},
		{"{% set ns = namespace() %}{% set n2 = namespace(x=ns) %}", ErrNestedNamespace.Error()},
		{"{% set ns = namespace(a=namespace()) %}", ErrNestedNamespace.Error()},
		{"{% set ns = namespace() %}{% with m = ns %}{% set m.x = m %}{% endwith %}{{ ns }}", ErrNestedNamespace.Error()},
		// Only namespaces can be written to, as in Jinja2: not the data.
		{"{% set data.x = data %}{{ data }}", "only a namespace's attributes can be set"},
		{"{% set data['x'] = data %}{{ data }}", "Only a name or a namespace attribute"},
		{"{% set ns = namespace() %}{% set ns.a.b = ns %}", "Only a name or a namespace attribute"},
		// Depth built one level per loop iteration.
		{"{% set ns = namespace(l=[]) %}{% for i in range(100000) %}{% set ns.l = [ns.l] %}{% endfor %}{{ ns.l }}", "nested too deeply"},
		{"{% set ns = namespace(d={}) %}{% for i in range(100000) %}{% set ns.d = {'x': ns.d} %}{% endfor %}{{ ns.d }}", "nested too deeply"},
		{"{% set ns = namespace(l=[]) %}{% for c in 'x'|center(5000) %}{% for d in 'xx' %}{% set ns.l = [ns.l] %}{% endfor %}{% endfor %}{{ ns.l }}", "nested too deeply"},
		{"{% set l = [] %}" + strings.Repeat("{% set l = [l] %}", 2000) + "{{ l }}", "nested too deeply"},
		// Size doubled, in memory or by sharing.
		{"{% set ns = namespace(s='ab') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s|length }}", "too large"},
		{"{% set ns = namespace(l=[1]) %}{% for i in range(64) %}{% set ns.l = [ns.l, ns.l] %}{% endfor %}{{ ns.l }}", "too large"},
		{"{% set l = [1] %}" + strings.Repeat("{{ l.append(l) }}", 64) + "{{ l }}", "too large"},
		{"{% set x = 'ab' %}" + nested("{% with x = x ~ x %}", "{{ x|length }}", "{% endwith %}", 64), "too large"},
		{"{% set x %}{% for i in range(100000) %}" + strings.Repeat("x", 100) + "{% endfor %}{% endset %}", "size limit"},
		{"{% filter upper %}{% for i in range(100000) %}" + strings.Repeat("x", 100) + "{% endfor %}{% endfilter %}", "size limit"},
	} {
		out, err := renderGuarded(t, c.src, data, big)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.100q: got %.100q, %v; want an error naming %q", c.src, out, err, c.want)
		}
	}
	// What templates do with namespaces, sets, with and filter blocks works
	// as before.
	for src, want := range map[string]string{
		"{% set ns = namespace(n=0) %}{% for i in range(3) %}{% set ns.n = ns.n + 1 %}{% endfor %}{{ ns.n }}":               "3",
		"{% set ns = namespace(l=[]) %}{% for t in data.tags %}{% set ns.l = ns.l + [t] %}{% endfor %}{{ ns.l|join(',') }}": "x,y",
		"{% set x = 1 if false else 2 %}{{ x }}":                                   "2",
		"{% set x %}a{{ data.a }}{% endset %}{{ x }}":                              "a1",
		"{% with a = 1, b = data.a + 1 %}{{ a }}{{ b }}{% endwith %}":              "12",
		"{% filter upper %}a{{ data.tags[0] }}{% endfilter %}":                     "AX",
		"{% set l = [1] %}{{ l.append(2) }}{{ l|length }}":                         "2",
		"{% set all = data %}{% set more = [data, data, data] %}{{ more|length }}": "3",
		"{% for i in range(2) %}{% set x = i %}{% endfor %}[{{ x }}]":              "[]",
	} {
		if got, err := renderGuarded(t, src, data, DefaultLimits); err != nil || got != want {
			t.Errorf("%q: got %q, %v; want %q", src, got, err, want)
		}
	}
}

// TestGuardStopsLoops: a render that timed out returns at once, and its
// goroutine stops at the next loop iteration instead of running on.
func TestGuardStopsLoops(t *testing.T) {
	quick := DefaultLimits
	quick.Timeout = time.Millisecond
	// 10^12 iterations over strings, which draw on no range budget.
	s := "{% set s = 'x'|center(10000) %}{% for a in s %}{% for b in s %}{% for c in s %}{% endfor %}{% endfor %}{% endfor %}"
	if _, err := renderGuarded(t, s, nil, quick); !errors.Is(err, ErrTimeout) {
		t.Fatalf("got %v, want the time limit", err)
	}
}

// TestGuardData: data given to a template, however deep (up to the JSON
// decoder's own limit), is measured once and renders; keeping a value
// deeper than MaxDataDepth is refused.
func TestGuardData(t *testing.T) {
	var v any = 1
	for range MaxDataDepth + 10 {
		v = []any{v}
	}
	data := map[string]any{"deep": v}
	if out, err := renderGuarded(t, "{{ deep|length }}", data, DefaultLimits); err != nil || out != "1" {
		t.Fatalf("got %q, %v", out, err)
	}
	if _, err := renderGuarded(t, "{% set x = deep %}", data, DefaultLimits); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Fatalf("keeping deep data: %v", err)
	}
	raw := []byte(nested("[", "1", "]", 9000))
	p, err := Plain(raw)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := renderGuarded(t, "{{ d|length }}", map[string]any{"d": p}, DefaultLimits); err != nil || out != "1" {
		t.Fatalf("decoded deep data: %q, %v", out, err)
	}
}

// TestPrintGuard: a value whose text would exceed the output limit is
// refused before gonja builds that text, whether printed or written into
// one string by a filter; many references to one kept string allocated
// gigabytes before (issue 32). What fits prints as before, data given to
// the template at its full size.
func TestPrintGuard(t *testing.T) {
	small := DefaultLimits
	small.MaxOutput = 1 << 16
	data := map[string]any{"big": strings.Repeat("d", 40000), "list": []any{"a", "b"}}
	refs := func(name string, n int) string { return "[" + chain(name, ",", n-1) + "]" }
	x := "{% set x = range(9000)|join %}" // 33,890 bytes
	for _, src := range []string{
		x + "{{ " + refs("x", 900) + " }}",
		x + "{{ " + refs("x", 900) + "|join }}",
		x + "{{ " + refs("x", 900) + "|string|length }}",
		x + "{{ " + refs("x", 900) + "|tojson }}",
		x + "{{ " + refs("x", 900) + "|sum(start=[])|length }}",
		x + "{{ (" + refs("x", 900) + ") if true else 1 }}",
		x + "{{ 1 if false else " + refs("x", 900) + " }}",
		"{{ [big, big] }}",
		"{% for i in range(3) %}{{ [big, big] }}{% endfor %}",
		"{% if true %}{% with y = 1 %}{{ [big, big]|join }}{% endwith %}{% endif %}",
	} {
		out, err := renderGuarded(t, src, data, small)
		if !errors.Is(err, ErrPrintTooLarge) {
			t.Errorf("%.80q: got %.40q, %v; want %v", src, out, err, ErrPrintTooLarge)
		}
	}
	for src, want := range map[string]string{
		"{{ list }}":                             "['a', 'b']",
		"{{ list|join('-') }}":                   "a-b",
		"{{ big|length }}":                       "40000",
		"{{ [big]|join|length }}":                "40000",
		x + "{{ " + refs("x", 1) + "|length }}":  "1",
		"{{ (list|first) if list else 'none' }}": "a",
	} {
		if got, err := renderGuarded(t, src, data, small); err != nil || got != want {
			t.Errorf("%.80q: got %.60q, %v; want %q", src, got, err, want)
		}
	}
}
