package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// traceDisplay spells a trace/ answer as "near>cable>far | ..." by the
// objects' display (circuit terminations have no name).
func traceDisplay(t *testing.T, e *servertest.Env, kind string, id int) string {
	t.Helper()
	segs, ok := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/trace/", compPath(kind), id), nil).JSON().([]any)
	if !ok {
		t.Fatal("trace/ is not a list")
	}
	shown := func(v any) string {
		list, _ := v.([]any)
		var out []string
		for _, x := range list {
			out = append(out, x.(map[string]any)["display"].(string))
		}
		return strings.Join(out, ",")
	}
	var out []string
	for _, s := range segs {
		seg := s.([]any)
		c := "-"
		if m, ok := seg[1].(map[string]any); ok {
			c = fmt.Sprintf("#%v", m["id"])
		}
		out = append(out, shown(seg[0])+">"+c+">"+shown(seg[2]))
	}
	return strings.Join(out, " | ")
}

// pathsOf answers "complete/active/split steps" of each path through a
// pass-through port or circuit termination (paths/).
func pathsOf(t *testing.T, e *servertest.Env, path string) []string {
	t.Helper()
	var out []string
	for _, x := range e.Must(http.StatusOK, "GET", path, nil).JSON().([]any) {
		p := x.(map[string]any)
		out = append(out, fmt.Sprintf("%v/%v/%v %d", p["is_complete"], p["is_active"], p["is_split"], len(p["path"].([]any))))
	}
	return out
}

// TestCablePathsThroughCircuits: a path crosses a circuit from its A to its
// Z termination (NetBox's CablePath.from_origin), ends at a provider
// network when the far side is one, and stops at the far side's site when
// that side is not cabled.
func TestCablePathsThroughCircuits(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		ids := pathsWorld(t, a)
		add := pathsAdder(a, ids)
		add("prov", providersPath, map[string]any{"name": "Carrier", "slug": "carrier"})
		add("net", "/api/circuits/provider-networks/", map[string]any{"provider": "@prov", "name": "MPLS"})
		add("ctype", "/api/circuits/circuit-types/", map[string]any{"name": "Transit", "slug": "transit"})
		add("c1", circuitsPath, map[string]any{"cid": "C-1", "provider": "@prov", "type": "@ctype"})
		add("c2", circuitsPath, map[string]any{"cid": "C-2", "provider": "@prov", "type": "@ctype"})
		add("c1a", termsPath, map[string]any{"circuit": "@c1", "term_side": "A", "termination_type": "dcim.site", "termination_id": "@s"})
		add("c1z", termsPath, map[string]any{"circuit": "@c1", "term_side": "Z", "termination_type": "dcim.site", "termination_id": "@s"})
		add("c2a", termsPath, map[string]any{"circuit": "@c2", "term_side": "A", "termination_type": "dcim.site", "termination_id": "@s"})
		add("c2z", termsPath, map[string]any{"circuit": "@c2", "term_side": "Z", "termination_type": "circuits.providernetwork", "termination_id": "@net"})
		const ct = "circuits.circuittermination"
		k1 := cable(t, a, []any{"dcim.interface", ids["eth1"]}, []any{ct, ids["c1a"]})
		k2 := cable(t, a, []any{ct, ids["c1z"]}, []any{"dcim.interface", ids["eth2"]})
		k3 := cable(t, a, []any{"dcim.interface", ids["eth3"]}, []any{ct, ids["c2a"]})

		for _, c := range []struct {
			key, want, trace string
		}{
			{"eth1", "dcim.interface:eth2 reachable=true", fmt.Sprintf("eth1>#%d>C-1: Termination A | C-1: Termination Z>#%d>eth2", k1, k2)},
			{"eth2", "dcim.interface:eth1 reachable=true", fmt.Sprintf("eth2>#%d>C-1: Termination Z | C-1: Termination A>#%d>eth1", k2, k1)},
			// The provider network is the far end (NetBox: a null link, then the network).
			{"eth3", "circuits.providernetwork:MPLS reachable=true", fmt.Sprintf("eth3>#%d>C-2: Termination A | C-2: Termination Z>->MPLS", k3)},
		} {
			if got := connection(t, a, "interfaces", ids[c.key]); got != c.want {
				t.Errorf("%s: %s, want %s", c.key, got, c.want)
			}
			if got := traceDisplay(t, a, "interfaces", ids[c.key]); got != c.trace {
				t.Errorf("%s trace: %s, want %s", c.key, got, c.trace)
			}
		}
		// The circuit terminations list the paths through them: one from
		// each side of C-1, one from eth3 through C-2.
		for key, want := range map[string]string{"c1a": "true/true/false 6,true/true/false 6", "c1z": "true/true/false 6,true/true/false 6",
			"c2a": "true/true/false 5", "c2z": "true/true/false 5"} {
			if got := strings.Join(pathsOf(t, a, fmt.Sprintf("%s%d/paths/", termsPath, ids[key])), ","); got != want {
				t.Errorf("%s paths/: %s, want %s", key, got, want)
			}
		}
		// Without the Z side's cable, eth1's path ends at the Z side's site:
		// incomplete, so no connected endpoints.
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/dcim/cables/%d/", k2), nil)
		if got := connection(t, a, "interfaces", ids["eth1"]); got != "none reachable=false" {
			t.Errorf("eth1 without the Z side's cable: %s", got)
		}
		if got, want := traceDisplay(t, a, "interfaces", ids["eth1"]), fmt.Sprintf("eth1>#%d>C-1: Termination A | C-1: Termination Z>->Site", k1); got != want {
			t.Errorf("eth1's trace without the Z side's cable: %s, want %s", got, want)
		}
		// Deleting the circuit (its terminations, and their cables' ends)
		// clears eth3's connection.
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", circuitsPath, ids["c2"]), nil)
		if got := connection(t, a, "interfaces", ids["eth3"]); got != "none reachable=false" {
			t.Errorf("eth3 without its circuit: %s", got)
		}
	})
}

