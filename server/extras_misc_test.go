package server_test

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/inventory/inventory/server/servertest"
	"github.com/inventory/inventory/webhooks"
)

// Issue 13's user objects beyond the generic suites: the visibility of
// shared objects, notifications written by subscriptions and by event
// rules, and what goes with a deleted object.

// TestSharedObjectsVisibility: a saved filter or table config that is not
// shared is reached only by its user and superusers (NetBox's
// SharedObjectQuerySetMixin), on every action that looks objects up;
// writing one for another user is allowed.
func TestSharedObjectsVisibility(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		_, aliceID := e.NewUser("alice")
		_, bobID := e.NewUser("bob")
		for _, uid := range []int{aliceID, bobID} {
			e.Grant(uid, []string{"extras.savedfilter", "extras.tableconfig"}, []string{"view", "add", "change", "delete"}, nil)
		}
		alice, bob := e.TokenFor(aliceID, true), e.TokenFor(bobID, true)
		type objs struct{ shared, alices, bobs int }
		creators := map[string]func(name string, user any, shared bool) int{
			"/api/extras/saved-filters/": func(name string, user any, shared bool) int {
				return id(e.Must(http.StatusCreated, "POST", "/api/extras/saved-filters/", map[string]any{
					"name": name, "slug": name, "object_types": []string{"dcim.site"}, "parameters": map[string]any{"q": name},
					"user": user, "shared": shared}))
			},
			"/api/extras/table-configs/": func(name string, user any, shared bool) int {
				return id(e.Must(http.StatusCreated, "POST", "/api/extras/table-configs/", map[string]any{
					"name": name, "object_type": "dcim.site", "table": "SiteTable", "columns": []string{"name"},
					"user": user, "shared": shared}))
			},
		}
		for list, mk := range creators {
			o := objs{mk("shared", nil, true), mk("alices", aliceID, false), mk("bobs", bobID, false)}
			cases := []struct {
				name string
				as   *servertest.Env
				want []int
			}{
				{"superuser", e, []int{o.shared, o.alices, o.bobs}},
				{"alice", alice, []int{o.shared, o.alices}},
				{"bob", bob, []int{o.shared, o.bobs}},
			}
			for _, c := range cases {
				got := ids(c.as.Must(http.StatusOK, "GET", list+"?limit=0", nil).Results())
				slices.Sort(got)
				if !slices.Equal(got, c.want) {
					t.Errorf("%s as %s: %v, want %v", list, c.name, got, c.want)
				}
			}
			// Bob reaches none of Alice's private object, whatever the action.
			private := list + itoa(o.alices) + "/"
			bob.Must(http.StatusNotFound, "GET", private, nil)
			bob.Must(http.StatusNotFound, "PATCH", private, map[string]any{"description": "bob was here"})
			bob.Must(http.StatusNotFound, "DELETE", private, nil)
			// Alice may make her object private to Bob: the rule limits
			// look-ups, not what a write leaves behind.
			alice.Must(http.StatusOK, "PATCH", private, map[string]any{"user": bobID})
			alice.Must(http.StatusNotFound, "GET", private, nil)
			bob.Must(http.StatusOK, "GET", private, nil)
		}
	})
}

// TestSavedFilterParameters: parameters must be an object (NetBox's
// clean()), with NetBox's message; nothing is written.
func TestSavedFilterParameters(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		for _, p := range []any{[]string{"status"}, "status=active", 3} {
			r := e.Must(http.StatusBadRequest, "POST", "/api/extras/saved-filters/", map[string]any{
				"name": "f", "slug": "f", "object_types": []string{"dcim.site"}, "parameters": p})
			if string(r.Body) != `{"parameters":["Filter parameters must be stored as a dictionary of keyword arguments."]}` {
				t.Errorf("parameters %v: %s", p, r.Body)
			}
		}
		if n := e.Must(http.StatusOK, "GET", "/api/extras/saved-filters/", nil).Object()["count"]; n != float64(0) {
			t.Errorf("%v saved filters written", n)
		}
		e.Must(http.StatusBadRequest, "POST", "/api/extras/saved-filters/", map[string]any{
			"name": "f", "slug": "f", "object_types": []string{"dcim.site"}, "parameters": map[string]any{}, "user": missing})
	})
}

