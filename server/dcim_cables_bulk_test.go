package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestCableBulkCreateRecords: a bulk create of cables (ends of one and of
// two objects, interfaces and console ports) records, in this order, each
// cable, then per end its terminations and the objects they terminate
// (each object's update showing its new cable), then the next cable, as
// NetBox saves one cable at a time; the outbox events follow the records'
// order; and every end shows its peers and paths. On SQLite and
// PostgreSQL.
func TestCableBulkCreateRecords(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := cablesWorld(t, e)
		stop := e.ListenToAllEvents()
		defer stop()
		type obj struct {
			ct  string
			key string
		}
		cables := [][2][]obj{
			{{{"dcim.interface", "e1"}, {"dcim.interface", "e2"}}, {{"dcim.interface", "f1"}, {"dcim.interface", "f2"}}},
			{{{"dcim.consoleport", "cp1"}}, {{"dcim.consoleserverport", "csp1"}}},
			{{{"dcim.interface", "e3"}}, {{"dcim.interface", "f3"}}},
		}
		var body []any
		for _, c := range cables {
			var sides [2][]string
			for s := range c {
				for _, o := range c[s] {
					sides[s] = append(sides[s], o.ct+":@"+o.key)
				}
			}
			body = append(body, resolveRefs(ids, ends(sides[0], sides[1])))
		}
		r := e.Must(http.StatusCreated, "POST", "/api/dcim/cables/", body)
		var cids []int
		for _, o := range r.JSON().([]any) {
			cids = append(cids, int(o.(map[string]any)["id"].(float64)))
		}
		var want []string
		for i, c := range cables {
			want = append(want, fmt.Sprintf("create dcim.cable %d", cids[i]))
			for s := range c {
				for _, o := range c[s] {
					want = append(want, fmt.Sprintf("create dcim.cabletermination %s %d %s", o.ct, ids[o.key], []string{"A", "B"}[s]))
				}
				for _, o := range c[s] {
					want = append(want, fmt.Sprintf("update %s %d cable %d", o.ct, ids[o.key], cids[i]))
				}
			}
		}
		recs := changes(t, e, r.Header.Get("X-Request-ID"))
		var got []string
		for _, rec := range recs {
			ct := rec["changed_object_type"].(string)
			act := rec["action"].(map[string]any)["value"].(string)
			post, _ := rec["postchange_data"].(map[string]any)
			pre, _ := rec["prechange_data"].(map[string]any)
			switch {
			case ct == "dcim.cabletermination":
				got = append(got, fmt.Sprintf("%s %s %v %v %v", act, ct, post["termination_type"], post["termination_id"], post["cable_end"]))
			case ct == "dcim.cable":
				got = append(got, fmt.Sprintf("%s %s %v", act, ct, rec["changed_object_id"]))
			default:
				got = append(got, fmt.Sprintf("%s %s %v cable %v", act, ct, rec["changed_object_id"], post["cable"]))
				if pre["cable"] != nil {
					t.Errorf("%s %v: cable %v before the request", ct, rec["changed_object_id"], pre["cable"])
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("records:\n got  %s\n want %s", strings.Join(got, "\n      "), strings.Join(want, "\n      "))
		}
		// The events: one per record, in the records' order.
		var evs, fromRecs []string
		for _, ev := range events(t, e, r.Header.Get("X-Request-ID")) {
			evs = append(evs, fmt.Sprintf("%s %s %d", ev.Event, ev.ObjectType, ev.ObjectID))
		}
		for _, rec := range recs {
			act := map[string]string{"create": "created", "update": "updated"}[rec["action"].(map[string]any)["value"].(string)]
			fromRecs = append(fromRecs, fmt.Sprintf("%s %s %v", act, rec["changed_object_type"], rec["changed_object_id"]))
		}
		if !slices.Equal(evs, fromRecs) {
			t.Errorf("events:\n got  %s\n want %s", strings.Join(evs, "\n      "), strings.Join(fromRecs, "\n      "))
		}
		// Each end's objects show the other end as link peers and as
		// their connected endpoints.
		paths := map[string]string{"dcim.interface": "interfaces", "dcim.consoleport": "console-ports", "dcim.consoleserverport": "console-server-ports"}
		for _, c := range cables {
			for s := range c {
				var far []string
				for _, o := range c[1-s] {
					far = append(far, fmt.Sprint(ids[o.key]))
				}
				for _, o := range c[s] {
					got := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", compPath(paths[o.ct]), ids[o.key]), nil).Object()
					for _, field := range []string{"link_peers", "connected_endpoints"} {
						var seen []string
						list, _ := got[field].([]any)
						for _, p := range list {
							seen = append(seen, fmt.Sprint(p.(map[string]any)["id"]))
						}
						if !slices.Equal(seen, far) {
							t.Errorf("%s %s: %s %v, want %v", o.ct, o.key, field, seen, far)
						}
					}
				}
			}
		}
	})
}

// TestCableBulkCreateAllOrNone: one bad cable in a bulk create (an object
// that does not exist, one an earlier cable of the same request takes,
// one marked connected, a virtual interface) is a 400 naming it, and nothing of the request is written: no cable, no
// termination, no cabled object, no change record or event. On SQLite and
// PostgreSQL.
func TestCableBulkCreateAllOrNone(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := cablesWorld(t, e)
		stop := e.ListenToAllEvents()
		defer stop()
		i := func(key string) []string { return []string{"dcim.interface:@" + key} }
		cable := func(a, b []string) any { return resolveRefs(ids, ends(a, b)) }
		cases := []struct {
			name  string
			body  []any
			item  int
			field string
			msg   string
		}{
			{"missing object", []any{cable(i("e1"), i("f1")), cable(i("e2"), []string{"dcim.interface:99999"}), cable(i("e3"), i("f3"))},
				1, "b_terminations", "Related object not found using the provided value: 99999."},
			{"taken by an earlier cable of the request", []any{cable(i("e1"), i("f1")), cable(i("e2"), i("f2")), cable(i("e3"), i("e1"))},
				2, "b_terminations", fmt.Sprintf("Duplicate termination found for dcim.interface %d: cable ", ids["e1"])},
			{"taken on the A end", []any{cable(i("e1"), i("f1")), cable(i("f1"), i("e2"))},
				1, "a_terminations", fmt.Sprintf("Duplicate termination found for dcim.interface %d: cable ", ids["f1"])},
			{"marked connected", []any{cable(i("e1"), i("f1")), cable(i("marked"), i("f2"))},
				1, "a_terminations", "Cannot connect a cable to d1 > marked because it is marked as connected."},
			{"virtual", []any{cable(i("e1"), i("f1")), cable(i("e2"), i("f2")), cable(i("e3"), i("virt"))},
				2, "b_terminations", "Cables cannot be terminated to Virtual interfaces"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				c0, t0 := total(t, e, "/api/dcim/cables/"), total(t, e, "/api/dcim/cable-terminations/")
				nc, ne := counts(t, e)
				items := e.Must(http.StatusBadRequest, "POST", "/api/dcim/cables/", tc.body).JSON().([]any)
				if len(items) != len(tc.body) {
					t.Fatalf("%d error items for %d cables", len(items), len(tc.body))
				}
				for k, it := range items {
					m := it.(map[string]any)
					if k != tc.item {
						if len(m) != 0 {
							t.Errorf("item %d: %v, want {}", k, m)
						}
						continue
					}
					msgs, _ := m[tc.field].([]any)
					if len(msgs) != 1 || !strings.HasPrefix(fmt.Sprint(msgs[0]), tc.msg) {
						t.Errorf("item %d: %v, want %s: [%s...]", k, m, tc.field, tc.msg)
					}
				}
				if c, tt := total(t, e, "/api/dcim/cables/"), total(t, e, "/api/dcim/cable-terminations/"); c != c0 || tt != t0 {
					t.Errorf("cables %d -> %d, terminations %d -> %d: a failed bulk wrote", c0, c, t0, tt)
				}
				if nc2, ne2 := counts(t, e); nc2 != nc || ne2 != ne {
					t.Errorf("change records %d -> %d, events %d -> %d: a failed bulk wrote", nc, nc2, ne, ne2)
				}
				for _, k := range []string{"e1", "e2", "e3", "f1", "f2", "f3"} {
					o := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", compPath("interfaces"), ids[k]), nil).Object()
					if o["cable"] != nil || o["_occupied"] == true || len(o["link_peers"].([]any)) != 0 {
						t.Errorf("%s after a failed bulk: cable %v, occupied %v, link_peers %v", k, o["cable"], o["_occupied"], o["link_peers"])
					}
				}
			})
		}
		// The same cables, good, go in.
		e.Must(http.StatusCreated, "POST", "/api/dcim/cables/", []any{cable(i("e1"), i("f1")), cable(i("e2"), i("f2"))})
		if n := total(t, e, "/api/dcim/cable-terminations/"); n != 4 {
			t.Errorf("%d terminations, want 4", n)
		}
	})
}

