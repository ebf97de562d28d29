package server

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"golang.org/x/sync/semaphore"

	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/ent/media"
	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/server/datasources"
	"github.com/inventory/inventory/server/metrics"
	"github.com/inventory/inventory/server/session"
	"github.com/inventory/inventory/webhooks"
)

// Context keys set by the middleware.
const (
	ctxRequestID = "inventory.request_id"
	ctxPrincipal = "inventory.principal"
)

// Server serves the REST API over one database.
type Server struct {
	cfg    Config
	db     *db.DB
	engine *gin.Engine
	now    func() time.Time
	hooks  *webhooks.Engine
	// sources syncs data sources (POST .../sync/ queues, its poll runs).
	sources *datasources.Engine
	// specials is the registry of special endpoints (endpoints.go);
	// getRoutes the segments of every GET route, for routable.
	specials  []*special
	getRoutes [][]string
	lastUsed  lastUsedWriter
	// allow is the Allow header of each route pattern, allowRoutes the
	// same by segments (allow.go).
	allow       map[string]string
	allowRoutes []allowRoute
	metrics     *metrics.Metrics
	// media is the directory of uploaded files (media.go).
	media *media.Store
	// loginUsers and loginAddrs count failed logins per username and
	// per client address (session.go).
	loginUsers, loginAddrs *session.Limiter
	// dbVersion caches the database's version for status (roots.go).
	dbVersion atomic.Pointer[dbVersion]
	// listRows bounds the rows of list pages in flight
	// (Config.ListRowsInFlight; nil: no bound).
	listRows *semaphore.Weighted
	// flights are the list builds identical requests share (coalesce.go).
	flights listFlights
}

// New builds the server and registers a route per model.
func New(cfg Config, database *db.DB) *Server {
	gin.SetMode(gin.ReleaseMode)
	e := gin.New()
	// We answer a missing trailing slash ourselves (302, GET/HEAD only).
	e.RedirectTrailingSlash = false
	e.RedirectFixedPath = false
	e.HandleMethodNotAllowed = true
	s := &Server{cfg: cfg, db: database, engine: e, now: func() time.Time { return time.Now().UTC() }, specials: mustRegistry(),
		media:      &media.Store{Root: cfg.MediaRoot, MaxSize: cfg.MaxImageBytes},
		loginUsers: &session.Limiter{Max: cfg.LoginLimit.PerUser, Window: cfg.LoginLimit.Window},
		loginAddrs: &session.Limiter{Max: cfg.LoginLimit.PerAddress, Window: cfg.LoginLimit.Window}}
	s.flights.cache = database.Cache
	s.SetShareListPages(cfg.ShareListPages)
	if cfg.ListRowsInFlight > 0 {
		s.listRows = semaphore.NewWeighted(int64(cfg.ListRowsInFlight))
	}
	hooks, err := webhooks.New(database, cfg.Webhooks)
	if err != nil {
		// The settings are checked when the configuration is read;
		// should they still be invalid, allow nothing internal and use
		// the default lease.
		slog.Error("webhook settings", "error", err)
		cfg.Webhooks.AllowedTargets, cfg.Webhooks.Lease = nil, 0
		hooks, _ = webhooks.New(database, cfg.Webhooks)
	}
	s.hooks = hooks
	if len(cfg.DataSources.AllowedTargets) == 0 {
		cfg.DataSources.AllowedTargets = cfg.Webhooks.AllowedTargets
	}
	sources, err := datasources.New(database, cfg.DataSources)
	if err != nil {
		slog.Error("data source settings", "error", err)
		cfg.DataSources.AllowedTargets = nil
		sources, _ = datasources.New(database, cfg.DataSources)
	}
	s.sources = sources
	database.Client.Token.Use(s.tokenHook())
	database.Client.ObjectPermission.Use(s.permissionHook())
	webhooks.Install(database.Client)
	s.metrics = s.newMetrics()
	e.Use(s.observe)
	if !cfg.Metrics.Separate {
		// Before the API's middleware: a scraper is no API user.
		e.GET("/metrics", gin.WrapH(s.MetricsHandler()))
	}
	e.Use(s.browsable, s.requestContext, s.recover, s.authenticate, s.readRouting)
	e.Use(s.staticMethod)
	s.routes()
	s.sessionRoutes()
	s.indexAllow()
	s.indexGetRoutes()
	e.NoRoute(s.noRoute)
	e.NoMethod(func(c *gin.Context) {
		s.setAllowNoMethod(c)
		s.render(c, detailErr(http.StatusMethodNotAllowed, `Method "`+c.Request.Method+`" not allowed.`))
	})
	return s
}

