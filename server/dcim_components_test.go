package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// Device components: the rules across objects (NetBox's clean() of each
// component and the interface serializer's VLAN checks) and the cascade
// from their device.

func compPath(kind string) string { return "/api/dcim/" + kind + "/" }

// componentsWorld creates what the rule cases refer to, by key: sites s1
// and s2, devices d1 and d2 at s1 and d3 at s2, VLANs (v1 at s1, v2 at s2,
// vg global, vgrp2 in a group scoped to s2, vgrp1 in a group scoped to
// s1), power ports pp1 (d1) and pp2 (d2), interfaces lag1 (d1, a LAG),
// lag2 (d2, a LAG), eth1 and eth2 (d1, physical), rp1 (d1, a rear port of
// two positions), mac1 (unassigned) and mac2 (on eth2).
func componentsWorld(t *testing.T, e *servertest.Env) map[string]int {
	t.Helper()
	ids := map[string]int{}
	add := func(key, path string, body map[string]any) {
		ids[key] = int(e.Must(http.StatusCreated, "POST", path, resolveRefs(ids, body)).Object()["id"].(float64))
	}
	add("m", "/api/dcim/manufacturers/", map[string]any{"name": "Juniper", "slug": "juniper"})
	add("dt", dtPath, map[string]any{"manufacturer": "@m", "model": "EX4300", "slug": "ex4300"})
	add("role", "/api/dcim/device-roles/", map[string]any{"name": "Access", "slug": "access"})
	add("s1", "/api/dcim/sites/", map[string]any{"name": "Site 1", "slug": "site-1"})
	add("s2", "/api/dcim/sites/", map[string]any{"name": "Site 2", "slug": "site-2"})
	for key, site := range map[string]string{"d1": "@s1", "d2": "@s1", "d3": "@s2"} {
		add(key, "/api/dcim/devices/", map[string]any{"name": key, "device_type": "@dt", "role": "@role", "site": site})
	}
	add("v1", "/api/ipam/vlans/", map[string]any{"vid": 10, "name": "v1", "site": "@s1"})
	add("v2", "/api/ipam/vlans/", map[string]any{"vid": 20, "name": "v2", "site": "@s2"})
	add("vg", "/api/ipam/vlans/", map[string]any{"vid": 30, "name": "vg"})
	add("g1", "/api/ipam/vlan-groups/", map[string]any{"name": "g1", "slug": "g1", "scope_type": "dcim.site", "scope_id": "@s1"})
	add("g2", "/api/ipam/vlan-groups/", map[string]any{"name": "g2", "slug": "g2", "scope_type": "dcim.site", "scope_id": "@s2"})
	add("vgrp1", "/api/ipam/vlans/", map[string]any{"vid": 40, "name": "vgrp1", "group": "@g1"})
	add("vgrp2", "/api/ipam/vlans/", map[string]any{"vid": 50, "name": "vgrp2", "group": "@g2"})
	add("pp1", compPath("power-ports"), map[string]any{"device": "@d1", "name": "PSU0"})
	add("pp2", compPath("power-ports"), map[string]any{"device": "@d2", "name": "PSU0"})
	add("lag1", compPath("interfaces"), map[string]any{"device": "@d1", "name": "ae0", "type": "lag"})
	add("lag2", compPath("interfaces"), map[string]any{"device": "@d2", "name": "ae0", "type": "lag"})
	add("eth1", compPath("interfaces"), map[string]any{"device": "@d1", "name": "ge-0/0/1", "type": "1000base-t"})
	add("eth2", compPath("interfaces"), map[string]any{"device": "@d1", "name": "ge-0/0/2", "type": "1000base-t"})
	add("rp1", compPath("rear-ports"), map[string]any{"device": "@d1", "name": "R1", "type": "lc", "positions": 2})
	add("mac1", compPath("mac-addresses"), map[string]any{"mac_address": "00:00:5e:00:53:01"})
	add("mac2", compPath("mac-addresses"), map[string]any{"mac_address": "00-00-5E-00-53-02",
		"assigned_object_type": "dcim.interface", "assigned_object_id": "@eth2"})
	return ids
}

