package server_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/servertest"
)

// TestPermissionsDoneMeans is issue 3's walk-through: a robot that may view
// and change only tenant blue's prefixes.
func TestPermissionsDoneMeans(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		blue := id(e.Must(http.StatusCreated, "POST", "/api/tenancy/tenants/", map[string]any{"name": "Blue", "slug": "blue"}))
		red := id(e.Must(http.StatusCreated, "POST", "/api/tenancy/tenants/", map[string]any{"name": "Red", "slug": "red"}))
		b1 := id(e.Must(http.StatusCreated, "POST", "/api/ipam/prefixes/", map[string]any{"prefix": "10.1.0.0/16", "tenant": blue}))
		b2 := id(e.Must(http.StatusCreated, "POST", "/api/ipam/prefixes/", map[string]any{"prefix": "10.2.0.0/16", "tenant": blue}))
		r1 := id(e.Must(http.StatusCreated, "POST", "/api/ipam/prefixes/", map[string]any{"prefix": "10.3.0.0/16", "tenant": red}))
		e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "S", "slug": "s"})

		robot, rid := e.NewUser("robot")
		perm := e.Must(http.StatusCreated, "POST", "/api/users/permissions/", map[string]any{
			"name": "blue prefixes", "object_types": []string{"ipam.prefix"}, "actions": []string{"view", "change"},
			"constraints": map[string]any{"tenant__slug": "blue"}, "users": []int{rid},
		}).Object()
		if us := perm["users"].([]any); len(us) != 1 || us[0].(map[string]any)["username"] != "robot" {
			t.Fatalf("users not nested: %v", perm["users"])
		}

		r := robot.Must(http.StatusOK, "GET", "/api/ipam/prefixes/", nil)
		if got := ids(r.Results()); len(got) != 2 || got[0] != b1 && got[1] != b1 || r.Object()["count"].(float64) != 2 {
			t.Fatalf("robot lists %s", r.Body)
		}
		robot.Must(http.StatusOK, "GET", "/api/ipam/prefixes/"+itoa(b2)+"/", nil)
		if r := robot.Must(http.StatusNotFound, "GET", "/api/ipam/prefixes/"+itoa(r1)+"/", nil); string(r.Body) != `{"detail":"No Prefix matches the given query."}` {
			t.Fatalf("404 body %s", r.Body)
		}
		robot.Must(http.StatusNotFound, "PATCH", "/api/ipam/prefixes/"+itoa(r1)+"/", map[string]any{"description": "x"})
		robot.Must(http.StatusOK, "PATCH", "/api/ipam/prefixes/"+itoa(b1)+"/", map[string]any{"description": "mine"})
		r = robot.Must(http.StatusForbidden, "PATCH", "/api/ipam/prefixes/"+itoa(b1)+"/", map[string]any{"tenant": red})
		if string(r.Body) != `{"detail":"You do not have permission to perform this action."}` {
			t.Fatalf("403 body %s", r.Body)
		}
		if ten := e.Must(http.StatusOK, "GET", "/api/ipam/prefixes/"+itoa(b1)+"/", nil).Object()["tenant"].(map[string]any); ten["slug"] != "blue" {
			t.Fatalf("prefix left blue: %v", ten)
		}
		// By attributes too: the tenant lookup itself needs view on tenants.
		r = robot.Must(http.StatusBadRequest, "PATCH", "/api/ipam/prefixes/"+itoa(b1)+"/", map[string]any{"tenant": map[string]any{"slug": "red"}})
		if !strings.Contains(string(r.Body), "Related object not found") {
			t.Fatalf("attribute lookup of an invisible tenant: %s", r.Body)
		}
		robot.Must(http.StatusForbidden, "POST", "/api/ipam/prefixes/", map[string]any{"prefix": "10.9.0.0/16", "tenant": blue})
		robot.Must(http.StatusForbidden, "DELETE", "/api/ipam/prefixes/"+itoa(b1)+"/", nil)
		robot.Must(http.StatusForbidden, "GET", "/api/dcim/sites/", nil)
		robot.Must(http.StatusForbidden, "GET", "/api/dcim/sites/1/", nil)
		e.Anonymous().Must(http.StatusForbidden, "GET", "/api/ipam/prefixes/", nil)

		// Bulk: any object out of reach fails the whole request.
		robot.Must(http.StatusBadRequest, "PATCH", "/api/ipam/prefixes/", []map[string]any{{"id": b1, "description": "bulk"}, {"id": r1, "description": "bulk"}})
		if d := e.Must(http.StatusOK, "GET", "/api/ipam/prefixes/"+itoa(b1)+"/", nil).Object()["description"]; d != "mine" {
			t.Fatalf("failed bulk wrote %v", d)
		}
		robot.Must(http.StatusForbidden, "PATCH", "/api/ipam/prefixes/", []map[string]any{{"id": b1, "tenant": red}})
		robot.Must(http.StatusOK, "PATCH", "/api/ipam/prefixes/", []map[string]any{{"id": b1, "description": "bulk"}, {"id": b2, "description": "bulk"}})

		// A permission through a group counts the same; disabling it
		// takes it away.
		g := id(e.Must(http.StatusCreated, "POST", "/api/users/groups/", map[string]any{"name": "netops", "permissions": []int{}}))
		e.Must(http.StatusOK, "PATCH", "/api/users/users/"+itoa(rid)+"/", map[string]any{"groups": []int{g}})
		sites := id(e.Must(http.StatusCreated, "POST", "/api/users/permissions/", map[string]any{
			"name": "sites", "object_types": []string{"dcim.site"}, "actions": []string{"view"}, "groups": []int{g},
		}))
		robot.Must(http.StatusOK, "GET", "/api/dcim/sites/", nil)
		u := e.Must(http.StatusOK, "GET", "/api/users/users/"+itoa(rid)+"/", nil).Object()
		if gs := u["groups"].([]any); len(gs) != 1 || gs[0].(map[string]any)["name"] != "netops" {
			t.Fatalf("user groups %v", u["groups"])
		}
		if ps := u["permissions"].([]any); len(ps) != 1 {
			t.Fatalf("user permissions %v", u["permissions"])
		}
		if gr := e.Must(http.StatusOK, "GET", "/api/users/groups/"+itoa(g)+"/", nil).Object(); gr["user_count"].(float64) != 1 || len(gr["permissions"].([]any)) != 1 {
			t.Fatalf("group %v", gr)
		}
		if n := e.Must(http.StatusOK, "GET", "/api/users/users/?group_id="+itoa(g), nil).Object()["count"]; n.(float64) != 1 {
			t.Fatalf("group_id filter: %v", n)
		}
		if n := e.Must(http.StatusOK, "GET", "/api/users/permissions/?user=robot", nil).Object()["count"]; n.(float64) != 1 {
			t.Fatalf("user filter: %v", n)
		}
		e.Must(http.StatusOK, "PATCH", "/api/users/permissions/"+itoa(sites)+"/", map[string]any{"enabled": false})
		robot.Must(http.StatusForbidden, "GET", "/api/dcim/sites/", nil)
	})
}

