package server_test

import (
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// Cable paths across wireless links: a wireless link is a link of a path
// as a cable is (NetBox's Interface.link, CablePath.from_origin and
// wireless/signals.py): its interfaces' link_peers, connected endpoints,
// trace/ and the connected filter go across it, and writing a link traces
// its ends again.

// linkPeers spells an interface's link_peers as "<names> type=<type>".
func linkPeers(t *testing.T, e *servertest.Env, id int) string {
	t.Helper()
	o := iface(t, e, id)
	var names []string
	for _, p := range o["link_peers"].([]any) {
		names = append(names, p.(map[string]any)["name"].(string))
	}
	return fmt.Sprintf("%v type=%v", names, o["link_peers_type"])
}

func TestWirelessLinkPaths(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := wirelessWorld(t, e)
		linkPath := func(id int) string { return fmt.Sprintf("%s%d/", linksPath, id) }
		expect := func(when string, want map[string]string) {
			t.Helper()
			for _, key := range slices.Sorted(maps.Keys(want)) {
				if got := connection(t, e, "interfaces", ids[key]); got != want[key] {
					t.Errorf("%s: %s shows %s, want %s", when, key, got, want[key])
				}
			}
		}
		r := e.Must(http.StatusCreated, "POST", linksPath, resolveRefs(ids, link("wifi", "w2")))
		l := idOf(r.Object())
		// The link's interfaces change what they show: each gets an update
		// record, as NetBox's update_connected_interfaces saves each.
		if got := recordsOf(t, e, r.Header.Get("X-Request-ID")); !slices.Equal(slices.Sorted(slices.Values(got)),
			[]string{"create wireless.wirelesslink", "update dcim.interface", "update dcim.interface"}) {
			t.Errorf("records of the create: %v", got)
		}
		for _, rec := range changes(t, e, r.Header.Get("X-Request-ID")) {
			if rec["changed_object_type"] != "dcim.interface" {
				continue
			}
			pre, _ := rec["prechange_data"].(map[string]any)
			post, _ := rec["postchange_data"].(map[string]any)
			if pre["wireless_link"] != nil || post["wireless_link"] != float64(l) {
				t.Errorf("interface %v's record: wireless_link %v → %v", rec["changed_object_id"], pre["wireless_link"], post["wireless_link"])
			}
		}
		expect("linked", map[string]string{"wifi": "dcim.interface:w2 reachable=true",
			"w2": "dcim.interface:wlan0 reachable=true", "w3": "none reachable=false"})
		// link_peers: the other interface; link_peers_type stays null, as
		// NetBox's serializer names a type only for a cable.
		if got := linkPeers(t, e, ids["wifi"]); got != "[w2] type=<nil>" {
			t.Errorf("wifi's link peers: %s", got)
		}
		if got := linkPeers(t, e, ids["w2"]); got != "[wlan0] type=<nil>" {
			t.Errorf("w2's link peers: %s", got)
		}
		if got, want := traceShape(t, e, "interfaces", ids["wifi"]), fmt.Sprintf("wlan0>#%d(connected)>w2", l); got != want {
			t.Errorf("trace: %s, want %s", got, want)
		}
		// The trace's link is the wireless link as NetBox's
		// TracedCableSerializer renders one: the Cable fields it has, null
		// for the nullable ones it lacks, without label and color.
		seg := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/trace/", compPath("interfaces"), ids["w2"]), nil).JSON().([]any)
		if len(seg) != 1 {
			t.Fatalf("w2's trace: %v", seg)
		}
		got := seg[0].([]any)[1].(map[string]any)
		want := map[string]any{"id": float64(l), "url": fmt.Sprintf("%s/api/wireless/wireless-links/%d/", host, l),
			"display_url": fmt.Sprintf("%s/wireless/wireless-links/%d/", host, l),
			"type":        nil, "status": "connected", "length": nil, "length_unit": nil, "description": ""}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("trace's link:\n got %v\nwant %v", got, want)
		}
		if n := len(e.Must(http.StatusOK, "GET", compPath("interfaces")+"?connected=true", nil).Results()); n != 2 {
			t.Errorf("connected interfaces: %d, want 2", n)
		}

		// The link's status: planned makes the ends unreachable.
		e.Must(http.StatusOK, "PATCH", linkPath(l), map[string]any{"status": "planned"})
		expect("planned", map[string]string{"wifi": "dcim.interface:w2 reachable=false", "w2": "dcim.interface:wlan0 reachable=false"})
		if got, want := traceShape(t, e, "interfaces", ids["wifi"]), fmt.Sprintf("wlan0>#%d(planned)>w2", l); got != want {
			t.Errorf("trace of the planned link: %s, want %s", got, want)
		}
		e.Must(http.StatusOK, "PATCH", linkPath(l), map[string]any{"status": "connected"})

		// Moving an end: the interface left has no path, the new one has.
		e.Must(http.StatusOK, "PATCH", linkPath(l), resolveRefs(ids, map[string]any{"interface_b": "@w3"}))
		expect("moved", map[string]string{"wifi": "dcim.interface:w3 reachable=true",
			"w2": "none reachable=false", "w3": "dcim.interface:wlan0 reachable=true"})
		if got := linkPeers(t, e, ids["w2"]); got != "[] type=<nil>" {
			t.Errorf("w2's link peers after the move: %s", got)
		}
		if got := traceShape(t, e, "interfaces", ids["w2"]); got != "" {
			t.Errorf("w2's trace after the move: %s", got)
		}
		// Both ends at once, swapped for the other device's pair.
		e.Must(http.StatusOK, "PATCH", linkPath(l), resolveRefs(ids, map[string]any{"interface_a": "@w4", "interface_b": "@w2"}))
		expect("both moved", map[string]string{"wifi": "none reachable=false", "w3": "none reachable=false",
			"w4": "dcim.interface:w2 reachable=true", "w2": "dcim.interface:w4 reachable=true"})

		// Deleting the link removes the paths of its ends; each end's
		// connection changed, hence its record (NetBox clears them with
		// update(): no record; as for cables, see the README).
		r = e.Must(http.StatusNoContent, "DELETE", linkPath(l), nil)
		if got := recordsOf(t, e, r.Header.Get("X-Request-ID")); !slices.Equal(got,
			[]string{"delete wireless.wirelesslink", "update dcim.interface", "update dcim.interface"}) {
			t.Errorf("records of the delete: %v", got)
		}
		expect("deleted", map[string]string{"w4": "none reachable=false", "w2": "none reachable=false"})
		for _, key := range []string{"w2", "w4"} {
			if got := traceShape(t, e, "interfaces", ids[key]); got != "" {
				t.Errorf("%s's trace after the delete: %s", key, got)
			}
		}
		if n := len(e.Must(http.StatusOK, "GET", compPath("interfaces")+"?connected=true", nil).Results()); n != 0 {
			t.Errorf("connected interfaces after the delete: %d, want 0", n)
		}

		// A bulk create: both links' ends get their paths.
		e.Must(http.StatusCreated, "POST", linksPath, []any{resolveRefs(ids, link("wifi", "w3")), resolveRefs(ids, link("w2", "w4"))})
		expect("bulk", map[string]string{"wifi": "dcim.interface:w3 reachable=true", "w3": "dcim.interface:wlan0 reachable=true",
			"w2": "dcim.interface:w4 reachable=true", "w4": "dcim.interface:w2 reachable=true"})
	})
}