func TestDCIMComponentRules(t *testing.T) {
	// Each case's interface has a name of its own, so that no case meets
	// the name clash before its own rule.
	n := 0
	iface := func(extra map[string]any) map[string]any {
		n++
		body := map[string]any{"device": "@d1", "name": fmt.Sprintf("xe-0/0/%d", n), "type": "10gbase-x-sfpp"}
		for k, v := range extra {
			body[k] = v
		}
		return body
	}
	cases := []ruleCase{
		// Names unique per device.
		{name: "name clash on a device", path: compPath("power-ports"),
			body: map[string]any{"device": "@d1", "name": "PSU0"}, status: 400,
			field: "__all__", text: "Power port with this Device and Name already exists."},
		{name: "same name on another device", path: compPath("power-ports"),
			body: map[string]any{"device": "@d3", "name": "PSU0"}, status: 201},
		{name: "interface name clash on a device", path: compPath("interfaces"),
			body: map[string]any{"device": "@d1", "name": "ge-0/0/1", "type": "1000base-t"}, status: 400,
			field: "__all__", text: "Interface with this Device and Name already exists."},
		{name: "component moved to another device", method: "PATCH", path: compPath("power-ports") + "@pp1/",
			body: map[string]any{"device": "@d2", "name": "PSU9"}, status: 400, field: "device", text: "cannot be moved to a different device"},

		// Power.
		{name: "power outlet fed by another device's power port", path: compPath("power-outlets"),
			body: map[string]any{"device": "@d1", "name": "out1", "power_port": "@pp2"}, status: 400,
			field: "power_port", text: "Parent power port (PSU0) must belong to the same device"},
		{name: "power outlet fed by its device's power port", path: compPath("power-outlets"),
			body: map[string]any{"device": "@d1", "name": "out1", "power_port": "@pp1", "feed_leg": "B"}, status: 201},
		{name: "allocated draw above maximum", method: "PATCH", path: compPath("power-ports") + "@pp1/",
			body: map[string]any{"maximum_draw": 100, "allocated_draw": 150}, status: 400,
			field: "allocated_draw", text: "cannot exceed the maximum draw (100W)"},

		// Port mappings.
		{name: "front port mapped to another device's rear port", path: compPath("front-ports"),
			body: map[string]any{"device": "@d2", "name": "F1", "type": "lc",
				"rear_ports": []any{map[string]any{"position": 1, "rear_port": "@rp1", "rear_port_position": 1}}}, status: 400,
			field: "rear_ports", text: "Rear port (R1) must belong to the same device"},
		{name: "front port mapped beyond the rear port's positions", path: compPath("front-ports"),
			body: map[string]any{"device": "@d1", "name": "F1", "type": "lc",
				"rear_ports": []any{map[string]any{"position": 1, "rear_port": "@rp1", "rear_port_position": 3}}}, status: 400,
			field: "rear_ports", text: "Invalid rear port position (3): Rear port R1 has only 2 positions."},
		{name: "front port mapped to its device's rear port", path: compPath("front-ports"),
			body: map[string]any{"device": "@d1", "name": "F1", "type": "lc",
				"rear_ports": []any{map[string]any{"position": 1, "rear_port": "@rp1", "rear_port_position": 2}}}, status: 201},
		{name: "second front port onto a mapped position", path: compPath("front-ports"),
			body: map[string]any{"device": "@d1", "name": "F2", "type": "lc",
				"rear_ports": []any{map[string]any{"position": 1, "rear_port": "@rp1", "rear_port_position": 2}}}, status: 400,
			field: "rear_ports", text: "Position 2 of rear port R1 is already mapped."},

		// Interfaces: parent, bridge, LAG.
		{name: "LAG on another device", path: compPath("interfaces"),
			body: iface(map[string]any{"lag": "@lag2"}), status: 400,
			field: "lag", text: "The selected LAG interface (ae0) belongs to a different device (d2)."},
		// NetBox's lag has no limit_choices_to: its API takes an
		// interface of any type as the LAG (the UI offers type lag only).
		{name: "LAG of a type other than lag", path: compPath("interfaces"),
			body: iface(map[string]any{"lag": "@eth1"}), status: 201},
		{name: "LAG on its device", path: compPath("interfaces"),
			body: iface(map[string]any{"lag": "@lag1"}), status: 201},
		{name: "virtual interface in a LAG", path: compPath("interfaces"),
			body: iface(map[string]any{"name": "lo0", "type": "virtual", "lag": "@lag1"}), status: 400,
			field: "lag", text: "Virtual interfaces cannot have a parent LAG interface."},
		{name: "LAG of itself", method: "PATCH", path: compPath("interfaces") + "@lag1/",
			body: map[string]any{"lag": "@lag1"}, status: 400, field: "lag", text: "A LAG interface cannot be its own parent."},
		{name: "parent on another device", path: compPath("interfaces"),
			body: iface(map[string]any{"name": "ge-0/0/1.10", "type": "virtual", "parent": "@lag2"}), status: 400,
			field: "parent", text: "The selected parent interface (ae0) belongs to a different device (d2)"},
		{name: "physical interface with a parent", path: compPath("interfaces"),
			body: iface(map[string]any{"parent": "@eth1"}), status: 400,
			field: "parent", text: "Only virtual interfaces may be assigned to a parent interface."},
		{name: "subinterface of its device's interface", path: compPath("interfaces"),
			body: iface(map[string]any{"name": "ge-0/0/1.10", "type": "virtual", "parent": "@eth1"}), status: 201},
		{name: "own parent", method: "PATCH", path: compPath("interfaces") + "@eth1/",
			body: map[string]any{"parent": "@eth1", "type": "virtual"}, status: 400,
			field: "parent", text: "An interface cannot be its own parent."},
		{name: "bridge on another device", path: compPath("interfaces"),
			body: iface(map[string]any{"bridge": "@lag2"}), status: 400,
			field: "bridge", text: "The selected bridge interface (ae0) belongs to a different device (d2)."},
		{name: "virtual interface marked connected", path: compPath("interfaces"),
			body: iface(map[string]any{"name": "br0", "type": "bridge", "mark_connected": true}), status: 400,
			field: "mark_connected", text: "Bridge interfaces cannot be marked as connected."},
		{name: "PoE on a virtual interface", path: compPath("interfaces"),
			body: iface(map[string]any{"name": "lo0", "type": "virtual", "poe_mode": "pse"}), status: 400,
			field: "poe_mode", text: "Virtual interfaces cannot have a PoE mode."},
		{name: "PoE type without mode", path: compPath("interfaces"),
			body: iface(map[string]any{"poe_type": "type1-ieee802.3af"}), status: 400,
			field: "poe_type", text: "Must specify PoE mode"},
		{name: "MTU out of range", path: compPath("interfaces"),
			body: iface(map[string]any{"mtu": 65537}), status: 400, field: "mtu", text: "less than or equal to 65536"},

		// Wireless.
		{name: "wireless role on a wired interface", path: compPath("interfaces"),
			body: iface(map[string]any{"rf_role": "ap"}), status: 400, field: "rf_role", text: "only on wireless interfaces"},
		{name: "channel on a wired interface", path: compPath("interfaces"),
			body: iface(map[string]any{"rf_channel": "2.4g-1-2412-22"}), status: 400,
			field: "rf_channel", text: "Channel may be set only on wireless interfaces."},
		{name: "custom frequency with a channel", path: compPath("interfaces"),
			body: iface(map[string]any{"type": "ieee802.11ax", "rf_channel": "5g-36-5180-20", "rf_channel_frequency": 5200}), status: 400,
			field: "rf_channel_frequency", text: "Cannot specify custom frequency with channel selected."},
		{name: "channel on a wireless interface", path: compPath("interfaces"),
			body: iface(map[string]any{"type": "ieee802.11ax", "rf_role": "ap", "rf_channel": "5g-36-5180-20"}), status: 201},

		// 802.1Q: the mode carries the VLANs it supports, each one of the
		// device's site or of none (NetBox checks the VLAN's site only).
		{name: "tagged VLAN of another site", path: compPath("interfaces"),
			body: iface(map[string]any{"mode": "tagged", "tagged_vlans": []any{"@vg", "@v2"}}), status: 400,
			field: "tagged_vlans", text: "VLAN v2 (20) must belong to the same site as the interface's parent device, or it must be global."},
		{name: "tagged VLAN without a site, of a group scoped to another site", path: compPath("interfaces"),
			body: iface(map[string]any{"mode": "tagged", "tagged_vlans": []any{"@vgrp2"}}), status: 201},
		{name: "untagged VLAN of another site", path: compPath("interfaces"),
			body: iface(map[string]any{"mode": "access", "untagged_vlan": "@v2"}), status: 400,
			field: "untagged_vlan", text: "The untagged VLAN (v2 (20)) must belong to the same site as the interface's parent device, or it must be global."},
		{name: "untagged VLAN without a site, of a group scoped to another site", path: compPath("interfaces"),
			body: iface(map[string]any{"mode": "access", "untagged_vlan": "@vgrp2"}), status: 201},
		{name: "service VLAN of another site", path: compPath("interfaces"),
			body: iface(map[string]any{"mode": "q-in-q", "qinq_svlan": "@v2"}), status: 201},
		{name: "access mode with tagged VLANs", path: compPath("interfaces"),
			body: iface(map[string]any{"mode": "access", "tagged_vlans": []any{"@v1"}}), status: 400,
			field: "tagged_vlans", text: "Interface mode does not support tagged vlans"},
		{name: "no mode with an untagged VLAN", path: compPath("interfaces"),
			body: iface(map[string]any{"untagged_vlan": "@v1"}), status: 400,
			field: "untagged_vlan", text: "Interface mode does not support untagged vlan"},
		{name: "service VLAN outside Q-in-Q", path: compPath("interfaces"),
			body: iface(map[string]any{"mode": "tagged", "qinq_svlan": "@vg"}), status: 400,
			field: "qinq_svlan", text: "Interface mode does not support q-in-q service vlan"},
		{name: "tagged VLANs the interface may use", path: compPath("interfaces"),
			body: iface(map[string]any{"mode": "tagged", "untagged_vlan": "@v1", "tagged_vlans": []any{"@vg", "@vgrp1"}}), status: 201},
		{name: "tagged interface turned access keeping its VLANs", method: "PATCH", path: compPath("interfaces") + "@eth1/",
			body: map[string]any{"mode": "tagged", "tagged_vlans": []any{"@v1"}}, status: 200},
		{name: "mode access while tagged VLANs remain", method: "PATCH", path: compPath("interfaces") + "@eth1/",
			body: map[string]any{"mode": "access"}, status: 400,
			field: "tagged_vlans", text: "Interface mode does not support tagged vlans"},

		// MAC addresses.
		{name: "primary MAC of another interface", method: "PATCH", path: compPath("interfaces") + "@eth1/",
			body: map[string]any{"primary_mac_address": "@mac2"}, status: 400,
			field: "primary_mac_address", text: "MAC address 00:00:5E:00:53:02 is assigned to a different interface (ge-0/0/2)."},
		{name: "bad MAC address", path: compPath("mac-addresses"),
			body: map[string]any{"mac_address": "00:00:5e:00:53"}, status: 400,
			field: "mac_address", text: "Invalid MAC address format"},
		{name: "bad WWN", path: compPath("interfaces"),
			body: iface(map[string]any{"wwn": "50:00"}), status: 400, field: "wwn", text: "Invalid WWN format"},
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := componentsWorld(t, e)
		runRuleCases(t, e, ids, cases)
	})
}

