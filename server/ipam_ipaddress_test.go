package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/servertest"
)

// ipWorld is a device world with two devices and their interfaces, for
// the IP address scenarios.
type ipWorld struct {
	*deviceWorld
	d1, d2                   int // devices "r1", "r2"
	d1eth0, d1eth1, d2eth0   int
	d1mgmt                   int // a management-only interface of r1
	blue, red                int // VRFs: blue enforces uniqueness, red does not
	ipPath, devPath, ifcPath string
}

func newIPWorld(t *testing.T, e *servertest.Env) *ipWorld {
	t.Helper()
	w := &ipWorld{deviceWorld: newDeviceWorld(t, e), ipPath: "/api/ipam/ip-addresses/", devPath: "/api/dcim/devices/",
		ifcPath: "/api/dcim/interfaces/"}
	a := w.e
	mk := func(path string, body map[string]any) int {
		return idOf(a.Must(http.StatusCreated, "POST", path, body).Object())
	}
	w.d1 = mk(w.devPath, w.device(w.oneU, "name", "r1"))
	w.d2 = mk(w.devPath, w.device(w.oneU, "name", "r2"))
	w.d1eth0 = mk(w.ifcPath, map[string]any{"device": w.d1, "name": "eth0", "type": "1000base-t"})
	w.d1eth1 = mk(w.ifcPath, map[string]any{"device": w.d1, "name": "eth1", "type": "1000base-t"})
	w.d1mgmt = mk(w.ifcPath, map[string]any{"device": w.d1, "name": "mgmt0", "type": "1000base-t", "mgmt_only": true})
	w.d2eth0 = mk(w.ifcPath, map[string]any{"device": w.d2, "name": "eth0", "type": "1000base-t"})
	w.blue = mk("/api/ipam/vrfs/", map[string]any{"name": "blue", "enforce_unique": true})
	w.red = mk("/api/ipam/vrfs/", map[string]any{"name": "red", "rd": "65000:9", "enforce_unique": false})
	return w
}

// ip creates an address (on an interface when iface is not 0) and returns
// its representation.
func (w *ipWorld) ip(t *testing.T, address string, iface int, kv ...any) map[string]any {
	t.Helper()
	b := map[string]any{"address": address}
	if iface != 0 {
		b["assigned_object_type"], b["assigned_object_id"] = "dcim.interface", iface
	}
	for i := 0; i+1 < len(kv); i += 2 {
		b[kv[i].(string)] = kv[i+1]
	}
	return w.e.Must(http.StatusCreated, "POST", w.ipPath, b).Object()
}

func (w *ipWorld) path(base string, id int) string { return fmt.Sprintf("%s%d/", base, id) }

// changeCount is the number of change records so far.
func changeCount(t *testing.T, e *servertest.Env) any {
	t.Helper()
	return e.Must(http.StatusOK, "GET", "/api/core/object-changes/?limit=1", nil).Object()["count"]
}

// refused sends a write that must fail with a 400 whose body names field
// with message (a substring when partial), writing nothing.
func refused(t *testing.T, e *servertest.Env, method, path string, body any, field, message string) {
	t.Helper()
	before := changeCount(t, e)
	r := e.Must(http.StatusBadRequest, method, path, body)
	got, _ := r.Object()[field].([]any)
	if len(got) != 1 || got[0] != message {
		t.Errorf("%s %s: body %s, want %s: [%q]", method, path, r.Body, field, message)
	}
	if after := changeCount(t, e); after != before {
		t.Errorf("a refused write left change records: %v → %v", before, after)
	}
}

