package server_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestFHRPGroupScenario: a group's virtual address shows in its display
// and its ip_addresses; interfaces join it through assignments, counted on
// the interface, one assignment per interface and group; the assignment's
// display follows renames of the interface and the group.
func TestFHRPGroupScenario(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newIPWorld(t, e)
		a := w.e
		const groups, assigns = "/api/ipam/fhrp-groups/", "/api/ipam/fhrp-group-assignments/"
		get := func(path string, id int) map[string]any {
			return a.Must(http.StatusOK, "GET", w.path(path, id), nil).Object()
		}
		g := idOf(a.Must(http.StatusCreated, "POST", groups, map[string]any{"name": "gw", "protocol": "vrrp2", "group_id": 10}).Object())
		if d := get(groups, g)["display"]; d != "gw VRRPv2: 10" {
			t.Errorf("group display %q", d)
		}
		vip := w.ip(t, "10.0.0.254/24", 0, "role", "vrrp", "assigned_object_type", "ipam.fhrpgroup", "assigned_object_id", g)
		low := w.ip(t, "10.0.0.253/24", 0, "role", "vrrp", "assigned_object_type", "ipam.fhrpgroup", "assigned_object_id", g)
		grp := get(groups, g)
		if grp["display"] != "gw VRRPv2: 10 (10.0.0.253/24)" {
			t.Errorf("group display with addresses: %q", grp["display"])
		}
		if l, _ := grp["ip_addresses"].([]any); len(l) != 2 {
			t.Errorf("ip_addresses %v", grp["ip_addresses"])
		}
		if obj := vip["assigned_object"].(map[string]any); idOf(obj) != g || obj["display"] != "gw VRRPv2: 10 (10.0.0.254/24)" {
			t.Errorf("address's assigned_object %v", obj)
		}
		// The lowest address goes: the display takes the next.
		a.Must(http.StatusNoContent, "DELETE", w.path(w.ipPath, idOf(low)), nil)
		if d := get(groups, g)["display"]; d != "gw VRRPv2: 10 (10.0.0.254/24)" {
			t.Errorf("group display after its first address went: %q", d)
		}

		asg := a.Must(http.StatusCreated, "POST", assigns, map[string]any{"group": g, "interface_type": "dcim.interface",
			"interface_id": w.d1eth0, "priority": 100}).Object()
		if asg["display"] != "eth0: gw VRRPv2: 10 (10.0.0.254/24) (100)" {
			t.Errorf("assignment display %q", asg["display"])
		}
		if n := get(w.ifcPath, w.d1eth0)["count_fhrp_groups"]; n != 1.0 {
			t.Errorf("count_fhrp_groups %v", n)
		}
		refused(t, a, "POST", assigns, map[string]any{"group": g, "interface_type": "dcim.interface", "interface_id": w.d1eth0, "priority": 50},
			"__all__", "FHRP group assignment with this Interface type, Interface id and Group already exists.")
		refused(t, a, "POST", assigns, map[string]any{"group": g, "interface_type": "dcim.interface", "interface_id": 99999999, "priority": 50},
			"interface_id", "Related object not found using the provided value: 99999999.")
		refused(t, a, "POST", assigns, map[string]any{"group": g, "interface_type": "ipam.fhrpgroup", "interface_id": g, "priority": 50},
			"interface_type", "Invalid content type: ipam.fhrpgroup")
		refused(t, a, "POST", groups, map[string]any{"protocol": "vrrp2", "group_id": -1}, "group_id",
			"Ensure this value is greater than or equal to 0.")
		a.Must(http.StatusOK, "PATCH", w.path(w.ifcPath, w.d1eth0), map[string]any{"name": "ge-0/0/0", "label": "uplink"})
		a.Must(http.StatusOK, "PATCH", w.path(groups, g), map[string]any{"name": "", "protocol": "hsrp"})
		if d := get(assigns, idOf(asg))["display"]; d != "ge-0/0/0 (uplink): HSRP: 10 (10.0.0.254/24) (100)" {
			t.Errorf("assignment display after renames: %q", d)
		}

		// related_ip: groups with an address in the network of the given
		// one, in its VRF.
		probe := w.ip(t, "10.0.0.9/24", w.d2eth0)
		other := w.ip(t, "10.0.0.10/24", 0, "vrf", w.red)
		for q, want := range map[string]int{fmt.Sprintf("related_ip=%d", idOf(probe)): 1, fmt.Sprintf("related_ip=%d", idOf(other)): 0,
			"protocol=hsrp": 1, "protocol=vrrp2": 0} {
			if n := len(a.Must(http.StatusOK, "GET", groups+"?"+q, nil).Results()); n != want {
				t.Errorf("groups ?%s: %d, want %d", q, n, want)
			}
		}
		for q, want := range map[string]int{fmt.Sprintf("device_id=%d", w.d1): 1, "device=r2": 0, fmt.Sprintf("group_id=%d", g): 1} {
			if n := len(a.Must(http.StatusOK, "GET", assigns+"?"+q, nil).Results()); n != want {
				t.Errorf("assignments ?%s: %d, want %d", q, n, want)
			}
		}
		if n := len(a.Must(http.StatusOK, "GET", fmt.Sprintf("%s?fhrpgroup_id=%d", w.ipPath, g), nil).Results()); n != 1 {
			t.Errorf("addresses of the group: %d", n)
		}
	})
}

