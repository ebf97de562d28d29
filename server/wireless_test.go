package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// Wireless: NetBox's WirelessLink.clean() and save() and the interface
// cascades (ent/logic/wireless), wireless LANs on interfaces, the LAN
// groups' counts and the LANs' cached scope.

const linksPath = "/api/wireless/wireless-links/"

// wirelessWorld is cablesWorld plus wireless interfaces w2 on d2 and w3,
// w4 on d3 (wifi on d1 is the first).
func wirelessWorld(t *testing.T, e *servertest.Env) map[string]int {
	t.Helper()
	ids := cablesWorld(t, e)
	for key, dev := range map[string]string{"w2": "@d2", "w3": "@d3", "w4": "@d3"} {
		ids[key] = int(e.Must(http.StatusCreated, "POST", compPath("interfaces"), resolveRefs(ids,
			map[string]any{"device": dev, "name": key, "type": "ieee802.11ax"})).Object()["id"].(float64))
	}
	return ids
}

func link(a, b string) map[string]any {
	return map[string]any{"interface_a": "@" + a, "interface_b": "@" + b}
}

func TestWirelessLinkRules(t *testing.T) {
	cases := []struct {
		name        string
		method      string // POST a new link, or PATCH the existing one
		body        map[string]any
		field, text string
	}{
		{"wired A end", "POST", link("e1", "w3"), "interface_a", "1000BASE-T (1GE) is not a wireless interface."},
		{"virtual B end", "POST", link("w3", "virt"), "interface_b", "Virtual is not a wireless interface."},
		{"one interface on both ends", "POST", link("w3", "w3"), "interface_b", "Cannot link an interface to itself."},
		// The same end of another link is the unique field's message; the
		// other end, the hook's.
		{"A end of another link", "POST", link("wifi", "w3"), "interface_a", "wireless link with this interface a already exists."},
		{"B end of another link as B", "POST", link("w3", "w2"), "interface_b", "wireless link with this interface b already exists."},
		{"A end of another link as B", "POST", link("w3", "wifi"), "interface_b", "Interface wlan0 (id "},
		{"B end of another link as A", "POST", link("w2", "w3"), "interface_a", "already has a wireless link."},
		{"distance without unit", "POST", map[string]any{"interface_a": "@w3", "interface_b": "@w4", "distance": 5},
			"distance_unit", "Must specify a unit when setting a distance"},
		{"moved to a wired interface", "PATCH", map[string]any{"interface_b": "@e2"}, "interface_b",
			"1000BASE-T (1GE) is not a wireless interface."},
		{"missing ends", "POST", map[string]any{"ssid": "x"}, "interface_a", "This field is required."},
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := wirelessWorld(t, e)
		existing := int(e.Must(http.StatusCreated, "POST", linksPath, resolveRefs(ids, link("wifi", "w2"))).Object()["id"].(float64))
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				path := linksPath
				if c.method == "PATCH" {
					path = fmt.Sprintf("%s%d/", linksPath, existing)
				}
				r := e.Must(http.StatusBadRequest, c.method, path, resolveRefs(ids, c.body))
				msgs, _ := r.Object()[c.field].([]any)
				if len(msgs) == 0 || !strings.Contains(fmt.Sprint(msgs[0]), c.text) {
					t.Errorf("%s: %s, want %s naming %q", c.name, r.Body, c.field, c.text)
				}
				if n := total(t, e, linksPath); n != 1 {
					t.Errorf("%s: %d links, want 1: something was written", c.name, n)
				}
				l := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", linksPath, existing), nil).Object()
				if b := l["interface_b"].(map[string]any)["id"]; b != float64(ids["w2"]) {
					t.Errorf("%s: the link's B end is now %v", c.name, b)
				}
			})
		}
	})
}

