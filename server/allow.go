package server

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/ent/resource"
)

// DRF sends Allow on every response of its views (APIView.finalize_response:
// the view's allowed methods), errors included: for a model's list route
// "GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS". The header is derived
// from the router once, after every route is registered, so it always
// names exactly the methods a path serves.

// allowOrder is DRF's order (View.http_method_names).
var allowOrder = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodHead, http.MethodOptions}

// allowRoute is one route pattern with its Allow header.
type allowRoute struct {
	segs  []string
	allow string
}

// indexAllow completes the routes as Django serves them (HEAD wherever GET
// is served, OPTIONS on every DRF view) and computes each pattern's Allow
// header, by pattern for routed requests and by segments for the 405 of a
// method the route lacks.
func (s *Server) indexAllow() {
	methods := map[string]map[string]bool{}
	handlers := map[string]gin.HandlerFunc{}
	var paths []string
	for _, r := range s.engine.Routes() {
		if strings.Contains(r.Path, "*") || strings.Contains(r.Path, "/static/") {
			continue // the Swagger UI's files: not a DRF view
		}
		if methods[r.Path] == nil {
			methods[r.Path] = map[string]bool{}
			paths = append(paths, r.Path)
		}
		methods[r.Path][r.Method] = true
		if r.Method == http.MethodGet {
			handlers[r.Path] = r.HandlerFunc
		}
	}
	s.allow = map[string]string{}
	for _, p := range paths {
		m := methods[p]
		if m[http.MethodGet] && !m[http.MethodHead] {
			s.engine.HEAD(p, handlers[p])
			m[http.MethodHead] = true
		}
		if !m[http.MethodOptions] {
			name := viewName(p)
			s.engine.OPTIONS(p, s.wrap(func(c *gin.Context) error {
				if PrincipalFrom(c.Request.Context()) == nil && s.cfg.LoginRequired {
					return errNotAuthenticated
				}
				return writeMetadataFor(c, name, "")
			}))
			m[http.MethodOptions] = true
		}
		var list []string
		for _, meth := range allowOrder {
			if m[meth] {
				list = append(list, meth)
			}
		}
		allow := strings.Join(list, ", ")
		if traceViewset(p) {
			allow += ", TRACE"
		}
		s.allow[p] = allow
		s.allowRoutes = append(s.allowRoutes, allowRoute{strings.Split(strings.Trim(p, "/"), "/"), allow})
	}
}

// traceViewset tells whether the route pattern p belongs to the viewset
// of a model with a "trace" action (cabled path endpoints: interfaces,
// console and power ports...). DRF's Allow lists each method of
// http_method_names the view has as an attribute, and such a viewset has
// one named trace: NetBox's Allow for all its routes ends in TRACE.
func traceViewset(p string) bool {
	for _, d := range resource.All() {
		if !strings.HasPrefix(p, "/api/"+d.App+"/"+d.Path+"/") {
			continue
		}
		for _, ep := range d.Endpoints {
			if ep.Name == "trace" {
				return true
			}
		}
	}
	return false
}

// viewName is the OPTIONS name of a view without a serializer: "API Root"
// for the roots (NetBox's APIRootView), else the last segment titled.
func viewName(p string) string {
	segs := strings.Split(strings.Trim(p, "/"), "/")
	if len(segs) <= 2 {
		return "API Root"
	}
	return titleCase(strings.ReplaceAll(segs[len(segs)-1], "-", " "))
}

// setAllow adds the Allow header of the request's route pattern (none
// for an unrouted path: Django's 404 and redirect are no DRF view).
func (s *Server) setAllow(c *gin.Context) {
	if a := s.allow[c.FullPath()]; a != "" {
		c.Header("Allow", a)
	}
}

// setAllowNoMethod adds the Allow header to the 405 of a method the route
// lacks: the route the path matches, a static segment preferred over a
// parameter.
func (s *Server) setAllowNoMethod(c *gin.Context) {
	seg := strings.Split(strings.Trim(c.Request.URL.Path, "/"), "/")
	best, bestStatic := "", -1
	for _, r := range s.allowRoutes {
		if len(r.segs) != len(seg) {
			continue
		}
		static := 0
		for i, x := range r.segs {
			switch {
			case strings.HasPrefix(x, ":"):
				if seg[i] == "" {
					static = -1
				}
			case x == seg[i]:
				static++
			default:
				static = -1
			}
			if static < 0 {
				break
			}
		}
		if static > bestStatic {
			best, bestStatic = r.allow, static
		}
	}
	if best != "" {
		c.Header("Allow", best)
	}
}

// staticMethod answers 405 for a method that a static route lacks when
// the router fell through to a parameter route beside it: PUT
// /api/users/tokens/provision/ reaches tokens/:id/ (gin matches per
// method), where Django resolves the URL to the provision view first and
// answers 405 with that view's Allow.
func (s *Server) staticMethod(c *gin.Context) {
	full := c.FullPath()
	if !strings.Contains(full, "/:") {
		return
	}
	if a := s.allow[c.Request.URL.Path]; a != "" {
		c.Header("Allow", a)
		s.render(c, detailErr(http.StatusMethodNotAllowed, `Method "`+c.Request.Method+`" not allowed.`))
		c.Abort()
	}
}