// TestIPAddressScenario walks the IP address story on both
// databases: an address on a device's interface becomes the device's
// primary IPv4 and renders nested; the rules around it refuse what
// NetBox refuses (and a NAT loop), with a 400 naming the field and
// nothing written; parent= finds addresses by containment.
func TestIPAddressScenario(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newIPWorld(t, e)
		a := w.e
		dev := func(id int) map[string]any { return a.Must(http.StatusOK, "GET", w.path(w.devPath, id), nil).Object() }

		// An address on r1's eth0, made r1's primary IPv4: the device shows
		// it nested (as its primary_ip too, having no IPv6 one).
		v4 := w.ip(t, "10.0.0.5/24", w.d1eth0, "dns_name", "R1.Example.COM")
		if v4["address"] != "10.0.0.5/24" || v4["dns_name"] != "r1.example.com" || v4["family"].(map[string]any)["value"] != 4.0 {
			t.Errorf("created: %v", v4)
		}
		if obj := v4["assigned_object"].(map[string]any); idOf(obj) != w.d1eth0 || idOf(obj["device"].(map[string]any)) != w.d1 {
			t.Errorf("assigned_object %v", v4["assigned_object"])
		}
		a.Must(http.StatusOK, "PATCH", w.path(w.devPath, w.d1), map[string]any{"primary_ip4": idOf(v4)})
		d := dev(w.d1)
		for _, f := range []string{"primary_ip4", "primary_ip"} {
			ip, _ := d[f].(map[string]any)
			if ip == nil || idOf(ip) != idOf(v4) || ip["address"] != "10.0.0.5/24" || ip["display"] != "10.0.0.5/24" {
				t.Errorf("device %s = %v", f, d[f])
			}
		}
		if d["primary_ip6"] != nil || d["oob_ip"] != nil {
			t.Errorf("primary_ip6 %v, oob_ip %v", d["primary_ip6"], d["oob_ip"])
		}
		// An IPv6 primary comes first in primary_ip.
		v6 := w.ip(t, "2001:DB8::5/64", w.d1eth0)
		if v6["address"] != "2001:db8::5/64" {
			t.Errorf("IPv6 address %v", v6["address"])
		}
		refused(t, a, "PATCH", w.path(w.devPath, w.d1), map[string]any{"primary_ip4": idOf(v6)},
			"primary_ip4", "2001:db8::5/64 is not an IPv4 address.")
		a.Must(http.StatusOK, "PATCH", w.path(w.devPath, w.d1), map[string]any{"primary_ip6": idOf(v6)})
		if p := dev(w.d1)["primary_ip"].(map[string]any); idOf(p) != idOf(v6) {
			t.Errorf("primary_ip %v, want the IPv6 one", p)
		}
		// Filters on the primary addresses.
		for q, want := range map[string]int{"primary_ip4=10.0.0.5/24": 1, "has_primary_ip=true": 1, "has_primary_ip=false": 1,
			fmt.Sprintf("primary_ip6_id=%d", idOf(v6)): 1, "has_oob_ip=true": 0} {
			if n := len(a.Must(http.StatusOK, "GET", w.devPath+"?"+q, nil).Results()); n != want {
				t.Errorf("devices ?%s: %d, want %d", q, n, want)
			}
		}

		// The primary address cannot leave r1: neither unassigned nor moved
		// to r2; moving it to another interface of r1 is fine.
		const reassign = "Cannot reassign IP address while it is designated as the primary IP for the parent object"
		refused(t, a, "PATCH", w.path(w.ipPath, idOf(v4)), map[string]any{"assigned_object_type": nil, "assigned_object_id": nil},
			"__all__", reassign)
		refused(t, a, "PATCH", w.path(w.ipPath, idOf(v4)), map[string]any{"assigned_object_id": w.d2eth0}, "__all__", reassign)
		a.Must(http.StatusOK, "PATCH", w.path(w.ipPath, idOf(v4)), map[string]any{"assigned_object_id": w.d1eth1})

		// An address on another device's interface is refused as primary,
		// and an unassigned one; an outside address NATed to one of r1's
		// is accepted (Device.clean()).
		other := w.ip(t, "10.0.1.7/24", w.d2eth0)
		refused(t, a, "PATCH", w.path(w.devPath, w.d1), map[string]any{"primary_ip4": idOf(other)},
			"primary_ip4", "The specified IP address (10.0.1.7/24) is not assigned to this device.")
		loose := w.ip(t, "192.0.2.1/32", 0)
		refused(t, a, "PATCH", w.path(w.devPath, w.d1), map[string]any{"oob_ip": idOf(loose)},
			"oob_ip", "The specified IP address (192.0.2.1/32) is not assigned to this device.")
		outside := w.ip(t, "203.0.113.5/32", 0, "nat_inside", idOf(v4))
		a.Must(http.StatusOK, "PATCH", w.path(w.devPath, w.d1), map[string]any{"oob_ip": idOf(outside)})
		// The inside address lists its outside one; both render NetBox's
		// NestedIPAddressSerializer (family a bare number, no description).
		nested := func(what string, raw []byte, field string, want int) {
			t.Helper()
			var got map[string]json.RawMessage
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
			v := got[field]
			if field == "nat_outside" {
				var list []json.RawMessage
				if json.Unmarshal(v, &list) != nil || len(list) != 1 {
					t.Fatalf("%s %s: %s", what, field, v)
				}
				v = list[0]
			}
			if ks := keys(t, v); !slices.Equal(ks, []string{"id", "url", "display_url", "display", "family", "address"}) {
				t.Errorf("%s %s: keys %v", what, field, ks)
			}
			var o struct {
				ID     int
				Family int
			}
			if err := json.Unmarshal(v, &o); err != nil || o.ID != want || (o.Family != 4 && o.Family != 6) {
				t.Errorf("%s %s: %s", what, field, v)
			}
		}
		nested("inside", a.Must(http.StatusOK, "GET", w.path(w.ipPath, idOf(v4)), nil).Body, "nat_outside", idOf(outside))
		nested("outside", a.Must(http.StatusOK, "GET", w.path(w.ipPath, idOf(outside)), nil).Body, "nat_inside", idOf(v4))
		// A management interface of a chassis member does not count, its
		// own interfaces do; members of a chassis share their interfaces.
		vc := idOf(a.Must(http.StatusCreated, "POST", "/api/dcim/virtual-chassis/", map[string]any{"name": "pair"}).Object())
		a.Must(http.StatusOK, "PATCH", w.path(w.devPath, w.d1), map[string]any{"virtual_chassis": vc, "vc_position": 1})
		a.Must(http.StatusOK, "PATCH", w.path(w.devPath, w.d2), map[string]any{"virtual_chassis": vc, "vc_position": 2})
		refused(t, a, "PATCH", w.path(w.devPath, w.d2), map[string]any{"primary_ip4": idOf(v4)},
			"primary_ip4", "device with this primary IPv4 already exists.")
		shared := w.ip(t, "10.0.0.6/24", w.d1eth0)
		a.Must(http.StatusOK, "PATCH", w.path(w.devPath, w.d2), map[string]any{"primary_ip4": idOf(shared)})
		mgmt := w.ip(t, "10.9.0.1/24", w.d1mgmt)
		refused(t, a, "PATCH", w.path(w.devPath, w.d2), map[string]any{"primary_ip4": idOf(mgmt)},
			"primary_ip4", "The specified IP address (10.9.0.1/24) is not assigned to this device.")
		// Taking r2 out of the chassis while its primary IP sits on r1 is
		// refused too.
		refused(t, a, "PATCH", w.path(w.devPath, w.d2), map[string]any{"virtual_chassis": nil, "vc_position": nil},
			"primary_ip4", "The specified IP address (10.0.0.6/24) is not assigned to this device.")
		a.Must(http.StatusOK, "PATCH", w.path(w.devPath, w.d2), map[string]any{"primary_ip4": nil})
		// The device filter of addresses follows the chassis master's
		// interfaces.
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/virtual-chassis/%d/", vc), map[string]any{"master": w.d1})
		byDevice := func(q string) []string {
			var out []string
			for _, r := range a.Must(http.StatusOK, "GET", w.ipPath+"?"+q, nil).Results() {
				out = append(out, r["address"].(string))
			}
			slices.Sort(out)
			return out
		}
		if got := byDevice(fmt.Sprintf("device_id=%d", w.d1)); !slices.Equal(got, []string{"10.0.0.5/24", "10.0.0.6/24", "10.0.1.7/24", "10.9.0.1/24", "2001:db8::5/64"}) {
			t.Errorf("device_id of the chassis master: %v", got)
		}
		if got := byDevice("device=r2"); !slices.Equal(got, []string{"10.0.1.7/24"}) {
			t.Errorf("device of a chassis member: %v", got)
		}

		// NAT: an address is not its own inside, nor inside of its inside.
		refused(t, a, "PATCH", w.path(w.ipPath, idOf(outside)), map[string]any{"nat_inside": idOf(outside)},
			"nat_inside", "An IP address cannot be its own NAT inside address.")
		refused(t, a, "PATCH", w.path(w.ipPath, idOf(v4)), map[string]any{"nat_inside": idOf(outside)},
			"nat_inside", "NAT loop: 203.0.113.5/32 has this address as its NAT inside address (directly or through others).")

		// Uniqueness: per VRF when it enforces it, and in the global table
		// (ENFORCE_GLOBAL_UNIQUE, on by default), unless every duplicate
		// has a role exempt from it.
		w.ip(t, "10.1.0.1/24", 0, "vrf", w.blue)
		refused(t, a, "POST", w.ipPath, map[string]any{"address": "10.1.0.1/25", "vrf": w.blue},
			"address", "Duplicate IP address found in VRF blue: 10.1.0.1/24")
		w.ip(t, "10.1.0.1/24", 0, "vrf", w.red)
		w.ip(t, "10.1.0.1/24", 0, "vrf", w.red)
		w.ip(t, "10.1.0.1/24", 0)
		refused(t, a, "POST", w.ipPath, map[string]any{"address": "10.1.0.1/16"},
			"address", "Duplicate IP address found in global table: 10.1.0.1/24")
		w.ip(t, "10.1.0.2/24", 0, "role", "anycast")
		w.ip(t, "10.1.0.2/24", 0, "role", "vip")
		refused(t, a, "POST", w.ipPath, map[string]any{"address": "10.1.0.2/24"},
			"address", "Duplicate IP address found in global table: 10.1.0.2/24")

		// A range of the VRF marked populated holds no new address; one of
		// another VRF does not matter.
		a.Must(http.StatusCreated, "POST", "/api/ipam/ip-ranges/", map[string]any{"start_address": "10.30.0.1/24",
			"end_address": "10.30.0.100/24", "vrf": w.red, "mark_populated": true})
		refused(t, a, "POST", w.ipPath, map[string]any{"address": "10.30.0.5/24", "vrf": w.red},
			"address", "Cannot create IP address 10.30.0.5/24 inside range 10.30.0.1-100/24.")
		w.ip(t, "10.30.0.5/24", 0)

		// present_in_vrf: the VRF and those exporting a route target it
		// imports.
		rt := idOf(a.Must(http.StatusCreated, "POST", "/api/ipam/route-targets/", map[string]any{"name": "65000:77"}).Object())
		a.Must(http.StatusOK, "PATCH", w.path("/api/ipam/vrfs/", w.blue), map[string]any{"import_targets": []int{rt}})
		a.Must(http.StatusOK, "PATCH", w.path("/api/ipam/vrfs/", w.red), map[string]any{"export_targets": []int{rt}})
		if got := len(a.Must(http.StatusOK, "GET", fmt.Sprintf("%s?limit=0&present_in_vrf_id=%d", w.ipPath, w.blue), nil).Results()); got != 3 {
			t.Errorf("present_in_vrf_id of the importing VRF: %d addresses, want its own and the exporter's (3)", got)
		}
		if n := a.Must(http.StatusOK, "GET", w.path("/api/ipam/vrfs/", w.red), nil).Object()["ipaddress_count"]; n != 2.0 {
			t.Errorf("VRF ipaddress_count %v", n)
		}

		// Bad input: each refused naming its field, nothing written.
		for _, c := range []struct {
			name           string
			body           map[string]any
			field, message string
		}{
			{"bad address", map[string]any{"address": "10.0.0.256/24"}, "address", "Invalid IP address format: 10.0.0.256/24"},
			{"mask length too long", map[string]any{"address": "10.0.0.1/33"}, "address", "Invalid IP address format: 10.0.0.1/33"},
			{"IPv6 mask length too long", map[string]any{"address": "2001:db8::1/129"}, "address", "Invalid IP address format: 2001:db8::1/129"},
			{"/0", map[string]any{"address": "10.0.0.1/0"}, "address", "Cannot create IP address with /0 mask."},
			{"no address", map[string]any{"status": "active"}, "address", "This field is required."},
			{"assigned to a site", map[string]any{"address": "10.3.0.1/24", "assigned_object_type": "dcim.site", "assigned_object_id": w.siteA},
				"assigned_object_type", "Invalid content type: dcim.site"},
			{"assigned to no interface", map[string]any{"address": "10.3.0.1/24", "assigned_object_type": "dcim.interface",
				"assigned_object_id": 99999999}, "assigned_object_id", "Related object not found using the provided value: 99999999."},
			{"type without id", map[string]any{"address": "10.3.0.1/24", "assigned_object_type": "dcim.interface"},
				"assigned_object_id", "This field cannot be null."},
			{"network ID on an interface", map[string]any{"address": "10.4.0.0/24", "assigned_object_type": "dcim.interface",
				"assigned_object_id": w.d2eth0}, "__all__", "10.4.0.0 is a network ID, which may not be assigned to an interface."},
			{"broadcast on an interface", map[string]any{"address": "10.4.0.255/24", "assigned_object_type": "dcim.interface",
				"assigned_object_id": w.d2eth0}, "__all__", "10.4.0.255 is a broadcast address, which may not be assigned to an interface."},
			{"IPv6 subnet-router anycast on an interface", map[string]any{"address": "2001:db8:4::/64", "assigned_object_type": "dcim.interface",
				"assigned_object_id": w.d2eth0}, "__all__", "2001:db8:4:: is a network ID, which may not be assigned to an interface."},
			{"SLAAC on IPv4", map[string]any{"address": "10.4.0.9/24", "status": "slaac"}, "status", "Only IPv6 addresses can be assigned SLAAC status"},
			{"bad DNS name", map[string]any{"address": "10.4.0.9/24", "dns_name": "a b"}, "dns_name",
				"Only alphanumeric characters, asterisks, hyphens, periods, and underscores are allowed in DNS names"},
			{"unknown role", map[string]any{"address": "10.4.0.9/24", "role": "boss"}, "role", "boss is not a valid choice."},
			{"missing NAT inside", map[string]any{"address": "10.4.0.9/24", "nat_inside": 99999999}, "nat_inside",
				"Related object not found using the provided numeric ID: 99999999"},
		} {
			t.Run(c.name, func(t *testing.T) { refused(t, a, "POST", w.ipPath, c.body, c.field, c.message) })
		}
		// Network and broadcast addresses of /31 and /32 are hosts; a bare
		// address is a host route.
		w.ip(t, "10.5.0.0/31", w.d2eth0)
		w.ip(t, "10.5.0.1/31", w.d2eth0)
		w.ip(t, "2001:db8:5::/127", w.d2eth0)
		if got := w.ip(t, "10.6.0.9", 0)["address"]; got != "10.6.0.9/32" {
			t.Errorf("bare IPv4 address: %v", got)
		}
		if got := w.ip(t, "2001:DB8:6::9", 0)["address"]; got != "2001:db8:6::9/128" {
			t.Errorf("bare IPv6 address: %v", got)
		}
		if got := w.ip(t, "10.6.1.9/255.255.255.0", 0)["address"]; got != "10.6.1.9/24" {
			t.Errorf("address with a netmask: %v", got)
		}

		// parent= by containment of the host, whatever the mask and VRF;
		// address= with or without the mask.
		addresses := func(q string) []string {
			var out []string
			for _, r := range a.Must(http.StatusOK, "GET", w.ipPath+"?limit=0&"+q, nil).Results() {
				out = append(out, r["address"].(string))
			}
			return out
		}
		for q, want := range map[string][]string{
			"parent=10.1.0.0/24":                             {"10.1.0.1/24", "10.1.0.1/24", "10.1.0.1/24", "10.1.0.1/24", "10.1.0.2/24", "10.1.0.2/24"},
			"parent=10.1.0.0/16&vrf_id=" + fmt.Sprint(w.red): {"10.1.0.1/24", "10.1.0.1/24"},
			"parent=10.5.0.0/16&parent=10.6.0.0/24":          {"10.5.0.0/31", "10.5.0.1/31", "10.6.0.9/32"},
			"parent=10.0.0.0/30":                             {},
			"parent=2001:db8::/32":                           {"2001:db8::5/64", "2001:db8:5::/127", "2001:db8:6::9/128"},
			"parent=10.0.0.4/31":                             {"10.0.0.5/24"},
			"parent=10.0.0.300/24":                           {},
			"address=10.1.0.1&vrf_id=" + fmt.Sprint(w.blue):  {"10.1.0.1/24"},
			"address=10.0.0.5/25":                            {},
			"address=10.0.0.5/24&address=192.0.2.1":          {"10.0.0.5/24", "192.0.2.1/32"},
			"mask_length=31":                                 {"10.5.0.0/31", "10.5.0.1/31"},
			"present_in_vrf=65000:9&mask_length__lte=24":     {"10.1.0.1/24", "10.1.0.1/24"},
			"assigned_to_interface=true&parent=10.0.0.0/8":   {"10.0.0.5/24", "10.0.0.6/24", "10.0.1.7/24", "10.5.0.0/31", "10.5.0.1/31", "10.9.0.1/24"},
			fmt.Sprintf("nat_inside_id=%d", idOf(v4)):        {"203.0.113.5/32"},
			fmt.Sprintf("interface_id=%d", w.d1eth1):         {"10.0.0.5/24"},
			"dns_name__ic=example":                           {"10.0.0.5/24"},
			"q=203.0.113":                                    {"203.0.113.5/32"},
			"family=6&assigned=false":                        {"2001:db8:6::9/128"},
			"role=anycast&role=vip&ordering=-address":        {"10.1.0.2/24", "10.1.0.2/24"},
		} {
			got := addresses(q)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Errorf("?%s: %v, want %v", q, got, want)
			}
		}
		// Interfaces count their addresses.
		for id, want := range map[int]float64{w.d1eth0: 2, w.d1eth1: 1, w.d2eth0: 4} {
			if got := a.Must(http.StatusOK, "GET", w.path(w.ifcPath, id), nil).Object()["count_ipaddresses"]; got != want {
				t.Errorf("interface %d count_ipaddresses %v, want %v", id, got, want)
			}
		}

		// Deleting the primary address clears it on the device, which
		// records the update.
		a.Must(http.StatusNoContent, "DELETE", w.path(w.ipPath, idOf(v6)), nil)
		d = dev(w.d1)
		if d["primary_ip6"] != nil || idOf(d["primary_ip"].(map[string]any)) != idOf(v4) {
			t.Errorf("after deleting the IPv6 primary: primary_ip6 %v, primary_ip %v", d["primary_ip6"], d["primary_ip"])
		}
	})
}