// TestDCIMComponentEffects: what writes leave behind beside the row.
func TestDCIMComponentEffects(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := componentsWorld(t, e)
		get := func(path string, id int) map[string]any {
			return e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", path, id), nil).Object()
		}
		// A refused tagged VLAN leaves the interface as it was.
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", compPath("interfaces"), ids["eth1"]),
			map[string]any{"mode": "tagged", "tagged_vlans": []any{ids["v1"]}})
		e.Must(http.StatusBadRequest, "PATCH", fmt.Sprintf("%s%d/", compPath("interfaces"), ids["eth1"]),
			map[string]any{"tagged_vlans": []any{ids["v1"], ids["v2"]}, "description": "changed"})
		got := get(compPath("interfaces"), ids["eth1"])
		if tv, _ := got["tagged_vlans"].([]any); len(tv) != 1 || got["description"] != "" {
			t.Errorf("after a refused write: tagged_vlans %v, description %q", got["tagged_vlans"], got["description"])
		}
		// Q-in-Q keeps no tagged VLANs (NetBox's save()).
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", compPath("interfaces"), ids["eth1"]),
			map[string]any{"mode": "q-in-q", "qinq_svlan": ids["vg"]})
		if tv := get(compPath("interfaces"), ids["eth1"])["tagged_vlans"].([]any); len(tv) != 0 {
			t.Errorf("q-in-q interface keeps tagged VLANs %v", tv)
		}
		// A channel fills its frequency and width.
		r := e.Must(http.StatusCreated, "POST", compPath("interfaces"), map[string]any{"device": ids["d1"], "name": "wlan0",
			"type": "ieee802.11ac", "rf_channel": "5g-42-5210-80"}).Object()
		if r["rf_channel_frequency"] != float64(5210) || r["rf_channel_width"] != float64(80) {
			t.Errorf("channel 5g-42: frequency %v, width %v", r["rf_channel_frequency"], r["rf_channel_width"])
		}
		// The primary MAC address: its text on the interface, normalised.
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", compPath("mac-addresses"), ids["mac1"]),
			map[string]any{"assigned_object_type": "dcim.interface", "assigned_object_id": ids["eth1"]})
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", compPath("interfaces"), ids["eth1"]),
			map[string]any{"primary_mac_address": ids["mac1"]})
		if got := get(compPath("interfaces"), ids["eth1"])["mac_address"]; got != "00:00:5E:00:53:01" {
			t.Errorf("interface mac_address = %v", got)
		}
		// mac_addresses lists the MACs assigned to the interface, nested.
		for iface, want := range map[string]string{"eth1": "00:00:5E:00:53:01", "eth2": "00:00:5E:00:53:02"} {
			macs, _ := get(compPath("interfaces"), ids[iface])["mac_addresses"].([]any)
			if len(macs) != 1 || asObject(macs[0])["mac_address"] != want {
				t.Errorf("%s mac_addresses = %v, want [%s]", iface, macs, want)
			}
		}
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", compPath("mac-addresses"), ids["mac1"]),
			map[string]any{"mac_address": "0000.5e00.5399"})
		if got := get(compPath("interfaces"), ids["eth1"])["mac_address"]; got != "00:00:5E:00:53:99" {
			t.Errorf("interface mac_address after the MAC changed = %v", got)
		}
		// A primary MAC stays with its interface (NetBox's
		// MACAddress.clean): moved, "reassign"; left alone, "unassign".
		for verb, body := range map[string]map[string]any{
			"reassign": {"assigned_object_id": ids["eth2"]},
			"unassign": {"assigned_object_type": nil, "assigned_object_id": nil},
		} {
			r := e.Do("PATCH", fmt.Sprintf("%s%d/", compPath("mac-addresses"), ids["mac1"]), body)
			want := `{"__all__":["Cannot ` + verb + ` MAC Address while it is designated as the primary MAC for an object"]}`
			if r.Status != http.StatusBadRequest || string(r.Body) != want {
				t.Errorf("%s a primary MAC: %d %s, want 400 %s", verb, r.Status, r.Body, want)
			}
		}
		for q, want := range map[string]int{"mac_address=00:00:5e:00:53:99": 1, "kind=virtual": 2, "kind=physical": 2,
			"vlan_id=" + fmt.Sprint(ids["vg"]): 0, "lag_id=" + fmt.Sprint(ids["lag1"]): 0, "device=d1": 4} {
			if n := len(e.Must(http.StatusOK, "GET", compPath("interfaces")+"?"+q, nil).Results()); n != want {
				t.Errorf("interfaces?%s: %d, want %d", q, n, want)
			}
		}
		// A mark_connected port is occupied; with no path its endpoints
		// are not reachable (NetBox 4.6's get_connected_endpoints_reachable
		// answers False, not None, without a path).
		r = e.Must(http.StatusCreated, "POST", compPath("console-ports"), map[string]any{"device": ids["d1"], "name": "con",
			"mark_connected": true}).Object()
		if r["_occupied"] != true || r["cable"] != nil || r["connected_endpoints_reachable"] != false || r["connected_endpoints"] != nil {
			t.Errorf("marked console port: %v", r)
		}
		// An interface created with an unassigned MAC as its primary gets
		// the MAC assigned (NetBox's update_mac_address_interface), with
		// an update record of the MAC.
		mac := idOf(e.Must(http.StatusCreated, "POST", compPath("mac-addresses"), map[string]any{"mac_address": "00:00:5E:00:53:42"}).Object())
		eth9 := idOf(e.Must(http.StatusCreated, "POST", compPath("interfaces"), map[string]any{"device": ids["d1"], "name": "eth9",
			"type": "1000base-t", "primary_mac_address": mac}).Object())
		if got := get(compPath("mac-addresses"), mac); got["assigned_object_type"] != "dcim.interface" || got["assigned_object_id"] != float64(eth9) {
			t.Errorf("MAC of a new interface: assigned to %v %v, want dcim.interface %d", got["assigned_object_type"], got["assigned_object_id"], eth9)
		}
		if got := get(compPath("interfaces"), eth9)["mac_address"]; got != "00:00:5E:00:53:42" {
			t.Errorf("new interface mac_address = %v", got)
		}
		recs := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/core/object-changes/?changed_object_type=dcim.macaddress&changed_object_id=%d&action=update", mac), nil).Results()
		if len(recs) != 1 {
			t.Errorf("MAC of a new interface: %d update records, want 1", len(recs))
		}
	})
}

