package server

import (
	"os"
	"runtime"
	"sort"

	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/ent/resource"
)

// apps are the API's applications (SPEC.md §2.1; core for change records).
var apps = []string{"circuits", "core", "dcim", "extras", "ipam", "tenancy", "users", "virtualization"}

// nonModel are the endpoints of an app that no model serves.
var nonModel = map[string][]string{"core": {"background-queues", "background-tasks", "background-workers"}}

// apiRoot is GET /api/: every app's root URL, plus plugins and status, in
// NetBox's key order.
func (s *Server) apiRoot(c *gin.Context) error {
	if err := s.authorize(c, nil, actionView); err != nil {
		return err
	}
	base := baseURL(c.Request) + "/api/"
	b := []byte{'{'}
	keys := []string{"circuits", "core", "dcim", "extras", "ipam", "plugins", "status", "tenancy", "users", "virtualization"}
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
	for _, p := range nonModel[app] {
		list = append(list, entry{p, base + "/api/" + app + "/" + p + "/"})
	}
	for _, a := range aliases {
		if a.App == app {
			list = append(list, entry{a.Path, base + "/api/" + a.App + "/" + a.Path + "/"})
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
	if err := s.authorize(c, nil, actionView); err != nil {
		return err
	}
	host := s.cfg.Hostname
	if host == "" {
		host, _ = os.Hostname()
	}
	b, err := marshal(map[string]any{
		"django-version":      "",
		"go-version":          runtime.Version(),
		"hostname":            host,
		"installed_apps":      map[string]string{},
		"netbox-version":      s.cfg.Version,
		"netbox-full-version": s.cfg.Version,
		"plugins":             map[string]string{},
		"python-version":      "",
		"rq-workers-running":  len(s.workers(c)),
	})
	if err != nil {
		return err
	}
	writeJSON(c, 200, b)
	return nil
}
