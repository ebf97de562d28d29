package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/server/servertest"
)

// loadSchema fetches /api/schema/ (anonymously: it is public even with
// LOGIN_REQUIRED, as in NetBox) and loads and validates it with kin-openapi.
func loadSchema(t *testing.T, e *servertest.Env, query string) (*openapi3.T, *servertest.Response) {
	t.Helper()
	r := e.Anonymous().Must(http.StatusOK, "GET", "/api/schema/"+query, nil)
	doc, err := openapi3.NewLoader().LoadFromData(r.Body)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("invalid document: %v", err)
	}
	return doc, r
}

func TestOpenAPIDocument(t *testing.T) {
	e := servertest.New(t, "sqlite")
	doc, r := loadSchema(t, e, "")
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("content type %q", ct)
	}
	if doc.OpenAPI != "3.0.3" || doc.Components.SecuritySchemes["tokenAuth"] == nil {
		t.Fatalf("openapi %q, security schemes %v", doc.OpenAPI, doc.Components.SecuritySchemes)
	}

	// Every model has its paths, operations and schemas.
	check := func(app, path string, d *resource.Descriptor) {
		list := doc.Paths.Find("/api/" + app + "/" + path + "/")
		detail := doc.Paths.Find("/api/" + app + "/" + path + "/{id}/")
		if list == nil || detail == nil || list.Get == nil || detail.Get == nil {
			t.Fatalf("%s/%s: paths missing", app, path)
		}
		writes := []*openapi3.Operation{list.Post, list.Put, list.Patch, list.Delete, detail.Put, detail.Patch, detail.Delete}
		for _, o := range writes {
			if (o == nil) != d.ReadOnlyAPI {
				t.Fatalf("%s/%s: write operations do not match ReadOnlyAPI=%v", app, path, d.ReadOnlyAPI)
			}
		}
		names := []string{d.Type, "Brief" + d.Type, "Paginated" + d.Type + "List"}
		if !d.ReadOnlyAPI {
			names = append(names, "Writable"+d.Type+"Request", "PatchedWritable"+d.Type+"Request")
		}
		for _, n := range names {
			if doc.Components.Schemas[n] == nil {
				t.Fatalf("%s/%s: schema %s missing", app, path, n)
			}
		}
		full := doc.Components.Schemas[d.Type].Value
		for _, f := range d.FullFields() {
			if full.Properties[f.Name] == nil {
				t.Fatalf("%s: field %s missing", d.Type, f.Name)
			}
		}
	}
	for _, d := range resource.All() {
		check(d.App, d.Path, d)
	}
	check("extras", "object-changes", resource.ByPath("core", "object-changes"))
	for _, p := range []string{"/api/", "/api/status/", "/api/authentication-check/", "/api/users/tokens/provision/",
		"/api/users/config/", "/api/core/background-tasks/", "/api/core/background-tasks/{id}/requeue/",
		"/api/core/background-queues/{name}/", "/api/core/background-workers/{name}/",
		"/api/core/background-tasks/{id}/stop/"} {
		if doc.Paths.Find(p) == nil {
			t.Fatalf("path %s missing", p)
		}
	}

	// Filters and their lookups are parameters of the list.
	params := map[string]*openapi3.Parameter{}
	for _, p := range doc.Paths.Find("/api/dcim/sites/").Get.Parameters {
		params[p.Value.Name] = p.Value
	}
	for _, n := range []string{"limit", "offset", "start", "ordering", "brief", "fields", "omit", "q", "name", "name__ic",
		"name__n", "name__empty", "region_id", "region", "status", "tag", "tag__n", "tenant_group_id", "id__gte", "created__lt"} {
		if params[n] == nil {
			t.Fatalf("sites: parameter %s missing", n)
		}
	}
	// The choices, "null" for none, and "" (a blank value filters nothing).
	if enum := params["status"].Schema.Value.Items.Value.Enum; len(enum) != 7 || enum[0] != "planned" || enum[5] != "null" || enum[6] != "" {
		t.Fatalf("status choices %v", enum)
	}
	// An id, or "null" for none, as text (openapi_filtertext.go); a
	// date/time as text; a boolean as its words.
	if r := params["region_id"].Schema.Value.Items.Ref; r != "#/components/schemas/FilterIntegerOrNull" {
		t.Fatalf("region_id items %q", r)
	}
	if r := params["created__lt"].Schema.Value.Items.Ref; r != "#/components/schemas/FilterDateTime" {
		t.Fatalf("created__lt items %q", r)
	}
	if s := params["name__empty"].Schema.Value; len(s.Enum) != 0 || s.Pattern == "" {
		t.Fatalf("name__empty: enum %v, pattern %q", s.Enum, s.Pattern)
	}
	// No enum anywhere with two members that differ only in case: the
	// generators that name a constant per member refuse such a document
	// (openapi-python-client: "Duplicate key TRUE in enum").
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var tree any
	if err := json.Unmarshal(raw, &tree); err != nil {
		t.Fatal(err)
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if enum, ok := x["enum"].([]any); ok {
				seen := map[string]string{}
				for _, m := range enum {
					if s, ok := m.(string); ok {
						if o, dup := seen[strings.ToUpper(s)]; dup {
							t.Errorf("enum members %q and %q: %v", o, s, enum)
						}
						seen[strings.ToUpper(s)] = s
					}
				}
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(tree)
	for name, want := range map[string]bool{"0": true, " -5.00 ": true, "null": true, "": true, "5x": false, "1.5": false} {
		if err := doc.Components.Schemas["FilterIntegerOrNull"].Value.VisitJSON(name); (err == nil) != want {
			t.Errorf("FilterIntegerOrNull %q: %v", name, err)
		}
	}
	// A choice renders as {value, label}; an FK as its brief form.
	site := doc.Components.Schemas["Site"].Value
	if v := site.Properties["status"].Value.Properties["value"]; v == nil || len(v.Value.Enum) != 5 {
		t.Fatalf("status: %+v", site.Properties["status"].Value)
	}
	if r := site.Properties["region"].Value.AllOf[0].Ref; r != "#/components/schemas/BriefRegion" {
		t.Fatalf("region ref %q", r)
	}
	if w := doc.Components.Schemas["WritableSiteRequest"].Value; strings.Join(w.Required, ",") != "name,slug" || w.Properties["id"] != nil {
		t.Fatalf("writable site: required %v", w.Required)
	}

	// YAML on request, the same document.
	ydoc, yr := loadSchema(t, e, "?format=yaml")
	if ct := yr.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/vnd.oai.openapi") || yr.Body[0] == '{' {
		t.Fatalf("yaml: content type %q", ct)
	}
	if ydoc.Paths.Len() != doc.Paths.Len() || len(ydoc.Components.Schemas) != len(doc.Components.Schemas) {
		t.Fatal("yaml and json documents differ")
	}
	e.Anonymous().Must(http.StatusNotFound, "GET", "/api/schema/?format=xml", nil)

	// Conventional key order, for tools that sniff the first bytes.
	for _, c := range []struct{ query, order string }{
		{"?format=json", `{"openapi":"3.0.3","info":{`},
		{"?format=yaml", "openapi: 3.0.3\ninfo:\n"},
	} {
		body := string(e.Anonymous().Must(http.StatusOK, "GET", "/api/schema/"+c.query, nil).Body)
		if !strings.HasPrefix(body, c.order) {
			t.Fatalf("%s begins %.40q, want %q", c.query, body, c.order)
		}
		paths, components := strings.Index(body, `"paths":`), strings.Index(body, `"components":`)
		if c.query == "?format=yaml" {
			paths, components = strings.Index(body, "\npaths:"), strings.Index(body, "\ncomponents:")
		}
		if paths < 0 || components < paths {
			t.Fatalf("%s: paths at %d, components at %d", c.query, paths, components)
		}
	}
}

