package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/server/servertest"
	"github.com/inventory/inventory/webhooks"
)

// cleanCase is one write of a clean() table: the status and, for a
// refusal, the exact body. A refused write must leave the model's list
// (every field of every row) and the change log as they were.
type cleanCase struct {
	name, method, path string
	body               any
	status             int
	want               string // the exact body of a 400
}

// runCleanCases runs cases in order against e; list is the model's list
// URL, read whole before and after each refusal.
func runCleanCases(t *testing.T, e *servertest.Env, list string, cases []cleanCase) {
	t.Helper()
	state := func() string {
		rows := e.Must(http.StatusOK, "GET", list+"?limit=1000&ordering=id", nil).Body
		changes := e.Must(http.StatusOK, "GET", "/api/core/object-changes/?limit=1", nil).Object()["count"]
		return fmt.Sprintf("%s\nchanges: %v", rows, changes)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := state()
			r := e.Do(c.method, c.path, c.body)
			if r.Status != c.status {
				t.Errorf("status %d, want %d: %s", r.Status, c.status, r.Body)
			}
			if c.status != http.StatusBadRequest {
				return
			}
			if string(r.Body) != c.want {
				t.Errorf("body %s\nwant %s", r.Body, c.want)
			}
			if after := state(); after != before {
				t.Errorf("a refused write changed something:\n%s\n%s", before, after)
			}
		})
	}
}

