package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestCablePathStale: after each kind of change that moves a connection
// (a cable created, its ends moved, its status, a port mapping removed,
// changed and restored, a module, a port and a rear port deleted, the
// cable deleted) every watched endpoint shows its new connection at once,
// and each one whose connection changed has an "updated" event in the
// outbox rows of the request that changed it (the same transaction as the
// change: rows are written by request).
func TestCablePathStale(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.ListenToAllEvents()
		a := e.Admin()
		ids := pathsWorld(t, a)
		add := pathsAdder(a, ids)
		// A second rear port on the panel, and a module on d2 with eth4.
		add("rp2", compPath("rear-ports"), map[string]any{"device": "@panel", "name": "R2", "type": "8p8c"})
		add("bay", "/api/dcim/module-bays/", map[string]any{"device": "@d2", "name": "Slot 1"})
		add("mt", mtPath, map[string]any{"manufacturer": "@m", "model": "Line card"})
		add("mod", "/api/dcim/modules/", map[string]any{"device": "@d2", "module_bay": "@bay", "module_type": "@mt"})
		add("eth4", compPath("interfaces"), map[string]any{"device": "@d2", "module": "@mod", "name": "eth4", "type": "1000base-t"})

		watched := []string{"eth1", "eth2", "eth3", "eth4"}
		gone := map[string]bool{}
		state := func() map[string]string {
			out := map[string]string{}
			for _, k := range watched {
				if !gone[k] {
					out[k] = connection(t, a, "interfaces", ids[k])
				}
			}
			return out
		}
		end := func(ct, key string) []any {
			return []any{map[string]any{"object_type": ct, "object_id": ids[key]}}
		}
		cableBody := func(aCT, aKey, bCT, bKey string) map[string]any {
			return map[string]any{"a_terminations": end(aCT, aKey), "b_terminations": end(bCT, bKey)}
		}
		mapTo := func(rear string) map[string]any {
			return map[string]any{"rear_ports": []any{map[string]any{"position": 1, "rear_port": ids[rear], "rear_port_position": 1}}}
		}
		none := "none reachable=false"
		to := func(name string, reachable bool) string {
			return fmt.Sprintf("dcim.interface:%s reachable=%v", name, reachable)
		}
		cablePath := func(key string) string { return fmt.Sprintf("/api/dcim/cables/%d/", ids[key]) }

		steps := []struct {
			name string
			do   func() *servertest.Response
			want map[string]string // the watched endpoints' connections after the step
			// events the request's outbox must hold besides the endpoints'
			// updates: "action type" or "action type#key".
			events []string
		}{
			{"first cable: half-way to the panel", func() *servertest.Response {
				r := a.Must(http.StatusCreated, "POST", "/api/dcim/cables/", cableBody("dcim.interface", "eth1", "dcim.frontport", "fp1"))
				ids["c1"] = idOf(r.Object())
				return r
			}, map[string]string{"eth1": none, "eth2": none, "eth3": none, "eth4": none}, nil},
			{"second cable completes the path", func() *servertest.Response {
				r := a.Must(http.StatusCreated, "POST", "/api/dcim/cables/", cableBody("dcim.rearport", "rp1", "dcim.interface", "eth2"))
				ids["c2"] = idOf(r.Object())
				return r
			}, map[string]string{"eth1": to("eth2", true), "eth2": to("eth1", true), "eth3": none, "eth4": none}, nil},
			{"the cable's B end moved to eth3", func() *servertest.Response {
				return a.Must(http.StatusOK, "PATCH", cablePath("c2"), map[string]any{"b_terminations": end("dcim.interface", "eth3")})
			}, map[string]string{"eth1": to("eth3", true), "eth2": none, "eth3": to("eth1", true), "eth4": none}, nil},
			{"the cable planned", func() *servertest.Response {
				return a.Must(http.StatusOK, "PATCH", cablePath("c2"), map[string]any{"status": "planned"})
			}, map[string]string{"eth1": to("eth3", false), "eth2": none, "eth3": to("eth1", false), "eth4": none}, nil},
			{"the cable connected again", func() *servertest.Response {
				return a.Must(http.StatusOK, "PATCH", cablePath("c2"), map[string]any{"status": "connected"})
			}, map[string]string{"eth1": to("eth3", true), "eth2": none, "eth3": to("eth1", true), "eth4": none}, nil},
			{"a cable from R2 to the module's eth4", func() *servertest.Response {
				r := a.Must(http.StatusCreated, "POST", "/api/dcim/cables/", cableBody("dcim.rearport", "rp2", "dcim.interface", "eth4"))
				ids["c3"] = idOf(r.Object())
				return r
			}, map[string]string{"eth1": to("eth3", true), "eth2": none, "eth3": to("eth1", true), "eth4": none}, nil},
			{"the front port mapped to R2 instead", func() *servertest.Response {
				return a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", compPath("front-ports"), ids["fp1"]), mapTo("rp2"))
			}, map[string]string{"eth1": to("eth4", true), "eth2": none, "eth3": none, "eth4": to("eth1", true)}, nil},
			{"the module deleted (its interface, and the interface's termination)", func() *servertest.Response {
				gone["eth4"] = true
				return a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/dcim/modules/%d/", ids["mod"]), nil)
			}, map[string]string{"eth1": none, "eth2": none, "eth3": none},
				[]string{"deleted dcim.module#mod", "deleted dcim.interface#eth4", "deleted dcim.cabletermination", "updated dcim.cable#c3"}},
			{"the front port's mapping removed", func() *servertest.Response {
				return a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", compPath("front-ports"), ids["fp1"]), map[string]any{"rear_ports": []any{}})
			}, map[string]string{"eth1": none, "eth2": none, "eth3": none}, nil},
			{"the front port mapped to R1 again", func() *servertest.Response {
				return a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", compPath("front-ports"), ids["fp1"]), mapTo("rp1"))
			}, map[string]string{"eth1": to("eth3", true), "eth2": none, "eth3": to("eth1", true)}, nil},
			{"the far port deleted", func() *servertest.Response {
				gone["eth3"] = true
				return a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", compPath("interfaces"), ids["eth3"]), nil)
			}, map[string]string{"eth1": none, "eth2": none},
				[]string{"deleted dcim.interface#eth3", "deleted dcim.cabletermination", "updated dcim.cable#c2"}},
			{"the cable's empty B end given eth2", func() *servertest.Response {
				return a.Must(http.StatusOK, "PATCH", cablePath("c2"), map[string]any{"b_terminations": end("dcim.interface", "eth2")})
			}, map[string]string{"eth1": to("eth2", true), "eth2": to("eth1", true)}, nil},
			{"the rear port deleted (its mapping and its termination)", func() *servertest.Response {
				return a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", compPath("rear-ports"), ids["rp1"]), nil)
			}, map[string]string{"eth1": none, "eth2": none},
				[]string{"deleted dcim.rearport#rp1", "deleted dcim.cabletermination", "updated dcim.cable#c2"}},
			{"a new rear port cabled to eth2 and mapped", func() *servertest.Response {
				add("rp3", compPath("rear-ports"), map[string]any{"device": "@panel", "name": "R3", "type": "8p8c"})
				a.Must(http.StatusNoContent, "DELETE", cablePath("c2"), nil)
				a.Must(http.StatusCreated, "POST", "/api/dcim/cables/", cableBody("dcim.rearport", "rp3", "dcim.interface", "eth2"))
				return a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", compPath("front-ports"), ids["fp1"]), mapTo("rp3"))
			}, map[string]string{"eth1": to("eth2", true), "eth2": to("eth1", true)}, nil},
			{"the first cable deleted", func() *servertest.Response {
				return a.Must(http.StatusNoContent, "DELETE", cablePath("c1"), nil)
			}, map[string]string{"eth1": none, "eth2": none},
				[]string{"deleted dcim.cable#c1", "deleted dcim.cabletermination", "updated dcim.interface#eth1", "updated dcim.frontport#fp1"}},
		}
		before := state()
		for _, s := range steps {
			r := s.do()
			after := state()
			for k, want := range s.want {
				if after[k] != want {
					t.Errorf("%s: %s shows %s, want %s", s.name, k, after[k], want)
				}
			}
			if len(after) != len(s.want) {
				t.Errorf("%s: watched %v, want %v", s.name, after, s.want)
			}
			// An updated event for each endpoint whose connection changed,
			// in the outbox rows of the request.
			var updated []int
			var got []string
			for _, ev := range events(t, e, r.Header.Get("X-Request-ID")) {
				if ev.Event == "updated" && ev.ObjectType == "dcim.interface" {
					updated = append(updated, ev.ObjectID)
				}
				got = append(got, ev.Event+" "+ev.ObjectType, fmt.Sprintf("%s %s#%d", ev.Event, ev.ObjectType, ev.ObjectID))
			}
			for _, w := range s.events {
				if k, key, ok := strings.Cut(w, "#"); ok {
					w = fmt.Sprintf("%s#%d", k, ids[key])
				}
				if !slices.Contains(got, w) {
					t.Errorf("%s: no %q event in the request's outbox (%v)", s.name, w, got)
				}
			}
			for k, now := range after {
				if now != before[k] && !slices.Contains(updated, ids[k]) {
					t.Errorf("%s: %s's connection changed (%s to %s) without an updated event in the request (%v)", s.name, k, before[k], now, updated)
				}
			}
			before = after
		}
		// What remains of eth1's trace: its cable is gone.
		if got := traceShape(t, a, "interfaces", ids["eth1"]); got != "" {
			t.Errorf("eth1's trace at the end: %q", got)
		}
	})
}

