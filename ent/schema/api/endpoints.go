package api

import (
	"context"
	"database/sql"
	"encoding/json"
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

// Prop is one property of a Shape; all are required.
type Prop struct {
	Name string `json:"name"`
	Type string `json:"type"` // "string", "integer", "boolean", "number", "object"
	// Nullable properties may be null.
	Nullable bool `json:"nullable,omitempty"`
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
	Permission string `json:"permission"`
	// Handler names the function serving the op, bound by its owning
	// package (the server refuses to start while a declared handler is
	// unbound).
	Handler string `json:"handler,omitempty"`
	// Func is the handler when it lives in a logic package (a Handler):
	// the generator wires it into the model's descriptor. Set Handler or
	// Func.
	Func *FuncRef `json:"func,omitempty"`
	// Write ops are refused to read-only tokens.
	Write bool `json:"write,omitempty"`
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
var Apps = []string{"circuits", "core", "dcim", "extras", "ipam", "tenancy", "users", "virtualization"}

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
}

// Page is a handler result the server paginates as a list: limit and
// offset, with NetBox's count/next/previous/results envelope.
type Page []any

// StatusError is an error with an HTTP status and NetBox's {"detail": ...}
// body, for handlers in logic packages.
type StatusError struct {
	Status int
	Detail string
}

func (e *StatusError) Error() string { return e.Detail }
