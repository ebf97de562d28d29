package server_test

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/outboxevent"
	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/server/servertest"
)

// NetBox's delete semantics (RELATIONS.md): PROTECT refuses with 409 and
// changes nothing, CASCADE deletes the dependants with their own change
// records and events, SET_NULL clears the key with an update record, tree
// subtrees and generic relations (scope, event rule actions) go along.

// odObj is one object a case creates: its API path and body. Bodies may
// name earlier objects as "@key" (replaced by their id).
type odObj struct {
	key, path string
	body      map[string]any
}

// odRef is an object of a case by key, with the expected change action in
// the delete request ("" for none).
type odRef struct {
	key    string
	action string // delete, update
}

type odCase struct {
	name    string
	objects []odObj
	// del is the DELETE: one key (single) or several (bulk).
	del []string
	// protectedBy lists, in NetBox's order, the keys of the objects the
	// 409 names; empty for a delete that succeeds.
	protectedBy []string
	gone        []string // objects that no longer exist
	changed     []odRef  // change records (and events) of the request
	cleared     map[string]string
	// before, if given, runs between creating the objects and the delete;
	// check, if given, looks further after a successful delete and removes
	// what before made.
	before, check func(t *testing.T, e *servertest.Env, ids map[string]int)
}

func TestOnDelete(t *testing.T) {
	t.Parallel()
	cases := []odCase{
		{
			name: "tenant PROTECT from site, prefix and vlan",
			objects: []odObj{
				{"t", "/api/tenancy/tenants/", map[string]any{"name": "T1", "slug": "t1"}},
				{"s", "/api/dcim/sites/", map[string]any{"name": "S1", "slug": "s1", "tenant": "@t"}},
				{"p", "/api/ipam/prefixes/", map[string]any{"prefix": "10.0.0.0/24", "tenant": "@t"}},
				{"v", "/api/ipam/vlans/", map[string]any{"vid": 10, "name": "V10", "tenant": "@t"}},
			},
			del:         []string{"t"},
			protectedBy: []string{"s", "p", "v"},
		},
		{
			name: "bulk with one protected tenant fails whole",
			objects: []odObj{
				{"t1", "/api/tenancy/tenants/", map[string]any{"name": "Free", "slug": "free"}},
				{"t2", "/api/tenancy/tenants/", map[string]any{"name": "Held", "slug": "held"}},
				{"s", "/api/dcim/sites/", map[string]any{"name": "S1", "slug": "s1", "tenant": "@t2"}},
			},
			del:         []string{"t1", "t2"},
			protectedBy: []string{"s"},
		},
		{
			name: "vlan group PROTECT from vlans",
			objects: []odObj{
				{"g", "/api/ipam/vlan-groups/", map[string]any{"name": "G", "slug": "g"}},
				{"v1", "/api/ipam/vlans/", map[string]any{"vid": 1, "name": "V1", "group": "@g"}},
				{"v2", "/api/ipam/vlans/", map[string]any{"vid": 2, "name": "V2", "group": "@g"}},
			},
			del:         []string{"g"},
			protectedBy: []string{"v1", "v2"},
		},
		{
			name: "PROTECT deep in a cascade: site's prefix held by nothing, site's vlan holds the site",
			objects: []odObj{
				{"s", "/api/dcim/sites/", map[string]any{"name": "S1", "slug": "s1"}},
				{"l", "/api/dcim/locations/", map[string]any{"name": "L1", "slug": "l1", "site": "@s"}},
				{"v", "/api/ipam/vlans/", map[string]any{"vid": 5, "name": "V5", "site": "@s"}},
			},
			del:         []string{"s"},
			protectedBy: []string{"v"},
		},
		{
			name: "site CASCADE to locations (subtree) and prefixes scoped to them",
			objects: []odObj{
				{"s", "/api/dcim/sites/", map[string]any{"name": "S1", "slug": "s1"}},
				{"l1", "/api/dcim/locations/", map[string]any{"name": "L1", "slug": "l1", "site": "@s"}},
				{"l2", "/api/dcim/locations/", map[string]any{"name": "L2", "slug": "l2", "site": "@s", "parent": "@l1"}},
				{"ps", "/api/ipam/prefixes/", map[string]any{"prefix": "10.1.0.0/16", "scope_type": "dcim.site", "scope_id": "@s"}},
				{"pl", "/api/ipam/prefixes/", map[string]any{"prefix": "10.2.0.0/16", "scope_type": "dcim.location", "scope_id": "@l2"}},
				{"keep", "/api/ipam/prefixes/", map[string]any{"prefix": "10.3.0.0/16"}},
			},
			del:     []string{"s"},
			gone:    []string{"s", "l1", "l2", "ps", "pl"},
			changed: []odRef{{"s", "delete"}, {"l1", "delete"}, {"l2", "delete"}, {"ps", "delete"}, {"pl", "delete"}},
		},
		{
			name: "region SET_NULL on sites, subtree CASCADE, prefixes scoped to the subtree",
			objects: []odObj{
				{"r1", "/api/dcim/regions/", map[string]any{"name": "R1", "slug": "r1"}},
				{"r2", "/api/dcim/regions/", map[string]any{"name": "R2", "slug": "r2", "parent": "@r1"}},
				{"r3", "/api/dcim/regions/", map[string]any{"name": "R3", "slug": "r3", "parent": "@r2"}},
				{"s", "/api/dcim/sites/", map[string]any{"name": "S1", "slug": "s1", "region": "@r3"}},
				{"pr", "/api/ipam/prefixes/", map[string]any{"prefix": "10.4.0.0/16", "scope_type": "dcim.region", "scope_id": "@r2"}},
				{"ps", "/api/ipam/prefixes/", map[string]any{"prefix": "10.5.0.0/16", "scope_type": "dcim.site", "scope_id": "@s"}},
			},
			del:     []string{"r1"},
			gone:    []string{"r1", "r2", "r3", "pr"},
			changed: []odRef{{"r1", "delete"}, {"r2", "delete"}, {"r3", "delete"}, {"s", "update"}, {"pr", "delete"}},
			cleared: map[string]string{"s": "region"},
		},
		{
			name: "tenant group SET_NULL on tenants, subtree CASCADE",
			objects: []odObj{
				{"g1", "/api/tenancy/tenant-groups/", map[string]any{"name": "G1", "slug": "g1"}},
				{"g2", "/api/tenancy/tenant-groups/", map[string]any{"name": "G2", "slug": "g2", "parent": "@g1"}},
				{"t", "/api/tenancy/tenants/", map[string]any{"name": "T", "slug": "t", "group": "@g2"}},
			},
			del:     []string{"g1"},
			gone:    []string{"g1", "g2"},
			changed: []odRef{{"g1", "delete"}, {"g2", "delete"}, {"t", "update"}},
			cleared: map[string]string{"t": "group"},
		},
		{
			name: "role SET_NULL on prefixes and vlans",
			objects: []odObj{
				{"r", "/api/ipam/roles/", map[string]any{"name": "R", "slug": "r"}},
				{"p", "/api/ipam/prefixes/", map[string]any{"prefix": "10.6.0.0/16", "role": "@r"}},
				{"v", "/api/ipam/vlans/", map[string]any{"vid": 6, "name": "V6", "role": "@r"}},
			},
			del:     []string{"r"},
			gone:    []string{"r"},
			changed: []odRef{{"r", "delete"}, {"p", "update"}, {"v", "update"}},
			cleared: map[string]string{"p": "role", "v": "role"},
		},
		{
			name: "webhook CASCADE to its event rules",
			objects: []odObj{
				{"w", "/api/extras/webhooks/", map[string]any{"name": "W", "payload_url": "https://hooks.example.com/w"}},
				{"w2", "/api/extras/webhooks/", map[string]any{"name": "W2", "payload_url": "https://hooks.example.com/w2"}},
				{"e", "/api/extras/event-rules/", map[string]any{"name": "E", "object_types": []string{"dcim.site"}, "event_types": []string{"object_created"},
					"action_type": "webhook", "action_object_type": "extras.webhook", "action_object_id": "@w"}},
				{"e2", "/api/extras/event-rules/", map[string]any{"name": "E2", "object_types": []string{"dcim.site"}, "event_types": []string{"object_created"},
					"action_type": "webhook", "action_object_type": "extras.webhook", "action_object_id": "@w2"}},
			},
			del:     []string{"w"},
			gone:    []string{"w", "e"},
			changed: []odRef{{"w", "delete"}, {"e", "delete"}},
		},
		{
			name: "bulk CASCADE: two sites with their locations",
			objects: []odObj{
				{"s1", "/api/dcim/sites/", map[string]any{"name": "S1", "slug": "s1"}},
				{"s2", "/api/dcim/sites/", map[string]any{"name": "S2", "slug": "s2"}},
				{"l1", "/api/dcim/locations/", map[string]any{"name": "L1", "slug": "l1", "site": "@s1"}},
				{"l2", "/api/dcim/locations/", map[string]any{"name": "L2", "slug": "l2", "site": "@s2"}},
			},
			del:     []string{"s1", "s2"},
			gone:    []string{"s1", "s2", "l1", "l2"},
			changed: []odRef{{"s1", "delete"}, {"s2", "delete"}, {"l1", "delete"}, {"l2", "delete"}},
		},
		{
			name: "tags of a deleted object go with it",
			objects: []odObj{
				{"x", "/api/extras/tags/", map[string]any{"name": "X", "slug": "x"}},
				{"s", "/api/dcim/sites/", map[string]any{"name": "S1", "slug": "s1", "tags": []any{"@x"}}},
				{"l", "/api/dcim/locations/", map[string]any{"name": "L1", "slug": "l1", "site": "@s", "tags": []any{"@x"}}},
			},
			del:     []string{"s"},
			gone:    []string{"s", "l"},
			changed: []odRef{{"s", "delete"}, {"l", "delete"}},
			check: func(t *testing.T, e *servertest.Env, ids map[string]int) {
				tag := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/extras/tags/%d/", ids["x"]), nil).Object()
				if tag["tagged_items"] != float64(0) {
					t.Errorf("tag still has %v tagged items", tag["tagged_items"])
				}
			},
		},
		{
			name: "deleting a tag updates the objects carrying it",
			objects: []odObj{
				{"x", "/api/extras/tags/", map[string]any{"name": "X", "slug": "x"}},
				{"s", "/api/dcim/sites/", map[string]any{"name": "S1", "slug": "s1", "tags": []any{"@x"}}},
			},
			del:     []string{"x"},
			gone:    []string{"x"},
			changed: []odRef{{"x", "delete"}, {"s", "update"}},
			check: func(t *testing.T, e *servertest.Env, ids map[string]int) {
				site := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/sites/%d/", ids["s"]), nil).Object()
				if tags, _ := site["tags"].([]any); len(tags) != 0 {
					t.Errorf("site still tagged: %v", tags)
				}
			},
		},
		{
			name: "custom field choice set PROTECT from custom fields",
			objects: []odObj{
				{"cs", "/api/extras/custom-field-choice-sets/", map[string]any{"name": "CS", "extra_choices": [][]string{{"a", "A"}}}},
				{"cf", "/api/extras/custom-fields/", map[string]any{"name": "cf1", "type": "select", "object_types": []string{"dcim.site"}, "choice_set": "@cs"}},
			},
			del:         []string{"cs"},
			protectedBy: []string{"cf"},
		},
	}
	// A user's own change records outlive the user (SET_NULL on a model
	// that is not change-logged: no update record), and the permissions
	// granted to them lose the link.
	var userReq string
	cases = append(cases, odCase{
		name: "user CASCADE to tokens, SET_NULL on their change records, permission links removed",
		objects: []odObj{
			{"u", "/api/users/users/", map[string]any{"username": "zed2", "password": "Correct-Horse-1"}},
			{"k", "/api/users/tokens/", map[string]any{"user": "@u"}},
		},
		del:  []string{"u"},
		gone: []string{"u", "k"},
		before: func(t *testing.T, e *servertest.Env, ids map[string]int) {
			ids["perm"] = e.Grant(ids["u"], []string{"dcim.site"}, []string{"add"}, nil)
			r := e.TokenFor(ids["u"], true).Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "By Zed", "slug": "by-zed"})
			ids["site"] = int(r.Object()["id"].(float64))
			userReq = r.Header.Get("X-Request-ID")
		},
		check: func(t *testing.T, e *servertest.Env, ids map[string]int) {
			recs := e.Must(http.StatusOK, "GET", "/api/core/object-changes/?request_id="+userReq, nil).Results()
			if len(recs) != 1 || recs[0]["user"] != nil || recs[0]["user_name"] != "zed2" {
				t.Errorf("the user's change records: %v", recs)
			}
			perm := fmt.Sprintf("/api/users/permissions/%d/", ids["perm"])
			if users, _ := e.Must(http.StatusOK, "GET", perm, nil).Object()["users"].([]any); len(users) != 0 {
				t.Errorf("permission still lists %v", users)
			}
			e.Must(http.StatusNoContent, "DELETE", perm, nil)
			e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/dcim/sites/%d/", ids["site"]), nil)
		},
	}, odCase{
		name: "group deleted: its users lose the link",
		objects: []odObj{
			{"g", "/api/users/groups/", map[string]any{"name": "G"}},
			{"u", "/api/users/users/", map[string]any{"username": "zed3", "password": "Correct-Horse-1", "groups": []any{"@g"}}},
		},
		del:  []string{"g"},
		gone: []string{"g"},
		check: func(t *testing.T, e *servertest.Env, ids map[string]int) {
			u := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/users/users/%d/", ids["u"]), nil).Object()
			if groups, _ := u["groups"].([]any); len(groups) != 0 {
				t.Errorf("user still in %v", groups)
			}
		},
	})
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.ListenToAllEvents()
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) { runOnDelete(t, e, c) })
		}
	})
}