// TestPermissionsExempt covers EXEMPT_VIEW_PERMISSIONS and LOGIN_REQUIRED.
func TestPermissionsExempt(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		anon := e.Anonymous()
		anon.Must(http.StatusOK, "GET", "/api/dcim/sites/", nil)
		anon.Must(http.StatusForbidden, "GET", "/api/ipam/prefixes/", nil)
		anon.Must(http.StatusForbidden, "POST", "/api/dcim/sites/", map[string]any{"name": "a", "slug": "a"})
		anon.Must(http.StatusOK, "GET", "/api/", nil)
		anon.Must(http.StatusForbidden, "GET", "/api/authentication-check/", nil)
		u, _ := e.NewUser("plain")
		u.Must(http.StatusOK, "GET", "/api/dcim/sites/", nil)
		u.Must(http.StatusForbidden, "GET", "/api/ipam/prefixes/", nil)
		u.Must(http.StatusForbidden, "POST", "/api/dcim/sites/", map[string]any{"name": "a", "slug": "a"})
	}, func(c *server.Config) {
		c.LoginRequired = false
		c.ExemptViewPermissions = []string{"dcim.site"}
	})
}

// TestPermissionsExemptAll: "*" with LOGIN_REQUIRED. (A second Each in
// one test would reuse the SQLite file: the subtest's "#01" ends the DSN's
// path.)
func TestPermissionsExemptAll(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		// "*" exempts every model but the users app's.
		e.Anonymous().Must(http.StatusForbidden, "GET", "/api/dcim/sites/", nil) // LOGIN_REQUIRED
		u, _ := e.NewUser("plain")
		u.Must(http.StatusOK, "GET", "/api/ipam/prefixes/", nil)
		u.Must(http.StatusForbidden, "GET", "/api/users/users/", nil)
		u.Must(http.StatusForbidden, "GET", "/api/users/permissions/", nil)
	}, func(c *server.Config) { c.ExemptViewPermissions = []string{"*"} })
}

