package server

import (
	"context"
	"net/http"
	"os"
	"runtime"
	"sort"

	"entgo.io/ent/dialect"
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
			"inventory-version":   str(),
			"inventory-commit":    str(),
			"database": oasVal(oasObject(map[string]*openapi3.SchemaRef{
				"vendor": str(), "version": str()}, "vendor", "version")),
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
	dbv, err := s.databaseVersion(c.Request.Context())
	if err != nil {
		return err
	}
	database := jsonObject{{"vendor", dbv.vendor}, {"version", dbv.version}}
	if s.db.HasStandbys() {
		rs := s.db.ReadStats()
		database = append(database, jsonKV{"standbys", s.standbysStatus()},
			jsonKV{"reads_from_primary", rs.Primary})
	}
	// NetBox's StatusView key order (clients that check netbox-version
	// keep working); go-version, ours, beside python-version, and this
	// service's own release, commit and database after NetBox's keys.
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
		{"inventory-version", s.cfg.Build.Version},
		{"inventory-commit", s.cfg.Build.Commit},
		{"database", database},
	})
	if err != nil {
		return err
	}
	writeJSON(c, 200, b)
	return nil
}

// dbVersion is the database a server runs on, as status reports it.
type dbVersion struct{ vendor, version string }

// databaseVersion reads the database's vendor and version once (a server
// stays on one database; a PostgreSQL upgrade restarts its clients).
func (s *Server) databaseVersion(ctx context.Context) (dbVersion, error) {
	if v := s.dbVersion.Load(); v != nil {
		return *v, nil
	}
	v := dbVersion{vendor: "sqlite"}
	q := `SELECT sqlite_version()`
	if s.db.Dialect == dialect.Postgres {
		v.vendor, q = "postgresql", `SHOW server_version`
	}
	if err := s.db.Read.QueryRowContext(ctx, q).Scan(&v.version); err != nil {
		return v, err
	}
	s.dbVersion.Store(&v)
	return v, nil
}
