package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gin-gonic/gin"
)

// The ReDoc page (/api/schema/redoc/), one part of the API at a time.
//
// NetBox's page (drf-spectacular's view) hands ReDoc the whole document.
// ReDoc 2 renders every operation at once, with no lazy rendering: ours
// (about 1 200 operations, 17 000 query parameters, 4 MB) made a 317 000-
// element page in dcim alone and kept headless Chromium busy for 30 s or
// more, about half in ReDoc's React rendering and half in laying the page
// out; ReDoc's options (samples' depth, collapsed responses, native
// scrollbars, no search) save at most a quarter of that, and even the
// operations without their parameters, bodies or responses take 2.7 s.
// The time grows with what is rendered, so the page renders less: without
// ?app it is an index (the roots and status, and a link to every
// application and endpoint), ?app=dcim is that application's operations
// and ?app=dcim&endpoint=sites one endpoint's (its list, detail, bulk and
// special operations). Each is a slice of the same cached document: the
// operations as the document has them, with the components they refer to,
// so that nothing a reader needs is left out or rewritten. /api/schema/
// stays the whole document (ReDoc's download button points at it).

// redocIndex is the cached document cut into the pieces a slice is made
// of, each kept as the document's own JSON.
type redocIndex struct {
	top   map[string]json.RawMessage // the top-level keys but paths and components
	paths []redocPath                // in the document's (name) order
	// comps holds each component by its reference
	// (#/components/<kind>/<name>), compRefs the references inside it.
	comps    map[string]json.RawMessage
	compRefs map[string][]string
	kinds    []string // component kinds, in name order
	// apps are the applications (a first path segment with endpoints
	// below it), each with its endpoints and operation count.
	apps []*redocApp
}

type redocPath struct {
	path, app, endpoint string // endpoint: "" for the application's root
	raw                 json.RawMessage
	refs, tags          []string
	ops                 int
}

type redocApp struct {
	name      string
	ops       int
	endpoints []string // in name order
	epOps     map[string]int
}

var redocRefRE = regexp.MustCompile(`"\$ref":"(#/components/[^"/]+/[^"]+)"`)

func redocRefs(raw []byte) []string {
	var refs []string
	for _, m := range redocRefRE.FindAllSubmatch(raw, -1) {
		refs = append(refs, string(m[1]))
	}
	return refs
}

// redocMethods is the order of a path's operations on the page: the
// document's path items are encoded with their keys in name order, which
// would put a list's bulk delete before the list.
var redocMethods = []string{"get", "post", "put", "patch", "delete", "options", "head", "trace"}

// redoc cuts the document once, when ReDoc is first asked for (about
// 50 ms; 4 MB kept).
func (d *builtDoc) redoc() (*redocIndex, error) {
	d.redocOnce.Do(func() { d.redocIdx, d.redocErr = newRedocIndex(d.json) })
	return d.redocIdx, d.redocErr
}

