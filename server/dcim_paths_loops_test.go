package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/server/servertest"
)

// answerBound is how long a write that traces paths may take here before
// the test calls it hung: generous, as the machine may be loaded; a hung
// trace never answers (issue 32: 150 s and counting).
const answerBound = 20 * time.Second

// promptly sends a request as the admin over a real connection whose
// context gives up after answerBound, and fails the test if no answer came
// by then (the server sees the client go, as a real client's timeout).
func promptly(t *testing.T, e *servertest.Env, method, path string, body any) (int, map[string]any) {
	t.Helper()
	raw, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), answerBound)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, e.URL()+path, bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Token "+servertest.Token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("%s %s: no answer within %s", method, path, answerBound)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the answer: %v", method, path, err)
	}
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return resp.StatusCode, out
}

// TestCablePathLoops: cabling that leads a path round in a loop (through a
// multi-position rear port's positions, a ring of panels, a circuit, or a
// port mapping that closes one) is saved at once, and the path ends where
// it would go round again, finite and incomplete; crossing one rear port
// twice at different positions (a hairpin through a trunk) is no loop.
// Front→rear→front chains past the hop limit: TestCablePathHopLimit.
func TestCablePathLoops(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		ids := pathsWorld(t, a)
		add := pathsAdder(a, ids)
		// A panel type: rear port R1 of two positions, F1 → R1:1 and
		// F2 → R1:2 (the issue's).
		add("dt2", dtPath, map[string]any{"manufacturer": "@m", "model": "Panel 2", "slug": "panel-2"})
		add("rt2", "/api/dcim/rear-port-templates/", map[string]any{"device_type": "@dt2", "name": "R1", "type": "lc", "positions": 2})
		for i := 1; i <= 2; i++ {
			add(fmt.Sprintf("ft2%d", i), "/api/dcim/front-port-templates/", map[string]any{"device_type": "@dt2", "name": fmt.Sprintf("F%d", i),
				"type": "lc", "rear_ports": []any{map[string]any{"position": 1, "rear_port": "@rt2", "rear_port_position": i}}})
		}
		port := func(kind string, device int, name string) int {
			list := a.Must(http.StatusOK, "GET", fmt.Sprintf("%s?device_id=%d&name=%s", compPath(kind), device, name), nil).Results()
			if len(list) != 1 {
				t.Fatalf("%s %s of device %d: %d", kind, name, device, len(list))
			}
			return idOf(list[0])
		}
		n := 0
		// panel adds a device of the two-position type; its ports are
		// <key>R1, <key>F1, <key>F2.
		panel := func(key string) {
			add(key, "/api/dcim/devices/", map[string]any{"name": key, "device_type": "@dt2", "role": "@role", "site": "@s"})
			ids[key+"R1"] = port("rear-ports", ids[key], "R1")
			ids[key+"F1"] = port("front-ports", ids[key], "F1")
			ids[key+"F2"] = port("front-ports", ids[key], "F2")
		}
		// iface adds an interface of d1.
		iface := func() int {
			n++
			name := fmt.Sprintf("loop%d", n)
			add(name, compPath("interfaces"), map[string]any{"device": "@d1", "name": name, "type": "1000base-t"})
			return ids[name]
		}
		end := func(ct string, id int) []any { return []any{map[string]any{"object_type": ct, "object_id": id}} }
		cableBody := func(act string, aid int, bct string, bid int) map[string]any {
			return map[string]any{"a_terminations": end(act, aid), "b_terminations": end(bct, bid)}
		}
		ifc, fp, rp, ct := "dcim.interface", "dcim.frontport", "dcim.rearport", "circuits.circuittermination"

		type check struct {
			// trace/ of the interface, as traceShape spells it ("#A", "#B",
			// ... for the case's cables, in order of creation).
			trace string
			// connection of the interface, as connection spells it.
			conn string
			// paths/ of the rear port ids[rear]: pathsOf's lines.
			rear  string
			paths []string
		}
		cases := []struct {
			name string
			// setup builds the topology and returns the interface traced
			// and the cables made so far; last is the write that closes
			// the loop, sent promptly, with its status.
			setup  func() (int, []int)
			last   func() (method, path string, body any)
			status int
			check  check
		}{
			{
				// The reproduction: an interface cabled to F1, then
				// F2 cabled back to the panel's own R1.
				name: "front port cabled back to its own multi-position rear port (issue 32)",
				setup: func() (int, []int) {
					panel("p1")
					eth := iface()
					return eth, []int{cable(t, a, []any{ifc, eth}, []any{fp, ids["p1F1"]})}
				},
				last: func() (string, string, any) {
					return "POST", "/api/dcim/cables/", cableBody(fp, ids["p1F2"], rp, ids["p1R1"])
				},
				status: http.StatusCreated,
				check: check{trace: "ETH>#A(connected)>F1 | R1>#B(connected)>F2 | R1>#B(connected)>F2", conn: "none reachable=false",
					rear: "p1R1", paths: []string{"false/true/false 9"}},
			},
			{
				name: "the same loop cabled first, then the interface",
				setup: func() (int, []int) {
					panel("p2")
					return iface(), []int{cable(t, a, []any{fp, ids["p2F2"]}, []any{rp, ids["p2R1"]})}
				},
				last: func() (string, string, any) {
					return "POST", "/api/dcim/cables/", cableBody(ifc, ids[fmt.Sprintf("loop%d", n)], fp, ids["p2F1"])
				},
				status: http.StatusCreated,
				check: check{trace: "ETH>#B(connected)>F1 | R1>#A(connected)>F2 | R1>#A(connected)>F2", conn: "none reachable=false",
					rear: "p2R1", paths: []string{"false/true/false 9"}},
			},
			{
				// Panel p3's R1 cabled to the single-position panel's F1,
				// whose R1 comes back to p3's F2: round through R1:2.
				name: "ring of two panels through a rear port's positions",
				setup: func() (int, []int) {
					panel("p3")
					eth := iface()
					return eth, []int{
						cable(t, a, []any{rp, ids["p3R1"]}, []any{fp, ids["fp1"]}),
						cable(t, a, []any{rp, ids["rp1"]}, []any{fp, ids["p3F2"]}),
					}
				},
				last: func() (string, string, any) {
					return "POST", "/api/dcim/cables/", cableBody(ifc, ids[fmt.Sprintf("loop%d", n)], fp, ids["p3F1"])
				},
				status: http.StatusCreated,
				check: check{trace: "ETH>#C(connected)>F1 | R1>#A(connected)>F1 | R1>#B(connected)>F2 | R1>#A(connected)>F1 | R1>#B(connected)>F2",
					conn: "none reachable=false", rear: "p3R1", paths: []string{"false/true/false 15"}},
			},
			{
				// p4's R1 to a circuit's A side, its Z side back to p4's F2.
				name: "loop through a circuit back into the rear port",
				setup: func() (int, []int) {
					panel("p4")
					add("prov", providersPath, map[string]any{"name": "Loop Carrier", "slug": "loop-carrier"})
					add("ctype", "/api/circuits/circuit-types/", map[string]any{"name": "Loop", "slug": "loop"})
					add("circ", circuitsPath, map[string]any{"cid": "LOOP-1", "provider": "@prov", "type": "@ctype"})
					add("cta", termsPath, map[string]any{"circuit": "@circ", "term_side": "A", "termination_type": "dcim.site", "termination_id": "@s"})
					add("ctz", termsPath, map[string]any{"circuit": "@circ", "term_side": "Z", "termination_type": "dcim.site", "termination_id": "@s"})
					eth := iface()
					return eth, []int{
						cable(t, a, []any{rp, ids["p4R1"]}, []any{ct, ids["cta"]}),
						cable(t, a, []any{ct, ids["ctz"]}, []any{fp, ids["p4F2"]}),
					}
				},
				last: func() (string, string, any) {
					return "POST", "/api/dcim/cables/", cableBody(ifc, ids[fmt.Sprintf("loop%d", n)], fp, ids["p4F1"])
				},
				status: http.StatusCreated,
				check: check{trace: "ETH>#C(connected)>F1 | R1>#A(connected)>LOOP-1: Termination A | LOOP-1: Termination Z>#B(connected)>F2 | " +
					"R1>#A(connected)>LOOP-1: Termination A | LOOP-1: Termination Z>#B(connected)>F2",
					conn: "none reachable=false", rear: "p4R1", paths: []string{"false/true/false 15"}},
			},
			{
				// A rear port of two positions with F1 mapped to R1:1 and
				// F2 cabled to R1 but not mapped yet: mapping F2 to R1:2
				// closes the loop.
				name: "loop closed by a port mapping",
				setup: func() (int, []int) {
					add("p5", "/api/dcim/devices/", map[string]any{"name": "p5", "device_type": "@dt", "role": "@role", "site": "@s"})
					add("p5R1", compPath("rear-ports"), map[string]any{"device": "@p5", "name": "R1", "type": "lc", "positions": 2})
					add("p5F1", compPath("front-ports"), map[string]any{"device": "@p5", "name": "F1", "type": "lc",
						"rear_ports": []any{map[string]any{"position": 1, "rear_port": "@p5R1", "rear_port_position": 1}}})
					add("p5F2", compPath("front-ports"), map[string]any{"device": "@p5", "name": "F2", "type": "lc"})
					eth := iface()
					return eth, []int{
						cable(t, a, []any{ifc, eth}, []any{fp, ids["p5F1"]}),
						cable(t, a, []any{fp, ids["p5F2"]}, []any{rp, ids["p5R1"]}),
					}
				},
				last: func() (string, string, any) {
					return "PATCH", fmt.Sprintf("%s%d/", compPath("front-ports"), ids["p5F2"]), map[string]any{
						"rear_ports": []any{map[string]any{"position": 1, "rear_port": ids["p5R1"], "rear_port_position": 2}}}
				},
				status: http.StatusOK,
				check: check{trace: "ETH>#A(connected)>F1 | R1>#B(connected)>F2 | R1>#B(connected)>F2", conn: "none reachable=false",
					rear: "p5R1", paths: []string{"false/true/false 9"}},
			},
			{
				// Splices s1 and s2 joined by a trunk between their rear
				// ports, s2's F1 patched to its F2: the path goes out on
				// position 1 and back on position 2, crossing both rear
				// ports twice, and reaches the far interface.
				name: "hairpin through a trunk of splices",
				setup: func() (int, []int) {
					panel("s1")
					panel("s2")
					eth := iface()
					far := iface()
					ids["far"] = far
					return eth, []int{
						cable(t, a, []any{ifc, eth}, []any{fp, ids["s1F1"]}),
						cable(t, a, []any{rp, ids["s1R1"]}, []any{rp, ids["s2R1"]}),
						cable(t, a, []any{fp, ids["s2F1"]}, []any{fp, ids["s2F2"]}),
					}
				},
				last: func() (string, string, any) {
					return "POST", "/api/dcim/cables/", cableBody(fp, ids["s1F2"], ifc, ids["far"])
				},
				status: http.StatusCreated,
				check: check{trace: "ETH>#A(connected)>F1 | R1>#B(connected)>R1 | F1>#C(connected)>F2 | R1>#B(connected)>R1 | F2>#D(connected)>FAR",
					conn: "dcim.interface:FAR reachable=true", rear: "s1R1",
					paths: []string{"true/true/false 15", "true/true/false 15"}},
			},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				eth, cables := c.setup()
				method, path, body := c.last()
				status, got := promptly(t, a, method, path, body)
				if status != c.status {
					t.Fatalf("%s %s: %d, want %d: %v", method, path, status, c.status, got)
				}
				if method == "POST" {
					cables = append(cables, idOf(got))
				}
				// The checks name the case's cables #A, #B... in order of
				// creation, its interface ETH and the far one FAR.
				var pairs []string
				for i, id := range cables {
					pairs = append(pairs, fmt.Sprintf("#%c(", 'A'+i), fmt.Sprintf("#%d(", id))
				}
				pairs = append(pairs, "ETH", ifaceName(ids, eth), "FAR", ifaceName(ids, ids["far"]))
				names := strings.NewReplacer(pairs...)
				if got, want := traceShape(t, a, "interfaces", eth), names.Replace(c.check.trace); got != want {
					t.Errorf("trace/:\n got %s\nwant %s", got, want)
				}
				if got, want := connection(t, a, "interfaces", eth), names.Replace(c.check.conn); got != want {
					t.Errorf("connection: %s, want %s", got, want)
				}
				if got := pathsOf(t, a, fmt.Sprintf("%s%d/paths/", compPath("rear-ports"), ids[c.check.rear])); strings.Join(got, ",") != strings.Join(c.check.paths, ",") {
					t.Errorf("paths/ of %s: %v, want %v", c.check.rear, got, c.check.paths)
				}
			})
		}
	})
}

