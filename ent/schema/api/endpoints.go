package api

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
	Handler string `json:"handler"`
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
