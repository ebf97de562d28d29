package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// Cable paths: stored when cables are created, changed and deleted and
// when port mappings change; shown as connected_endpoints, trace/,
// paths/, the connected filter and connected-device.

// pathsAdder creates an object whose "@key" references name ids, and
// records its id under key.
func pathsAdder(e *servertest.Env, ids map[string]int) func(key, path string, body map[string]any) {
	return func(key, path string, body map[string]any) {
		ids[key] = idOf(e.Must(http.StatusCreated, "POST", path, resolveRefs(ids, body)).Object())
	}
}

// pathsWorld creates two devices d1 and d2 with an interface each (eth1,
// eth2), a patch panel (front port fp1 mapped to rear port rp1), power
// ports and outlets, console ports and console server ports, by key.
func pathsWorld(t *testing.T, e *servertest.Env) map[string]int {
	t.Helper()
	ids := map[string]int{}
	add := pathsAdder(e, ids)
	add("m", "/api/dcim/manufacturers/", map[string]any{"name": "Acme", "slug": "acme"})
	add("dt", dtPath, map[string]any{"manufacturer": "@m", "model": "Box", "slug": "box"})
	add("role", "/api/dcim/device-roles/", map[string]any{"name": "Core", "slug": "core"})
	add("s", "/api/dcim/sites/", map[string]any{"name": "Site", "slug": "site"})
	for _, d := range []string{"d1", "d2", "panel"} {
		add(d, "/api/dcim/devices/", map[string]any{"name": d, "device_type": "@dt", "role": "@role", "site": "@s"})
	}
	add("eth1", compPath("interfaces"), map[string]any{"device": "@d1", "name": "eth1", "type": "1000base-t"})
	add("eth2", compPath("interfaces"), map[string]any{"device": "@d2", "name": "eth2", "type": "1000base-t"})
	add("eth3", compPath("interfaces"), map[string]any{"device": "@d2", "name": "eth3", "type": "1000base-t"})
	add("rp1", compPath("rear-ports"), map[string]any{"device": "@panel", "name": "R1", "type": "8p8c"})
	add("fp1", compPath("front-ports"), map[string]any{"device": "@panel", "name": "F1", "type": "8p8c",
		"rear_ports": []any{map[string]any{"position": 1, "rear_port": "@rp1", "rear_port_position": 1}}})
	add("pp1", compPath("power-ports"), map[string]any{"device": "@d1", "name": "PSU1"})
	add("po1", compPath("power-outlets"), map[string]any{"device": "@d2", "name": "Outlet1"})
	add("cp1", compPath("console-ports"), map[string]any{"device": "@d1", "name": "Console"})
	add("csp1", compPath("console-server-ports"), map[string]any{"device": "@d2", "name": "Port1"})
	return ids
}

// cable connects a to b ("dcim.interface", id pairs) and returns its id.
func cable(t *testing.T, e *servertest.Env, a, b []any, extra ...string) int {
	t.Helper()
	body := map[string]any{
		"a_terminations": []any{map[string]any{"object_type": a[0], "object_id": a[1]}},
		"b_terminations": []any{map[string]any{"object_type": b[0], "object_id": b[1]}},
	}
	for i := 0; i+1 < len(extra); i += 2 {
		body[extra[i]] = extra[i+1]
	}
	return int(e.Must(http.StatusCreated, "POST", "/api/dcim/cables/", body).Object()["id"].(float64))
}

// connection is what an endpoint shows of its path: "<type>:<name>,..."
// of its connected endpoints and whether they are reachable.
func connection(t *testing.T, e *servertest.Env, kind string, id int) string {
	t.Helper()
	o := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", compPath(kind), id), nil).Object()
	var names []string
	if list, ok := o["connected_endpoints"].([]any); ok {
		for _, x := range list {
			names = append(names, x.(map[string]any)["name"].(string))
		}
	} else if o["connected_endpoints"] != nil {
		t.Fatalf("connected_endpoints is %v", o["connected_endpoints"])
	}
	typ, _ := o["connected_endpoints_type"].(string)
	reach, ok := o["connected_endpoints_reachable"].(bool)
	if !ok {
		t.Fatalf("connected_endpoints_reachable is %v", o["connected_endpoints_reachable"])
	}
	if len(names) == 0 {
		if typ != "" {
			t.Fatalf("connected_endpoints_type %q without endpoints", typ)
		}
		return fmt.Sprintf("none reachable=%v", reach)
	}
	return fmt.Sprintf("%s:%s reachable=%v", typ, strings.Join(names, ","), reach)
}