// TestOpenAPIMatchesResponses checks real responses and requests against
// the document's schemas, on every database.
func TestOpenAPIMatchesResponses(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		var doc openapi3.T
		if err := json.Unmarshal(e.Must(http.StatusOK, "GET", "/api/schema/", nil).Body, &doc); err != nil {
			t.Fatal(err)
		}
		if err := openapi3.NewLoader().ResolveRefsIn(&doc, nil); err != nil {
			t.Fatal(err)
		}
		validate := func(schema string, v any) {
			t.Helper()
			raw, _ := json.Marshal(v)
			var x any
			_ = json.Unmarshal(raw, &x)
			if err := doc.Components.Schemas[schema].Value.VisitJSON(x); err != nil {
				t.Fatalf("%s does not match: %v\n%s", schema, err, raw)
			}
		}
		region := map[string]any{"name": "Europe", "slug": "europe"}
		validate("WritableRegionRequest", region)
		e.Must(http.StatusCreated, "POST", "/api/dcim/regions/", region)
		site := map[string]any{"name": "DC1", "slug": "dc1", "region": map[string]any{"slug": "europe"}, "status": "active", "tags": []any{}}
		validate("WritableSiteRequest", site)
		validate("Site", e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", site).JSON())
		e.Must(http.StatusCreated, "POST", "/api/extras/tags/", map[string]any{"name": "T", "slug": "t"})
		pfx := map[string]any{"prefix": "10.0.0.0/8", "scope_type": "dcim.site", "scope_id": 1, "tags": []any{map[string]any{"slug": "t"}}}
		validate("WritablePrefixRequest", pfx)
		e.Must(http.StatusCreated, "POST", "/api/ipam/prefixes/", pfx)
		validate("PaginatedPrefixList", e.Must(http.StatusOK, "GET", "/api/ipam/prefixes/", nil).JSON())
		validate("PaginatedSiteList", e.Must(http.StatusOK, "GET", "/api/dcim/sites/", nil).JSON())
		validate("BriefSite", e.Must(http.StatusOK, "GET", "/api/dcim/sites/?brief=1", nil).Results()[0])
		validate("Token", e.Must(http.StatusCreated, "POST", "/api/users/tokens/", map[string]any{"user": 1}).JSON())
		validate("PaginatedUserList", e.Must(http.StatusOK, "GET", "/api/users/users/", nil).JSON())
		validate("PaginatedObjectChangeList", e.Must(http.StatusOK, "GET", "/api/core/object-changes/", nil).JSON())
		validate("Status", e.Must(http.StatusOK, "GET", "/api/status/", nil).JSON())
		validate("User", e.Must(http.StatusOK, "GET", "/api/authentication-check/", nil).JSON())
	})
}

