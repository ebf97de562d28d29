package server_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/servertest"
)

// TestSpecialEndpoints checks every op of the special-endpoint registry
// from its declaration alone: it is routed, listed in its root when
// declared so, answers OPTIONS with its method, is in the OpenAPI document,
// and its declared permission is enforced (403 without it, admitted with
// it). A new endpoint is covered without new test code.
func TestSpecialEndpoints(t *testing.T) {
	t.Parallel()
	ops := server.Endpoints()
	if len(ops) == 0 {
		t.Fatal("empty registry")
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		doc, _ := loadSchema(t, e, "")
		plain, _ := e.NewUser("plain")
		for _, op := range ops {
			t.Run(op.Method+" "+op.Path, func(t *testing.T) {
				admin := e.Admin()
				var body any
				if op.Method != http.MethodGet {
					body = map[string]any{}
				}
				// Routing: the admin (who passes every gate) reaches a
				// handler, never the router's 405 or a redirect.
				r := admin.Do(op.Method, op.Example, body)
				if r.Status == http.StatusMethodNotAllowed || r.Status == http.StatusFound || r.Status >= 500 ||
					r.Status == http.StatusNotFound && !strings.Contains(op.Path, "{") {
					t.Fatalf("%s %s: status %d: %s", op.Method, op.Example, r.Status, r.Body)
				}
				// OPTIONS names the method.
				o := admin.Must(http.StatusOK, "OPTIONS", op.Example, nil)
				if allow := o.Header.Get("Allow"); !slices.Contains(strings.Split(allow, ", "), op.Method) {
					t.Fatalf("OPTIONS Allow %q lacks %s", allow, op.Method)
				}
				// Every answer of the route carries the same Allow, in DRF's
				// order (HEAD with GET, OPTIONS always).
				checkAllow(t, op.Method+" "+op.Example, r.Header.Get("Allow"), o.Header.Get("Allow"))
				// The root lists it.
				if op.Root != "" {
					root := admin.Must(http.StatusOK, "GET", op.Root, nil).Object()
					if u, _ := root[op.RootKey].(string); !strings.HasSuffix(u, op.Path) {
						t.Fatalf("%s: %q → %v", op.Root, op.RootKey, root[op.RootKey])
					}
				}
				// The document has the operation, with its id and 403.
				item := doc.Paths.Find(op.Path)
				if item == nil || item.GetOperation(op.Method) == nil {
					t.Fatalf("OpenAPI: %s %s missing", op.Method, op.Path)
				}
				oo := item.GetOperation(op.Method)
				if oo.OperationID != op.OperationID || oo.Responses.Value("403") == nil {
					t.Fatalf("OpenAPI: operation %q, 403 %v", oo.OperationID, oo.Responses.Value("403"))
				}
				if public := oo.Security != nil && len(*oo.Security) == 1 && len((*oo.Security)[0]) == 0; public != (op.Permission == api.PermPublic) {
					t.Fatalf("OpenAPI: public %v for permission %q", public, op.Permission)
				}
				// The gate: denied without the declared permission,
				// admitted with it.
				var without, with *servertest.Env
				switch op.Permission {
				case api.PermPublic:
					with = e.Anonymous()
				case api.PermAPI:
					with = plain // anonymous callers are refused only with LOGIN_REQUIRED (TestSpecialEndpointsLoginRequired)
				case api.PermAuthenticated:
					without, with = e.Anonymous(), plain
				case api.PermSuperuser:
					without, with = plain, admin
				default: // an action on the declaring model
					u, id := e.NewUser("perm-" + strings.NewReplacer("/", "-", "{", "", "}", "").Replace(op.Method+op.Path))
					if r := u.Do(op.Method, op.Example, body); r.Status != http.StatusForbidden {
						t.Fatalf("without %s on %s: status %d: %s", op.Permission, op.Model, r.Status, r.Body)
					}
					e.Grant(id, []string{op.Model}, []string{op.Permission}, nil)
					with = u
				}
				if without != nil {
					if r := without.Do(op.Method, op.Example, body); r.Status != http.StatusForbidden {
						t.Fatalf("without %s: status %d: %s", op.Permission, r.Status, r.Body)
					}
				}
				if r := with.Do(op.Method, op.Example, body); r.Status == http.StatusForbidden {
					t.Fatalf("with %s: status %d: %s", op.Permission, r.Status, r.Body)
				}
			})
		}
	})
}

// TestSpecialEndpointsLoginRequired: with LOGIN_REQUIRED, every op that
// is not public refuses anonymous callers.
func TestSpecialEndpointsLoginRequired(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		for _, op := range server.Endpoints() {
			r := e.Anonymous().Do(op.Method, op.Example, nil)
			if (r.Status == http.StatusForbidden) == (op.Permission == api.PermPublic) {
				t.Errorf("%s %s (%s) anonymous: status %d: %s", op.Method, op.Example, op.Permission, r.Status, r.Body)
			}
		}
	}, func(c *server.Config) { c.LoginRequired = true })
}