// traceShape spells a trace/ answer as "near>cable>far | ..." by names,
// or displays for objects without one (cables by id).
func traceShape(t *testing.T, e *servertest.Env, kind string, id int) string {
	t.Helper()
	segs, ok := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/trace/", compPath(kind), id), nil).JSON().([]any)
	if !ok {
		t.Fatal("trace/ is not a list")
	}
	names := func(v any) string {
		list, _ := v.([]any)
		var out []string
		for _, x := range list {
			o := x.(map[string]any)
			name, ok := o["name"].(string)
			if !ok { // a circuit termination has no name
				name, _ = o["display"].(string)
			}
			out = append(out, name)
		}
		return strings.Join(out, ",")
	}
	var out []string
	for _, s := range segs {
		seg := s.([]any)
		c := "-"
		if m, ok := seg[1].(map[string]any); ok {
			c = fmt.Sprintf("#%v(%v)", m["id"], m["status"])
		}
		out = append(out, names(seg[0])+">"+c+">"+names(seg[2]))
	}
	return strings.Join(out, " | ")
}

func TestCablePathsThroughPatchPanel(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		ids := pathsWorld(t, a)
		c1 := cable(t, a, []any{"dcim.interface", ids["eth1"]}, []any{"dcim.frontport", ids["fp1"]})
		// Half-way: the path ends at the panel's rear port.
		if got := connection(t, a, "interfaces", ids["eth1"]); got != "none reachable=false" {
			t.Errorf("eth1 before the second cable: %s", got)
		}
		if got, want := traceShape(t, a, "interfaces", ids["eth1"]), fmt.Sprintf("eth1>#%d(connected)>F1 | R1>->", c1); got != want {
			t.Errorf("trace half-way: %s, want %s", got, want)
		}
		c2 := cable(t, a, []any{"dcim.rearport", ids["rp1"]}, []any{"dcim.interface", ids["eth2"]})
		for _, c := range []struct {
			id   int
			want string
		}{{ids["eth1"], "dcim.interface:eth2 reachable=true"}, {ids["eth2"], "dcim.interface:eth1 reachable=true"}} {
			if got := connection(t, a, "interfaces", c.id); got != c.want {
				t.Errorf("interface %d: %s, want %s", c.id, got, c.want)
			}
		}
		want := fmt.Sprintf("eth1>#%d(connected)>F1 | R1>#%d(connected)>eth2", c1, c2)
		if got := traceShape(t, a, "interfaces", ids["eth1"]); got != want {
			t.Errorf("trace: %s, want %s", got, want)
		}
		// The paths through each panel port: one from each side.
		for _, p := range []string{fmt.Sprintf("front-ports/%d", ids["fp1"]), fmt.Sprintf("rear-ports/%d", ids["rp1"])} {
			paths, _ := a.Must(http.StatusOK, "GET", "/api/dcim/"+p+"/paths/", nil).JSON().([]any)
			if len(paths) != 2 {
				t.Fatalf("%s/paths/: %d paths, want 2", p, len(paths))
			}
			for _, x := range paths {
				cp := x.(map[string]any)
				if cp["is_complete"] != true || cp["is_active"] != true || cp["is_split"] != false || len(cp["path"].([]any)) != 6 {
					t.Errorf("%s/paths/: %v", p, cp)
				}
			}
		}
		// The connected filter.
		for q, want := range map[string]int{"connected=true": 2, "connected=false": 1, "connected=true&device_id=" + fmt.Sprint(ids["d1"]): 1} {
			if n := len(a.Must(http.StatusOK, "GET", "/api/dcim/interfaces/?"+q, nil).Results()); n != want {
				t.Errorf("interfaces?%s: %d, want %d", q, n, want)
			}
		}
		a.Must(http.StatusBadRequest, "GET", "/api/dcim/interfaces/?connected=perhaps", nil)
		// connected-device: d2 is behind d1's eth1.
		dev := a.Must(http.StatusOK, "GET", "/api/dcim/connected-device/?peer_device=d1&peer_interface=eth1", nil).Object()
		if dev["name"] != "d2" {
			t.Errorf("connected-device: %v", dev["name"])
		}
		a.Must(http.StatusNotFound, "GET", "/api/dcim/connected-device/?peer_device=d2&peer_interface=eth3", nil)
		a.Must(http.StatusNotFound, "GET", "/api/dcim/connected-device/?peer_device=nope&peer_interface=eth1", nil)
		if r := a.Must(http.StatusBadRequest, "GET", "/api/dcim/connected-device/?peer_device=d1", nil); !strings.Contains(string(r.Body), "peer_interface") {
			t.Errorf("connected-device without peer_interface: %s", r.Body)
		}
		// A planned cable: still connected, not reachable.
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/cables/%d/", c2), map[string]any{"status": "planned"})
		if got := connection(t, a, "interfaces", ids["eth1"]); got != "dcim.interface:eth2 reachable=false" {
			t.Errorf("eth1 over a planned cable: %s", got)
		}
		if n := len(a.Must(http.StatusOK, "GET", "/api/dcim/interfaces/?connected=true", nil).Results()); n != 0 {
			t.Errorf("connected=true over a planned cable: %d", n)
		}
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/cables/%d/", c2), map[string]any{"status": "connected"})
		// Unmapping the front port cuts the path; mapping it again mends it.
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", compPath("front-ports"), ids["fp1"]), map[string]any{"rear_ports": []any{}})
		if got := connection(t, a, "interfaces", ids["eth2"]); got != "none reachable=false" {
			t.Errorf("eth2 with the panel unmapped: %s", got)
		}
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", compPath("front-ports"), ids["fp1"]), map[string]any{"rear_ports": []any{
			map[string]any{"position": 1, "rear_port": ids["rp1"], "rear_port_position": 1}}})
		if got := connection(t, a, "interfaces", ids["eth2"]); got != "dcim.interface:eth1 reachable=true" {
			t.Errorf("eth2 with the panel mapped again: %s", got)
		}
		// Deleting a cable clears both ends' connections.
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/dcim/cables/%d/", c1), nil)
		for _, id := range []int{ids["eth1"], ids["eth2"]} {
			if got := connection(t, a, "interfaces", id); got != "none reachable=false" {
				t.Errorf("interface %d after the cable went: %s", id, got)
			}
		}
		if got := traceShape(t, a, "interfaces", ids["eth1"]); got != "" {
			t.Errorf("trace of an uncabled interface: %q", got)
		}
		// Deleting the panel (its ports, and their cable's termination)
		// leaves eth2 on a cable to nothing, as NetBox does.
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/dcim/devices/%d/", ids["panel"]), nil)
		if got, want := traceShape(t, a, "interfaces", ids["eth2"]), fmt.Sprintf("eth2>#%d(connected)>", c2); got != want {
			t.Errorf("trace of eth2 without the panel: %q, want %q", got, want)
		}
		if got := connection(t, a, "interfaces", ids["eth2"]); got != "none reachable=false" {
			t.Errorf("eth2 without the panel: %s", got)
		}
	})
}

