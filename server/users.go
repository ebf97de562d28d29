package server

import (
	"encoding/json"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/ent/schema/api"
)

func init() {
	handle("api.authentication-check", (*Server).authenticationCheck)
	handle("users.config", (*Server).userConfig)
	registerEndpoint(api.Endpoint{Path: "authentication-check", Ops: []api.Op{{Method: http.MethodGet,
		Permission: api.PermAuthenticated, Handler: "api.authentication-check",
		Summary: "The authenticated user", Response: "User", Description: "The caller's user record."}}})
	// NetBox registers config on the users router (UserConfigViewSet), so
	// /api/users/ lists it.
	registerEndpoint(api.Endpoint{App: "users", Path: "config", InRoot: true, Ops: []api.Op{
		{Method: http.MethodGet, Permission: api.PermAuthenticated, Handler: "users.config",
			Summary: "The caller's preferences", Response: "object", Description: "Preferences (free-form)."},
		{Method: http.MethodPatch, Permission: api.PermAuthenticated, Handler: "users.config", Write: true,
			Summary: "Merge into the caller's preferences", Request: "object", Response: "object",
			Description: "The merged preferences.", Errors: []int{http.StatusBadRequest}},
	}})
}

// authenticationCheck serves GET /api/authentication-check/: the caller's
// full user representation; anonymous callers get 403 whatever
// LOGIN_REQUIRED says (BEHAVIOUR.md §1.7).
func (s *Server) authenticationCheck(c *gin.Context) error {
	p := PrincipalFrom(c.Request.Context())
	if p == nil {
		return errNotAuthenticated
	}
	d := resource.ByContentType("users.user")
	r, err := d.Get(c.Request.Context(), s.db.Store(), p.User.ID)
	if err != nil {
		return err
	}
	if r == nil {
		return errNotAuthenticated
	}
	return s.respond(c, d, r, http.StatusOK)
}

// userConfig serves GET and PATCH /api/users/config/: the caller's
// preferences (free-form JSON); PATCH deep-merges the body into them.
func (s *Server) userConfig(c *gin.Context) error {
	ctx := c.Request.Context()
	p := PrincipalFrom(ctx) // the gate admits authenticated callers only
	u, err := s.db.ReadClient.User.Get(ctx, p.User.ID)
	if err != nil {
		return err
	}
	cfg := u.Config
	if cfg == nil {
		cfg = map[string]any{}
	}
	if c.Request.Method == http.MethodPatch { // a write: the gate refused read-only tokens
		raw, err := body(c)
		if err != nil {
			return err
		}
		// No body merges nothing, as NetBox (its request.data is then an
		// empty dictionary); null or any other non-object is refused.
		patch := map[string]any{}
		if raw != nil && (json.Unmarshal(raw, &patch) != nil || patch == nil) {
			return resource.Invalid("non_field_errors", "Invalid data. Expected a dictionary.")
		}
		cfg = deepMerge(cfg, patch)
		if err := s.db.Client.User.UpdateOneID(u.ID).SetConfig(cfg).Exec(ctx); err != nil {
			return err
		}
	}
	b, err := marshal(cfg)
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, b)
	return nil
}

func deepMerge(dst, src map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range dst {
		out[k] = v
	}
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := out[k].(map[string]any); ok {
				out[k] = deepMerge(dm, sm)
				continue
			}
		}
		out[k] = v
	}
	return out
}