func TestSwaggerUI(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		anon := e.Anonymous() // LOGIN_REQUIRED is on: the page is public all the same
		r := anon.Must(http.StatusOK, "GET", "/api/schema/swagger-ui/", nil)
		if ct := r.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
			t.Fatalf("page content type %q", ct)
		}
		body := string(r.Body)
		for _, want := range []string{"/api/schema/swagger-ui/static/swagger-ui-bundle.js", "/api/schema/swagger-ui/static/swagger-ui.css", `"/api/schema/?format=json"`} {
			if !strings.Contains(body, want) {
				t.Fatalf("page does not load %s", want)
			}
		}
		for file, ct := range map[string]string{
			"swagger-ui-bundle.js": "text/javascript; charset=utf-8",
			"swagger-ui.css":       "text/css; charset=utf-8",
			"favicon-32x32.png":    "image/png",
		} {
			a := anon.Must(http.StatusOK, "GET", "/api/schema/swagger-ui/static/"+file, nil)
			if a.Header.Get("Content-Type") != ct || len(a.Body) < 500 {
				t.Fatalf("%s: %q, %d bytes", file, a.Header.Get("Content-Type"), len(a.Body))
			}
		}
		anon.Must(http.StatusNotFound, "GET", "/api/schema/swagger-ui/static/index.html", nil)
		if r := anon.Do("GET", "/api/schema/swagger-ui", nil); r.Status != http.StatusFound || r.Header.Get("Location") != "/api/schema/swagger-ui/" {
			t.Fatalf("no slash: %d %s", r.Status, r.Header.Get("Location"))
		}
		if r := anon.Do("GET", "/api/schema", nil); r.Status != http.StatusFound {
			t.Fatalf("schema without slash: %d", r.Status)
		}
		// ReDoc, as NetBox serves it (drf-spectacular's view), from the
		// embedded script, over a part of the document given in the page
		// (TestRedocSlices).
		r = anon.Must(http.StatusOK, "GET", "/api/schema/redoc/", nil)
		if ct := r.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" || !strings.Contains(string(r.Body), "/api/schema/redoc/static/redoc.standalone.js") ||
			!strings.Contains(string(r.Body), `<script id="redoc-spec" type="application/json">{"openapi":`) {
			t.Fatalf("redoc page: %q %s", ct, r.Body)
		}
		if a := anon.Must(http.StatusOK, "GET", "/api/schema/redoc/static/redoc.standalone.js", nil); a.Header.Get("Content-Type") != "text/javascript; charset=utf-8" || len(a.Body) < 100000 {
			t.Fatalf("redoc script: %q, %d bytes", a.Header.Get("Content-Type"), len(a.Body))
		}
		anon.Must(http.StatusNotFound, "GET", "/api/schema/redoc/static/swagger-ui.css", nil)
		// A credential that is sent is checked, as everywhere.
		if r := e.WithToken("Token 0000000000000000000000000000000000000000").Do("GET", "/api/schema/", nil); r.Status != http.StatusForbidden {
			t.Fatalf("invalid token: %d", r.Status)
		}
	})
}