// TestDCIMComponentCascade: deleting a device deletes its components and
// their MAC addresses, each with its change record; deleting an interface
// clears the LAG of its members.
func TestDCIMComponentCascade(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := componentsWorld(t, e)
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", compPath("interfaces"), ids["eth1"]), map[string]any{"lag": ids["lag1"]})
		e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", compPath("interfaces"), ids["lag1"]), nil)
		if lag := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", compPath("interfaces"), ids["eth1"]), nil).Object()["lag"]; lag != nil {
			t.Errorf("member's lag after the LAG went: %v", lag)
		}
		r := e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/dcim/devices/%d/", ids["d1"]), nil)
		byType := map[string]int{}
		for _, c := range changes(t, e, r.Header.Get("X-Request-ID")) {
			if c["action"].(map[string]any)["value"] == "delete" {
				byType[c["changed_object_type"].(string)]++
			}
		}
		// d1 had a power port, two interfaces left, a rear port and the MAC
		// address on eth2.
		for ct, want := range map[string]int{"dcim.device": 1, "dcim.powerport": 1, "dcim.interface": 2, "dcim.rearport": 1,
			"dcim.macaddress": 1} {
			if byType[ct] != want {
				t.Errorf("%s delete records: %d, want %d (all: %v)", ct, byType[ct], want, byType)
			}
		}
		for p, want := range map[string]int{"power-ports": 1, "interfaces": 1, "rear-ports": 0} {
			if n := len(e.Must(http.StatusOK, "GET", compPath(p), nil).Results()); n != want {
				t.Errorf("%s left: %d, want %d (those of d2)", p, n, want)
			}
		}
		if n := len(e.Must(http.StatusOK, "GET", compPath("mac-addresses"), nil).Results()); n != 1 {
			t.Errorf("MAC addresses left: %d, want 1 (the unassigned one)", n)
		}
	})
}