// TestIPAddressGlobalUniqueSetting: with ENFORCE_GLOBAL_UNIQUE off,
// duplicates in the global table are accepted; VRFs still decide for
// themselves.
func TestIPAddressGlobalUniqueSetting(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		for i := 0; i < 2; i++ {
			a.Must(http.StatusCreated, "POST", "/api/ipam/ip-addresses/", map[string]any{"address": "10.0.0.1/24"})
		}
		vrf := idOf(a.Must(http.StatusCreated, "POST", "/api/ipam/vrfs/", map[string]any{"name": "v"}).Object())
		a.Must(http.StatusCreated, "POST", "/api/ipam/ip-addresses/", map[string]any{"address": "10.0.0.1/24", "vrf": vrf})
		refused(t, a, "POST", "/api/ipam/ip-addresses/", map[string]any{"address": "10.0.0.1/32", "vrf": vrf},
			"address", "Duplicate IP address found in VRF v: 10.0.0.1/24")
	}, func(c *server.Config) { c.EnforceGlobalUnique = false })
}

// TestIPAddressDeviceListQueries: a device list showing primary and OOB
// addresses costs the same number of read queries for one device as for
// many (the addresses come in one batched query per page).
func TestIPAddressDeviceListQueries(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newIPWorld(t, e)
		a := w.e
		var ids []string
		for i := 0; i < 6; i++ {
			d := idOf(a.Must(http.StatusCreated, "POST", w.devPath, w.device(w.oneU, "name", fmt.Sprintf("q%d", i))).Object())
			ifc := idOf(a.Must(http.StatusCreated, "POST", w.ifcPath, map[string]any{"device": d, "name": "eth0", "type": "1000base-t"}).Object())
			v4 := w.ip(t, fmt.Sprintf("10.20.%d.1/24", i), ifc)
			v6 := w.ip(t, fmt.Sprintf("2001:db8:20:%d::1/64", i), ifc)
			oob := w.ip(t, fmt.Sprintf("10.21.%d.1/24", i), ifc)
			a.Must(http.StatusOK, "PATCH", w.path(w.devPath, d), map[string]any{"primary_ip4": idOf(v4), "primary_ip6": idOf(v6), "oob_ip": idOf(oob)})
			ids = append(ids, fmt.Sprintf("id=%d", d))
		}
		cost := func(q string) int64 {
			n, r := a.CostOf(w.devPath + "?" + q)
			for _, d := range r.Results() {
				if d["primary_ip4"] == nil || d["primary_ip6"] == nil || d["oob_ip"] == nil || d["primary_ip"] == nil {
					t.Fatalf("device without its addresses: %v", d)
				}
			}
			return n
		}
		one, six := cost(ids[0]), cost(strings.Join(ids, "&"))
		if one != six {
			t.Errorf("device list with addresses: %d read queries for 1 device, %d for 6", one, six)
		}
	})
}