// TestPermissionsMisc: read-only tokens, OPTIONS actions, related-object
// lookups by attribute and by id, constraint validation, the
// authentication check and the user config.
func TestPermissionsMisc(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		eu := id(e.Must(http.StatusCreated, "POST", "/api/dcim/regions/", map[string]any{"name": "EU", "slug": "eu"}))
		us := id(e.Must(http.StatusCreated, "POST", "/api/dcim/regions/", map[string]any{"name": "US", "slug": "us"}))
		u, uid := e.NewUser("ops")
		e.Grant(uid, []string{"dcim.site"}, []string{"view", "add", "change"}, nil)
		e.Grant(uid, []string{"dcim.region"}, []string{"view"}, map[string]any{"slug": "eu"})

		// OPTIONS: actions only for those who may add/change.
		if a := u.Must(http.StatusOK, "OPTIONS", "/api/dcim/sites/", nil).Object()["actions"].(map[string]any); a["POST"] == nil || a["PUT"] == nil {
			t.Fatalf("OPTIONS actions %v", a)
		}
		if a := u.Must(http.StatusOK, "OPTIONS", "/api/dcim/regions/", nil).Object()["actions"]; a != nil {
			t.Fatalf("OPTIONS on a view-only model shows %v", a)
		}
		ro := e.TokenFor(uid, false)
		if a := ro.Must(http.StatusOK, "OPTIONS", "/api/dcim/sites/", nil).Object()["actions"]; a != nil {
			t.Fatalf("OPTIONS for a read-only token shows %v", a)
		}
		// Read-only token: reads yes, writes never (superusers neither).
		ro.Must(http.StatusOK, "GET", "/api/dcim/sites/", nil)
		ro.Must(http.StatusForbidden, "POST", "/api/dcim/sites/", map[string]any{"name": "x", "slug": "x"})
		e.TokenFor(1, false).Must(http.StatusForbidden, "POST", "/api/dcim/sites/", map[string]any{"name": "x", "slug": "x"})

		// Related objects by attributes only among visible ones; by id always.
		r := u.Must(http.StatusBadRequest, "POST", "/api/dcim/sites/", map[string]any{"name": "a", "slug": "a", "region": map[string]any{"slug": "us"}})
		if !strings.Contains(string(r.Body), "Related object not found using the provided attributes") {
			t.Fatalf("invisible region by attributes: %s", r.Body)
		}
		u.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "b", "slug": "b", "region": map[string]any{"slug": "eu"}})
		u.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "c", "slug": "c", "region": us})
		_ = eu

		// Constraints are validated on write.
		for _, bad := range []any{map[string]any{"nope": 1}, map[string]any{"tenant__nope": "x"}, "x", map[string]any{"name__in": "x"}} {
			e.Must(http.StatusBadRequest, "POST", "/api/users/permissions/", map[string]any{
				"name": "bad", "object_types": []string{"dcim.site"}, "actions": []string{"view"}, "constraints": bad})
		}
		for _, good := range []any{nil, map[string]any{}, []any{map[string]any{"region__slug__in": []string{"eu"}}, nil},
			map[string]any{"status": "active", "name__istartswith": "a", "tenant__isnull": true, "tags__slug": "x", "id__lte": 5}} {
			e.Must(http.StatusCreated, "POST", "/api/users/permissions/", map[string]any{
				"name": "good", "object_types": []string{"dcim.site"}, "actions": []string{"view"}, "constraints": good})
		}
		e.Must(http.StatusBadRequest, "POST", "/api/users/permissions/", map[string]any{
			"name": "x", "object_types": []string{"dcim.site"}, "actions": []string{"view"}, "users": []int{9999}})

		// Passwords are write-only and hashed; the user sees themselves.
		me := u.Must(http.StatusOK, "GET", "/api/authentication-check/", nil).Object()
		if me["username"] != "ops" || me["password"] != nil {
			t.Fatalf("authentication-check %v", me)
		}
		e.Must(http.StatusOK, "PATCH", "/api/users/users/"+itoa(uid)+"/", map[string]any{"password": "new-secret"})
		e.Anonymous().Must(http.StatusCreated, "POST", "/api/users/tokens/provision/", map[string]any{"username": "ops", "password": "new-secret"})
		e.Must(http.StatusBadRequest, "POST", "/api/users/users/", map[string]any{"username": "nopw"})

		// User config.
		if c := u.Must(http.StatusOK, "GET", "/api/users/config/", nil).Object(); len(c) != 0 {
			t.Fatalf("config %v", c)
		}
		u.Must(http.StatusOK, "PATCH", "/api/users/config/", map[string]any{"tables": map[string]any{"a": 1}})
		u.Must(http.StatusOK, "PATCH", "/api/users/config/", map[string]any{"tables": map[string]any{"b": 2}})
		if c := u.Must(http.StatusOK, "GET", "/api/users/config/", nil).Object(); len(c["tables"].(map[string]any)) != 2 {
			t.Fatalf("config not merged %v", c)
		}
		// No body merges nothing (NetBox reads it as {}); null or a list
		// is no dictionary.
		if c := u.Must(http.StatusOK, "PATCH", "/api/users/config/", nil).Object(); len(c["tables"].(map[string]any)) != 2 {
			t.Fatalf("config after an empty PATCH %v", c)
		}
		u.Must(http.StatusBadRequest, "PATCH", "/api/users/config/", "null")
		u.Must(http.StatusBadRequest, "PATCH", "/api/users/config/", "[]")
	})
}

