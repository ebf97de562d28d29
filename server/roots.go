package server

import (
	"net/http"
	"os"
	"runtime"
	"sort"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/ent/schema/api"
)

func init() {
	handle("api.status", (*Server).status)
	handle("api.plugins", func(_ *Server, c *gin.Context) error { writeJSON(c, 200, []byte("{}")); return nil })
	registerEndpoint(api.Endpoint{Path: "plugins", InRoot: true, Ops: []api.Op{{Method: http.MethodGet,
		Permission: api.PermAPI, Handler: "api.plugins", OperationID: "plugins_root",
		Summary: "Installed plugins' APIs (none)", Response: "object", Description: "Always {}."}}})
	registerEndpoint(api.Endpoint{Path: "status", InRoot: true, Ops: []api.Op{{Method: http.MethodGet,
		Permission: api.PermAPI, Handler: "api.status", Summary: "Service status and versions", Response: "Status"}}})
	oasShape("Status", func(b *oasBuilder) *openapi3.Schema {
		str := func() *openapi3.SchemaRef { return oasVal(oasTyped("string")) }
		strMap := func() *openapi3.SchemaRef {
			s := oasTyped("object")
			s.AdditionalProperties = openapi3.AdditionalProperties{Schema: str()}
			return oasVal(s)
		}
		return oasObject(map[string]*openapi3.SchemaRef{
			"django-version":      str(),
			"go-version":          str(),
			"hostname":            str(),
			"installed_apps":      strMap(),
			"netbox-version":      str(),
			"netbox-full-version": str(),
			"plugins":             strMap(),
			"python-version":      str(),
			"rq-workers-running":  oasVal(oasTyped("integer")),
		}, "netbox-version", "netbox-full-version", "hostname", "installed_apps", "plugins", "rq-workers-running")
	})
}

// apiRoot is GET /api/: every app's root URL, plus plugins and status, in
// NetBox's key order.
func (s *Server) apiRoot(c *gin.Context) error {
	if err := s.authorize(c, nil, actionView); err != nil {
		return err
	}
	base := baseURL(c.Request) + "/api/"
	b := []byte{'{'}
	keys := apps(s.specials)
	for _, e := range s.specials {
		if k := e.rootKey(); k != "" && e.app == "" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		raw, _ := marshal(k)
		b = append(b, raw...)
		b = append(b, ':')
		raw, _ = marshal(base + k + "/")
		b = append(b, raw...)
	}
	writeJSON(c, 200, append(b, '}'))
	return nil
}

// appRoot is GET /api/<app>/: endpoint name → list URL, sorted by name.
func (s *Server) appRoot(c *gin.Context, app string) error {
	if err := s.authorize(c, nil, actionView); err != nil {
		return err
	}
	base := baseURL(c.Request)
	type entry struct{ path, url string }
	var list []entry
	for _, d := range resource.All() { // All is sorted by app, then path
		if d.App == app {
			list = append(list, entry{d.Path, d.ListURL(base)})
		}
	}
	for _, e := range s.specials {
		if k := e.rootKey(); k != "" && e.app == app {
			list = append(list, entry{k, base + e.oasPath()})
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].path < list[j].path })
	b := []byte{'{'}
	for i, e := range list {
		if i > 0 {
			b = append(b, ',')
		}
		raw, _ := marshal(e.path)
		b = append(b, raw...)
		b = append(b, ':')
		raw, _ = marshal(e.url)
		b = append(b, raw...)
	}
	writeJSON(c, 200, append(b, '}'))
	return nil
}

// status is GET /api/status/ in NetBox's shape; "netbox-version" is a plain
// X.Y.Z so that clients comparing versions accept us.
func (s *Server) status(c *gin.Context) error {
	host := s.cfg.Hostname
	if host == "" {
		host, _ = os.Hostname()
	}
	// NetBox's StatusView key order; go-version, ours, beside
	// python-version.
	b, err := marshal(jsonObject{
		{"django-version", ""},
		{"hostname", host},
		{"installed_apps", map[string]string{}},
		{"netbox-version", s.cfg.Version},
		{"netbox-full-version", s.cfg.Version},
		{"plugins", map[string]string{}},
		{"python-version", ""},
		{"go-version", runtime.Version()},
		{"rq-workers-running", len(s.workers(c))},
	})
	if err != nil {
		return err
	}
	writeJSON(c, 200, b)
	return nil
}