// TestWirelessLinkLifecycle: what a link leaves on its interfaces from
// create to delete, on both databases.
func TestWirelessLinkLifecycle(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := wirelessWorld(t, e)
		iface := func(key string) map[string]any {
			return e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", compPath("interfaces"), ids[key]), nil).Object()
		}
		linkOf := func(key string) any {
			if l, ok := iface(key)["wireless_link"].(map[string]any); ok {
				return l["id"]
			}
			return nil
		}
		r := e.Must(http.StatusCreated, "POST", linksPath, resolveRefs(ids, link("wifi", "w2")))
		l := r.Object()
		id := l["id"].(float64)
		if l["display"] != fmt.Sprintf("#%d", int(id)) || l["status"].(map[string]any)["value"] != "connected" {
			t.Errorf("new link without SSID: display %v status %v", l["display"], l["status"])
		}
		if a := l["interface_a"].(map[string]any); a["id"] != float64(ids["wifi"]) || a["device"] == nil {
			t.Errorf("interface_a: %v", a)
		}
		// Creating the link records the link, then its interfaces, whose
		// connection it made (NetBox's update_connected_interfaces saves
		// each).
		if got := recordsOf(t, e, r.Header.Get("X-Request-ID")); !slices.Equal(slices.Sorted(slices.Values(got)),
			[]string{"create wireless.wirelesslink", "update dcim.interface", "update dcim.interface"}) {
			t.Errorf("records of the create: %v", got)
		}
		wl := iface("wifi")["wireless_link"]
		if m, ok := wl.(map[string]any); !ok || m["id"] != id || m["display"] != fmt.Sprintf("#%d", int(id)) ||
			len(m) != 5 || m["ssid"] != "" {
			t.Errorf("wifi's wireless_link: %v", wl)
		}
		if linkOf("w2") != id || linkOf("w3") != nil {
			t.Errorf("after create: w2 → %v, w3 → %v", linkOf("w2"), linkOf("w3"))
		}
		for q, want := range map[string]int{
			fmt.Sprintf("interface_a_id=%d", ids["wifi"]): 1, fmt.Sprintf("interface_b_id=%d", ids["wifi"]): 0,
		} {
			if n := len(e.Must(http.StatusOK, "GET", linksPath+"?"+q, nil).Results()); n != want {
				t.Errorf("links ?%s: %d, want %d", q, n, want)
			}
		}
		if n := len(e.Must(http.StatusOK, "GET", fmt.Sprintf("%s?wireless_link_id=%d", compPath("interfaces"), int(id)), nil).Results()); n != 2 {
			t.Errorf("interfaces ?wireless_link_id: %d, want 2", n)
		}
		// Moving an end: the old interface is free, the new one linked.
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", linksPath, int(id)), resolveRefs(ids,
			map[string]any{"interface_b": "@w3", "ssid": "bridge"}))
		if linkOf("w2") != nil || linkOf("w3") != id || linkOf("wifi") != id {
			t.Errorf("after the move: wifi → %v, w2 → %v, w3 → %v", linkOf("wifi"), linkOf("w2"), linkOf("w3"))
		}
		if d := iface("w3")["wireless_link"].(map[string]any)["display"]; d != "bridge" {
			t.Errorf("display with an SSID: %v", d)
		}
		// The freed interface takes a new link.
		r = e.Must(http.StatusCreated, "POST", linksPath, resolveRefs(ids, link("w2", "w4")))
		second := r.Object()["id"].(float64)
		// A linked interface protects the link from its device's delete
		// (Django's collector raises ProtectedError for a PROTECT relation
		// even when the link would cascade from the device).
		e.Must(http.StatusConflict, "DELETE", fmt.Sprintf("/api/dcim/devices/%d/", ids["d3"]), nil)
		e.Must(http.StatusConflict, "DELETE", fmt.Sprintf("%s%d/", compPath("interfaces"), ids["w2"]), nil)
		e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", linksPath, int(second)), nil)
		// Deleting a link frees both ends; they have an update record, as
		// their connection went (NetBox's queryset update leaves none; the
		// README lists it with cables').
		r = e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", linksPath, int(id)), nil)
		if got := recordsOf(t, e, r.Header.Get("X-Request-ID")); !slices.Equal(got,
			[]string{"delete wireless.wirelesslink", "update dcim.interface", "update dcim.interface"}) {
			t.Errorf("records of the delete: %v", got)
		}
		if linkOf("wifi") != nil || linkOf("w2") != nil {
			t.Errorf("after the delete: wifi → %v, w2 → %v", linkOf("wifi"), linkOf("w2"))
		}
		if linkOf("w3") != nil || linkOf("w4") != nil {
			t.Errorf("after the deletes: w3 → %v, w4 → %v", linkOf("w3"), linkOf("w4"))
		}
		// Free interfaces go with their device.
		e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/dcim/devices/%d/", ids["d3"]), nil)
	})
}

