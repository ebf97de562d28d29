package api

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Endpoint declares a special endpoint: a route that is not one of a
// model's list/detail CRUD routes (NetBox's available-ips, trace,
// render-config, tokens/provision, the background tasks...). A model
// declares its own in api.Model.Endpoints; an endpoint no model serves is
// registered by its owning package with the same type. The server derives
// routing, the API and app roots, OPTIONS, the permission gate and the
// OpenAPI document from these declarations alone.
type Endpoint struct {
	// App and Path place an endpoint that no model serves at
	// /api/<App>/<Path>/ (Path may hold slashes). A model's endpoint leaves
	// them empty and is placed under the model's path by Name.
	App  string `json:"app,omitempty"`
	Path string `json:"path,omitempty"`
	// Name is the last segment of a model's endpoint: "provision" on
	// users.token is /api/users/tokens/provision/; with Detail,
	// "available-ips" on ipam.prefix is /api/ipam/prefixes/{id}/available-ips/.
	Name string `json:"name,omitempty"`
	// Detail endpoints take the object's key as a path parameter (Key,
	// "id" by default), after Path or the model's list path.
	Detail bool   `json:"detail,omitempty"`
	Key    string `json:"key,omitempty"`
	// KeyEnum lists the allowed values of the key, when fixed (queues).
	KeyEnum []string `json:"key_enum,omitempty"`
	// InRoot lists the endpoint in its app's root (GET /api/<app>/), as
	// NetBox's router lists its viewsets.
	InRoot bool `json:"in_root,omitempty"`
	// Alias serves the CRUD routes of the model with this content type
	// ("core.objectchange") at App/Path as well.
	Alias string `json:"alias,omitempty"`
	// Ops are the methods served, each with its handler and permission.
	Ops []Op `json:"ops,omitempty"`
	// Shapes declares the component schemas its ops name that are
	// neither a model's nor registered by the server.
	Shapes []Shape `json:"shapes,omitempty"`
}

// Shape is a flat JSON object schema for the OpenAPI document.
type Shape struct {
	Name  string `json:"name"`
	Props []Prop `json:"props"`
}

// Prop is one property of a Shape; all are required unless Optional.
type Prop struct {
	Name string `json:"name"`
	// Type is "string", "integer", "boolean", "number", "object", or
	// "file": an uploaded file, a part of a multipart/form-data request
	// or in JSON a base64 data URI (the document offers both).
	Type string `json:"type"`
	// Nullable properties may be null.
	Nullable bool `json:"nullable,omitempty"`
	// Optional properties may be absent.
	Optional bool `json:"optional,omitempty"`
}

// Permissions an Op may need besides an action on its model.
const (
	// PermPublic needs no credential (token provisioning).
	PermPublic = "public"
	// PermAPI is what the API root needs: anyone, or any authenticated
	// caller when LOGIN_REQUIRED.
	PermAPI = "api"
	// PermAuthenticated needs any authenticated caller.
	PermAuthenticated = "authenticated"
	// PermSuperuser needs a superuser.
	PermSuperuser = "superuser"
)

// Op is one method of a special endpoint.
type Op struct {
	Method string `json:"method"` // "GET", "POST", "PATCH", ...
	// Permission is an action on the endpoint's model ("view", "add",
	// "change", "delete") or PermPublic, PermAuthenticated, PermSuperuser.
	// Any other name is a custom action of a detail endpoint (NetBox's
	// "render", "render_config"): the caller needs a grant of it (403
	// without, and read-only tokens are refused), and the object is read
	// through the restrictions of both that action and "view", as NetBox's
	// restrict(user, action).restrict(user, "view") (404 outside them).
	Permission string `json:"permission"`
	// Handler names the function serving the op, bound by its owning
	// package (the server refuses to start while a declared handler is
	// unbound).
	Handler string `json:"handler,omitempty"`
	// Func is the handler when it lives in a logic package (a Handler):
	// the generator wires it into the model's descriptor. Set Handler or
	// Func.
	Func *FuncRef `json:"func,omitempty"`
	// Write ops are refused to read-only tokens. A Write op whose handler
	// lives in a logic package (Func) runs inside one write transaction:
	// Request.SQL reads inside it, Request.Create writes through it, and
	// it commits when the handler returns without error.
	Write bool `json:"write,omitempty"`
	// Model is the content type whose Permission the op needs, when not
	// the endpoint's own model: NetBox's allocation views (available-ips
	// of a prefix) check the permission of what they create or list
	// (ipam.ipaddress), and read their object through the caller's view
	// restriction of its own model (404 when hidden).
	Model string `json:"model,omitempty"`
	// Idempotent ops honour an Idempotency-Key request header: a repeat
	// of the same request (same user, method, path, query and body) with
	// the same key within the configured window answers the first
	// response again instead of running again (server/idempotency.go).
	Idempotent bool `json:"idempotent,omitempty"`
	// OpenAPI: operation id (default <app>_<path>_<name>_<verb>), summary,
	// query parameters, and the request and response shapes: a component
	// schema name, "object" for free-form JSON, "page:<Name>" for a
	// paginated list of Name, or "" for no body.
	OperationID string  `json:"operation_id,omitempty"`
	Summary     string  `json:"summary"`
	Query       []Param `json:"query,omitempty"`
	Request     string  `json:"request,omitempty"`
	Response    string  `json:"response,omitempty"`
	Status      int     `json:"status,omitempty"` // success status, 200 by default
	Description string  `json:"description,omitempty"`
	Errors      []int   `json:"errors,omitempty"` // error statuses besides 403
}