// TestDCIMComponentFilters: the filters that reach across a device's
// virtual chassis, its VDCs and its MAC addresses (NetBox's
// InterfaceFilterSet, DeviceComponentFilterSet and DeviceFilterSet).
func TestDCIMComponentFilters(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := componentsWorld(t, e)
		add := func(key, path string, body map[string]any) {
			ids[key] = int(e.Must(http.StatusCreated, "POST", path, resolveRefs(ids, body)).Object()["id"].(float64))
		}
		patch := func(path, key string, body map[string]any) {
			e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", path, ids[key]), resolveRefs(ids, body))
		}
		// d1 masters a chassis with d2, whose management interface stays
		// its own; eth1 is in d1's VDC 7.
		add("mgmt0", compPath("interfaces"), map[string]any{"device": "@d2", "name": "mgmt0", "type": "1000base-t",
			"mgmt_only": true})
		add("vc", "/api/dcim/virtual-chassis/", map[string]any{"name": "stack"})
		patch("/api/dcim/devices/", "d1", map[string]any{"virtual_chassis": "@vc", "vc_position": 1})
		patch("/api/dcim/devices/", "d2", map[string]any{"virtual_chassis": "@vc", "vc_position": 2})
		patch("/api/dcim/virtual-chassis/", "vc", map[string]any{"master": "@d1"})
		add("vdc", "/api/dcim/virtual-device-contexts/", map[string]any{"device": "@d1", "name": "ctx1",
			"identifier": 7, "status": "active"})
		patch(compPath("interfaces"), "eth1", map[string]any{"vdcs": []any{"@vdc"}})
		id := func(key string) string { return fmt.Sprint(ids[key]) }
		cases := []struct {
			path, query string
			want        int // results; -1: a 400 naming the parameter
		}{
			// The member's own interfaces, and the chassis' that are not
			// management-only.
			{compPath("interfaces"), "virtual_chassis_member=d2", 5},
			{compPath("interfaces"), "virtual_chassis_member_id=" + id("d2"), 5},
			{compPath("interfaces"), "virtual_chassis_member_id=x", -1},
			// ..._or_master: only the master brings the chassis along.
			{compPath("interfaces"), "virtual_chassis_member_or_master=d2", 2},
			{compPath("interfaces"), "virtual_chassis_member_or_master_id=" + id("d1"), 4},
			{compPath("interfaces"), "virtual_chassis_member=d3", 0},
			{compPath("interfaces"), "virtual_chassis_id=" + id("vc"), 5},
			{compPath("interfaces"), "virtual_chassis=stack", 5},
			{compPath("power-ports"), "virtual_chassis=stack", 2},
			{compPath("power-ports"), "virtual_chassis_id__n=" + id("vc"), 0},
			{compPath("interfaces"), "vdc=ctx1", 1},
			{compPath("interfaces"), "vdc_id=" + id("vdc"), 1},
			{compPath("interfaces"), "vdc_identifier=7", 1},
			{compPath("interfaces"), "vdc_identifier__n=7", 4},
			{compPath("interfaces"), "vdc_identifier=seven", -1},
			{"/api/dcim/virtual-device-contexts/", "interface_id=" + id("eth1"), 1},
			{"/api/dcim/virtual-device-contexts/", "interface_id=" + id("eth2"), 0},
			// MAC addresses: exact in any notation, and the text lookups
			// on the stored form.
			{compPath("interfaces"), "mac_address=0000.5e00.5302", 1},
			{compPath("interfaces"), "mac_address__ic=5e:00:53:0", 1},
			{compPath("interfaces"), "mac_address__nisw=00:00:5E", 4},
			{compPath("interfaces"), "mac_address__iew=53:02&mac_address__iew=53:01", 1},
			{compPath("mac-addresses"), "mac_address__isw=00:00:5e", 2},
			{compPath("mac-addresses"), "mac_address__ie=00:00:5e:00:53:01", 1},
			{compPath("mac-addresses"), "mac_address__n=00:00:5e:00:53:01", 1},
			{"/api/dcim/devices/", "mac_address=00-00-5e-00-53-02", 1},
			{"/api/dcim/devices/", "mac_address__ic=53:02", 1},
			{"/api/dcim/devices/", "mac_address__n=00:00:5e:00:53:02", 2},
			{"/api/dcim/devices/", "mac_address=not-a-mac", 0},
			{dtPath, "device_count=3", 1},
			{dtPath, "device_count__gte=4", 0},
		}
		for _, c := range cases {
			if c.want < 0 {
				name, _, _ := strings.Cut(c.query, "=")
				if b := e.Must(http.StatusBadRequest, "GET", c.path+"?"+c.query, nil).Object(); b[name] == nil {
					t.Errorf("%s?%s: 400 does not name %s: %v", c.path, c.query, name, b)
				}
				continue
			}
			if n := len(e.Must(http.StatusOK, "GET", c.path+"?"+c.query, nil).Results()); n != c.want {
				t.Errorf("%s?%s: %d results, want %d", c.path, c.query, n, c.want)
			}
		}
		// A LAG, parent or bridge may be on another member of the chassis,
		// not on a device outside it.
		add("lag3", compPath("interfaces"), map[string]any{"device": "@d3", "name": "ae3", "type": "lag"})
		e.Must(http.StatusCreated, "POST", compPath("interfaces"), map[string]any{"device": ids["d2"], "name": "xe-1/0/0",
			"type": "10gbase-x-sfpp", "lag": ids["lag1"], "bridge": ids["eth1"]})
		e.Must(http.StatusCreated, "POST", compPath("interfaces"), map[string]any{"device": ids["d2"], "name": "ae0.10",
			"type": "virtual", "parent": ids["lag1"]})
		for _, c := range []struct {
			device, field, target, text string
		}{
			{"d2", "lag", "lag3", "The selected LAG interface (ae3) belongs to d3, which is not part of virtual chassis stack."},
			{"d2", "parent", "lag3", "belongs to d3, which is not part of virtual chassis stack."},
			{"d2", "bridge", "lag3", "The selected bridge interface (ae3) belongs to d3, which is not part of virtual chassis stack."},
			{"d3", "lag", "lag1", "The selected LAG interface (ae0) belongs to a different device (d1)."},
		} {
			typ := "10gbase-x-sfpp"
			if c.field == "parent" {
				typ = "virtual"
			}
			b := e.Must(http.StatusBadRequest, "POST", compPath("interfaces"), map[string]any{"device": ids[c.device],
				"name": "refused", "type": typ, c.field: ids[c.target]}).Object()
			if msgs, _ := b[c.field].([]any); len(msgs) != 1 || !strings.Contains(fmt.Sprint(msgs[0]), c.text) {
				t.Errorf("%s on %s to %s: %v, want %q", c.field, c.device, c.target, b, c.text)
			}
		}
	})
}