// Webhooks is the server's webhook engine: cmd starts its jobs, tests call
// Dispatch and Deliver directly.
func (s *Server) Webhooks() *webhooks.Engine { return s.hooks }

// DataSources is the server's data source engine: cmd starts its poll,
// tests call RunOnce directly.
func (s *Server) DataSources() *datasources.Engine { return s.sources }

// Handler is the http.Handler of the server (reads retried once on a
// dropped database connection: retry.go).
func (s *Server) Handler() http.Handler { return http.HandlerFunc(s.serve) }

// routes registers the roots, the models' CRUD routes and the special
// endpoints of the registry.
func (s *Server) routes() {
	api := s.engine.Group("/api")
	api.GET("/", s.wrap(s.apiRoot))
	s.openAPIRoutes(api)
	for _, app := range apps(s.specials) {
		api.GET("/"+app+"/", s.wrap(func(c *gin.Context) error { return s.appRoot(c, app) }))
	}
	for _, d := range resource.All() {
		s.modelRoutes(api, d.App, d.Path, d)
	}
	s.specialRoutes(api)
	s.engine.GET("/media/*path", s.wrap(s.serveMedia))
	s.engine.HEAD("/media/*path", s.wrap(s.serveMedia))
}

// modelRoutes registers the list and detail routes of d under app/path.
func (s *Server) modelRoutes(api *gin.RouterGroup, app, path string, d *resource.Descriptor) {
	list := "/" + app + "/" + path + "/"
	detail := list + ":id/"
	api.GET(list, s.wrap(func(c *gin.Context) error { return s.list(c, d) }))
	api.HEAD(list, s.wrap(func(c *gin.Context) error { return s.list(c, d) }))
	api.HEAD(detail, s.wrap(func(c *gin.Context) error { return s.retrieve(c, d) }))
	api.OPTIONS(list, s.wrap(func(c *gin.Context) error { return s.options(c, d, true) }))
	api.OPTIONS(detail, s.wrap(func(c *gin.Context) error { return s.options(c, d, false) }))
	api.GET(detail, s.wrap(func(c *gin.Context) error { return s.retrieve(c, d) }))
	if d.ReadOnlyAPI {
		return
	}
	api.POST(list, s.wrap(func(c *gin.Context) error { return s.create(c, d) }))
	api.PUT(list, s.wrap(func(c *gin.Context) error { return s.bulkUpdate(c, d, false) }))
	api.PATCH(list, s.wrap(func(c *gin.Context) error { return s.bulkUpdate(c, d, true) }))
	api.DELETE(list, s.wrap(func(c *gin.Context) error { return s.bulkDelete(c, d) }))
	api.PUT(detail, s.wrap(func(c *gin.Context) error { return s.update(c, d, false) }))
	api.PATCH(detail, s.wrap(func(c *gin.Context) error { return s.update(c, d, true) }))
	api.DELETE(detail, s.wrap(func(c *gin.Context) error { return s.destroy(c, d) }))
}

// wrap adapts an error-returning handler: errors go to the translator.
func (s *Server) wrap(h func(c *gin.Context) error) gin.HandlerFunc {
	return func(c *gin.Context) {
		if err := h(c); err != nil {
			s.render(c, err)
		}
	}
}