// Param is a query parameter of a special endpoint.
type Param struct {
	Name        string   `json:"name"`
	Type        string   `json:"type"` // "string", "integer", "boolean"
	Description string   `json:"description,omitempty"`
	Enum        []string `json:"enum,omitempty"`
}

// Apps are NetBox's applications: each has a root (/api/<app>/) even
// before its first model is served. They are the API's namespace, not a
// per-model list: models and endpoints of these apps need no other entry.
var Apps = []string{"circuits", "core", "dcim", "extras", "ipam", "tenancy", "users", "virtualization", "wireless"}

// Handler serves an op whose function lives in a logic package
// (Op.Func): it sees a small request abstraction, no HTTP, and returns
// the response value (rendered as JSON; a Page is paginated by the server)
// or an error for the server's one translator (*FieldError: 400,
// *StatusError: its status).
type Handler func(r Request) (any, error)

// Request is what a Handler sees of the request.
type Request interface {
	Context() context.Context
	// Query is a query parameter ("" when absent; the last value counts).
	Query(name string) string
	// Object is a detail endpoint's object, read through the caller's
	// permission restriction (a missing or hidden object answers 404
	// before the handler runs); nil on other endpoints.
	Object() Getter
	// Body is the JSON request body (nil when empty).
	Body() []byte
	// SQL runs a read-only query on the database, for handlers that need
	// rows of other models (a rack's devices); placeholders are "$n" when
	// Postgres, else "?".
	SQL(query string, args ...any) (*sql.Rows, error)
	Postgres() bool
	// Nested renders, by id, the nested representation of the objects of
	// a model (content type) that the caller may view; ids of hidden or
	// missing objects are absent.
	Nested(contentType string, ids []int) (map[int]json.RawMessage, error)
	// Related renders the nested representation of one object as a
	// related object of the request's object is rendered: whatever the
	// caller's permissions on its model, as NetBox's nested serializers
	// do (nil when it does not exist).
	Related(contentType string, id int) (json.RawMessage, error)
	// Limit is NetBox's get_results_limit: the limit parameter, or
	// PAGINATE_COUNT when absent or not a number, MAX_PAGE_SIZE for 0,
	// capped by MAX_PAGE_SIZE.
	Limit() int

	// The write side, inside the transaction of a Write op (errors
	// elsewhere).

	// Lock serialises the transaction with every other one that locks
	// (class, key) until it ends: an advisory transaction lock on
	// PostgreSQL, exclusive or shared. SQLite's write transactions are
	// serialised already, so it does nothing there.
	Lock(class, key int32, shared bool) error
	// Create writes objects of a model through its normal create path,
	// as POST on its list does: validation, change records, webhook
	// events, and the caller's permission constraints on the result
	// (403). A bad object answers 400 with a field map, or with one map
	// per object when list.
	Create(contentType string, objects []map[string]json.RawMessage, list bool) ([]int, error)
	// Render renders objects of a model as a write answers them (full,
	// or as ?fields, ?omit and ?brief say), read inside the transaction.
	Render(contentType string, ids []int) ([]json.RawMessage, error)
	// Full renders one object of a model in its full representation,
	// whatever ?fields, ?omit and ?exclude say (the object a template
	// renders); nil when it does not exist.
	Full(contentType string, id int) (json.RawMessage, error)
}

// Negotiated is a handler result with a JSON and a plain-text form, as
// NetBox's views that offer JSONRenderer and TextRenderer (a rendered
// config template): the server answers Text as text/plain when ?format=txt
// or the Accept header prefers text/plain, JSON otherwise, and 406 when
// the Accept header admits neither.
type Negotiated struct {
	JSON any
	Text string
}

// BodyError is an error answered with Status and Body as they are, for
// NetBox's answers that are not {"detail": ...} (render-config's
// {"error": ...}).
type BodyError struct {
	Status int
	Body   any
}

func (e *BodyError) Error() string { return fmt.Sprint(e.Body) }

// ItemErrors is a 400 whose body lists one field map per object of the
// request, as DRF's serializers with many=True report them ({} for the
// good ones).
type ItemErrors []map[string][]string

func (e ItemErrors) Error() string { return "invalid objects" }

// Page is a handler result the server paginates as a list: limit and
// offset, with NetBox's count/next/previous/results envelope.
type Page []any

// Paged is a handler result the server paginates as a Page without the
// handler building every item: the server asks Item only for the page's
// indexes (a base choice set has 100 000 choices). Page is one.
type Paged interface {
	Len() int
	Item(i int) any
}

func (p Page) Len() int       { return len(p) }
func (p Page) Item(i int) any { return p[i] }

// StatusError is an error with an HTTP status and NetBox's {"detail": ...}
// body, for handlers in logic packages.
type StatusError struct {
	Status int
	Detail string
}

func (e *StatusError) Error() string { return e.Detail }

// Protected is NetBox's answer to a delete that a ProtectedError or
// RestrictedError refuses (the API viewsets' dispatch): 409 naming the
// objects in the way, each as "<str(obj)> (<pk>)". The resource layer's
// PROTECT check and hooks mirroring a model's delete() guard (a virtual
// chassis with a cross-chassis LAG) answer with it alike.
func Protected(objects []string) *StatusError {
	return &StatusError{Status: http.StatusConflict, Detail: fmt.Sprintf("Unable to delete object. %d dependent objects were found: %s",
		len(objects), strings.Join(objects, ", "))}
}