// TestVLANClean: NetBox 4.6.8's VLAN.clean(), in its order, on create,
// PUT, PATCH, bulk create and bulk update: a site that disagrees with a
// group scoped to a site or to a site group (of which the site must be a
// direct member), a VID outside the group's ranges (rendered by
// ranges_to_string: inclusive, a single ID alone), and the Q-in-Q roles.
func TestVLANClean(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		mk := func(path string, body map[string]any) int {
			return idOf(a.Must(http.StatusCreated, "POST", path, body).Object())
		}
		sg1 := mk("/api/dcim/site-groups/", map[string]any{"name": "Campus", "slug": "campus"})
		sg2 := mk("/api/dcim/site-groups/", map[string]any{"name": "Campus North", "slug": "campus-north", "parent": sg1})
		region := mk("/api/dcim/regions/", map[string]any{"name": "Europe", "slug": "europe"})
		s1 := mk("/api/dcim/sites/", map[string]any{"name": "Site One", "slug": "s1", "group": sg1, "region": region})
		s2 := mk("/api/dcim/sites/", map[string]any{"name": "Site Two", "slug": "s2", "group": sg2})
		s3 := mk("/api/dcim/sites/", map[string]any{"name": "Site Three", "slug": "s3"})
		gSite := mk("/api/ipam/vlan-groups/", map[string]any{"name": "Edge", "slug": "edge",
			"scope_type": "dcim.site", "scope_id": s1, "vid_ranges": [][]int{{100, 199}}})
		gGroup := mk("/api/ipam/vlan-groups/", map[string]any{"name": "Campus VLANs", "slug": "campus-vlans",
			"scope_type": "dcim.sitegroup", "scope_id": sg1})
		gRanges := mk("/api/ipam/vlan-groups/", map[string]any{"name": "Lab", "slug": "lab",
			"vid_ranges": [][]int{{40, 50}, {10, 20}, {30, 30}}})
		gRegion := mk("/api/ipam/vlan-groups/", map[string]any{"name": "Continental", "slug": "continental",
			"scope_type": "dcim.region", "scope_id": region})
		svlan := mk("/api/ipam/vlans/", map[string]any{"vid": 1000, "name": "SV", "qinq_role": "svlan"})
		v1 := mk("/api/ipam/vlans/", map[string]any{"vid": 150, "name": "V1", "group": gSite, "site": s1})
		v2 := mk("/api/ipam/vlans/", map[string]any{"vid": 5, "name": "V2"})
		cv := mk("/api/ipam/vlans/", map[string]any{"vid": 11, "name": "CV", "qinq_role": "cvlan", "qinq_svlan": svlan})

		const (
			siteMsg    = `{"__all__":["VLAN is assigned to group Edge (scope: Site One); cannot also assign to site Site Two."]}`
			memberMsg  = `{"__all__":["The assigned site %s is not a member of the assigned group Campus VLANs (scope: Campus)."]}`
			edgeVID    = `{"vid":["VID must be in ranges 100-199 for VLANs in group Edge"]}`
			labVID     = `{"vid":["VID must be in ranges 40-50,10-20,30 for VLANs in group Lab"]}`
			svlanMsg   = `{"qinq_svlan":["Only Q-in-Q customer VLANs maybe assigned to a service VLAN."]}`
			cvlanMsg   = `{"qinq_role":["A Q-in-Q customer VLAN must be assigned to a service VLAN."]}`
			vlans      = "/api/ipam/vlans/"
			badRequest = http.StatusBadRequest
		)
		vlan := func(kv ...any) map[string]any {
			b := map[string]any{"vid": 160, "name": "new"}
			for i := 0; i+1 < len(kv); i += 2 {
				b[kv[i].(string)] = kv[i+1]
			}
			return b
		}
		one := func(id int) string { return fmt.Sprintf("/api/ipam/vlans/%d/", id) }
		runCleanCases(t, a, vlans, []cleanCase{
			// The group's scope against the site.
			{"site other than the group's site", "POST", vlans, vlan("group", gSite, "site", s2), badRequest, siteMsg},
			{"site in a child of the group's site group", "POST", vlans, vlan("group", gGroup, "site", s2), badRequest,
				fmt.Sprintf(memberMsg, "Site Two")},
			{"site in no site group", "POST", vlans, vlan("group", gGroup, "site", s3), badRequest,
				fmt.Sprintf(memberMsg, "Site Three")},
			{"site checked before the VID", "POST", vlans, vlan("group", gSite, "site", s2, "vid", 300), badRequest, siteMsg},
			{"moved to another site", "PATCH", one(v1), map[string]any{"site": s2}, badRequest, siteMsg},
			{"PUT to another site", "PUT", one(v1), vlan("name", "V1", "vid", 150, "group", gSite, "site", s2), badRequest, siteMsg},
			{"put in a group of another site", "PATCH", one(v2), map[string]any{"group": gSite, "site": s3, "vid": 170}, badRequest,
				`{"__all__":["VLAN is assigned to group Edge (scope: Site One); cannot also assign to site Site Three."]}`},
			// The VID against the group's ranges.
			{"VID above the group's range", "POST", vlans, vlan("group", gSite, "vid", 200), badRequest, edgeVID},
			{"VID between the group's ranges", "POST", vlans, vlan("group", gRanges, "vid", 25), badRequest, labVID},
			{"VID just past a range", "POST", vlans, vlan("group", gRanges, "vid", 51), badRequest, labVID},
			{"renumbered out of the range", "PATCH", one(v1), map[string]any{"vid": 99}, badRequest, edgeVID},
			{"moved into a group without its VID", "PATCH", one(v2), map[string]any{"group": gSite}, badRequest, edgeVID},
			// Q-in-Q.
			{"service VLAN without a role", "POST", vlans, vlan("qinq_svlan", svlan), badRequest, svlanMsg},
			{"service VLAN of a service VLAN", "POST", vlans, vlan("qinq_svlan", svlan, "qinq_role", "svlan"), badRequest, svlanMsg},
			{"customer VLAN without a service VLAN", "POST", vlans, vlan("qinq_role", "cvlan"), badRequest, cvlanMsg},
			{"VID checked before Q-in-Q", "POST", vlans, vlan("group", gSite, "vid", 5, "qinq_role", "cvlan"), badRequest, edgeVID},
			{"customer VLAN made a service VLAN", "PATCH", one(cv), map[string]any{"qinq_role": "svlan"}, badRequest, svlanMsg},
			{"customer VLAN's role cleared", "PATCH", one(cv), map[string]any{"qinq_role": nil}, badRequest, svlanMsg},
			{"customer VLAN's service VLAN cleared", "PATCH", one(cv), map[string]any{"qinq_svlan": nil}, badRequest, cvlanMsg},
			{"PUT without the service VLAN", "PUT", one(cv), map[string]any{"vid": 11, "name": "CV", "qinq_role": "cvlan"}, badRequest, cvlanMsg},
			// Bulk: the items are written in order, an item without errors
			// is {}, and nothing is written when one fails.
			{"bulk create, a site refused", "POST", vlans, []any{vlan("name", "b1", "group", gSite, "site", s1),
				vlan("name", "b2", "group", gSite, "site", s2, "vid", 161)}, badRequest, `[{},` + siteMsg + `]`},
			{"bulk create, a VID refused", "POST", vlans, []any{vlan("name", "b1", "group", gSite, "site", s1),
				vlan("name", "b2", "group", gSite, "vid", 200)}, badRequest, `[{},` + edgeVID + `]`},
			{"bulk create, a customer VLAN refused", "POST", vlans, []any{vlan("name", "b1", "vid", 12, "qinq_role", "cvlan", "qinq_svlan", svlan),
				vlan("name", "b3", "qinq_role", "cvlan")}, badRequest, `[{},` + cvlanMsg + `]`},
			{"bulk PATCH", "PATCH", vlans, []any{map[string]any{"id": v2, "description": "fine"},
				map[string]any{"id": v1, "site": s2}}, badRequest, siteMsg},
			{"bulk PATCH, a VID refused", "PATCH", vlans, []any{map[string]any{"id": v2, "description": "fine"},
				map[string]any{"id": v1, "vid": 1}}, badRequest, edgeVID},
			{"bulk PATCH, a service VLAN refused", "PATCH", vlans, []any{map[string]any{"id": v2, "description": "fine"},
				map[string]any{"id": v2, "qinq_svlan": svlan}}, badRequest, svlanMsg},
			{"bulk PUT", "PUT", vlans, []any{map[string]any{"id": v2, "vid": 5, "name": "V2"},
				map[string]any{"id": cv, "vid": 11, "name": "CV", "qinq_role": "cvlan"}}, badRequest, cvlanMsg},

			// What NetBox allows.
			{"the group's own site", "POST", vlans, vlan("name", "ok1", "group", gSite, "site", s1, "vid", 160), http.StatusCreated, ""},
			{"a direct member of the group's site group", "POST", vlans, vlan("name", "ok2", "group", gGroup, "site", s1), http.StatusCreated, ""},
			{"a group scoped to a region: the site is not checked", "POST", vlans, vlan("name", "ok3", "group", gRegion, "site", s3), http.StatusCreated, ""},
			{"a group without a site", "POST", vlans, vlan("name", "ok4", "group", gSite, "vid", 198), http.StatusCreated, ""},
			{"a single-ID range", "POST", vlans, vlan("name", "ok5", "group", gRanges, "vid", 30), http.StatusCreated, ""},
			{"the last ID of a range", "POST", vlans, vlan("name", "ok6", "group", gRanges, "vid", 50), http.StatusCreated, ""},
			{"a customer VLAN of a service VLAN", "POST", vlans, vlan("name", "ok7", "vid", 12, "qinq_role", "cvlan", "qinq_svlan", svlan), http.StatusCreated, ""},
			{"a service VLAN", "POST", vlans, vlan("name", "ok8", "vid", 2000, "qinq_role", "svlan"), http.StatusCreated, ""},
			{"renumbered within the range", "PATCH", one(v1), map[string]any{"vid": 199}, http.StatusOK, ""},
			{"a customer VLAN turned plain", "PATCH", one(cv), map[string]any{"qinq_role": nil, "qinq_svlan": nil}, http.StatusOK, ""},
			{"bulk create", "POST", vlans, []any{vlan("name", "ok9", "group", gSite, "site", s1, "vid", 101),
				vlan("name", "ok10", "vid", 13, "qinq_role", "cvlan", "qinq_svlan", svlan)}, http.StatusCreated, ""},
			{"bulk PATCH", "PATCH", vlans, []any{map[string]any{"id": v2, "group": gRanges, "vid": 10},
				map[string]any{"id": cv, "qinq_role": "cvlan", "qinq_svlan": svlan}}, http.StatusOK, ""},
		})

		// A VLAN stored before these rules (put out of its group's range
		// behind the API's back) is refused at its next save, as NetBox's
		// full_clean() refuses it; but deleting its role clears the role
		// (SET_NULL, a queryset update without clean() in NetBox).
		role := mk("/api/ipam/roles/", map[string]any{"name": "Legacy", "slug": "legacy"})
		legacy := mk(vlans, vlan("name", "legacy", "vid", 700, "role", role))
		if _, err := e.DB.Write.ExecContext(context.Background(),
			fmt.Sprintf(`UPDATE ipam_vlan SET group_id = %d WHERE id = %d`, gSite, legacy)); err != nil {
			t.Fatal(err)
		}
		if r := a.Do("PATCH", one(legacy), map[string]any{"description": "x"}); string(r.Body) != edgeVID {
			t.Errorf("saving a VLAN stored out of its group's range: %d %s", r.Status, r.Body)
		}
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/ipam/roles/%d/", role), nil)
		if got := a.Must(http.StatusOK, "GET", one(legacy), nil).Object()["role"]; got != nil {
			t.Errorf("the deleted role stays on the VLAN: %v", got)
		}
	})
}