// TestCableBulkCreateConstrained: a user whose add permission on cables
// is constrained creates them in bulk. A cable outside the constraint is
// a 403 and nothing is written, not even the ends postponed to the end of
// the write; within it, every cable gets its terminations, peers and
// records once. (A constraint sees the cable's own columns and what its
// keys point at, never its terminations: checking it before the ends are
// written is what it was.) On SQLite and PostgreSQL.
func TestCableBulkCreateConstrained(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := cablesWorld(t, e)
		u, uid := e.NewUser("cabler")
		e.Grant(uid, []string{"dcim.cable"}, []string{"add", "view"}, map[string]any{"label": "ok"})
		e.Grant(uid, []string{"dcim.interface", "dcim.device"}, []string{"view"}, nil)
		i := func(key string) []string { return []string{"dcim.interface:@" + key} }
		cable := func(label string, a, b []string) any {
			body := resolveRefs(ids, ends(a, b)).(map[string]any)
			body["label"] = label
			return body
		}
		c0, t0 := total(t, e, "/api/dcim/cables/"), total(t, e, "/api/dcim/cable-terminations/")
		nc, _ := counts(t, e)
		u.Must(http.StatusForbidden, "POST", "/api/dcim/cables/", []any{cable("ok", i("e1"), i("f1")), cable("bad", i("e2"), i("f2"))})
		if c, tt := total(t, e, "/api/dcim/cables/"), total(t, e, "/api/dcim/cable-terminations/"); c != c0 || tt != t0 {
			t.Errorf("cables %d -> %d, terminations %d -> %d after a refused bulk", c0, c, t0, tt)
		}
		if n, _ := counts(t, e); n != nc {
			t.Errorf("change records %d -> %d after a refused bulk", nc, n)
		}
		r := u.Must(http.StatusCreated, "POST", "/api/dcim/cables/", []any{cable("ok", i("e1"), i("f1")), cable("ok", i("e2"), i("f2"))})
		if tt := total(t, e, "/api/dcim/cable-terminations/"); tt != t0+4 {
			t.Errorf("%d terminations, want %d", tt, t0+4)
		}
		recs := recordsOf(t, e, r.Header.Get("X-Request-ID"))
		want := []string{"create dcim.cable", "create dcim.cabletermination", "update dcim.interface", "create dcim.cabletermination", "update dcim.interface"}
		if want = append(want, want...); !slices.Equal(recs, want) {
			t.Errorf("records %v, want %v", recs, want)
		}
		for _, pair := range [][2]string{{"e1", "f1"}, {"f2", "e2"}} {
			o := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", compPath("interfaces"), ids[pair[0]]), nil).Object()
			eps, _ := o["connected_endpoints"].([]any)
			if len(eps) != 1 || int(eps[0].(map[string]any)["id"].(float64)) != ids[pair[1]] {
				t.Errorf("%s: connected_endpoints %v, want %s", pair[0], o["connected_endpoints"], pair[1])
			}
		}
	})
}