func newRedocIndex(doc []byte) (*redocIndex, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(doc, &top); err != nil {
		return nil, fmt.Errorf("openapi: redoc: %w", err)
	}
	var paths map[string]json.RawMessage
	var comps map[string]map[string]json.RawMessage
	if err := json.Unmarshal(top["paths"], &paths); err != nil {
		return nil, fmt.Errorf("openapi: redoc: paths: %w", err)
	}
	if err := json.Unmarshal(top["components"], &comps); err != nil {
		return nil, fmt.Errorf("openapi: redoc: components: %w", err)
	}
	delete(top, "paths")
	delete(top, "components")
	x := &redocIndex{top: top, comps: map[string]json.RawMessage{}, compRefs: map[string][]string{}}
	for kind, m := range comps {
		x.kinds = append(x.kinds, kind)
		for name, raw := range m {
			ref := "#/components/" + kind + "/" + name
			x.comps[ref], x.compRefs[ref] = raw, redocRefs(raw)
		}
	}
	sort.Strings(x.kinds)
	hasEndpoints := map[string]bool{}
	for p, raw := range paths {
		var item map[string]json.RawMessage
		if err := json.Unmarshal(raw, &item); err != nil {
			return nil, fmt.Errorf("openapi: redoc: %s: %w", p, err)
		}
		rp := redocPath{path: p, refs: redocRefs(raw)}
		// The path item again, its operations in redocMethods' order
		// after its other keys (parameters, summary).
		var keys []string
		for k := range item {
			if !slices.Contains(redocMethods, k) {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		var b bytes.Buffer
		for _, k := range append(keys, redocMethods...) {
			if item[k] == nil {
				continue
			}
			if b.Len() == 0 {
				b.WriteByte('{')
			} else {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%q:", k)
			b.Write(item[k])
		}
		b.WriteByte('}')
		rp.raw = b.Bytes()
		for _, m := range redocMethods {
			if item[m] == nil {
				continue
			}
			rp.ops++
			var op struct {
				Tags []string `json:"tags"`
			}
			if err := json.Unmarshal(item[m], &op); err != nil {
				return nil, fmt.Errorf("openapi: redoc: %s %s: %w", m, p, err)
			}
			rp.tags = append(rp.tags, op.Tags...)
		}
		// /api/<app>/<endpoint>/...
		seg := strings.Split(strings.Trim(p, "/"), "/")
		if len(seg) > 1 {
			rp.app = seg[1]
		}
		if len(seg) > 2 {
			rp.endpoint = seg[2]
			hasEndpoints[rp.app] = true
		}
		x.paths = append(x.paths, rp)
	}
	sort.Slice(x.paths, func(i, j int) bool { return x.paths[i].path < x.paths[j].path })
	byName := map[string]*redocApp{}
	for i := range x.paths {
		p := &x.paths[i]
		if !hasEndpoints[p.app] {
			p.app = "" // a root of its own (/api/status/): the index's
			continue
		}
		a := byName[p.app]
		if a == nil {
			a = &redocApp{name: p.app, epOps: map[string]int{}}
			byName[p.app] = a
			x.apps = append(x.apps, a)
		}
		a.ops += p.ops
		if p.endpoint != "" {
			if _, ok := a.epOps[p.endpoint]; !ok {
				a.endpoints = append(a.endpoints, p.endpoint)
			}
			a.epOps[p.endpoint] += p.ops
		}
	}
	sort.Slice(x.apps, func(i, j int) bool { return x.apps[i].name < x.apps[j].name })
	for _, a := range x.apps {
		sort.Strings(a.endpoints)
	}
	return x, nil
}

func (x *redocIndex) app(name string) *redocApp {
	for _, a := range x.apps {
		if a.name == name {
			return a
		}
	}
	return nil
}

const redocURL = "/api/schema/redoc/"

func redocLink(app, endpoint string) string {
	switch {
	case app == "":
		return redocURL
	case endpoint == "":
		return redocURL + "?app=" + app
	}
	return redocURL + "?app=" + app + "&endpoint=" + endpoint
}

// slice is the document for one page: the operations of app (all of
// them, or endpoint's), or without app the index (the paths outside the
// applications); ok is false for an unknown app or endpoint.
func (x *redocIndex) slice(app, endpoint string) (spec []byte, title string, ok bool, err error) {
	var a *redocApp
	if app != "" {
		if a = x.app(app); a == nil {
			return nil, "", false, nil
		}
		if _, known := a.epOps[endpoint]; endpoint != "" && !known {
			return nil, "", false, nil
		}
	} else if endpoint != "" {
		return nil, "", false, nil
	}
	total := 0
	for _, p := range x.paths {
		total += p.ops
	}
	// The navigation, in Markdown, after the document's description.
	var nav strings.Builder
	switch {
	case a == nil:
		title = "inventory REST API"
		fmt.Fprintf(&nav, "This reference shows one part of the API at a time: all %d operations on one page would keep a browser busy "+
			"for half a minute. Each application's page has all its operations (the largest, dcim, takes seconds to open); each endpoint's "+
			"page has its list, detail, bulk and special operations. The whole document, for generators, is [/api/schema/](/api/schema/) "+
			"(`?format=yaml` for YAML); Swagger UI is at [/api/schema/swagger-ui/](/api/schema/swagger-ui/).\n\n## Applications\n\n", total)
		for _, a := range x.apps {
			fmt.Fprintf(&nav, "- **[%s](%s)** (%d operations): ", a.name, redocLink(a.name, ""), a.ops)
			for i, ep := range a.endpoints {
				if i > 0 {
					nav.WriteString(" · ")
				}
				fmt.Fprintf(&nav, "[%s](%s)", ep, redocLink(a.name, ep))
			}
			nav.WriteString("\n")
		}
	case endpoint == "":
		title = "inventory REST API: " + app
		fmt.Fprintf(&nav, "[All applications](%s) › **%s** (%d operations). One endpoint at a time: ", redocURL, app, a.ops)
		for i, ep := range a.endpoints {
			if i > 0 {
				nav.WriteString(" · ")
			}
			fmt.Fprintf(&nav, "[%s](%s)", ep, redocLink(app, ep))
		}
		nav.WriteString(".")
	default:
		title = "inventory REST API: " + app + " / " + endpoint
		fmt.Fprintf(&nav, "[All applications](%s) › [%s](%s) › **%s** (%d operations). Other endpoints of %s: ",
			redocURL, app, redocLink(app, ""), endpoint, a.epOps[endpoint], app)
		n := 0
		for _, ep := range a.endpoints {
			if ep == endpoint {
				continue
			}
			if n > 0 {
				nav.WriteString(" · ")
			}
			n++
			fmt.Fprintf(&nav, "[%s](%s)", ep, redocLink(app, ep))
		}
		nav.WriteString(".")
	}
	var info map[string]json.RawMessage
	if err := json.Unmarshal(x.top["info"], &info); err != nil {
		return nil, "", false, fmt.Errorf("openapi: redoc: info: %w", err)
	}
	var desc string
	if info["description"] != nil {
		if err := json.Unmarshal(info["description"], &desc); err != nil {
			return nil, "", false, fmt.Errorf("openapi: redoc: description: %w", err)
		}
	}
	if info["description"], err = json.Marshal(desc + "\n\n" + nav.String()); err != nil {
		return nil, "", false, err
	}
	infoRaw, err := json.Marshal(info)
	if err != nil {
		return nil, "", false, err
	}
	// The paths, and the components they need, transitively.
	var buf bytes.Buffer
	buf.WriteString(`{"openapi":`)
	buf.Write(x.top["openapi"])
	buf.WriteString(`,"info":`)
	buf.Write(infoRaw)
	buf.WriteString(`,"paths":{`)
	need := map[string]bool{}
	var todo []string
	want := func(refs []string) {
		for _, r := range refs {
			if !need[r] {
				need[r] = true
				todo = append(todo, r)
			}
		}
	}
	tags := map[string]bool{}
	n := 0
	for _, p := range x.paths {
		if p.app != app || endpoint != "" && p.endpoint != endpoint {
			continue
		}
		if n > 0 {
			buf.WriteByte(',')
		}
		n++
		name, _ := json.Marshal(p.path)
		buf.Write(name)
		buf.WriteByte(':')
		buf.Write(p.raw)
		want(p.refs)
		for _, t := range p.tags {
			tags[t] = true
		}
	}
	buf.WriteString(`},"components":{`)
	for len(todo) > 0 {
		r := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		want(x.compRefs[r])
	}
	for i, kind := range x.kinds {
		if i > 0 {
			buf.WriteByte(',')
		}
		fmt.Fprintf(&buf, "%q:{", kind)
		prefix := "#/components/" + kind + "/"
		var names []string
		for r := range x.comps {
			// Security schemes are named by the security requirements,
			// not by a $ref: all of them, always.
			if name, ok := strings.CutPrefix(r, prefix); ok && (need[r] || kind == "securitySchemes") {
				names = append(names, name)
			}
		}
		sort.Strings(names)
		for j, name := range names {
			if j > 0 {
				buf.WriteByte(',')
			}
			k, _ := json.Marshal(name)
			buf.Write(k)
			buf.WriteByte(':')
			buf.Write(x.comps[prefix+name])
		}
		buf.WriteByte('}')
	}
	buf.WriteByte('}')
	var rest []string
	for k := range x.top {
		if k != "openapi" && k != "info" && k != "tags" {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		fmt.Fprintf(&buf, ",%q:", k)
		buf.Write(x.top[k])
	}
	// The tags of the operations shown.
	var allTags []map[string]any
	if x.top["tags"] != nil {
		if err := json.Unmarshal(x.top["tags"], &allTags); err != nil {
			return nil, "", false, fmt.Errorf("openapi: redoc: tags: %w", err)
		}
	}
	shown := []map[string]any{}
	for _, t := range allTags {
		if name, _ := t["name"].(string); tags[name] {
			shown = append(shown, t)
		}
	}
	tb, err := json.Marshal(shown)
	if err != nil {
		return nil, "", false, err
	}
	buf.WriteString(`,"tags":`)
	buf.Write(tb)
	buf.WriteByte('}')
	return buf.Bytes(), title, true, nil
}

// redocUI is the API reference page NetBox serves at /api/schema/redoc/
// (drf-spectacular's ReDoc view), from the embedded script, over one
// slice of the document (above), given in the page: no second request.
func (s *Server) redocUI(c *gin.Context) error {
	doc, err := openAPIFor(s.cfg.Version)
	if err != nil {
		return err
	}
	x, err := doc.redoc()
	if err != nil {
		return err
	}
	spec, title, ok, err := x.slice(c.Query("app"), c.Query("endpoint"))
	if err != nil {
		return err
	}
	if !ok {
		return errNotFound
	}
	// In a <script> element the text ends at "</": JSON may spell "/" as
	// "\/" (encoding/json already escapes <, > and &).
	spec = bytes.ReplaceAll(spec, []byte("</"), []byte(`<\/`))
	var page bytes.Buffer
	page.Grow(len(spec) + 1024)
	page.WriteString(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>` + html.EscapeString(title) + `</title>
<style>body { margin: 0; padding: 0; }</style>
</head>
<body>
<div id="redoc"></div>
<script id="redoc-spec" type="application/json">`)
	page.Write(spec)
	page.WriteString(`</script>
<script src="` + redocStatic + `redoc.standalone.js"></script>
<script>
Redoc.init(JSON.parse(document.getElementById("redoc-spec").textContent), {
  downloadDefinitionUrl: ` + strconv.Quote("/api/schema/?format=json") + `
}, document.getElementById("redoc"));
</script>
</body>
</html>
`)
	c.Header("Cache-Control", "no-cache")
	c.Data(http.StatusOK, "text/html; charset=utf-8", page.Bytes())
	return nil
}

const redocStatic = "/api/schema/redoc/static/"

// redocState is builtDoc's ReDoc part.
type redocState struct {
	redocOnce sync.Once
	redocIdx  *redocIndex
	redocErr  error
}