// ifaceName is the name of an interface made by the loop test's iface.
func ifaceName(ids map[string]int, id int) string {
	for k, v := range ids {
		if v == id && strings.HasPrefix(k, "loop") {
			return k
		}
	}
	return "?"
}

// TestCablePathHopLimit: a front→rear→front chain of dcim.MaxPathHops+1
// panels; the cable from an interface to its first panel would make a
// path of MaxPathHops+1 cables: 400 on the cable's far end, at once, and
// nothing is kept (no cable, no path).
func TestCablePathHopLimit(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		ids := pathsWorld(t, a)
		add := pathsAdder(a, ids)
		add("dt1", dtPath, map[string]any{"manufacturer": "@m", "model": "Panel 1", "slug": "panel-1"})
		add("rt", "/api/dcim/rear-port-templates/", map[string]any{"device_type": "@dt1", "name": "R1", "type": "lc"})
		add("ft", "/api/dcim/front-port-templates/", map[string]any{"device_type": "@dt1", "name": "F1", "type": "lc",
			"rear_ports": []any{map[string]any{"position": 1, "rear_port": "@rt", "rear_port_position": 1}}})
		// The panels, their ports by device, and the chain P1.R1-P2.R1,
		// P2.F1-P3.F1, P3.R1-P4.R1...: with eth1-P1.F1, one cable a panel.
		const panels = dcim.MaxPathHops + 1
		var devices []any
		for i := 1; i <= panels; i++ {
			devices = append(devices, map[string]any{"name": fmt.Sprintf("chain%03d", i), "device_type": ids["dt1"],
				"role": ids["role"], "site": ids["s"]})
		}
		var order []int
		for _, d := range a.Must(http.StatusCreated, "POST", "/api/dcim/devices/", devices).JSON().([]any) {
			order = append(order, idOf(d.(map[string]any)))
		}
		portsOf := func(kind string) map[int]int {
			out := map[int]int{}
			list := a.Must(http.StatusOK, "GET", fmt.Sprintf("%s?device_type_id=%d&limit=1000", compPath(kind), ids["dt1"]), nil).Results()
			for _, p := range list {
				out[idOf(p["device"].(map[string]any))] = idOf(p)
			}
			if len(out) != panels {
				t.Fatalf("%s of the chain: %d, want %d", kind, len(out), panels)
			}
			return out
		}
		front, rear := portsOf("front-ports"), portsOf("rear-ports")
		var chain []any
		for i := 0; i+1 < panels; i++ {
			kind, ports := "dcim.rearport", rear
			if i%2 == 1 {
				kind, ports = "dcim.frontport", front
			}
			chain = append(chain, map[string]any{
				"a_terminations": []any{map[string]any{"object_type": kind, "object_id": ports[order[i]]}},
				"b_terminations": []any{map[string]any{"object_type": kind, "object_id": ports[order[i+1]]}},
			})
		}
		var chainIDs []int
		for _, c := range a.Must(http.StatusCreated, "POST", "/api/dcim/cables/", chain).JSON().([]any) {
			chainIDs = append(chainIDs, idOf(c.(map[string]any)))
		}
		count := func() any { return a.Must(http.StatusOK, "GET", "/api/dcim/cables/?limit=1", nil).Object()["count"] }
		before := count()

		toChain := map[string]any{
			"a_terminations": []any{map[string]any{"object_type": "dcim.interface", "object_id": ids["eth1"]}},
			"b_terminations": []any{map[string]any{"object_type": "dcim.frontport", "object_id": front[order[0]]}},
		}
		status, body := promptly(t, a, "POST", "/api/dcim/cables/", toChain)
		want := fmt.Sprintf("The cable path from dcim.interface %d passes more than %d cables, the most one path may pass.",
			ids["eth1"], dcim.MaxPathHops)
		if msgs, _ := body["b_terminations"].([]any); status != http.StatusBadRequest || len(msgs) != 1 || msgs[0] != want {
			t.Fatalf("the cable past the limit: %d %v, want 400 {b_terminations: [%s]}", status, body, want)
		}
		if after := count(); after != before {
			t.Errorf("cables: %v after the refused one, %v before", after, before)
		}
		o := a.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", compPath("interfaces"), ids["eth1"]), nil).Object()
		if o["cable"] != nil {
			t.Errorf("eth1 kept the refused cable: %v", o["cable"])
		}
		if got := connection(t, a, "interfaces", ids["eth1"]); got != "none reachable=false" {
			t.Errorf("eth1: %s", got)
		}
		if got := pathsOf(t, a, fmt.Sprintf("%s%d/paths/", compPath("front-ports"), front[order[0]])); len(got) != 0 {
			t.Errorf("paths through the chain's first port: %v", got)
		}
		// The chain's last cable gone: the path passes MaxPathHops
		// cables, which is allowed, and ends at the last panel but one's
		// uncabled port, incomplete.
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/dcim/cables/%d/", chainIDs[len(chainIDs)-1]), nil)
		if status, body := promptly(t, a, "POST", "/api/dcim/cables/", toChain); status != http.StatusCreated {
			t.Fatalf("the cable within the limit: %d %v", status, body)
		}
		if got, want := pathsOf(t, a, fmt.Sprintf("%s%d/paths/", compPath("front-ports"), front[order[0]])),
			fmt.Sprintf("false/true/false %d", 3*dcim.MaxPathHops+1); len(got) != 1 || got[0] != want {
			t.Errorf("paths through the chain's first port: %v, want [%s]", got, want)
		}
	})
}