// odPath finds the API path of a case's object by key.
func odPath(c odCase, key string) string {
	for _, o := range c.objects {
		if o.key == key {
			return o.path
		}
	}
	panic("no object " + key)
}

func runOnDelete(t *testing.T, e *servertest.Env, c odCase) {
	ids := map[string]int{}
	display := map[string]string{}
	// Objects of earlier cases stay; each case removes its own at the end
	// when the delete was refused, so names may repeat between cases.
	for _, o := range c.objects {
		body := map[string]any{}
		for k, v := range o.body {
			if s, ok := v.(string); ok && strings.HasPrefix(s, "@") {
				v = ids[s[1:]]
			}
			if list, ok := v.([]any); ok {
				refs := make([]any, len(list))
				for i, x := range list {
					refs[i] = ids[strings.TrimPrefix(x.(string), "@")]
				}
				v = refs
			}
			body[k] = v
		}
		r := e.Must(http.StatusCreated, "POST", o.path, body)
		ids[o.key] = int(r.Object()["id"].(float64))
		display[o.key], _ = r.Object()["display"].(string)
	}
	url := func(key string) string { return fmt.Sprintf("%s%d/", odPath(c, key), ids[key]) }
	if c.before != nil {
		c.before(t, e, ids)
	}
	nc, ne := counts(t, e)
	var r *servertest.Response
	if len(c.del) == 1 {
		r = e.Do("DELETE", url(c.del[0]), nil)
	} else {
		var items []map[string]any
		for _, k := range c.del {
			items = append(items, map[string]any{"id": ids[k]})
		}
		r = e.Do("DELETE", odPath(c, c.del[0]), items)
	}
	if len(c.protectedBy) > 0 {
		var names []string
		for _, k := range c.protectedBy {
			names = append(names, fmt.Sprintf("%s (%d)", display[k], ids[k]))
		}
		want := fmt.Sprintf(`{"detail":"Unable to delete object. %d dependent objects were found: %s"}`, len(names), strings.Join(names, ", "))
		if r.Status != http.StatusConflict || strings.TrimSpace(string(r.Body)) != want {
			t.Fatalf("DELETE: %d %s\nwant 409 %s", r.Status, r.Body, want)
		}
		for _, o := range c.objects {
			e.Must(http.StatusOK, "GET", url(o.key), nil)
		}
		if nc2, ne2 := counts(t, e); nc2 != nc || ne2 != ne {
			t.Fatalf("refused delete wrote %d change records and %d events", nc2-nc, ne2-ne)
		}
		// Clean up, dependants first, for the next case.
		for i := len(c.objects) - 1; i >= 0; i-- {
			e.Must(http.StatusNoContent, "DELETE", url(c.objects[i].key), nil)
		}
		return
	}
	if r.Status != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", r.Status, r.Body)
	}
	isGone := map[string]bool{}
	for _, k := range c.gone {
		isGone[k] = true
	}
	for _, o := range c.objects {
		want := http.StatusOK
		if isGone[o.key] {
			want = http.StatusNotFound
		}
		got := e.Do("GET", url(o.key), nil)
		if got.Status != want {
			t.Errorf("%s after the delete: %d, want %d", o.key, got.Status, want)
		}
		if f, ok := c.cleared[o.key]; ok && got.Status == http.StatusOK {
			if v := got.Object()[f]; v != nil {
				t.Errorf("%s.%s = %v, want null", o.key, f, v)
			}
		}
	}
	// Change records and events of the request: exactly those expected.
	reqID := r.Header.Get("X-Request-ID")
	var want, gotRecs, gotEvs []string
	for _, ch := range c.changed {
		ct := odContentType(odPath(c, ch.key))
		want = append(want, fmt.Sprintf("%s %s#%d", ch.action, ct, ids[ch.key]))
	}
	for _, rec := range e.Must(http.StatusOK, "GET", "/api/core/object-changes/?limit=0&request_id="+reqID, nil).Results() {
		a, _ := rec["action"].(map[string]any)
		gotRecs = append(gotRecs, fmt.Sprintf("%s %s#%d", a["value"], rec["changed_object_type"], int(rec["changed_object_id"].(float64))))
	}
	evs, err := e.DB.Client.OutboxEvent.Query().Where(outboxevent.RequestID(reqID)).Order(ent.Asc(outboxevent.FieldID)).All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		action := map[string]string{"deleted": "delete", "updated": "update", "created": "create"}[ev.Event]
		gotEvs = append(gotEvs, fmt.Sprintf("%s %s#%d", action, ev.ObjectType, ev.ObjectID))
	}
	sort.Strings(want)
	sort.Strings(gotRecs)
	sort.Strings(gotEvs)
	if strings.Join(gotRecs, "; ") != strings.Join(want, "; ") {
		t.Errorf("change records:\n got %v\nwant %v", gotRecs, want)
	}
	if strings.Join(gotEvs, "; ") != strings.Join(want, "; ") {
		t.Errorf("outbox events:\n got %v\nwant %v", gotEvs, want)
	}
	if c.check != nil {
		c.check(t, e, ids)
	}
	// Clean up what stays, for the next case.
	for i := len(c.objects) - 1; i >= 0; i-- {
		if !isGone[c.objects[i].key] {
			e.Must(http.StatusNoContent, "DELETE", url(c.objects[i].key), nil)
		}
	}
}

// odContentType maps "/api/dcim/sites/" to "dcim.site": the list below,
// else the registered model served there.
func odContentType(path string) string {
	if ct := odContentTypes(path); ct != "" {
		return ct
	}
	for _, d := range resource.All() {
		if listPath(d) == path {
			return d.ContentType()
		}
	}
	return ""
}

func odContentTypes(path string) string {
	return map[string]string{
		"/api/dcim/sites/": "dcim.site", "/api/dcim/locations/": "dcim.location", "/api/dcim/regions/": "dcim.region",
		"/api/ipam/prefixes/": "ipam.prefix", "/api/ipam/vlans/": "ipam.vlan", "/api/tenancy/tenants/": "tenancy.tenant",
		"/api/tenancy/tenant-groups/": "tenancy.tenantgroup", "/api/extras/webhooks/": "extras.webhook",
		"/api/extras/event-rules/": "extras.eventrule", "/api/ipam/roles/": "ipam.role",
		"/api/extras/tags/": "extras.tag",
	}[path]
}
