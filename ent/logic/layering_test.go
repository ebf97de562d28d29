package logic

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/inventory/inventory"

// TestLayering keeps the schema declarative and its logic neutral.
//
// ent's generator compiles ent/schema before the generated code exists, so
// ent/schema and everything it imports may depend, within this module, only
// on ent/schema/... and ent/logic/... (never on the generated ent packages,
// ent/resource, ent/db, webhooks, server or cmd). Logic packages that the
// schema does not import may use the generated code later (special
// endpoints), but never webhooks, server or cmd: those sit above them.
func TestLayering(t *testing.T) {
	for _, tc := range []struct {
		name    string
		pattern string
		allowed func(pkg string) bool // module packages a dependency may be
		must    string                // a dependency that must be found: go list really walked the graph
	}{
		{
			name:    "schema",
			pattern: module + "/ent/schema/...",
			allowed: func(p string) bool {
				return under(p, module+"/ent/schema") || under(p, module+"/ent/logic")
			},
			must: module + "/ent/logic/ipam",
		},
		{
			name:    "logic",
			pattern: module + "/ent/logic/...",
			allowed: func(p string) bool {
				return !under(p, module+"/webhooks") && !under(p, module+"/server") && !under(p, module+"/cmd")
			},
			must: module + "/ent/logic/rawsql",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			imports := depGraph(t, tc.pattern)
			if _, ok := imports[tc.must]; !ok {
				t.Fatalf("go list -deps %s did not list %s", tc.pattern, tc.must)
			}
			for pkg, imps := range imports {
				for _, imp := range imps {
					if under(imp, module) && !tc.allowed(imp) {
						t.Errorf("%s imports %s: not allowed below %s (see ent/logic/doc.go)", pkg, imp, tc.pattern)
					}
				}
			}
		})
	}
}

// depGraph lists the packages matching pattern and all their dependencies
// (go list -deps, without tests), each with its direct imports.
func depGraph(t *testing.T, pattern string) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, pattern)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v\n%s", pattern, err, stderr.String())
	}
	graph := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		graph[f[0]] = f[1:]
	}
	return graph
}

// under reports whether pkg is dir or below it.
func under(pkg, dir string) bool { return pkg == dir || strings.HasPrefix(pkg, dir+"/") }
