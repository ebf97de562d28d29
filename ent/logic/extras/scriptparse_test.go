package extras

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// A module as NetBox's documentation writes them: two scripts, variables,
// Meta with a multi-line description and field_order, a helper that is no
// script, and a script deriving from another.
const sampleModule = `"""Site tools."""
from django.utils.text import slugify

from dcim.models import Site
from extras.scripts import Script, StringVar, ObjectVar as OV
import extras.scripts as es


class NewBranch(Script):
    """Provision a branch."""

    class Meta:
        name = "New Branch"
        description = ("Provision a new "
                       "branch site")
        field_order = ['site_name', 'switch_count']

    switch_count = es.IntegerVar(description="Number of switches")
    site_name = StringVar(
        description="Name of the new site",
    )
    template = OV(model=Site)  # a comment (with a bracket
    label = "not a variable"

    def run(self, data, commit):
        s = '''a triple-quoted
        string with "quotes" and a class Fake(Script): line'''
        return s


class Helper:
    x = StringVar()


class Extended(NewBranch):
    extra = StringVar()

    class Meta:
        description = 'Extended \'branch\''


class Plain(es.Script):
    pass


def run():
    class Inner(Script):
        pass
`

func TestParseScriptModule(t *testing.T) {
	got, err := ParseScriptModule([]byte(sampleModule))
	if err != nil {
		t.Fatal(err)
	}
	want := []ParsedScript{
		{Name: "NewBranch", Description: "Provision a new branch site", Vars: []ScriptVar{
			{"site_name", "StringVar"}, {"switch_count", "IntegerVar"}, {"template", "ObjectVar"}}},
		{Name: "Extended", Description: "Extended 'branch'", Vars: []ScriptVar{
			{"extra", "StringVar"}, {"switch_count", "IntegerVar"}, {"site_name", "StringVar"}, {"template", "ObjectVar"}}},
		{Name: "Plain"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestParseScriptModuleImports(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"star", "from extras.scripts import *\nclass A(Script):\n    v = TextVar()\n", []string{"A"}},
		{"module alias", "from extras import scripts\nclass A(scripts.Script): pass\n", []string{"A"}},
		{"full path", "import extras.scripts\nclass A(extras.scripts.Script): pass\n", []string{"A"}},
		{"parenthesised import", "from extras.scripts import (\n    Script as S,\n)\nclass A(S, metaclass=M): pass\n", []string{"A"}},
		{"not imported", "class A(Script): pass\n", nil},
		{"other Script", "from mylib import Script\nclass A(Script): pass\n", nil},
		{"no classes", "x = 1\n", nil},
		{"line continuation", "from extras.scripts \\\n    import Script\nclass A(Script): pass\n", []string{"A"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseScriptModule([]byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, s := range got {
				names = append(names, s.Name)
			}
			if !reflect.DeepEqual(names, tc.want) {
				t.Errorf("scripts %v, want %v", names, tc.want)
			}
		})
	}
}

// Modules an import would refuse are refused, with the reason and line.
func TestParseScriptModuleErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"not UTF-8", "x = '\xff'\n", "the file is not UTF-8 text"},
		{"null byte", "x = 1\x00\n", "source code cannot contain null bytes (line 1)"},
		{"unterminated string", "x = 'abc\ny = 2\n", "unterminated string literal (line 1)"},
		{"unterminated triple", "x = '''abc\n\n", "unterminated triple-quoted string literal (line 1)"},
		{"never closed", "x = (1,\n  2\n", "'(' was never closed (line 1)"},
		{"unmatched", "x = 1)\n", "unmatched ')' (line 1)"},
		{"mismatch", "x = [1,\n 2)\n", "closing parenthesis ')' does not match opening parenthesis '[' on line 1 (line 2)"},
		{"unexpected indent", "x = 1\n    y = 2\n", "unexpected indent (line 2)"},
		{"dedent", "class A:\n        x = 1\n    y = 2\n", "unindent does not match any outer indentation level (line 3)"},
		{"empty block", "class A:\nx = 1\n", "expected an indented block (line 2)"},
		{"empty block at end", "class A:\n", "expected an indented block (line 2)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseScriptModule([]byte(tc.src))
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestScriptDisplay(t *testing.T) {
	get := func(f string) any { return map[string]any{"name": "NewBranch", "module_name": "branches"}[f] }
	if got := ScriptDisplay(get); got != "NewBranch (branches)" {
		t.Errorf("display %q", got)
	}
	if _, err := RunScript(nil); err == nil || !strings.Contains(err.Error(), "not currently executable") {
		t.Errorf("run: %v", err)
	}
}

// TestScriptAncestors: a Script class may derive from at most
// MaxScriptAncestors classes of its module (resolving each class through
// a chain of thousands took minutes); the walk of the ancestry does not
// recurse.
func TestScriptAncestors(t *testing.T) {
	chain := func(n int) []byte {
		var b strings.Builder
		b.WriteString("from extras.scripts import Script, StringVar\n\nclass C0(Script):\n    a = StringVar()\n")
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "class C%d(C%d):\n    pass\n", i, i-1)
		}
		return []byte(b.String())
	}
	scripts, err := ParseScriptModule(chain(MaxScriptAncestors))
	if err != nil || len(scripts) != MaxScriptAncestors+1 || len(scripts[MaxScriptAncestors].Vars) != 1 {
		t.Fatalf("%d ancestors: %d scripts, %v", MaxScriptAncestors, len(scripts), err)
	}
	for _, n := range []int{MaxScriptAncestors + 1, 30000} {
		if _, err := ParseScriptModule(chain(n)); err == nil || !strings.Contains(err.Error(), "derives from more than") {
			t.Errorf("%d ancestors: %v", n, err)
		}
	}
}