func TestCablePathsPowerAndConsole(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		ids := pathsWorld(t, a)
		pc := cable(t, a, []any{"dcim.powerport", ids["pp1"]}, []any{"dcim.poweroutlet", ids["po1"]})
		cc := cable(t, a, []any{"dcim.consoleport", ids["cp1"]}, []any{"dcim.consoleserverport", ids["csp1"]})
		cases := []struct {
			kind  string
			id    int
			want  string
			trace string
		}{
			{"power-ports", ids["pp1"], "dcim.poweroutlet:Outlet1 reachable=true", fmt.Sprintf("PSU1>#%d(connected)>Outlet1", pc)},
			{"power-outlets", ids["po1"], "dcim.powerport:PSU1 reachable=true", fmt.Sprintf("Outlet1>#%d(connected)>PSU1", pc)},
			{"console-ports", ids["cp1"], "dcim.consoleserverport:Port1 reachable=true", fmt.Sprintf("Console>#%d(connected)>Port1", cc)},
			{"console-server-ports", ids["csp1"], "dcim.consoleport:Console reachable=true", fmt.Sprintf("Port1>#%d(connected)>Console", cc)},
		}
		for _, c := range cases {
			if got := connection(t, a, c.kind, c.id); got != c.want {
				t.Errorf("%s: %s, want %s", c.kind, got, c.want)
			}
			if got := traceShape(t, a, c.kind, c.id); got != c.trace {
				t.Errorf("%s trace: %s, want %s", c.kind, got, c.trace)
			}
		}
		for _, id := range []int{pc, cc} {
			a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/dcim/cables/%d/", id), nil)
		}
		for _, c := range cases {
			if got := connection(t, a, c.kind, c.id); got != "none reachable=false" {
				t.Errorf("%s after the cable went: %s", c.kind, got)
			}
		}
	})
}