// TestCableEvents: a cable's create writes, in its request, a change record
// and an outbox event for the cable, each termination and each endpoint
// whose connection changed (the far end of a path too, when the cable
// completes it); its delete the same with deletes.
func TestCableEvents(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.ListenToAllEvents()
		a := e.Admin()
		ids := pathsWorld(t, a)
		cable(t, a, []any{"dcim.interface", ids["eth1"]}, []any{"dcim.frontport", ids["fp1"]})
		r := a.Must(http.StatusCreated, "POST", "/api/dcim/cables/", map[string]any{
			"a_terminations": []any{map[string]any{"object_type": "dcim.rearport", "object_id": ids["rp1"]}},
			"b_terminations": []any{map[string]any{"object_type": "dcim.interface", "object_id": ids["eth2"]}}})
		c2 := idOf(r.Object())
		var terms []int
		for _, t := range a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/cable-terminations/?cable=%d", c2), nil).Results() {
			terms = append(terms, idOf(t))
		}
		if len(terms) != 2 {
			t.Fatalf("terminations of cable %d: %v", c2, terms)
		}
		spell := func(action, ct string, id int) string { return fmt.Sprintf("%s %s#%d", action, ct, id) }
		want := []string{
			spell("created", "dcim.cable", c2),
			spell("created", "dcim.cabletermination", terms[0]),
			spell("created", "dcim.cabletermination", terms[1]),
			spell("updated", "dcim.rearport", ids["rp1"]),   // its cable
			spell("updated", "dcim.interface", ids["eth2"]), // its cable and connection
			spell("updated", "dcim.interface", ids["eth1"]), // its connection, at the path's far end
		}
		check := func(what, reqID string, want []string) {
			t.Helper()
			var evs, recs []string
			for _, ev := range events(t, e, reqID) {
				evs = append(evs, spell(ev.Event, ev.ObjectType, ev.ObjectID))
			}
			for _, rec := range changes(t, e, reqID) {
				recs = append(recs, spell(action(rec)+"d", rec["changed_object_type"].(string), int(rec["changed_object_id"].(float64))))
			}
			slices.Sort(evs)
			slices.Sort(recs)
			slices.Sort(want)
			if !slices.Equal(evs, want) {
				t.Errorf("%s: outbox events\n got %v\nwant %v", what, evs, want)
			}
			if !slices.Equal(recs, want) {
				t.Errorf("%s: change records\n got %v\nwant %v", what, recs, want)
			}
		}
		check("the cable's create", r.Header.Get("X-Request-ID"), want)

		r = a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/dcim/cables/%d/", c2), nil)
		for i, w := range want {
			want[i] = strings.Replace(w, "created", "deleted", 1)
		}
		check("the cable's delete", r.Header.Get("X-Request-ID"), want)
	})
}