// TestIPAddressOnDelete: what deleting an address, an interface, an FHRP
// group or a VRF does to the rows around them (netbox-relations.json).
func TestIPAddressOnDelete(t *testing.T) {
	base := []odObj{
		{"site", "/api/dcim/sites/", map[string]any{"name": "OD", "slug": "od"}},
		{"man", "/api/dcim/manufacturers/", map[string]any{"name": "ODM", "slug": "odm"}},
		{"dt", "/api/dcim/device-types/", map[string]any{"manufacturer": "@man", "model": "ODT", "slug": "odt"}},
		{"role", "/api/dcim/device-roles/", map[string]any{"name": "ODR", "slug": "odr"}},
		{"dev", "/api/dcim/devices/", map[string]any{"name": "od1", "device_type": "@dt", "role": "@role", "site": "@site"}},
		{"ifc", "/api/dcim/interfaces/", map[string]any{"device": "@dev", "name": "eth0", "type": "1000base-t"}},
		{"ip", "/api/ipam/ip-addresses/", map[string]any{"address": "10.7.0.1/24", "assigned_object_type": "dcim.interface", "assigned_object_id": "@ifc"}},
	}
	with := func(more ...odObj) []odObj { return append(append([]odObj{}, base...), more...) }
	primary := func(t *testing.T, e *servertest.Env, ids map[string]int) {
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/devices/%d/", ids["dev"]), map[string]any{"primary_ip4": ids["ip"]})
	}
	cases := []odCase{
		{
			name: "IP address deleted: SET_NULL on the device's primary and the NAT outside, service link removed",
			objects: with(
				odObj{"out", "/api/ipam/ip-addresses/", map[string]any{"address": "203.0.113.9/32", "nat_inside": "@ip"}},
				odObj{"svc", "/api/ipam/services/", map[string]any{"parent_object_type": "dcim.device", "parent_object_id": "@dev",
					"name": "ssh", "protocol": "tcp", "ports": []int{22}, "ipaddresses": []any{"@ip"}}},
			),
			before: primary,
			del:    []string{"ip"},
			gone:   []string{"ip"},
			// The service losing the address gets an update record, as
			// NetBox's pre_delete handler gives it.
			changed: []odRef{{"ip", "delete"}, {"dev", "update"}, {"out", "update"}, {"svc", "update"}},
			cleared: map[string]string{"dev": "primary_ip4", "out": "nat_inside"},
			check: func(t *testing.T, e *servertest.Env, ids map[string]int) {
				s := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/ipam/services/%d/", ids["svc"]), nil).Object()
				if l, _ := s["ipaddresses"].([]any); len(l) != 0 {
					t.Errorf("service still bound to %v", l)
				}
			},
		},
		{
			name: "interface deleted: its addresses and FHRP assignments CASCADE, the device's primary cleared",
			objects: with(
				odObj{"grp", "/api/ipam/fhrp-groups/", map[string]any{"protocol": "vrrp2", "group_id": 7}},
				odObj{"asg", "/api/ipam/fhrp-group-assignments/", map[string]any{"group": "@grp", "interface_type": "dcim.interface",
					"interface_id": "@ifc", "priority": 10}},
			),
			before:  primary,
			del:     []string{"ifc"},
			gone:    []string{"ifc", "ip", "asg"},
			changed: []odRef{{"ifc", "delete"}, {"ip", "delete"}, {"asg", "delete"}, {"dev", "update"}},
			cleared: map[string]string{"dev": "primary_ip4"},
		},
		{
			name: "FHRP group deleted: its addresses, assignments and services CASCADE",
			objects: with(
				odObj{"grp", "/api/ipam/fhrp-groups/", map[string]any{"protocol": "hsrp", "group_id": 8}},
				odObj{"vip", "/api/ipam/ip-addresses/", map[string]any{"address": "10.7.0.254/24", "role": "hsrp",
					"assigned_object_type": "ipam.fhrpgroup", "assigned_object_id": "@grp"}},
				odObj{"asg", "/api/ipam/fhrp-group-assignments/", map[string]any{"group": "@grp", "interface_type": "dcim.interface",
					"interface_id": "@ifc", "priority": 10}},
				odObj{"svc", "/api/ipam/services/", map[string]any{"parent_object_type": "ipam.fhrpgroup", "parent_object_id": "@grp",
					"name": "web", "protocol": "tcp", "ports": []int{80}, "ipaddresses": []any{"@vip"}}},
			),
			del:     []string{"grp"},
			gone:    []string{"grp", "vip", "asg", "svc"},
			changed: []odRef{{"grp", "delete"}, {"vip", "delete"}, {"asg", "delete"}, {"svc", "delete"}},
		},
		{
			name: "device deleted: its services CASCADE with its interfaces and addresses",
			objects: with(
				odObj{"svc", "/api/ipam/services/", map[string]any{"parent_object_type": "dcim.device", "parent_object_id": "@dev",
					"name": "ssh", "protocol": "tcp", "ports": []int{22}}},
			),
			before:  primary,
			del:     []string{"dev"},
			gone:    []string{"dev", "ifc", "ip", "svc"},
			changed: []odRef{{"dev", "delete"}, {"ifc", "delete"}, {"ip", "delete"}, {"svc", "delete"}},
		},
		{
			name: "VRF PROTECT from its addresses",
			objects: []odObj{
				{"vrf", "/api/ipam/vrfs/", map[string]any{"name": "ODV"}},
				{"vip", "/api/ipam/ip-addresses/", map[string]any{"address": "10.8.0.1/24", "vrf": "@vrf"}},
			},
			del:         []string{"vrf"},
			protectedBy: []string{"vip"},
		},
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.ListenToAllEvents()
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) { runOnDelete(t, e.Admin(), c) })
		}
	})
}