// TestStaticRouteMethod: a method a static route lacks is a 405 with that
// route's Allow, even where a parameter route beside it serves the method
// (the document declares POST only for tokens/provision/).
func TestStaticRouteMethod(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		for _, c := range []struct{ method, path, allow string }{
			{"PUT", "/api/users/tokens/provision/", "POST, OPTIONS"},
			{"DELETE", "/api/users/tokens/provision/", "POST, OPTIONS"},
		} {
			r := e.Do(c.method, c.path, map[string]any{})
			if r.Status != http.StatusMethodNotAllowed || r.Header.Get("Allow") != c.allow {
				t.Errorf("%s %s: %d, Allow %q, want 405 and %q: %s", c.method, c.path, r.Status, r.Header.Get("Allow"), c.allow, r.Body)
			}
		}
		// The parameter route still serves its own ids.
		e.Must(http.StatusNotFound, "PUT", "/api/users/tokens/999/", map[string]any{})
	})
}

// TestOpenAPINestedFormsPerRelation: two relations that render one model in
// different nested forms get a schema each (a console port's module
// carries its device and bay, a module bay's module only id, url and
// display, as NetBox 4.6's serializers declare); with one shared schema a
// module bay with a parent module failed the document's own validation.
func TestOpenAPINestedFormsPerRelation(t *testing.T) {
	e := servertest.New(t, "sqlite")
	doc, _ := loadSchema(t, e, "")
	required := func(model, field string) []string {
		m := doc.Components.Schemas[resource.ByContentType(model).Type]
		if m == nil || m.Value == nil {
			t.Fatalf("no schema %s", model)
		}
		ref := m.Value.Properties[field]
		if ref == nil {
			t.Fatalf("%s.%s: no property", model, field)
		}
		deref := func(r *openapi3.SchemaRef) *openapi3.Schema {
			if r.Ref != "" {
				return doc.Components.Schemas[strings.TrimPrefix(r.Ref, "#/components/schemas/")].Value
			}
			return r.Value
		}
		s := deref(ref)
		if s == nil {
			t.Fatalf("%s.%s: unresolved %s", model, field, ref.Ref)
		}
		for _, one := range s.AllOf {
			if v := deref(one); v != nil && len(v.Required) > 0 {
				s = v
			}
		}
		out := append([]string(nil), s.Required...)
		sort.Strings(out)
		return out
	}
	for _, c := range []struct{ model, want string }{
		{"dcim.consoleport", "[device display id module_bay url]"},
		{"dcim.interface", "[device display id module_bay url]"},
		{"dcim.modulebay", "[display id url]"},
	} {
		if got := fmt.Sprint(required(c.model, "module")); got != c.want {
			t.Errorf("%s.module requires %s, want %s", c.model, got, c.want)
		}
	}
}