// requestContext assigns the request id and the API-Version header, and
// limits the body. An incoming X-Request-ID is ignored, as in NetBox.
func (s *Server) requestContext(c *gin.Context) {
	id := uuid.NewString()
	c.Set(ctxRequestID, id)
	h := c.Writer.Header()
	h.Set("X-Request-ID", id)
	if strings.HasPrefix(c.Request.URL.Path, "/api") {
		h.Set("API-Version", apiVersion(s.cfg.Version))
	}
	s.setAllow(c)
	if c.Request.Body != nil && s.cfg.MaxBodyBytes > 0 {
		c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, s.bodyLimit(c.Request))
	}
	ctx := context.WithValue(c.Request.Context(), requestIDKey{}, id)
	ctx = api.WithSettings(ctx, s.cfg.settings())
	ctx = api.WithModels(ctx, resource.ModelInfo)
	c.Request = c.Request.WithContext(ctx)
	c.Next()
}

type requestIDKey struct{}

// RequestID returns the id of the request that ctx belongs to.
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// recover turns a panic into NetBox's 500 body instead of a dropped
// connection.
func (s *Server) recover(c *gin.Context) {
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			s.render(c, panicError{p})
			c.Abort()
		}
	}()
	c.Next()
}

type panicError struct{ v any }

func (p panicError) Error() string { return "panic: " + strings.TrimSpace(sprint(p.v)) }

func apiVersion(v string) string {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return v
	}
	return parts[0] + "." + parts[1]
}

// noRoute redirects a GET/HEAD without trailing slash to the slashed path
// when that path exists (302, SPEC.md §4), with an empty body as Django's
// redirect has; everything else is Django's 404 page (BEHAVIOUR.md §1.2:
// no DRF view answers, so the body is HTML, not JSON).
func (s *Server) noRoute(c *gin.Context) {
	p := c.Request.URL.Path
	get := c.Request.Method == http.MethodGet || c.Request.Method == http.MethodHead
	loc := ""
	switch {
	case get && !strings.HasSuffix(p, "/") && s.routable(p+"/"):
		loc = p + "/"
	case get:
		loc = s.apiPageOf(p)
	}
	if loc != "" {
		if c.Request.URL.RawQuery != "" {
			loc += "?" + c.Request.URL.RawQuery
		}
		c.Header("Location", loc)
		c.Status(http.StatusFound)
		return
	}
	c.Data(http.StatusNotFound, "text/html; charset=utf-8", notFoundPage)
}

// apiPageOf is where a browser asking for one of NetBox's web pages goes:
// this service has no UI pages, so "/" leads to the API root and a
// display_url ("/dcim/sites/7/", "/core/changelog/3/") to the object's
// page of the browsable API. "" when p names nothing served.
func (s *Server) apiPageOf(p string) string {
	if p == "/" {
		return "/api/"
	}
	if strings.HasPrefix(p, "/api/") {
		return ""
	}
	seg := strings.Split(strings.Trim(p, "/"), "/")
	if len(seg) >= 2 {
		if api, ok := uiPaths()[seg[0]+"/"+seg[1]]; ok {
			seg = append(strings.Split(api, "/"), seg[2:]...)
		}
	}
	loc := "/api/" + strings.Join(seg, "/") + "/"
	if !s.routable(loc) {
		return ""
	}
	return loc
}

// uiPaths maps the web page paths of models whose pages are not at their
// API path (resource.Descriptor.UI) to that API path.
var uiPaths = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, d := range resource.All() {
		if d.UI != "" {
			m[d.UI] = d.App + "/" + d.Path
		}
	}
	return m
})

// notFoundPage is the text of NetBox's 404 template (templates/404.html).
var notFoundPage = []byte("<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>Page Not Found</title></head>\n" +
	"<body><h1>Page Not Found</h1><p>The requested page does not exist.</p></body>\n</html>\n")

// baseURL is the scheme and host for absolute URLs (BEHAVIOUR.md §1.5).
func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if p := r.Header.Get("X-Forwarded-Proto"); p == "https" || p == "http" {
		scheme = p
	}
	host := r.Host
	if h := r.Header.Get("X-Forwarded-Host"); h != "" {
		host = strings.TrimSpace(strings.Split(h, ",")[0])
	}
	return scheme + "://" + host
}