// TestWirelessLANs: interfaces join LANs (both filters), a group counts
// the LANs of its subtree, and a LAN's cached scope follows its site.
func TestWirelessLANs(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := wirelessWorld(t, e)
		add := func(key, path string, body map[string]any) {
			t.Helper()
			ids[key] = int(e.Must(http.StatusCreated, "POST", path, resolveRefs(ids, body)).Object()["id"].(float64))
		}
		add("g1", "/api/wireless/wireless-lan-groups/", map[string]any{"name": "Campus", "slug": "campus"})
		add("g2", "/api/wireless/wireless-lan-groups/", map[string]any{"name": "Building", "slug": "building", "parent": "@g1"})
		add("reg", "/api/dcim/regions/", map[string]any{"name": "North", "slug": "north"})
		add("lan1", "/api/wireless/wireless-lans/", map[string]any{"ssid": "corp", "group": "@g2",
			"scope_type": "dcim.site", "scope_id": "@s1"})
		add("lan2", "/api/wireless/wireless-lans/", map[string]any{"ssid": "guest"})
		// Names and slugs are unique across the whole tree.
		r := e.Must(http.StatusBadRequest, "POST", "/api/wireless/wireless-lan-groups/", resolveRefs(ids,
			map[string]any{"name": "Building", "slug": "building-2", "parent": "@g1"}))
		if !strings.Contains(string(r.Body), "already exists") {
			t.Errorf("duplicate group name: %s", r.Body)
		}
		groups := e.Must(http.StatusOK, "GET", "/api/wireless/wireless-lan-groups/", nil).Results()
		// By name: Building (below Campus), then Campus, which counts the
		// LAN of its subtree.
		if len(groups) != 2 || groups[1]["name"] != "Campus" || groups[1]["wirelesslan_count"] != float64(1) ||
			groups[0]["_depth"] != float64(1) {
			t.Errorf("groups: %v", groups)
		}
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", compPath("interfaces"), ids["wifi"]),
			map[string]any{"wireless_lans": []any{ids["lan1"], ids["lan2"]}})
		lans := iface(t, e, ids["wifi"])["wireless_lans"].([]any)
		if len(lans) != 2 || lans[0].(map[string]any)["ssid"] != "corp" {
			t.Errorf("wifi's wireless_lans: %v", lans)
		}
		for path, want := range map[string]int{
			fmt.Sprintf("/api/wireless/wireless-lans/?interface_id=%d", ids["wifi"]):     2,
			fmt.Sprintf("/api/wireless/wireless-lans/?group_id=%d", ids["g1"]):           1,
			fmt.Sprintf("/api/wireless/wireless-lans/?site_id=%d", ids["s1"]):            1,
			fmt.Sprintf("/api/wireless/wireless-lans/?region_id=%d", ids["reg"]):         0,
			fmt.Sprintf("%s?wireless_lan_id=%d", compPath("interfaces"), ids["lan2"]):    1,
			fmt.Sprintf("%s?wireless_lan_id__n=%d", compPath("interfaces"), ids["lan2"]): 13,
		} {
			if n := len(e.Must(http.StatusOK, "GET", path+"&limit=100", nil).Results()); n != want {
				t.Errorf("%s: %d, want %d", path, n, want)
			}
		}
		// The site moves into the region: the LAN's cached region follows
		// (NetBox's sync_cached_scope_fields).
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/sites/%d/", ids["s1"]), map[string]any{"region": ids["reg"]})
		if n := len(e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/wireless/wireless-lans/?region_id=%d", ids["reg"]), nil).Results()); n != 1 {
			t.Errorf("LANs in the site's new region: %d, want 1", n)
		}
		// A deleted LAN leaves the interfaces' wireless_lans.
		e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/wireless/wireless-lans/%d/", ids["lan2"]), nil)
		if lans := iface(t, e, ids["wifi"])["wireless_lans"].([]any); len(lans) != 1 {
			t.Errorf("wifi's wireless_lans after deleting guest: %v", lans)
		}
	})
}

func iface(t *testing.T, e *servertest.Env, id int) map[string]any {
	t.Helper()
	return e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", compPath("interfaces"), id), nil).Object()
}