// TestEventRuleActionData: EventRule.clean() refuses action_data that is
// not a JSON object or null. NetBox's REST serializer has no action_data
// field (only its UI form does), so the API ignores one in a body, as
// NetBox does; the rule holds for every write of the model, made here
// through the ent client in a tracked transaction.
func TestEventRuleActionData(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		hook := idOf(a.Must(http.StatusCreated, "POST", "/api/extras/webhooks/", map[string]any{
			"name": "W", "payload_url": "https://hooks.example.com/x"}).Object())
		rule := a.Must(http.StatusCreated, "POST", "/api/extras/event-rules/", map[string]any{
			"name": "R", "object_types": []string{"dcim.site"}, "event_types": []string{"object_created"},
			"action_type": "webhook", "action_object_type": "extras.webhook", "action_object_id": hook,
			"action_data": []int{1}}).Object()
		id := idOf(rule)
		ctx := context.Background()
		stored := func() string {
			r, err := e.DB.Client.EventRule.Get(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return string(r.ActionData)
		}
		if got := stored(); got != "" && got != "null" {
			t.Fatalf("action_data in a POST body was stored: %s", got)
		}
		write := func(fn func(ctx context.Context, c *ent.Client) error) error {
			return e.DB.InTx(ctx, func(ctx context.Context, tx *ent.Tx) error {
				return fn(webhooks.Track(ctx, tx, webhooks.Actor{Username: "cli"}), tx.Client())
			})
		}
		create := func(data string) error {
			return write(func(ctx context.Context, c *ent.Client) error {
				b := c.EventRule.Create()
				for f, v := range map[string]any{"name": "R-" + data, "object_types": []string{"dcim.site"},
					"event_types": []string{"object_created"}, "action_object_type": "extras.webhook",
					"action_object_id": hook, "action_data": json.RawMessage(data)} {
					if err := b.Mutation().SetField(f, v); err != nil {
						return err
					}
				}
				return b.Exec(ctx)
			})
		}
		update := func(data string) error {
			return write(func(ctx context.Context, c *ent.Client) error {
				u := c.EventRule.UpdateOneID(id)
				if err := u.Mutation().SetField("action_data", json.RawMessage(data)); err != nil {
					return err
				}
				return u.Exec(ctx)
			})
		}
		for _, data := range []string{`[1]`, `"x"`, `1`, `true`, ` [] `} {
			for op, fn := range map[string]func(string) error{"create": create, "update": update} {
				t.Run(op+" "+data, func(t *testing.T) {
					before := stored()
					err := fn(data)
					var fe *api.FieldError
					if !errors.As(err, &fe) || fe.Field != "action_data" || fe.Message != "Action data must be a JSON object or null." {
						t.Fatalf("action_data %s: %v, want the action_data error", data, err)
					}
					if after := stored(); after != before {
						t.Errorf("refused action_data %s changed the rule: %s → %s", data, before, after)
					}
				})
			}
		}
		if ids, err := e.DB.Client.EventRule.Query().IDs(ctx); err != nil || len(ids) != 1 {
			t.Errorf("event rules after the refused creates: %v, %v; want only %d", ids, err, id)
		}
		for _, data := range []string{`{}`, `{"a": [1]}`, `null`} {
			if err := update(data); err != nil {
				t.Errorf("action_data %s: %v", data, err)
			}
			if err := create(data); err != nil {
				t.Errorf("create with action_data %s: %v", data, err)
			}
		}
		if got := stored(); got != "null" && got != "" {
			t.Errorf("action_data after the last update: %s", got)
		}
	})
}