// TestServiceScenario: services of a device or an FHRP group, their ports
// (1 to 65535, shown as ranges in the display) and their addresses, which
// must belong to the parent.
func TestServiceScenario(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newIPWorld(t, e)
		a := w.e
		const services, templates = "/api/ipam/services/", "/api/ipam/service-templates/"
		mine := w.ip(t, "10.0.0.5/24", w.d1eth0)
		theirs := w.ip(t, "10.0.1.5/24", w.d2eth0)
		svc := func(kv ...any) map[string]any {
			b := map[string]any{"parent_object_type": "dcim.device", "parent_object_id": w.d1, "name": "web", "protocol": "tcp", "ports": []int{80}}
			for i := 0; i+1 < len(kv); i += 2 {
				b[kv[i].(string)] = kv[i+1]
			}
			return b
		}
		web := a.Must(http.StatusCreated, "POST", services, svc("ports", []int{443, 81, 80}, "ipaddresses", []int{idOf(mine)})).Object()
		if web["display"] != "web (TCP/80-81, 443)" {
			t.Errorf("display %q", web["display"])
		}
		if p := web["parent"].(map[string]any); idOf(p) != w.d1 {
			t.Errorf("parent %v", p)
		}
		if l := web["ipaddresses"].([]any); len(l) != 1 || idOf(l[0].(map[string]any)) != idOf(mine) {
			t.Errorf("ipaddresses %v", l)
		}
		for _, c := range []struct {
			name           string
			body           map[string]any
			field, message string
		}{
			{"an address of another device", svc("ipaddresses", []int{idOf(mine), idOf(theirs)}), "ipaddresses",
				"IP address 10.0.1.5/24 does not belong to the parent device."},
			{"an unassigned address", svc("ipaddresses", []int{idOf(w.ip(t, "192.0.2.1/32", 0))}), "ipaddresses",
				"IP address 192.0.2.1/32 does not belong to the parent device."},
			{"a missing address", svc("ipaddresses", []int{99999999}), "ipaddresses", `Invalid pk "99999999" - object does not exist.`},
			{"a site as parent", svc("parent_object_type", "dcim.site", "parent_object_id", w.siteA), "parent_object_type",
				"Invalid content type: dcim.site"},
			{"a missing device", svc("parent_object_id", 99999999), "parent_object_id",
				"Related object not found using the provided value: 99999999."},
			{"no parent", map[string]any{"name": "x", "protocol": "tcp", "ports": []int{1}}, "parent_object_type", "This field is required."},
			{"no ports", svc("ports", nil), "ports", "This field may not be null."},
			{"ports not a list", svc("ports", 22), "ports", `Expected a list of items but got type "int".`},
		} {
			t.Run(c.name, func(t *testing.T) { refused(t, a, "POST", services, c.body, c.field, c.message) })
		}
		// Port bounds answer per element, as DRF's ListField does.
		for _, ports := range [][]int{{0}, {22, 65536}} {
			before := changeCount(t, a)
			r := a.Must(http.StatusBadRequest, "POST", services, svc("ports", ports))
			bad := fmt.Sprint(len(ports) - 1)
			msg := map[int]string{0: "Ensure this value is greater than or equal to 1.", 65536: "Ensure this value is less than or equal to 65535."}[ports[len(ports)-1]]
			if got := r.Object()["ports"].(map[string]any)[bad].([]any); len(got) != 1 || got[0] != msg {
				t.Errorf("ports %v: %s", ports, r.Body)
			}
			if changeCount(t, a) != before {
				t.Errorf("ports %v: a refused write left change records", ports)
			}
		}
		a.Must(http.StatusCreated, "POST", templates, map[string]any{"name": "ssh", "protocol": "tcp", "ports": []int{22, 65535}})
		r := a.Must(http.StatusBadRequest, "POST", templates, map[string]any{"name": "bad", "protocol": "tcp", "ports": []int{65536}})
		if _, ok := r.Object()["ports"].(map[string]any)["0"]; !ok {
			t.Errorf("template port 65536: %s", r.Body)
		}
		// Moving the service to another device with its address refused;
		// an FHRP group's own address binds to a service of the group.
		refused(t, a, "PATCH", w.path(services, idOf(web)), map[string]any{"parent_object_id": w.d2}, "ipaddresses",
			"IP address 10.0.0.5/24 does not belong to the parent device.")
		g := idOf(a.Must(http.StatusCreated, "POST", "/api/ipam/fhrp-groups/", map[string]any{"protocol": "carp", "group_id": 1}).Object())
		vip := w.ip(t, "10.0.0.254/24", 0, "role", "carp", "assigned_object_type", "ipam.fhrpgroup", "assigned_object_id", g)
		a.Must(http.StatusCreated, "POST", services, svc("parent_object_type", "ipam.fhrpgroup", "parent_object_id", g,
			"name", "vip", "ipaddresses", []int{idOf(vip)}))
		refused(t, a, "POST", services, svc("parent_object_type", "ipam.fhrpgroup", "parent_object_id", g,
			"name", "vip2", "ipaddresses", []int{idOf(mine)}), "ipaddresses", "IP address 10.0.0.5/24 does not belong to the parent FHRP group.")
		// The ordering: protocol, then the lowest port.
		a.Must(http.StatusCreated, "POST", services, svc("name", "dns", "protocol", "udp", "ports", []int{53}))
		a.Must(http.StatusCreated, "POST", services, svc("name", "ssh", "ports", []int{22}))
		var names []string
		for _, s := range a.Must(http.StatusOK, "GET", services, nil).Results() {
			names = append(names, s["name"].(string))
		}
		if fmt.Sprint(names) != "[ssh web vip dns]" {
			t.Errorf("ordering %v", names)
		}
		for q, want := range map[string]int{fmt.Sprintf("device_id=%d", w.d1): 3, fmt.Sprintf("fhrpgroup_id=%d", g): 1,
			fmt.Sprintf("ip_address_id=%d", idOf(mine)): 1, "ip_address=10.0.0.254/24": 1, "port=81": 1, "port=22": 1} {
			if n := len(a.Must(http.StatusOK, "GET", services+"?"+q, nil).Results()); n != want {
				t.Errorf("services ?%s: %d, want %d", q, n, want)
			}
		}
		if n := len(a.Must(http.StatusOK, "GET", fmt.Sprintf("%s?service_id=%d", w.ipPath, idOf(web)), nil).Results()); n != 1 {
			t.Errorf("addresses of the service: %d", n)
		}
	})
}
