package server

import (
	"context"
	stdsql "database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"entgo.io/ent/dialect"
	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/filters"
)

// The registry of special endpoints: every route that is not a model's
// list/detail CRUD route. Models declare theirs in their schema annotation
// (api.Model.Endpoints, carried into the generated descriptor); endpoints
// no model serves are registered by the file that owns them
// (registerEndpoint in an init). Routing, the API root and the app roots,
// OPTIONS, the permission gate (gate) and the OpenAPI document are all
// derived from this registry, so no list of apps, paths or aliases is kept
// by hand: a new endpoint is one declaration plus its handler.

// specialHandler serves one op of a special endpoint. It runs after the
// gate has admitted the caller and returns its errors to the translator.
type specialHandler func(s *Server, c *gin.Context) error

var (
	nonModelEndpoints []api.Endpoint
	specialHandlers   = map[string]specialHandler{}
)

// registerEndpoint adds an endpoint that no model serves (from the init
// of the file owning its handlers).
func registerEndpoint(e api.Endpoint) { nonModelEndpoints = append(nonModelEndpoints, e) }

// handle binds a handler name used by endpoint declarations.
func handle(name string, h specialHandler) {
	if _, dup := specialHandlers[name]; dup {
		panic("server: handler " + name + " bound twice")
	}
	specialHandlers[name] = h
}

// special is a registered endpoint resolved against the models.
type special struct {
	api.Endpoint
	model  *resource.Descriptor // the declaring model (nil: none)
	target *resource.Descriptor // Alias: the model served here
	app    string               // "" for /api/<path>/
	parts  []string             // path segments below /api/<app>/, the key as "{key}"
}

// key is the name of the path parameter of a detail endpoint.
func (e *special) key() string {
	if e.Key != "" {
		return e.Key
	}
	return "id"
}

// path renders the endpoint's path with the key written by param
// (":id" for gin, "{id}" for OpenAPI).
func (e *special) path(param func(string) string) string {
	b := strings.Builder{}
	b.WriteString("/api/")
	if e.app != "" {
		b.WriteString(e.app + "/")
	}
	for _, p := range e.parts {
		if p == "{}" {
			p = param(e.key())
		}
		b.WriteString(p + "/")
	}
	return b.String()
}

func (e *special) ginPath() string { return e.path(func(k string) string { return ":" + k }) }
func (e *special) oasPath() string { return e.path(func(k string) string { return "{" + k + "}" }) }

// rootKey is the name under which the endpoint is listed in its root
// (the app's, or the API's when it has no app); "" when it is not.
func (e *special) rootKey() string {
	if e.Alias != "" {
		return e.Path
	}
	if !e.InRoot || e.Detail || e.Name != "" || e.model != nil {
		return ""
	}
	return e.Path
}

// tag is the OpenAPI tag and the name of an endpoint's operations.
func (e *special) tag() string {
	if e.app != "" {
		return e.app
	}
	return e.Path
}