// TestCablePathChangeRecords: an endpoint whose connection changes gets an
// update record and event in the request that changed it, also when the
// change is a cable further along its path.
func TestCablePathChangeRecords(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		ids := pathsWorld(t, a)
		cable(t, a, []any{"dcim.interface", ids["eth1"]}, []any{"dcim.frontport", ids["fp1"]})
		updates := func() int {
			q := fmt.Sprintf("/api/extras/object-changes/?changed_object_type=dcim.interface&changed_object_id=%d&action=update", ids["eth1"])
			return len(a.Must(http.StatusOK, "GET", q, nil).Results())
		}
		before := updates()
		cable(t, a, []any{"dcim.rearport", ids["rp1"]}, []any{"dcim.interface", ids["eth2"]})
		if got := updates(); got != before+1 {
			t.Errorf("eth1's update records: %d after the far cable, want %d", got, before+1)
		}
	})
}

// TestCablePathListQueries: a page of interfaces with their connected
// endpoints costs the same number of read queries for 2 interfaces as for
// 40, and a trace of a path through several panels costs no more than one
// through one panel.
func TestCablePathListQueries(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		ids := pathsWorld(t, a)
		var ifaces []any
		for i := 0; i < 40; i++ {
			ifaces = append(ifaces, map[string]any{"device": ids["d1"], "name": fmt.Sprintf("x%d", i), "type": "1000base-t"},
				map[string]any{"device": ids["d2"], "name": fmt.Sprintf("x%d", i), "type": "1000base-t"})
		}
		created := a.Must(http.StatusCreated, "POST", compPath("interfaces"), ifaces).JSON().([]any)
		var cables []any
		var q []string
		for i := 0; i < len(created); i += 2 {
			x, y := idOf(created[i].(map[string]any)), idOf(created[i+1].(map[string]any))
			cables = append(cables, map[string]any{
				"a_terminations": []any{map[string]any{"object_type": "dcim.interface", "object_id": x}},
				"b_terminations": []any{map[string]any{"object_type": "dcim.interface", "object_id": y}}})
			q = append(q, fmt.Sprintf("id=%d&id=%d", x, y))
		}
		a.Must(http.StatusCreated, "POST", "/api/dcim/cables/", cables)
		cost := func(query string) int64 {
			n, page := a.CostOf(compPath("interfaces") + "?limit=100&" + query)
			for _, r := range page.Results() {
				if list, _ := r["connected_endpoints"].([]any); len(list) != 1 || r["connected_endpoints_reachable"] != true {
					t.Fatalf("interface without its connected endpoint: %v", r)
				}
			}
			return n
		}
		two, all := cost(q[0]), cost(strings.Join(q, "&"))
		if two != all {
			t.Errorf("interface list with connected endpoints: %d read queries for 2, %d for %d", two, all, len(created))
		}
		t.Logf("a page of connected interfaces: %d read queries", all)

		// Traces: through one panel, and through four panels in a row.
		chain := func(n int) int {
			start := idOf(a.Must(http.StatusCreated, "POST", compPath("interfaces"), map[string]any{"device": ids["d1"],
				"name": fmt.Sprintf("chain%d", n), "type": "1000base-t"}).Object())
			prev := []any{"dcim.interface", start}
			for i := 0; i < n; i++ {
				d := idOf(a.Must(http.StatusCreated, "POST", "/api/dcim/devices/", map[string]any{"name": fmt.Sprintf("p%d-%d", n, i),
					"device_type": ids["dt"], "role": ids["role"], "site": ids["s"]}).Object())
				rp := idOf(a.Must(http.StatusCreated, "POST", compPath("rear-ports"), map[string]any{"device": d, "name": "R", "type": "lc"}).Object())
				fp := idOf(a.Must(http.StatusCreated, "POST", compPath("front-ports"), map[string]any{"device": d, "name": "F", "type": "lc",
					"rear_ports": []any{map[string]any{"position": 1, "rear_port": rp, "rear_port_position": 1}}}).Object())
				cable(t, a, prev, []any{"dcim.frontport", fp})
				prev = []any{"dcim.rearport", rp}
			}
			end := idOf(a.Must(http.StatusCreated, "POST", compPath("interfaces"), map[string]any{"device": ids["d2"],
				"name": fmt.Sprintf("end%d", n), "type": "1000base-t"}).Object())
			cable(t, a, prev, []any{"dcim.interface", end})
			return start
		}
		one, four := chain(1), chain(4)
		traceCost := func(id int) (int64, int) {
			n, r := a.CostOf(fmt.Sprintf("%s%d/trace/", compPath("interfaces"), id))
			return n, len(r.JSON().([]any))
		}
		c1, n1 := traceCost(one)
		c4, n4 := traceCost(four)
		if n1 != 2 || n4 != 5 {
			t.Fatalf("trace segments: %d and %d, want 2 and 5", n1, n4)
		}
		if c1 != c4 {
			t.Errorf("trace: %d read queries through one panel, %d through four", c1, c4)
		}
		t.Logf("a trace: %d read queries", c4)
	})
}
