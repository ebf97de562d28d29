package server_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// redocSpec is the document a ReDoc page hands ReDoc.
func redocSpec(t *testing.T, e *servertest.Env, query string) map[string]any {
	t.Helper()
	r := e.Anonymous().Must(http.StatusOK, "GET", "/api/schema/redoc/"+query, nil)
	body := string(r.Body)
	const open = `<script id="redoc-spec" type="application/json">`
	i := strings.Index(body, open)
	j := strings.Index(body[i+len(open):], "</script>")
	if i < 0 || j < 0 {
		t.Fatalf("redoc %s: no document in %.500s", query, body)
	}
	var spec map[string]any
	if err := json.Unmarshal([]byte(body[i+len(open):i+len(open)+j]), &spec); err != nil {
		t.Fatalf("redoc %s: %v", query, err)
	}
	return spec
}

var redocLinkRE = regexp.MustCompile(`\]\((/api/schema/redoc/[^)]*)\)`)

// TestRedocSlices: ReDoc's pages (openapi_redoc.go) together show every
// operation of /api/schema/, each as the document has it, with every
// component it refers to: the index (roots, status) links to each
// application's page and each endpoint's, and each page holds exactly the
// paths under its prefix. An unknown application or endpoint is a 404.
func TestRedocSlices(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		var full map[string]any
		if err := json.Unmarshal(e.Anonymous().Must(http.StatusOK, "GET", "/api/schema/", nil).Body, &full); err != nil {
			t.Fatal(err)
		}
		fullPaths := full["paths"].(map[string]any)
		fullComps := full["components"].(map[string]any)
		shown := map[string]bool{}
		// check compares a page's document with the full one: the paths
		// with prefix (with exact, only those not under an application),
		// equal to the document's; every $ref resolves to the document's
		// component; tags and security as the document has them.
		check := func(query string, want func(path string) bool) map[string]any {
			t.Helper()
			spec := redocSpec(t, e, query)
			paths := spec["paths"].(map[string]any)
			var missing []string
			for p, item := range fullPaths {
				if !want(p) {
					if paths[p] != nil {
						t.Errorf("%s: has %s", query, p)
					}
					continue
				}
				if paths[p] == nil {
					missing = append(missing, p)
				} else if !reflect.DeepEqual(paths[p], item) {
					t.Errorf("%s: %s differs from the document's", query, p)
				}
			}
			if len(missing) > 0 || len(paths) == 0 {
				t.Errorf("%s: %d paths, lacks %v", query, len(paths), missing)
			}
			comps := spec["components"].(map[string]any)
			b, _ := json.Marshal(spec)
			for _, m := range regexp.MustCompile(`"\$ref":"#/components/([^"/]+)/([^"]+)"`).FindAllStringSubmatch(string(b), -1) {
				kind, _ := comps[m[1]].(map[string]any)
				if kind[m[2]] == nil || !reflect.DeepEqual(kind[m[2]], fullComps[m[1]].(map[string]any)[m[2]]) {
					t.Errorf("%s: $ref %s/%s not resolved as in the document", query, m[1], m[2])
				}
			}
			if !reflect.DeepEqual(spec["security"], full["security"]) || !reflect.DeepEqual(comps["securitySchemes"], fullComps["securitySchemes"]) {
				t.Errorf("%s: security %v", query, spec["security"])
			}
			for _, tag := range spec["tags"].([]any) {
				name := tag.(map[string]any)["name"].(string)
				used := false
				for _, item := range paths {
					for _, op := range item.(map[string]any) {
						if o, ok := op.(map[string]any); ok && slices.Contains(anyStrings(o["tags"]), name) {
							used = true
						}
					}
				}
				if !used {
					t.Errorf("%s: tag %s without operations", query, name)
				}
			}
			for p := range paths {
				shown[p] = true
			}
			return spec
		}
		index := check("", func(p string) bool {
			return p == "/api/" || strings.Count(p, "/") == 3 && !hasBelow(fullPaths, p)
		})
		desc := index["info"].(map[string]any)["description"].(string)
		if !strings.HasPrefix(desc, full["info"].(map[string]any)["description"].(string)) {
			t.Errorf("index description: %s", desc)
		}
		apps := 0
		for _, m := range redocLinkRE.FindAllStringSubmatch(desc, -1) {
			link := strings.TrimPrefix(m[1], "/api/schema/redoc/")
			app, endpoint, _ := strings.Cut(strings.TrimPrefix(link, "?app="), "&endpoint=")
			if endpoint == "" {
				apps++
			}
			prefix := "/api/" + app + "/"
			if endpoint != "" {
				prefix += endpoint + "/"
			}
			check(link, func(p string) bool { return strings.HasPrefix(p, prefix) })
		}
		if apps < 10 {
			t.Errorf("index links to %d applications: %s", apps, desc)
		}
		var unshown []string
		for p := range fullPaths {
			if !shown[p] {
				unshown = append(unshown, p)
			}
		}
		sort.Strings(unshown)
		if len(unshown) > 0 {
			t.Errorf("no ReDoc page shows %v", unshown)
		}
		// A list before its bulk operations (the document's path items
		// are in name order: delete first).
		r := e.Anonymous().Must(http.StatusOK, "GET", "/api/schema/redoc/?app=dcim&endpoint=sites", nil)
		if get, del := strings.Index(string(r.Body), `"operationId":"dcim_sites_list"`), strings.Index(string(r.Body), `"operationId":"dcim_sites_bulk_destroy"`); get < 0 || del < get {
			t.Errorf("sites' operations out of order: list at %d, bulk delete at %d", get, del)
		}
		for _, q := range []string{"?app=nope", "?app=dcim&endpoint=nope", "?endpoint=sites", "?app=status"} {
			e.Anonymous().Must(http.StatusNotFound, "GET", "/api/schema/redoc/"+q, nil)
		}
	})
}

// hasBelow: some path of paths lies under p (p is an application's root).
func hasBelow(paths map[string]any, p string) bool {
	for q := range paths {
		if q != p && strings.HasPrefix(q, p) {
			return true
		}
	}
	return false
}

func anyStrings(v any) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, x := range l {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}