// specialRegistry resolves every declared endpoint: the non-model ones in
// registration order, then each model's in resource.All() order.
func specialRegistry() ([]*special, error) {
	var out []*special
	add := func(e api.Endpoint, d *resource.Descriptor) error {
		s := &special{Endpoint: e, model: d}
		var base []string
		switch {
		case d != nil && e.Alias != "":
			// A model served at a second path (extras/object-changes).
			s.app, base = e.App, strings.Split(e.Path, "/")
		case d != nil:
			// Without a Name, a detail endpoint adds methods to the model's
			// own detail route (running a script: POST on it).
			if e.Name == "" && !e.Detail {
				return fmt.Errorf("%s: an endpoint of a model needs a Name", d.ContentType())
			}
			s.app, base = d.App, []string{d.Path}
		case e.Path == "":
			return fmt.Errorf("endpoint without a model needs a Path (%+v)", e)
		default:
			s.app, base = e.App, strings.Split(e.Path, "/")
		}
		s.parts = append(s.parts, base...)
		if e.Detail {
			s.parts = append(s.parts, "{}")
		}
		if e.Name != "" {
			s.parts = append(s.parts, e.Name)
		}
		if e.Alias != "" {
			if s.target = resource.ByContentType(e.Alias); s.target == nil {
				return fmt.Errorf("%s: alias of unknown model %s", s.oasPath(), e.Alias)
			}
			if len(e.Ops) > 0 || e.Detail || e.Name != "" {
				return fmt.Errorf("%s: an alias serves the model's routes only", s.oasPath())
			}
		} else if len(e.Ops) == 0 {
			return fmt.Errorf("%s: no ops", s.oasPath())
		}
		for _, op := range e.Ops {
			switch {
			case op.Func != nil && (d == nil || d.Handlers[funcKey(op.Func)] == nil):
				return fmt.Errorf("%s %s: function %s is not wired (only model endpoints take Func)", op.Method, s.oasPath(), funcKey(op.Func))
			case op.Func == nil && specialHandlers[op.Handler] == nil:
				return fmt.Errorf("%s %s: handler %q is not bound", op.Method, s.oasPath(), op.Handler)
			}
			switch op.Permission {
			case api.PermPublic, api.PermAPI, api.PermAuthenticated, api.PermSuperuser:
			case actionView, actionAdd, actionChange, actionDelete:
				if d == nil {
					return fmt.Errorf("%s %s: action %q needs a model", op.Method, s.oasPath(), op.Permission)
				}
				// A model not served here may still carry permissions
				// (NetBox's extras.scriptmodule): the gate checks the grant,
				// without constraints, and the handler does the rest.
				if op.Model != "" && resource.ByContentType(op.Model) == nil && !slices.Contains(resource.ObjectTypes("object_permissions"), op.Model) {
					return fmt.Errorf("%s %s: permission on unknown model %s", op.Method, s.oasPath(), op.Model)
				}
			default:
				// A custom action (api.Op.Permission): on the object of a
				// model's detail endpoint.
				if d == nil || !e.Detail || op.Model != "" || !customAction.MatchString(op.Permission) {
					return fmt.Errorf("%s %s: unknown permission %q", op.Method, s.oasPath(), op.Permission)
				}
			}
		}
		out = append(out, s)
		return nil
	}
	for _, e := range nonModelEndpoints {
		if err := add(e, nil); err != nil {
			return nil, err
		}
	}
	for _, d := range resource.All() {
		for _, e := range d.Endpoints {
			if err := add(e, d); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// mustRegistry is the registry; a declaration error is a programming
// error caught by every test that starts a server.
func mustRegistry() []*special {
	r, err := specialRegistry()
	if err != nil {
		panic("server: special endpoints: " + err.Error())
	}
	return r
}

// apps are the API's applications: NetBox's (api.Apps, each with a root
// even before its first model is served), plus any app a model or an
// endpoint names.
func apps(reg []*special) []string {
	out := slices.Clone(api.Apps)
	for _, d := range resource.All() {
		out = append(out, d.App)
	}
	for _, e := range reg {
		if e.app != "" {
			out = append(out, e.app)
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// specialRoutes registers every endpoint of the registry: its ops behind
// the gate, OPTIONS, and the model routes of aliases.
func (s *Server) specialRoutes(api *gin.RouterGroup) {
	for _, e := range s.specials {
		route := strings.TrimPrefix(e.ginPath(), "/api")
		if e.target != nil {
			s.modelRoutes(api, e.app, strings.Join(e.parts, "/"), e.target)
			continue
		}
		for _, op := range e.Ops {
			h := specialHandlers[op.Handler]
			if op.Func != nil {
				h = logicHandler(e, op, e.model.Handlers[funcKey(op.Func)])
			}
			api.Handle(op.Method, route, s.wrap(func(c *gin.Context) error {
				if err := s.gate(c, e, op); err != nil {
					return err
				}
				return h(s, c)
			}))
		}
		if e.model != nil && e.Name == "" {
			continue // the model's detail route answers OPTIONS
		}
		api.OPTIONS(route, s.wrap(func(c *gin.Context) error { return s.specialOptions(c, e) }))
	}
}

func funcKey(f *api.FuncRef) string { return f.Pkg + "." + f.Name }

// permModel is the model whose permission an op needs: op.Model, or the
// endpoint's own.
func permModel(e *special, op api.Op) *resource.Descriptor {
	if op.Model != "" {
		return resource.ByContentType(op.Model)
	}
	return e.model
}

// logicHandler adapts a handler of a logic package: it gets the request
// through api.Request (a detail endpoint's object read through the
// caller's restriction, 404 when missing or hidden) and its value is
// rendered as JSON, an api.Page paginated. A write op runs inside one
// write transaction (logicWrite).
func logicHandler(e *special, op api.Op, h api.Handler) specialHandler {
	status := op.Status
	if status == 0 {
		status = http.StatusOK
	}
	return func(s *Server, c *gin.Context) error {
		r := &logicRequest{c: c, s: s, op: op, perm: permModel(e, op)}
		if e.Detail {
			row, err := s.endpointObject(c, e, op)
			if err != nil {
				return err
			}
			r.obj = func(name string) any { return e.model.Value(row, name) }
		}
		if op.Request != "" {
			raw, err := body(c)
			if err != nil {
				return err
			}
			r.body = raw
		}
		if op.Write {
			return s.logicWrite(c, r, h, status)
		}
		v, err := h(r)
		if err != nil {
			return err
		}
		if n, ok := v.(api.Negotiated); ok {
			return negotiate(c, status, n)
		}
		if page, ok := v.(api.Paged); ok {
			p, err := s.pagination(c.Request.URL.Query())
			if err != nil {
				return err
			}
			count := page.Len()
			from, to := 0, count
			if p.start == nil {
				from = min(p.offset, count)
				if p.limit >= 0 {
					to = min(from+p.limit, count)
				}
			}
			items := make([]any, 0, to-from)
			for i := from; i < to; i++ {
				items = append(items, page.Item(i))
			}
			next, prev := p.links(c.Request, count, nil)
			v = map[string]any{"count": count, "next": nilIfEmpty(next), "previous": nilIfEmpty(prev), "results": items}
		}
		writeJSON(c, status, v)
		return nil
	}
}

// endpointObject reads a detail endpoint's object: through the restriction
// of the action the gate admitted, or, when the op's permission is on
// another model, through the caller's view restriction of the object's
// model (NetBox's get_object_or_404(Model.objects.restrict(user))): an
// object the caller may not view is not found.
func (s *Server) endpointObject(c *gin.Context, e *special, op api.Op) (*resource.Row, error) {
	id, err := objectID(c)
	if err != nil {
		return nil, err
	}
	ctx := c.Request.Context()
	restrict := s.restriction(c)
	if op.Model != "" {
		cond, err := s.permits(ctx, PrincipalFrom(ctx), e.model, actionView)
		if errors.Is(err, errForbidden) || errors.Is(err, errNotAuthenticated) {
			return nil, notFound(e.model)
		}
		if err != nil {
			return nil, err
		}
		restrict = preds(cond)
	}
	row, err := e.model.Get(ctx, s.db.Store(), id, restrict...)
	if err != nil {
		return nil, err
	}
	if row == nil {
		return nil, notFound(e.model)
	}
	return row, nil
}

// logicWrite runs a write op's handler inside one write transaction and
// answers what it returns; an Idempotency-Key replays the first answer
// of the same request instead (idempotency.go).
func (s *Server) logicWrite(c *gin.Context, r *logicRequest, h api.Handler, status int) error {
	// A list is a bulk write: MAX_BULK_ITEMS applies, before anything runs.
	if len(r.body) > 0 && r.body[0] == '[' {
		if _, err := items(r.body, s.cfg.MaxBulkItems); err != nil {
			return err
		}
	}
	idem, err := s.idempotencyOf(c, r.op, r.body)
	if err != nil {
		return err
	}
	var out []byte
	err = s.writeTx(c, func(ctx context.Context, tx *resource.Tx) error {
		r.tx, r.tctx = tx, ctx
		defer func() { r.tx, r.tctx = nil, nil }()
		if idem != nil {
			done, err := idem.replay(ctx, tx)
			if err != nil {
				return err
			}
			if done != nil {
				out, status = done.body, done.status
				return nil
			}
		}
		v, err := h(r)
		if err != nil {
			return err
		}
		switch x := v.(type) {
		case json.RawMessage:
			out = x
		default:
			if out, err = marshal(v); err != nil {
				return err
			}
		}
		if idem != nil {
			return idem.store(ctx, tx, status, out)
		}
		return nil
	})
	if err != nil {
		return err
	}
	writeJSON(c, status, out)
	return nil
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// logicRequest is api.Request over a gin request; tx is the write
// transaction of a write op while its handler runs.
type logicRequest struct {
	c    *gin.Context
	s    *Server
	op   api.Op
	perm *resource.Descriptor // the model of op's permission
	obj  api.Getter
	body []byte
	tx   *resource.Tx
	tctx context.Context
}

func (r *logicRequest) Context() context.Context {
	if r.tctx != nil {
		return r.tctx
	}
	return r.c.Request.Context()
}
func (r *logicRequest) Query(name string) string {
	v := r.c.Request.URL.Query()[name]
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}
func (r *logicRequest) Object() api.Getter { return r.obj }
func (r *logicRequest) Body() []byte       { return r.body }
func (r *logicRequest) Postgres() bool     { return r.s.db.Dialect == dialect.Postgres }

// store is where the handler reads: inside its transaction when it has
// one (every read of a write must see the transaction, and on PostgreSQL
// must not wait for a second connection while holding a lock).
func (r *logicRequest) store() resource.Store {
	if r.tx != nil {
		return r.tx.Store()
	}
	return r.s.db.Store()
}

func (r *logicRequest) SQL(query string, args ...any) (*stdsql.Rows, error) {
	return r.store().Q.QueryContext(r.Context(), query, args...)
}

// Limit is NetBox's get_results_limit. Where NetBox would list without
// end (a negative limit, or 0 without MAX_PAGE_SIZE) it is PAGINATE_COUNT:
// an IPv6 prefix has no end to list.
func (r *logicRequest) Limit() int {
	P, M := r.s.cfg.PaginateCount, r.s.cfg.MaxPageSize
	n, err := strconv.Atoi(strings.TrimSpace(r.Query("limit")))
	switch {
	case r.Query("limit") == "" || err != nil || n < 0:
		n = P
	case n == 0 && M > 0:
		n = M
	case n == 0:
		n = P
	}
	if M > 0 && n > M {
		n = M
	}
	return n
}

var errNoTx = errors.New("special endpoint: a write outside the transaction of a write op")

func (r *logicRequest) Lock(class, key int32, shared bool) error {
	if r.tx == nil {
		return errNoTx
	}
	if !r.Postgres() {
		return nil // SQLite's write transactions run one at a time
	}
	fn := "pg_advisory_xact_lock"
	if shared {
		fn = "pg_advisory_xact_lock_shared"
	}
	_, err := r.tx.Client.ExecContext(r.tctx, "SELECT "+fn+"($1, $2)", class, key)
	return err
}

// Create writes objects as create and bulkCreate do, in the op's
// transaction; the op's permission must be on their model, whose add
// restriction (kept by the gate) the result must satisfy.
func (r *logicRequest) Create(ct string, objs []map[string]json.RawMessage, list bool) ([]int, error) {
	if r.tx == nil {
		return nil, errNoTx
	}
	d := resource.ByContentType(ct)
	if d == nil || r.op.Permission != actionAdd || r.perm != d {
		return nil, fmt.Errorf("special endpoint: creating %s needs the op's add permission on it", ct)
	}
	ctx, _ := resource.WithReveal(r.tctx)
	ids := make([]int, 0, len(objs))
	errs := make(bulkError, len(objs))
	failed := false
	for i, obj := range objs {
		errs[i] = map[string]any{}
		in := resource.Input(obj)
		if err := r.s.checkGrant(r.c, d, in); err != nil {
			return nil, err
		}
		id, err := d.Create(ctx, r.tx, in)
		if err == nil {
			ids = append(ids, id)
			continue
		}
		var ve *resource.ValidationError
		if !list || !errors.As(err, &ve) {
			return nil, err
		}
		errs[i], failed = ve, true
	}
	if failed {
		return nil, errs
	}
	return ids, r.s.inReach(r.c, ctx, r.tx, d, ids...)
}

// Render renders objects in the order of ids as a write answers them.
func (r *logicRequest) Render(ct string, ids []int) ([]json.RawMessage, error) {
	d := resource.ByContentType(ct)
	if d == nil {
		return nil, fmt.Errorf("special endpoint: render of unknown model %s", ct)
	}
	ctx, st := r.Context(), r.store()
	rows, err := d.GetMany(ctx, st, ids)
	if err != nil {
		return nil, err
	}
	page, err := d.Load(ctx, st, rows, view(r.c))
	if err != nil {
		return nil, err
	}
	byID := map[int]*resource.Row{}
	for _, row := range rows {
		byID[row.ID] = row
	}
	out := make([]json.RawMessage, 0, len(ids))
	for _, id := range ids {
		row := byID[id]
		if row == nil {
			return nil, fmt.Errorf("special endpoint: %s %d vanished", ct, id)
		}
		out = append(out, page.JSON(row))
	}
	return out, nil
}

// Full renders one object in its full representation, whatever the
// request's ?fields, ?omit and ?exclude.
func (r *logicRequest) Full(ct string, id int) (json.RawMessage, error) { return r.one(ct, id, false) }

// Related renders one object nested, whatever the caller's permissions
// on its model (a related object of the request's object).
func (r *logicRequest) Related(ct string, id int) (json.RawMessage, error) {
	return r.one(ct, id, true)
}

// one renders object id of model ct, full or nested; nil when it is gone.
func (r *logicRequest) one(ct string, id int, nested bool) (json.RawMessage, error) {
	d := resource.ByContentType(ct)
	if d == nil {
		return nil, fmt.Errorf("special endpoint: unknown model %s", ct)
	}
	ctx, st := r.Context(), r.store()
	rows, err := d.GetMany(ctx, st, []int{id})
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	page, err := d.Load(ctx, st, rows, resource.View{Base: baseURL(r.c.Request), Nested: nested})
	if err != nil {
		return nil, err
	}
	return page.JSON(rows[0]), nil
}

// Nested renders the objects of another model the caller may view, as
// related objects are rendered (the permission of that model applies, not
// the endpoint's).
func (r *logicRequest) Nested(ct string, ids []int) (map[int]json.RawMessage, error) {
	out := map[int]json.RawMessage{}
	d := resource.ByContentType(ct)
	if d == nil || len(ids) == 0 {
		return out, nil
	}
	ctx := r.c.Request.Context()
	cond, err := r.s.permits(ctx, PrincipalFrom(ctx), d, actionView)
	if errors.Is(err, errForbidden) {
		return out, nil // none of them may be seen
	}
	if err != nil {
		return nil, err
	}
	st := r.s.db.Store()
	rows, err := d.GetMany(ctx, st, ids, preds(cond)...)
	if err != nil {
		return nil, err
	}
	page, err := d.Load(ctx, st, rows, resource.View{Base: baseURL(r.c.Request), Nested: true})
	if err != nil {
		return nil, err
	}
	for _, row := range rows {
		out[row.ID] = page.JSON(row)
	}
	return out, nil
}

// gate is the one permission check of special endpoints: the op's
// declared permission (on op.Model when it names one), and write ops
// refused to read-only tokens.
func (s *Server) gate(c *gin.Context, e *special, op api.Op) error {
	perm, write := op.Permission, op.Write
	p := PrincipalFrom(c.Request.Context())
	switch perm {
	case api.PermPublic:
	case api.PermAPI:
		if err := s.authorize(c, nil, actionView); err != nil {
			return err
		}
	case api.PermAuthenticated:
		if p == nil {
			return errNotAuthenticated
		}
	case api.PermSuperuser:
		if err := s.superuser(c); err != nil {
			return err
		}
	case actionView, actionAdd, actionChange, actionDelete:
		if op.Model != "" && permModel(e, op) == nil {
			if err := s.grantedUnserved(c, op.Model, perm); err != nil {
				return err
			}
			break
		}
		if err := s.authorize(c, permModel(e, op), perm); err != nil {
			return err
		}
	default:
		if err := s.authorizeCustom(c, e.model, perm); err != nil {
			return err
		}
	}
	if write && p != nil && p.Token != nil && !p.Token.WriteEnabled {
		return errForbidden
	}
	return nil
}

// grantedUnserved admits action on a type that has permissions but no
// model served here (no rows a constraint could select): a superuser, or a
// grant of it; read-only tokens only view.
func (s *Server) grantedUnserved(c *gin.Context, ct, action string) error {
	ctx := c.Request.Context()
	p := PrincipalFrom(ctx)
	switch {
	case p == nil:
		return errNotAuthenticated
	case action != actionView && p.Token != nil && !p.Token.WriteEnabled:
		return errForbidden
	case p.User.IsSuperuser:
		return nil
	}
	_, ok, err := s.matching(ctx, p, ct, action)
	if err == nil && !ok {
		err = errForbidden
	}
	return err
}

// customAction is the form of a custom action's name.
var customAction = regexp.MustCompile(`^[a-z][a-z_]*$`)

// authorizeCustom admits a custom action (api.Op.Permission) on a model:
// the caller needs a grant of it (read-only tokens are refused, as for
// any action but view), and the restriction kept for the object is that
// of the action and of "view" together, as NetBox's
// restrict(user, action).restrict(user, "view"): without view, no object
// is found.
func (s *Server) authorizeCustom(c *gin.Context, d *resource.Descriptor, action string) error {
	ctx := c.Request.Context()
	p := PrincipalFrom(ctx)
	cond, err := s.permits(ctx, p, d, action)
	if err != nil {
		return err
	}
	viewCond, err := s.permits(ctx, p, d, actionView)
	switch {
	case errors.Is(err, errForbidden):
		viewCond = filters.OrConds() // matches nothing
	case err != nil:
		return err
	}
	var conds []filters.Cond
	for _, x := range []filters.Cond{cond, viewCond} {
		if x != nil {
			conds = append(conds, x)
		}
	}
	var restrict filters.Cond
	if len(conds) > 0 {
		restrict = filters.AndConds(conds...)
	}
	c.Set(ctxRestrict, restrict)
	return nil
}

// specialOptions answers OPTIONS on a special endpoint as DRF's metadata
// for a view without a serializer form: name, description, renders,
// parses; Allow lists the declared methods.
func (s *Server) specialOptions(c *gin.Context, e *special) error {
	if PrincipalFrom(c.Request.Context()) == nil && s.cfg.LoginRequired {
		return errNotAuthenticated
	}
	name := e.parts[len(e.parts)-1]
	if name == "{}" {
		name = e.parts[len(e.parts)-2]
	}
	suffix := ""
	if e.Detail && e.Name == "" {
		suffix = " Instance"
	}
	return writeMetadataFor(c, titleCase(strings.ReplaceAll(name, "-", " "))+suffix, e.Ops[0].Summary)
}

// routable says whether a slashed API path matches a GET route of the
// router (a param segment never holds a dot: "/sites/1.json" is no
// object), for the redirect of a path without its trailing slash.
func (s *Server) routable(p string) bool {
	seg := strings.Split(strings.Trim(p, "/"), "/")
	for _, r := range s.getRoutes {
		if len(r) != len(seg) {
			continue
		}
		ok := true
		for i, x := range r {
			if strings.HasPrefix(x, ":") {
				ok = seg[i] != "" && !strings.Contains(seg[i], ".")
			} else {
				ok = x == seg[i]
			}
			if !ok {
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// indexGetRoutes keeps the segments of every GET route (catch-alls left
// out) for routable.
func (s *Server) indexGetRoutes() {
	for _, r := range s.engine.Routes() {
		if r.Method != http.MethodGet || strings.Contains(r.Path, "*") {
			continue
		}
		s.getRoutes = append(s.getRoutes, strings.Split(strings.Trim(r.Path, "/"), "/"))
	}
}

// EndpointOp is one op of the registry as tests and tools see it.
type EndpointOp struct {
	Method     string
	Path       string // the OpenAPI path, key as "{key}"
	Example    string // a concrete path, key "1"
	Permission string // api.Op.Permission
	Model      string // the content type of Permission (op.Model, or the declaring model's; "" for none)
	// Root and RootKey: the root listing the endpoint ("/api/" or
	// "/api/<app>/") and its key there; "" when it is not listed.
	Root, RootKey string
	OperationID   string
}

// Endpoints lists every op of the registry (aliases excluded: their
// routes are a model's, covered by the model suites).
func Endpoints() []EndpointOp {
	var out []EndpointOp
	for _, e := range mustRegistry() {
		if e.target != nil {
			continue
		}
		root := ""
		if k := e.rootKey(); k != "" {
			root = "/api/"
			if e.app != "" {
				root += e.app + "/"
			}
		}
		for _, op := range e.Ops {
			o := EndpointOp{Method: op.Method, Path: e.oasPath(), Example: e.path(func(string) string { return "1" }),
				Permission: op.Permission, Root: root, RootKey: e.rootKey(), OperationID: oasOperationID(e, op)}
			if e.KeyEnum != nil {
				o.Example = e.path(func(string) string { return e.KeyEnum[0] })
			}
			if e.model != nil {
				o.Model = e.model.ContentType()
			}
			if op.Model != "" {
				o.Model = op.Model
			}
			out = append(out, o)
		}
	}
	return out
}