// TestInterfaceNestedForms: an interface's parent, bridge, lag and
// bridge_interfaces render NetBox's NestedInterfaceSerializer: the device
// as NestedDeviceSerializer (display_url, no description), the cable as
// its bare id (null until cabled), _occupied.
func TestInterfaceNestedForms(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e = e.Admin()
		ids := componentsWorld(t, e)
		path := func(key string) string { return fmt.Sprintf("%s%d/", compPath("interfaces"), ids[key]) }
		e.Must(http.StatusOK, "PATCH", path("eth2"), map[string]any{"lag": ids["lag1"], "bridge": ids["eth1"], "mark_connected": true})
		sub := e.Must(http.StatusCreated, "POST", compPath("interfaces"), map[string]any{"device": ids["d1"], "name": "ge-0/0/2.10",
			"type": "virtual", "parent": ids["eth2"]}).Object()
		nested := func(key, name string, occupied bool) string {
			return fmt.Sprintf(`{"id": %d, "url": "http://inventory.test/api/dcim/interfaces/%d/",
				"display_url": "http://inventory.test/dcim/interfaces/%d/", "display": %q,
				"device": {"id": %d, "url": "http://inventory.test/api/dcim/devices/%d/",
					"display_url": "http://inventory.test/dcim/devices/%d/", "display": "d1", "name": "d1"},
				"name": %q, "cable": null, "_occupied": %v}`,
				ids[key], ids[key], ids[key], name, ids["d1"], ids["d1"], ids["d1"], name, occupied)
		}
		eth2 := e.Must(http.StatusOK, "GET", path("eth2"), nil).Object()
		subGot, _ := json.Marshal(sub["parent"])
		for _, c := range []struct {
			what string
			got  any
			want string
		}{
			{"lag", eth2["lag"], nested("lag1", "ae0", false)},
			{"bridge", eth2["bridge"], nested("eth1", "ge-0/0/1", false)},
			{"parent", json.RawMessage(subGot), nested("eth2", "ge-0/0/2", true)},
			{"bridge_interfaces", e.Must(http.StatusOK, "GET", path("eth1"), nil).Object()["bridge_interfaces"],
				"[" + nested("eth2", "ge-0/0/2", true) + "]"},
		} {
			got, _ := json.Marshal(c.got)
			if !jsonEqual(t, got, []byte(c.want)) {
				t.Errorf("%s: got %s\nwant %s", c.what, got, c.want)
			}
		}
	})
}

// TestIntegerChoiceEmpty: __empty on an integer choice (a console port's
// speed) is IS NULL; it compared the column with the empty string (a 500 on PostgreSQL,
// found by schemathesis).
func TestIntegerChoiceEmpty(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		for _, v := range []string{"true", "false"} {
			e.Must(http.StatusOK, "GET", "/api/dcim/console-ports/?speed__empty="+v, nil)
		}
	})
}