// TestUsernameCase: User.clean() refuses a username that differs only in
// case from another user's, with a model error ("__all__"), on create,
// PUT, PATCH, bulk writes and the CLI's paths; an exact duplicate keeps
// DRF's field error; a user may change the case of their own name.
func TestUsernameCase(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		mk := func(name string) int {
			return idOf(a.Must(http.StatusCreated, "POST", "/api/users/users/", map[string]any{"username": name, "password": "pw-" + name}).Object())
		}
		bob := mk("bob")
		mk("ärger")
		const (
			taken = `{"__all__":["A user with this username already exists."]}`
			users = "/api/users/users/"
		)
		user := func(name string) map[string]any { return map[string]any{"username": name, "password": "pw-" + name} }
		bobPath := fmt.Sprintf("/api/users/users/%d/", bob)
		runCleanCases(t, a, users, []cleanCase{
			{"another user's name in capitals", "POST", users, user("ADMIN"), http.StatusBadRequest, taken},
			{"another user's name in mixed case", "POST", users, user("Bob"), http.StatusBadRequest, taken},
			// Django's username validator takes letters of any script. The
			// non-ASCII letters themselves fold as the database's LOWER
			// does (PostgreSQL: by its LC_CTYPE), as NetBox's iexact.
			{"a non-ASCII name in another case", "POST", users, user("äRGER"), http.StatusBadRequest, taken},
			{"an exact duplicate", "POST", users, user("admin"), http.StatusBadRequest,
				`{"username":["A user with that username already exists."]}`},
			{"renamed to another user's name in another case", "PATCH", bobPath, map[string]any{"username": "Admin"}, http.StatusBadRequest, taken},
			{"PUT to another user's name in another case", "PUT", bobPath, user("aDMIN"), http.StatusBadRequest, taken},
			{"bulk create of two names differing in case", "POST", users, []any{user("carol"), user("Carol")}, http.StatusBadRequest,
				`[{},{"__all__":["A user with this username already exists."]}]`},
			{"bulk PATCH", "PATCH", users, []any{map[string]any{"id": bob, "username": "ADMIN"}}, http.StatusBadRequest, taken},
			// Allowed.
			{"a new name", "POST", users, user("dave"), http.StatusCreated, ""},
			{"one's own name in another case", "PATCH", bobPath, map[string]any{"username": "Bob"}, http.StatusOK, ""},
			{"bulk create of distinct names", "POST", users, []any{user("erin"), user("frank")}, http.StatusCreated, ""},
		})
		// The CLI's paths (`inventory user create`, createsuperuser) write
		// through the same model.
		ctx := context.Background()
		count := func() int {
			ids, err := e.DB.Client.User.Query().IDs(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return len(ids)
		}
		before := count()
		var fe *api.FieldError
		if _, err := e.Server.CreateUser(ctx, "DAVE", "pw", "", false); !errors.As(err, &fe) || fe.Message != "A user with this username already exists." {
			t.Errorf("user create DAVE: %v", err)
		}
		if err := e.Server.CreateSuperuser(ctx, "Admin", "pw", "", "", true); !errors.As(err, &fe) || fe.Message != "A user with this username already exists." {
			t.Errorf("createsuperuser Admin: %v", err)
		}
		if after := count(); after != before {
			t.Errorf("refused CLI creates left users: %d → %d", before, after)
		}
		if _, err := e.Server.CreateUser(ctx, "grace", "pw", "", false); err != nil {
			t.Errorf("user create grace: %v", err)
		}
	})
}