// TestVirtualDeviceContextPrimaryIP: a context's primary addresses sit on
// its device's interfaces and have the right family (VirtualDeviceContext.clean()).
func TestVirtualDeviceContextPrimaryIP(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newIPWorld(t, e)
		a := w.e
		const vdcs = "/api/dcim/virtual-device-contexts/"
		vdc := idOf(a.Must(http.StatusCreated, "POST", vdcs, map[string]any{"name": "v1", "device": w.d1, "status": "active"}).Object())
		v4 := w.ip(t, "10.0.0.5/24", w.d1eth0)
		v6 := w.ip(t, "2001:db8::5/64", w.d1eth0)
		theirs := w.ip(t, "10.0.1.5/24", w.d2eth0)
		refused(t, a, "PATCH", w.path(vdcs, vdc), map[string]any{"primary_ip4": idOf(theirs)},
			"primary_ip4", "Primary IP address must belong to an interface on the assigned device.")
		refused(t, a, "PATCH", w.path(vdcs, vdc), map[string]any{"primary_ip6": idOf(v4)},
			"primary_ip6", "10.0.0.5/24 is not an IPv6 address.")
		r := a.Must(http.StatusOK, "PATCH", w.path(vdcs, vdc), map[string]any{"primary_ip4": idOf(v4), "primary_ip6": idOf(v6)}).Object()
		if p, _ := r["primary_ip"].(map[string]any); p == nil || idOf(p) != idOf(v6) {
			t.Errorf("primary_ip %v", r["primary_ip"])
		}
		if n := len(a.Must(http.StatusOK, "GET", vdcs+"?has_primary_ip=true&primary_ip4=10.0.0.5/24", nil).Results()); n != 1 {
			t.Errorf("contexts with primary addresses: %d", n)
		}
		// Moving the context to the other device leaves its addresses behind.
		refused(t, a, "PATCH", w.path(vdcs, vdc), map[string]any{"device": w.d2},
			"primary_ip4", "Primary IP address must belong to an interface on the assigned device.")
	})
}