// TestWirelessLinkPathChain: cable f1-e1, e1 bridged to wlan0, wireless
// link wlan0-w2, w2 bridged to f2, cable f2-g1. As in NetBox a path ends
// at the first interface it reaches (an interface is an endpoint, and a
// cable never ends on a wireless one), so f1 is connected to e1; trace/
// goes on over the bridges and across the link to g1.
func TestWirelessLinkPathChain(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := wirelessWorld(t, e)
		bridge := func(key, to string) {
			e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", compPath("interfaces"), ids[key]), map[string]any{"bridge": ids[to]})
		}
		bridge("e1", "wifi")
		bridge("w2", "f2")
		c1 := cable(t, e, []any{"dcim.interface", ids["f1"]}, []any{"dcim.interface", ids["e1"]})
		c2 := cable(t, e, []any{"dcim.interface", ids["f2"]}, []any{"dcim.interface", ids["g1"]})
		if got, want := traceShape(t, e, "interfaces", ids["f1"]), fmt.Sprintf("f1>#%d(connected)>e1", c1); got != want {
			t.Errorf("trace before the link: %s, want %s", got, want)
		}
		l := idOf(e.Must(http.StatusCreated, "POST", linksPath, resolveRefs(ids, link("wifi", "w2"))).Object())
		want := fmt.Sprintf("f1>#%d(connected)>e1 | wlan0>#%d(connected)>w2 | f2>#%d(connected)>g1", c1, l, c2)
		if got := traceShape(t, e, "interfaces", ids["f1"]); got != want {
			t.Errorf("trace across the link: %s\nwant %s", got, want)
		}
		// A cable keeps all of TracedCableSerializer's fields, a wireless
		// link those it has.
		segs := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/trace/", compPath("interfaces"), ids["f1"]), nil).JSON().([]any)
		for i, want := range []int{10, 8, 10} {
			if i >= len(segs) {
				break
			}
			if got := len(segs[i].([]any)[1].(map[string]any)); got != want {
				t.Errorf("segment %d's link has %d fields, want %d: %v", i, got, want, segs[i].([]any)[1])
			}
		}
		for key, want := range map[string]string{"f1": "dcim.interface:e1 reachable=true",
			"wifi": "dcim.interface:w2 reachable=true", "g1": "dcim.interface:f2 reachable=true"} {
			if got := connection(t, e, "interfaces", ids[key]); got != want {
				t.Errorf("%s shows %s, want %s", key, got, want)
			}
		}
		// The cables' own writes leave the link's path alone, and a
		// deleted link ends the trace at its near end again.
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/cables/%d/", c1), map[string]any{"status": "planned"})
		if got := connection(t, e, "interfaces", ids["w2"]); got != "dcim.interface:wlan0 reachable=true" {
			t.Errorf("w2 after the cable's change: %s", got)
		}
		e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", linksPath, l), nil)
		if got, want := traceShape(t, e, "interfaces", ids["f1"]), fmt.Sprintf("f1>#%d(planned)>e1", c1); got != want {
			t.Errorf("trace after the link's delete: %s, want %s", got, want)
		}
	})
}

