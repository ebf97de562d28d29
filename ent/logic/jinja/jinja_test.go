package jinja

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func ctx(t *testing.T) map[string]any {
	v, err := Plain([]byte(`{"event": "created", "data": {"id": 4, "name": "Site é", "lat": 1.5, "ok": true,
		"tags": [{"slug": "a"}, {"slug": "b"}]}, "request": {"user": "ad\r\nX-Evil: 1"}}`))
	if err != nil {
		t.Fatal(err)
	}
	return v.(map[string]any)
}

func TestRender(t *testing.T) {
	cases := []struct{ src, want string }{
		{"{{ data.id }} {{ data.lat }} {{ data.name }}", "4 1.5 Site é"},
		{"{% for t in data.tags %}{{ t.slug }}{% if not loop.last %},{% endif %}{% endfor %}", "a,b"},
		{"{{ data.name | upper }}", "SITE É"},
		{"{{ data.get('id') }}", "4"},
		{"{% for i in range(3) %}{{ i }}{% endfor %}", "012"},
		{"{{ event }}\n", "created\n"},
	}
	for _, c := range cases {
		got, err := Render(c.src, ctx(t), false, DefaultLimits)
		if err != nil || got != c.want {
			t.Errorf("%q: got %q, %v; want %q", c.src, got, err, c.want)
		}
	}
}

func TestHeaderSafe(t *testing.T) {
	got, err := Render("X-User: {{ request.user | header_safe }}", ctx(t), true, DefaultLimits)
	if err != nil || got != "X-User: adX-Evil: 1" {
		t.Fatalf("got %q, %v", got, err)
	}
	if _, err := Render("{{ request.user | header_safe }}", ctx(t), false, DefaultLimits); err == nil {
		t.Fatal("header_safe must only exist in header templates")
	}
	if HeaderSafe("a\x00b\x1fc\x7fd\te") != "abcde" {
		t.Fatal("control characters survive")
	}
}

func TestSandbox(t *testing.T) {
	refused := []string{
		"{% include '/etc/passwd' %}",
		"{% import 'x' as y %}",
		"{% extends '/etc/passwd' %}",
		"{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}",
		"{% block a %}{{ self.a() }}{% endblock %}",
		"{% for x in [1] recursive %}{{ loop([1]) }}{% endfor %}",
		"{{ 'x' * 100000000 }}",
		"{{ 2 ** 64 }}",
		"{% for i in range(1000000) %}{% endfor %}",
		"{% for i in range(1000) %}{% for j in range(1000) %}{% endfor %}{% endfor %}",
		"{{ data.name | center(100000000) }}",
		"{{ lipsum(100000) }}",
	}
	for _, src := range refused {
		if out, err := Render(src, ctx(t), false, DefaultLimits); err == nil {
			t.Errorf("%q rendered %d bytes", src, len(out))
		}
	}
	small := DefaultLimits
	small.MaxOutput = 100
	if _, err := Render("{% for i in range(1000) %}xx{% endfor %}", nil, false, small); !errors.Is(err, ErrOutputTooLarge) {
		t.Fatalf("size limit: %v", err)
	}
	quick := DefaultLimits
	quick.Timeout = time.Nanosecond
	quick.MaxIterations = 1 << 30
	_, err := Render("{% for i in range(100000) %}{% for t in data.tags %}{{ t.slug }}{% endfor %}{% endfor %}", ctx(t), false, quick)
	if !errors.Is(err, ErrTimeout) && (err == nil || !strings.Contains(err.Error(), "time limit")) {
		t.Fatalf("time limit: %v", err)
	}
}

func TestCheck(t *testing.T) {
	if err := Check("{{ data.name }", false); err == nil {
		t.Fatal("syntax error not reported")
	}
	if err := Check("https://x/{{ data.id }}", false); err != nil {
		t.Fatal(err)
	}
	for src, want := range map[string]string{
		"a\n{{ data.__class__ }}":   "Line: 2",
		"{{ data['__globals__'] }}": "__globals__",
		"{{ data._private }}":       "_private",
		"{{ __import__('os') }}":    "__import__",
		"x\n\n{% include 'y' %}":    "Line: 3",
		"{% extends 'base' %}":      "extends",
		"{% import 'm' as m %}":     "import",
		"{% for a in b %}":          "endfor",
	} {
		err := Check(src, false)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error naming %q", src, err, want)
		}
	}
	for _, src := range []string{"{{ data.name_x }}", "{{ data['slug'] }}", "{{ data.x_ }}"} {
		if err := Check(src, false); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}

// TestOptions: the parser settings of stored templates (NetBox's
// environment_params) change what a template means; the zero value is
// Jinja's default environment (no trailing newline kept, unlike webhooks).
func TestOptions(t *testing.T) {
	data := map[string]any{"on": true, "name": "<b>"}
	src := "{% if on %}\n  {{ name }}\n{% endif %}\n"
	for _, c := range []struct {
		name    string
		src     string
		o       Options
		want    string
		wantErr string
	}{
		{"defaults", src, Options{}, "\n  <b>\n", ""},
		{"trim and lstrip", src, Options{TrimBlocks: true, LstripBlocks: true}, "  <b>\n", ""},
		{"keep the trailing newline", "{{ name }}\n", Options{KeepTrailingNewline: true}, "<b>\n", ""},
		{"autoescape", "{{ name }}", Options{AutoEscape: true}, "&lt;b&gt;", ""},
		{"delimiters", "<% if on %>[[ name ]]<# c #><% endif %>", Options{BlockStart: "<%", BlockEnd: "%>",
			VariableStart: "[[", VariableEnd: "]]", CommentStart: "<#", CommentEnd: "#>"}, "<b>", ""},
		{"undefined is empty", "[{{ nope }}]", Options{}, "[]", ""},
		{"strict undefined", "{{ nope }}", Options{StrictUndefined: true}, "", "nope"},
		{"still sandboxed", "{% include 'x' %}", Options{}, "", "include"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := CheckOptions(c.src, c.o); err != nil && c.wantErr == "" {
				t.Fatalf("check: %v", err)
			}
			got, err := RenderOptions(c.src, data, c.o, DefaultLimits)
			switch {
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Fatalf("got %q, %v; want an error naming %q", got, err, c.wantErr)
			case c.wantErr == "" && (err != nil || got != c.want):
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
	// The delimiters are those of the options: default tags are text.
	if err := CheckOptions("{% if %}", Options{BlockStart: "<%", BlockEnd: "%>"}); err != nil {
		t.Fatalf("default block tags with other delimiters: %v", err)
	}
	if err := CheckOptions("<% if %>", Options{BlockStart: "<%", BlockEnd: "%>"}); err == nil {
		t.Fatal("a broken tag in the chosen delimiters parsed")
	}
}