// TestTokensForUsers: DEFAULT_PERMISSIONS let every user manage their own
// tokens and no one else's; users.grant_token lets a user create tokens
// for others, and they see the secret once.
func TestTokensForUsers(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		alice, aid := e.NewUser("alice")
		_, bid := e.NewUser("bob")
		r := alice.Must(http.StatusCreated, "POST", "/api/users/tokens/", map[string]any{"user": aid, "description": "mine"})
		tok := r.Object()
		if s, _ := tok["token"].(string); len(s) != 40 {
			t.Fatalf("own token secret not shown: %v", tok["token"])
		}
		list := alice.Must(http.StatusOK, "GET", "/api/users/tokens/", nil).Results()
		for _, x := range list {
			if x["user"].(map[string]any)["id"].(float64) != float64(aid) {
				t.Fatalf("alice sees a token of %v", x["user"])
			}
		}
		if len(list) != 2 { // the harness's and her own
			t.Fatalf("alice lists %d tokens", len(list))
		}
		alice.Must(http.StatusNotFound, "GET", "/api/users/tokens/1/", nil) // admin's
		alice.Must(http.StatusOK, "PATCH", "/api/users/tokens/"+itoa(id(r))+"/", map[string]any{"description": "renamed"})
		r = alice.Must(http.StatusForbidden, "POST", "/api/users/tokens/", map[string]any{"user": bid})
		if string(r.Body) != `{"detail":"This user does not have permission to create tokens for other users."}` {
			t.Fatalf("grant 403 body %s", r.Body)
		}
		// Read-only token: no token writes either.
		e.TokenFor(aid, false).Must(http.StatusForbidden, "POST", "/api/users/tokens/", map[string]any{"user": aid})

		// grant_token constrained to bob, plus an add_token broad enough.
		e.Grant(aid, []string{"users.token"}, []string{"grant"}, map[string]any{"user__username": "bob"})
		e.Grant(aid, []string{"users.token"}, []string{"add"}, nil)
		r = alice.Must(http.StatusCreated, "POST", "/api/users/tokens/", map[string]any{"user": bid})
		if s, _ := r.Object()["token"].(string); len(s) != 40 {
			t.Fatalf("granted token secret not shown: %s", r.Body)
		}
		alice.Must(http.StatusForbidden, "POST", "/api/users/tokens/", map[string]any{"user": 1})
		// Her view is still her own tokens.
		alice.Must(http.StatusNotFound, "GET", "/api/users/tokens/"+itoa(id(r))+"/", nil)
		alice.Must(http.StatusNoContent, "DELETE", "/api/users/tokens/"+itoa(id(alice.Must(http.StatusCreated, "POST", "/api/users/tokens/", map[string]any{"user": aid})))+"/", nil)
		// Users cannot see users without a grant.
		alice.Must(http.StatusForbidden, "GET", "/api/users/users/", nil)
		// Provisioning works through DEFAULT_PERMISSIONS.
		e.Anonymous().Must(http.StatusCreated, "POST", "/api/users/tokens/provision/", map[string]any{"username": "bob", "password": "pw-bob"})
	})
}

// TestTokensWithoutDefaults: DEFAULT_PERMISSIONS emptied.
func TestTokensWithoutDefaults(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		// DEFAULT_PERMISSIONS emptied: no token self-service.
		alice, aid := e.NewUser("alice")
		alice.Must(http.StatusForbidden, "GET", "/api/users/tokens/", nil)
		alice.Must(http.StatusForbidden, "POST", "/api/users/tokens/", map[string]any{"user": aid})
		e.Anonymous().Must(http.StatusForbidden, "POST", "/api/users/tokens/provision/", map[string]any{"username": "alice", "password": "pw-alice"})
	}, noDefaults)
}

func itoa(n int) string { return strconv.Itoa(n) }