// TestWirelessLinkOnCabledInterface: an interface cabled while wired, then
// made wireless and linked (NetBox allows both), keeps its cable as its
// link (Interface.link: the cable, else the wireless link); the link's
// other end still reaches it.
func TestWirelessLinkOnCabledInterface(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := wirelessWorld(t, e)
		cable(t, e, []any{"dcim.interface", ids["e3"]}, []any{"dcim.interface", ids["f3"]})
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", compPath("interfaces"), ids["e3"]), map[string]any{"type": "ieee802.11ac"})
		l := idOf(e.Must(http.StatusCreated, "POST", linksPath, resolveRefs(ids, link("e3", "w4"))).Object())
		for key, want := range map[string]string{"e3": "dcim.interface:f3 reachable=true",
			"f3": "dcim.interface:e3 reachable=true", "w4": "dcim.interface:e3 reachable=true"} {
			if got := connection(t, e, "interfaces", ids[key]); got != want {
				t.Errorf("%s shows %s, want %s", key, got, want)
			}
		}
		if got := linkPeers(t, e, ids["e3"]); got != "[f3] type=dcim.interface" {
			t.Errorf("e3's link peers: %s", got)
		}
		if got := linkPeers(t, e, ids["w4"]); got != "[e3] type=<nil>" {
			t.Errorf("w4's link peers: %s", got)
		}
		// Without its cable, the interface's link is the wireless one.
		cables := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/cables/?interface_id=%d", ids["e3"]), nil).Results()
		if len(cables) != 1 {
			t.Fatalf("e3's cables: %v", cables)
		}
		e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/dcim/cables/%v/", cables[0]["id"]), nil)
		if got := connection(t, e, "interfaces", ids["e3"]); got != "dcim.interface:w4 reachable=true" {
			t.Errorf("e3 without its cable shows %s", got)
		}
		if got, want := traceShape(t, e, "interfaces", ids["e3"]), fmt.Sprintf("e3>#%d(connected)>w4", l); got != want {
			t.Errorf("e3's trace without its cable: %s, want %s", got, want)
		}
	})
}

// TestWirelessLinkPeersQueries: a page of interfaces on wireless links
// costs the same queries whatever its size.
func TestWirelessLinkPeersQueries(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := wirelessWorld(t, e)
		e.Must(http.StatusCreated, "POST", linksPath, []any{resolveRefs(ids, link("wifi", "w3")), resolveRefs(ids, link("w2", "w4"))})
		one := e.Cost(fmt.Sprintf("%s?id=%d", compPath("interfaces"), ids["wifi"]))
		four := e.Cost(compPath("interfaces") + "?connected=true&limit=10")
		if four > one {
			t.Errorf("interfaces on wireless links: %d queries for 1, %d for 4 (N+1)", one, four)
		}
	})
}