// TestCablePathsTemplatePanels: two patch panels of a device type whose
// front port templates map to positions 1 and 2 of a two-position rear
// port template, joined by one trunk cable between their rear ports: the
// instantiated mappings carry each pair of interfaces over its own
// position.
func TestCablePathsTemplatePanels(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		ids := pathsWorld(t, a)
		add := pathsAdder(a, ids)
		add("dtp", dtPath, map[string]any{"manufacturer": "@m", "model": "Panel 2", "slug": "panel-2"})
		add("rt", "/api/dcim/rear-port-templates/", map[string]any{"device_type": "@dtp", "name": "R1", "type": "lc", "positions": 2})
		for i := 1; i <= 2; i++ {
			add(fmt.Sprintf("ft%d", i), "/api/dcim/front-port-templates/", map[string]any{"device_type": "@dtp", "name": fmt.Sprintf("F%d", i),
				"type": "lc", "rear_ports": []any{map[string]any{"position": 1, "rear_port": "@rt", "rear_port_position": i}}})
		}
		add("eth4", compPath("interfaces"), map[string]any{"device": "@d1", "name": "eth4", "type": "1000base-t"})
		port := func(kind string, device int, name string) int {
			list := a.Must(http.StatusOK, "GET", fmt.Sprintf("%s?device_id=%d&name=%s", compPath(kind), device, name), nil).Results()
			if len(list) != 1 {
				t.Fatalf("%s %s of device %d: %d", kind, name, device, len(list))
			}
			return idOf(list[0])
		}
		for _, p := range []string{"pa", "pb"} {
			add(p, "/api/dcim/devices/", map[string]any{"name": p, "device_type": "@dtp", "role": "@role", "site": "@s"})
			ids[p+"R1"] = port("rear-ports", ids[p], "R1")
			ids[p+"F1"] = port("front-ports", ids[p], "F1")
			ids[p+"F2"] = port("front-ports", ids[p], "F2")
		}
		fp, rp, ifc := "dcim.frontport", "dcim.rearport", "dcim.interface"
		k1 := cable(t, a, []any{ifc, ids["eth1"]}, []any{fp, ids["paF1"]})
		cable(t, a, []any{ifc, ids["eth4"]}, []any{fp, ids["paF2"]})
		trunk := cable(t, a, []any{rp, ids["paR1"]}, []any{rp, ids["pbR1"]})
		k4 := cable(t, a, []any{fp, ids["pbF1"]}, []any{ifc, ids["eth2"]})
		cable(t, a, []any{fp, ids["pbF2"]}, []any{ifc, ids["eth3"]})

		for key, want := range map[string]string{"eth1": "dcim.interface:eth2 reachable=true", "eth2": "dcim.interface:eth1 reachable=true",
			"eth4": "dcim.interface:eth3 reachable=true", "eth3": "dcim.interface:eth4 reachable=true"} {
			if got := connection(t, a, "interfaces", ids[key]); got != want {
				t.Errorf("%s: %s, want %s", key, got, want)
			}
		}
		if got, want := traceShape(t, a, "interfaces", ids["eth1"]),
			fmt.Sprintf("eth1>#%d(connected)>F1 | R1>#%d(connected)>R1 | F1>#%d(connected)>eth2", k1, trunk, k4); got != want {
			t.Errorf("eth1's trace: %s, want %s", got, want)
		}
		// The trunk's rear ports carry the four paths, each complete.
		if got := strings.Join(pathsOf(t, a, fmt.Sprintf("%s%d/paths/", compPath("rear-ports"), ids["paR1"])), ","); got !=
			"true/true/false 9,true/true/false 9,true/true/false 9,true/true/false 9" {
			t.Errorf("the trunk's rear port paths/: %s", got)
		}
		// The trunk replaced by a cable from eth5 straight to panel B's rear
		// port: from eth5 the multi-position rear port has no position to
		// follow (a split, no connection); from eth2 and eth3 the front
		// ports' positions lead over the cable to eth5, an endpoint, so
		// their paths are complete there (NetBox's from_origin); eth1's ends
		// at panel A's uncabled rear port.
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/dcim/cables/%d/", trunk), nil)
		add("eth5", compPath("interfaces"), map[string]any{"device": "@d1", "name": "eth5", "type": "1000base-t"})
		cable(t, a, []any{ifc, ids["eth5"]}, []any{rp, ids["pbR1"]})
		paths := a.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/paths/", compPath("rear-ports"), ids["pbR1"]), nil).JSON().([]any)
		split := 0
		for _, x := range paths {
			if x.(map[string]any)["is_split"] == true {
				split++
			}
		}
		if len(paths) != 3 || split != 1 {
			t.Errorf("paths through panel B's rear port: %d, %d split, want 3 with 1 split (%v)", len(paths), split, paths)
		}
		for key, want := range map[string]string{"eth5": "none reachable=false", "eth1": "none reachable=false",
			"eth2": "dcim.interface:eth5 reachable=true", "eth3": "dcim.interface:eth5 reachable=true"} {
			if got := connection(t, a, "interfaces", ids[key]); got != want {
				t.Errorf("%s without the trunk: %s, want %s", key, got, want)
			}
		}
	})
}