// TestSubscriptionNotifies: a user subscribed to a site is notified when
// it changes (once per object: a later change replaces the notification,
// unread again) and when it is deleted, which also takes the subscription
// and the bookmarks of the site along; the notification stays, with the
// site's display and no object.
func TestSubscriptionNotifies(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		_, alice := e.NewUser("alice")
		_, bob := e.NewUser("bob")
		site := id(e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "Paris", "slug": "paris"}))
		other := id(e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "Lyon", "slug": "lyon"}))
		sub := func(user, obj int) {
			e.Must(http.StatusCreated, "POST", "/api/extras/subscriptions/", map[string]any{"object_type": "dcim.site", "object_id": obj, "user": user})
		}
		sub(alice, site)
		sub(bob, other)
		bm := id(e.Must(http.StatusCreated, "POST", "/api/extras/bookmarks/", map[string]any{"object_type": "dcim.site", "object_id": site, "user": bob}))
		notes := func() []map[string]any {
			return e.Must(http.StatusOK, "GET", "/api/extras/notifications/?limit=0", nil).Results()
		}
		if n := notes(); len(n) != 0 {
			t.Fatalf("notified on create: %v", n)
		}
		e.Must(http.StatusOK, "PATCH", "/api/dcim/sites/"+itoa(site)+"/", map[string]any{"name": "Paris 1"})
		n := notes()
		if len(n) != 1 || n[0]["event_type"] != "object_updated" || n[0]["display"] != "Paris 1" ||
			n[0]["user"].(map[string]any)["username"] != "alice" || n[0]["read"] != nil {
			t.Fatalf("after update: %v", n)
		}
		e.Must(http.StatusOK, "PATCH", "/api/extras/notifications/"+itoa(id2(n[0]))+"/", map[string]any{"read": "2026-01-01T00:00:00Z"})
		e.Must(http.StatusOK, "PATCH", "/api/dcim/sites/"+itoa(site)+"/", map[string]any{"name": "Paris 2"})
		n = notes()
		if len(n) != 1 || n[0]["display"] != "Paris 2" || n[0]["read"] != nil {
			t.Fatalf("after a second update: %v", n)
		}

		e.Must(http.StatusNoContent, "DELETE", "/api/dcim/sites/"+itoa(site)+"/", nil)
		n = notes()
		if len(n) != 1 || n[0]["event_type"] != "object_deleted" || n[0]["display"] != "Paris 2" || n[0]["object"] != nil ||
			n[0]["object_id"] != float64(site) {
			t.Fatalf("after delete: %v", n)
		}
		subs := e.Must(http.StatusOK, "GET", "/api/extras/subscriptions/", nil).Results()
		if len(subs) != 1 || subs[0]["object_id"] != float64(other) {
			t.Fatalf("subscriptions after delete: %v", subs)
		}
		e.Must(http.StatusNotFound, "GET", "/api/extras/bookmarks/"+itoa(bm)+"/", nil)

		// A user's own objects go with the user.
		e.Must(http.StatusNoContent, "DELETE", "/api/users/users/"+itoa(alice)+"/", nil)
		if n := notes(); len(n) != 0 {
			t.Fatalf("notifications of a deleted user: %v", n)
		}
	})
}

func id2(m map[string]any) int { return int(m["id"].(float64)) }

// TestEventRuleNotifiesGroup: an event rule whose action is a
// notification group notifies the group's users and the users of its
// user groups, once each, when the dispatch job handles the event.
func TestEventRuleNotifiesGroup(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		_, alice := e.NewUser("alice")
		_, bob := e.NewUser("bob")
		_, carol := e.NewUser("carol")
		grp := id(e.Must(http.StatusCreated, "POST", "/api/users/groups/", map[string]any{"name": "netops"}))
		for _, u := range []int{bob, carol} {
			e.Must(http.StatusOK, "PATCH", "/api/users/users/"+itoa(u)+"/", map[string]any{"groups": []int{grp}})
		}
		ng := id(e.Must(http.StatusCreated, "POST", "/api/extras/notification-groups/", map[string]any{
			"name": "on call", "users": []int{alice, bob}, "groups": []int{grp}}))
		e.Must(http.StatusCreated, "POST", "/api/extras/event-rules/", map[string]any{
			"name": "new sites", "object_types": []string{"dcim.site"}, "event_types": []string{"object_created"},
			"action_type": "notification", "action_object_type": "extras.notificationgroup", "action_object_id": ng})
		site := id(e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "Oslo", "slug": "oslo"}))
		eng, err := webhooks.New(e.DB, e.Config.Webhooks)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := eng.Dispatch(context.Background()); err != nil {
			t.Fatal(err)
		}
		n := e.Must(http.StatusOK, "GET", "/api/extras/notifications/?limit=0", nil).Results()
		var users []string
		for _, x := range n {
			if x["event_type"] != "object_created" || x["object_id"] != float64(site) || x["display"] != "Oslo" {
				t.Errorf("notification %v", x)
			}
			users = append(users, x["user"].(map[string]any)["username"].(string))
		}
		slices.Sort(users)
		if !slices.Equal(users, []string{"alice", "bob", "carol"}) {
			t.Fatalf("notified %v", users)
		}
		// Deleting the group deletes its rule (NetBox's GenericRelation).
		e.Must(http.StatusNoContent, "DELETE", "/api/extras/notification-groups/"+itoa(ng)+"/", nil)
		if c := e.Must(http.StatusOK, "GET", "/api/extras/event-rules/", nil).Object()["count"]; c != float64(0) {
			t.Fatalf("%v event rules left", c)
		}
	})
}
