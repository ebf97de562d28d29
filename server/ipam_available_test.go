package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/servertest"
)

// The allocation endpoints (NetBox's AvailableObjectsView and its
// subclasses): what they list, what they create and how, their errors,
// their permissions, concurrency and Idempotency-Key, on both databases.

const insufficient = `{"detail":"Insufficient resources are available to satisfy the request"}`

// mk creates an object as the admin and returns its id.
func mk(t *testing.T, e *servertest.Env, path string, body map[string]any) int {
	t.Helper()
	return idOf(e.Admin().Must(http.StatusCreated, "POST", path, body).Object())
}

// listOf decodes a bare JSON array of objects.
func listOf(t *testing.T, r *servertest.Response) []map[string]any {
	t.Helper()
	var out []map[string]any
	if err := json.Unmarshal(r.Body, &out); err != nil {
		t.Fatalf("not a list of objects: %v: %s", err, r.Body)
	}
	return out
}

// column lists one string-ish field of objects.
func column(objs []map[string]any, field string) []string {
	var out []string
	for _, o := range objs {
		if f, ok := o[field].(float64); ok {
			out = append(out, strconv.FormatFloat(f, 'f', -1, 64))
			continue
		}
		out = append(out, fmt.Sprint(o[field]))
	}
	return out
}

// allocCase is one request to an allocation endpoint and what it answers:
// the status, and either the exact body, or the listed values of field in
// the answer (an object or a list of them).
type allocCase struct {
	name   string
	method string
	path   string
	body   any
	status int
	exact  string   // the whole body
	field  string   // with want: the field of each answered object
	want   []string // the values of field, in order
}

func runAllocCases(t *testing.T, e *servertest.Env, cases []allocCase) {
	t.Helper()
	defer e.ListenToAllEvents()()
	a := e.Admin()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			nc, ne := counts(t, e)
			r := a.Do(c.method, c.path, c.body)
			if r.Status != c.status {
				t.Fatalf("status %d, want %d: %s", r.Status, c.status, r.Body)
			}
			if c.exact != "" && string(r.Body) != c.exact {
				t.Fatalf("body %s\nwant %s", r.Body, c.exact)
			}
			if c.field != "" {
				var objs []map[string]any
				if r.JSON() != nil && strings.HasPrefix(string(r.Body), "{") {
					objs = []map[string]any{r.Object()}
				} else {
					objs = listOf(t, r)
				}
				if got := column(objs, c.field); !slices.Equal(got, c.want) {
					t.Fatalf("%s %v, want %v: %s", c.field, got, c.want, r.Body)
				}
			}
			// Only a successful POST writes, with its change records
			// and events; everything else writes nothing.
			nc2, ne2 := counts(t, e)
			if c.method == "GET" || c.status != http.StatusCreated {
				if nc2 != nc || ne2 != ne {
					t.Fatalf("wrote %d change records and %d events", nc2-nc, ne2-ne)
				}
				return
			}
			reqID := r.Header.Get("X-Request-ID")
			n := len(c.want)
			if len(changes(t, e, reqID)) != n || len(events(t, e, reqID)) != n {
				t.Fatalf("%d change records and %d events for %d objects", len(changes(t, e, reqID)), len(events(t, e, reqID)), n)
			}
		})
	}
}

func TestAvailablePrefixes(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		vrf := mk(t, e, "/api/ipam/vrfs/", map[string]any{"name": "Blue"})
		parent := mk(t, e, "/api/ipam/prefixes/", map[string]any{"prefix": "10.0.0.0/24", "status": "container"})
		mk(t, e, "/api/ipam/prefixes/", map[string]any{"prefix": "10.0.0.0/26"})
		mk(t, e, "/api/ipam/prefixes/", map[string]any{"prefix": "10.0.0.0/28"}) // nested in the /26
		mk(t, e, "/api/ipam/prefixes/", map[string]any{"prefix": "10.0.0.128/28"})
		mk(t, e, "/api/ipam/prefixes/", map[string]any{"prefix": "10.0.0.64/26", "vrf": vrf}) // another VRF: free here
		mk(t, e, "/api/ipam/prefixes/", map[string]any{"prefix": "10.0.1.0/24"})              // outside
		blue := mk(t, e, "/api/ipam/prefixes/", map[string]any{"prefix": "10.0.0.0/16", "vrf": vrf})
		v6 := mk(t, e, "/api/ipam/prefixes/", map[string]any{"prefix": "2001:db8::/64"})
		mk(t, e, "/api/ipam/prefixes/", map[string]any{"prefix": "2001:db8::/65"})
		host := mk(t, e, "/api/ipam/prefixes/", map[string]any{"prefix": "192.0.2.7/32"})
		at := func(id int) string { return fmt.Sprintf("/api/ipam/prefixes/%d/available-prefixes/", id) }

		// The answer's shape, as NetBox's AvailablePrefixSerializer and
		// PrefixSerializer render them.
		a := e.Admin()
		servertest.Golden(t, filepath.Join("..", "testdata", "endpoints", "ipam-available-prefixes.json"),
			servertest.Normalize(t, a.Must(http.StatusOK, "GET", at(blue), nil).Body))

		runAllocCases(t, e, []allocCase{
			{name: "free CIDRs, largest first in address order", method: "GET", path: at(parent), status: 200,
				field: "prefix", want: []string{"10.0.0.64/26", "10.0.0.144/28", "10.0.0.160/27", "10.0.0.192/26"}},
			{name: "the family of each", method: "GET", path: at(parent), status: 200,
				field: "family", want: []string{"4", "4", "4", "4"}},
			{name: "an IPv6 /64 with its lower half used", method: "GET", path: at(v6), status: 200,
				field: "prefix", want: []string{"2001:db8:0:0:8000::/65"}},
			{name: "a host prefix has itself", method: "GET", path: at(host), status: 200,
				field: "prefix", want: []string{"192.0.2.7/32"}},
			{name: "one object", method: "POST", path: at(parent), status: 201,
				body:  map[string]any{"prefix_length": 30, "description": "p2p", "status": "reserved"},
				field: "prefix", want: []string{"10.0.0.64/30"}},
			{name: "a list, in order, each in the space the others left", method: "POST", path: at(parent), status: 201,
				body:  []any{map[string]any{"prefix_length": 26}, map[string]any{"prefix_length": 31}, map[string]any{"prefix_length": 27}},
				field: "prefix", want: []string{"10.0.0.192/26", "10.0.0.68/31", "10.0.0.96/27"}},
			{name: "in the parent's VRF", method: "POST", path: at(blue), status: 201,
				body: map[string]any{"prefix_length": 24}, field: "prefix", want: []string{"10.0.1.0/24"}}, // 10.0.0.64/26 is Blue's
			{name: "an empty list creates nothing", method: "POST", path: at(parent), status: 201, body: []any{}, exact: "[]"},
			{name: "larger than the free space", method: "POST", path: at(parent), status: 409,
				body: map[string]any{"prefix_length": 25}, exact: insufficient},
			{name: "a list that does not fit as a whole", method: "POST", path: at(parent), status: 409,
				body: slices.Repeat([]any{map[string]any{"prefix_length": 28}}, 5), exact: insufficient}, // four /28s are free
			{name: "no prefix_length", method: "POST", path: at(parent), status: 400, body: map[string]any{"description": "x"},
				exact: `[{"prefix_length":["this field can not be missing"]}]`},
			{name: "no body", method: "POST", path: at(parent), status: 400,
				exact: `[{"prefix_length":["this field can not be missing"]}]`},
			{name: "prefix_length not an integer", method: "POST", path: at(parent), status: 400, body: map[string]any{"prefix_length": "28"},
				exact: `[{"prefix_length":["this field must be int type"]}]`},
			{name: "prefix_length beyond IPv4", method: "POST", path: at(parent), status: 400,
				body:  []any{map[string]any{"prefix_length": 30}, map[string]any{"prefix_length": 33}},
				exact: `[{},{"prefix_length":["Invalid prefix length (33) for IPv4"]}]`},
			{name: "prefix_length beyond IPv6", method: "POST", path: at(v6), status: 400, body: map[string]any{"prefix_length": 129},
				exact: `[{"prefix_length":["Invalid prefix length (129) for IPv6"]}]`},
			{name: "negative prefix_length", method: "POST", path: at(parent), status: 400, body: map[string]any{"prefix_length": -1},
				exact: `[{"prefix_length":["Invalid prefix length (-1) for IPv4"]}]`},
			{name: "not an object", method: "POST", path: at(parent), status: 400, body: `"x"`,
				exact: `[{"non_field_errors":["Invalid data. Expected a dictionary, but got str."]}]`},
			{name: "the prefix's own validation", method: "POST", path: at(parent), status: 400,
				body:  map[string]any{"prefix_length": 30, "status": "bogus"},
				exact: `{"status":["bogus is not a valid choice."]}`},
			{name: "the prefix's own validation, per object of a list", method: "POST", path: at(parent), status: 400,
				body:  []any{map[string]any{"prefix_length": 30}, map[string]any{"prefix_length": 30, "status": "bogus"}},
				exact: `[{},{"status":["bogus is not a valid choice."]}]`},
			{name: "a missing parent", method: "GET", path: at(999999), status: 404, exact: `{"detail":"No Prefix matches the given query."}`},
			{name: "more objects than MAX_BULK_ITEMS", method: "POST", path: at(parent), status: 400,
				body:  slices.Repeat([]any{map[string]any{"prefix_length": 32}}, 1001),
				exact: `{"non_field_errors":["Ensure this list has at most 1000 items (MAX_BULK_ITEMS); split the request."]}`},
		})

		// What was created is what the prefix list shows.
		got := column(a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/ipam/prefixes/?within=10.0.0.0/24&vrf_id=null"), nil).Results(), "prefix")
		want := []string{"10.0.0.0/26", "10.0.0.0/28", "10.0.0.64/30", "10.0.0.68/31", "10.0.0.96/27", "10.0.0.128/28", "10.0.0.192/26"}
		if !slices.Equal(got, want) {
			t.Errorf("prefixes within the parent: %v, want %v", got, want)
		}
	})
}

func TestAvailableIPs(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		blue := mk(t, e, "/api/ipam/vrfs/", map[string]any{"name": "Blue"})
		pfx := func(body map[string]any) int { return mk(t, e, "/api/ipam/prefixes/", body) }
		ip := func(address string, vrf int) {
			b := map[string]any{"address": address}
			if vrf != 0 {
				b["vrf"] = vrf
			}
			mk(t, e, "/api/ipam/ip-addresses/", b)
		}
		rng := func(start, end string, populated bool) int {
			return mk(t, e, "/api/ipam/ip-ranges/", map[string]any{"start_address": start, "end_address": end, "mark_populated": populated})
		}
		lan := pfx(map[string]any{"prefix": "10.1.0.0/24"})
		blueLAN := pfx(map[string]any{"prefix": "10.1.0.0/24", "vrf": blue})
		for _, a := range []string{"10.1.0.1/24", "10.1.0.2/24", "10.1.0.5/24", "10.1.0.255/24"} {
			ip(a, 0)
		}
		ip("10.1.0.3/24", blue) // another VRF: free in the global table
		rng("10.1.0.10/24", "10.1.0.19/24", true)
		open := rng("10.1.0.30/24", "10.1.0.40/24", false)
		ip("10.1.0.31/24", 0)
		full := rng("10.1.0.50/24", "10.1.0.59/24", true)
		container := pfx(map[string]any{"prefix": "10.2.0.0/16", "status": "container"})
		ip("10.2.0.1/16", blue) // a global container counts every VRF's addresses
		p30 := pfx(map[string]any{"prefix": "192.0.2.0/30"})
		p31 := pfx(map[string]any{"prefix": "192.0.2.4/31"})
		pool := pfx(map[string]any{"prefix": "192.0.2.8/30", "is_pool": true})
		v6 := pfx(map[string]any{"prefix": "2001:db8::/64"})
		ip("2001:db8::1/64", 0)
		at := func(id int) string { return fmt.Sprintf("/api/ipam/prefixes/%d/available-ips/", id) }
		inRange := func(id int) string { return fmt.Sprintf("/api/ipam/ip-ranges/%d/available-ips/", id) }
		servertest.Golden(t, filepath.Join("..", "testdata", "endpoints", "ipam-available-ips.json"),
			servertest.Normalize(t, e.Admin().Must(http.StatusOK, "GET", at(blueLAN)+"?limit=2", nil).Body))

		runAllocCases(t, e, []allocCase{
			{name: "free hosts, past the used ones and the populated range", method: "GET", path: at(lan) + "?limit=8", status: 200,
				field: "address", want: []string{"10.1.0.3/24", "10.1.0.4/24", "10.1.0.6/24", "10.1.0.7/24", "10.1.0.8/24", "10.1.0.9/24", "10.1.0.20/24", "10.1.0.21/24"}},
			{name: "the default limit is PAGINATE_COUNT", method: "GET", path: at(container), status: 200,
				field: "family", want: slices.Repeat([]string{"4"}, 50)},
			{name: "in a VRF, only its addresses count", method: "GET", path: at(blueLAN) + "?limit=3", status: 200,
				field: "address", want: []string{"10.1.0.1/24", "10.1.0.2/24", "10.1.0.4/24"}},
			{name: "a global container counts every VRF", method: "GET", path: at(container) + "?limit=2", status: 200,
				field: "address", want: []string{"10.2.0.2/16", "10.2.0.3/16"}},
			{name: "an IPv4 /30 leaves out network and broadcast", method: "GET", path: at(p30), status: 200,
				field: "address", want: []string{"192.0.2.1/30", "192.0.2.2/30"}},
			{name: "a /31 has both", method: "GET", path: at(p31), status: 200, field: "address", want: []string{"192.0.2.4/31", "192.0.2.5/31"}},
			{name: "a pool has every address", method: "GET", path: at(pool), status: 200,
				field: "address", want: []string{"192.0.2.8/30", "192.0.2.9/30", "192.0.2.10/30", "192.0.2.11/30"}},
			{name: "an IPv6 /64, first page, without the anycast address", method: "GET", path: at(v6) + "?limit=3", status: 200,
				field: "address", want: []string{"2001:db8::2/64", "2001:db8::3/64", "2001:db8::4/64"}},
			{name: "an IP range", method: "GET", path: inRange(open) + "?limit=3", status: 200,
				field: "address", want: []string{"10.1.0.30/24", "10.1.0.32/24", "10.1.0.33/24"}},
			{name: "a range marked populated has none", method: "GET", path: inRange(full), status: 200, exact: "[]"},
			{name: "one object", method: "POST", path: at(lan), status: 201, body: map[string]any{"description": "first", "dns_name": "a.example.com"},
				field: "address", want: []string{"10.1.0.3/24"}},
			{name: "a list, with a prefix_length", method: "POST", path: at(lan), status: 201,
				body:  []any{map[string]any{}, map[string]any{"prefix_length": 32}, map[string]any{"prefix_length": "28"}},
				field: "address", want: []string{"10.1.0.4/24", "10.1.0.6/32", "10.1.0.7/28"}},
			{name: "in the parent's VRF", method: "POST", path: at(blueLAN), status: 201, body: map[string]any{}, field: "address", want: []string{"10.1.0.1/24"}},
			{name: "in an IP range", method: "POST", path: inRange(open), status: 201, body: map[string]any{}, field: "address", want: []string{"10.1.0.30/24"}},
			{name: "in an IPv6 /64", method: "POST", path: at(v6), status: 201, body: map[string]any{"prefix_length": 128}, field: "address", want: []string{"2001:db8::2/128"}},
			{name: "prefix_length below the parent's", method: "POST", path: at(lan), status: 400, body: map[string]any{"prefix_length": 16},
				exact: `[{"prefix_length":["Prefix length must be greater than or equal to the parent mask length (24)"]}]`},
			{name: "prefix_length beyond IPv4", method: "POST", path: at(lan), status: 400, body: []any{map[string]any{}, map[string]any{"prefix_length": 33}},
				exact: `[{},{"prefix_length":["Invalid prefix length (33) for IPv4"]}]`},
			{name: "prefix_length not an integer", method: "POST", path: at(lan), status: 400, body: map[string]any{"prefix_length": "x"},
				exact: `[{"prefix_length":["A valid integer is required."]}]`},
			{name: "the address's own validation", method: "POST", path: at(lan), status: 400, body: map[string]any{"status": "bogus"},
				exact: `{"status":["bogus is not a valid choice."]}`},
			{name: "more than is free", method: "POST", path: at(p30), status: 409, body: []any{map[string]any{}, map[string]any{}, map[string]any{}}, exact: insufficient},
			{name: "the last two", method: "POST", path: at(p30), status: 201, body: []any{map[string]any{}, map[string]any{}},
				field: "address", want: []string{"192.0.2.1/30", "192.0.2.2/30"}},
			{name: "none left", method: "POST", path: at(p30), status: 409, body: map[string]any{}, exact: insufficient},
			{name: "none in a populated range", method: "POST", path: inRange(full), status: 409, body: map[string]any{}, exact: insufficient},
		})
		got := e.Admin().Must(http.StatusOK, "GET", "/api/ipam/ip-addresses/?description=first", nil).Results()
		if len(got) != 1 || got[0]["address"] != "10.1.0.3/24" || got[0]["vrf"] != nil || got[0]["dns_name"] != "a.example.com" {
			t.Errorf("the allocated address: %v", got)
		}
	})
}

// TestAllocationWalkthrough is the scenario: the next free /31
// of a /24 container, the next free address in it on a device's
// interface, made the device's primary IPv4.
func TestAllocationWalkthrough(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newDeviceWorld(t, e)
		a := e.Admin()
		dev := mk(t, e, "/api/dcim/devices/", w.device(w.oneU, "name", "edge1"))
		eth0 := mk(t, e, "/api/dcim/interfaces/", map[string]any{"device": dev, "name": "eth0", "type": "1000base-t"})
		container := mk(t, e, "/api/ipam/prefixes/", map[string]any{"prefix": "198.51.100.0/24", "status": "container"})
		mk(t, e, "/api/ipam/prefixes/", map[string]any{"prefix": "198.51.100.0/31"})
		p2p := a.Must(http.StatusCreated, "POST", fmt.Sprintf("/api/ipam/prefixes/%d/available-prefixes/", container),
			map[string]any{"prefix_length": 31, "description": "edge1 uplink"}).Object()
		if p2p["prefix"] != "198.51.100.2/31" {
			t.Fatalf("the next /31: %v", p2p["prefix"])
		}
		addr := a.Must(http.StatusCreated, "POST", fmt.Sprintf("/api/ipam/prefixes/%d/available-ips/", idOf(p2p)),
			map[string]any{"assigned_object_type": "dcim.interface", "assigned_object_id": eth0}).Object()
		if addr["address"] != "198.51.100.2/31" || addr["assigned_object"].(map[string]any)["id"] != float64(eth0) {
			t.Fatalf("the next address: %v", addr)
		}
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/devices/%d/", dev), map[string]any{"primary_ip4": idOf(addr)})
		got := a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/devices/%d/", dev), nil).Object()
		if p, _ := got["primary_ip4"].(map[string]any); p == nil || p["address"] != "198.51.100.2/31" {
			t.Fatalf("the device's primary IPv4: %v", got["primary_ip4"])
		}
	})
}

func TestAvailableVLANs(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		group := mk(t, e, "/api/ipam/vlan-groups/", map[string]any{"name": "G", "slug": "g", "vid_ranges": [][]int{{20, 21}, {10, 13}}})
		other := mk(t, e, "/api/ipam/vlan-groups/", map[string]any{"name": "Other", "slug": "other"})
		mk(t, e, "/api/ipam/vlans/", map[string]any{"name": "v11", "vid": 11, "group": group})
		mk(t, e, "/api/ipam/vlans/", map[string]any{"name": "v12", "vid": 12, "group": other}) // another group
		mk(t, e, "/api/ipam/vlans/", map[string]any{"name": "v13", "vid": 13})                 // no group
		at := fmt.Sprintf("/api/ipam/vlan-groups/%d/available-vlans/", group)
		a := e.Admin()
		servertest.Golden(t, filepath.Join("..", "testdata", "endpoints", "ipam-available-vlans.json"),
			servertest.Normalize(t, a.Must(http.StatusOK, "GET", at+"?limit=1", nil).Body))

		runAllocCases(t, e, []allocCase{
			{name: "free IDs in order", method: "GET", path: at, status: 200, field: "vid", want: []string{"10", "12", "13", "20", "21"}},
			{name: "limit", method: "GET", path: at + "?limit=2", status: 200, field: "vid", want: []string{"10", "12"}},
			{name: "limit not a number is PAGINATE_COUNT", method: "GET", path: at + "?limit=x", status: 200, field: "vid",
				want: []string{"10", "12", "13", "20", "21"}},
			{name: "a name is needed", method: "POST", path: at, status: 400, body: []any{map[string]any{"name": "a"}, map[string]any{}},
				exact: `[{},{"name":["This field is required."]}]`},
			{name: "the VLAN's own validation", method: "POST", path: at, status: 400, body: map[string]any{"name": "a", "status": "bogus"},
				exact: `{"status":["bogus is not a valid choice."]}`},
			{name: "one object", method: "POST", path: at, status: 201, body: map[string]any{"name": "first", "status": "reserved"},
				field: "vid", want: []string{"10"}},
			{name: "a list", method: "POST", path: at, status: 201,
				body:  []any{map[string]any{"name": "a"}, map[string]any{"name": "b"}, map[string]any{"name": "c"}},
				field: "vid", want: []string{"12", "13", "20"}},
			{name: "more than is free", method: "POST", path: at, status: 409,
				body: []any{map[string]any{"name": "d"}, map[string]any{"name": "e"}}, exact: insufficient},
			{name: "the last one", method: "POST", path: at, status: 201, body: map[string]any{"name": "d"}, field: "vid", want: []string{"21"}},
			{name: "none left", method: "GET", path: at, status: 200, exact: "[]"},
			{name: "none left to create", method: "POST", path: at, status: 409, body: map[string]any{"name": "e"}, exact: insufficient},
		})
		vlans := a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/ipam/vlans/?group_id=%d&ordering=vid", group), nil).Results()
		if got := column(vlans, "name"); !slices.Equal(got, []string{"first", "v11", "a", "b", "c", "d"}) {
			t.Errorf("VLANs of the group: %v", got)
		}
	})
}

func TestAvailableASNs(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		rir := mk(t, e, "/api/ipam/rirs/", map[string]any{"name": "Private", "slug": "private"})
		other := mk(t, e, "/api/ipam/rirs/", map[string]any{"name": "ARIN", "slug": "arin"})
		small := mk(t, e, "/api/ipam/asn-ranges/", map[string]any{"name": "Small", "slug": "small", "rir": rir, "start": 65000, "end": 65004})
		wide := mk(t, e, "/api/ipam/asn-ranges/", map[string]any{"name": "Wide", "slug": "wide", "rir": rir, "start": 4200000000, "end": 4294967294})
		mk(t, e, "/api/ipam/asns/", map[string]any{"asn": 65001, "rir": other}) // taken, whatever its RIR
		mk(t, e, "/api/ipam/asns/", map[string]any{"asn": 4200000000, "rir": rir})
		at := func(id int) string { return fmt.Sprintf("/api/ipam/asn-ranges/%d/available-asns/", id) }
		servertest.Golden(t, filepath.Join("..", "testdata", "endpoints", "ipam-available-asns.json"),
			servertest.Normalize(t, e.Admin().Must(http.StatusOK, "GET", at(small)+"?limit=1", nil).Body))

		runAllocCases(t, e, []allocCase{
			{name: "free numbers in order", method: "GET", path: at(small), status: 200, field: "asn", want: []string{"65000", "65002", "65003", "65004"}},
			{name: "a 32-bit range, first page", method: "GET", path: at(wide) + "?limit=3", status: 200, field: "asn",
				want: []string{"4200000001", "4200000002", "4200000003"}},
			{name: "the ASN's own validation", method: "POST", path: at(small), status: 400, body: map[string]any{"tenant": 999999},
				exact: `{"tenant":["Related object not found using the provided numeric ID: 999999"]}`},
			{name: "one object, in the range's RIR", method: "POST", path: at(small), status: 201, body: map[string]any{"description": "ours"},
				field: "asn", want: []string{"65000"}},
			{name: "a list", method: "POST", path: at(small), status: 201, body: []any{map[string]any{}, map[string]any{}},
				field: "asn", want: []string{"65002", "65003"}},
			{name: "more than is free", method: "POST", path: at(small), status: 409, body: []any{map[string]any{}, map[string]any{}}, exact: insufficient},
			{name: "at the top of 32 bits", method: "POST", path: at(wide), status: 201, body: map[string]any{}, field: "asn", want: []string{"4200000001"}},
		})
		asns := e.Admin().Must(http.StatusOK, "GET", fmt.Sprintf("/api/ipam/asns/?rir_id=%d&description=ours", rir), nil).Results()
		if len(asns) != 1 || asns[0]["asn"] != 65000.0 {
			t.Errorf("the allocated ASN: %v", asns)
		}
	})
}

// TestAllocationPermissions: as NetBox, listing needs view on the listed
// model and creating add on the created one; the parent must be visible
// to the caller (404 otherwise), and created objects must satisfy the
// add constraints (403, nothing written).
func TestAllocationPermissions(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		parent := mk(t, e, "/api/ipam/prefixes/", map[string]any{"prefix": "10.9.0.0/24", "status": "container", "description": "mine"})
		group := mk(t, e, "/api/ipam/vlan-groups/", map[string]any{"name": "G", "slug": "g"})
		prefixes := fmt.Sprintf("/api/ipam/prefixes/%d/available-prefixes/", parent)
		vlans := fmt.Sprintf("/api/ipam/vlan-groups/%d/available-vlans/", group)
		body := map[string]any{"prefix_length": 30, "status": "active"}
		vlan := map[string]any{"name": "v"}
		type grant struct {
			types, actions []string
			constraints    any
		}
		for _, c := range []struct {
			name   string
			grants []grant
			method string
			path   string
			body   any
			status int
		}{
			{"no permission", nil, "GET", prefixes, nil, 403},
			{"view", []grant{{[]string{"ipam.prefix"}, []string{"view"}, nil}}, "GET", prefixes, nil, 200},
			{"view of other prefixes only: the parent is hidden", []grant{{[]string{"ipam.prefix"}, []string{"view"}, map[string]any{"description": "other"}}},
				"GET", prefixes, nil, 404},
			{"view but not add", []grant{{[]string{"ipam.prefix"}, []string{"view"}, nil}}, "POST", prefixes, body, 403},
			{"add without view of the parent", []grant{{[]string{"ipam.prefix"}, []string{"add"}, nil}}, "POST", prefixes, body, 404},
			{"add and view", []grant{{[]string{"ipam.prefix"}, []string{"add", "view"}, nil}}, "POST", prefixes, body, 201},
			{"add constrained to what is not created", []grant{{[]string{"ipam.prefix"}, []string{"view"}, nil},
				{[]string{"ipam.prefix"}, []string{"add"}, map[string]any{"status": "reserved"}}}, "POST", prefixes, body, 403},
			{"add constrained to what is created", []grant{{[]string{"ipam.prefix"}, []string{"view"}, nil},
				{[]string{"ipam.prefix"}, []string{"add"}, map[string]any{"status": "active"}}}, "POST", prefixes, body, 201},
			{"VLANs: view of the group only", []grant{{[]string{"ipam.vlangroup"}, []string{"view"}, nil}}, "GET", vlans, nil, 403},
			{"VLANs: view of VLANs only", []grant{{[]string{"ipam.vlan"}, []string{"view"}, nil}}, "GET", vlans, nil, 404},
			{"VLANs: view of both", []grant{{[]string{"ipam.vlan", "ipam.vlangroup"}, []string{"view"}, nil}}, "GET", vlans, nil, 200},
			{"VLANs: add and view of the group", []grant{{[]string{"ipam.vlan"}, []string{"add"}, nil},
				{[]string{"ipam.vlangroup"}, []string{"view"}, nil}}, "POST", vlans, vlan, 201},
		} {
			t.Run(c.name, func(t *testing.T) {
				u, id := e.NewUser("u-" + strings.NewReplacer(" ", "-", ":", "", ",", "").Replace(c.name))
				for _, g := range c.grants {
					e.Grant(id, g.types, g.actions, g.constraints)
				}
				nc, _ := counts(t, e)
				if r := u.Do(c.method, c.path, c.body); r.Status != c.status {
					t.Fatalf("status %d, want %d: %s", r.Status, c.status, r.Body)
				}
				if nc2, _ := counts(t, e); c.status != 201 && nc2 != nc {
					t.Fatalf("a refused request wrote %d change records", nc2-nc)
				}
			})
		}
		// A read-only token may list but not create.
		u, id := e.NewUser("reader")
		e.Grant(id, []string{"ipam.prefix"}, []string{"view", "add"}, nil)
		ro := u.TokenFor(id, false)
		ro.Must(http.StatusOK, "GET", prefixes, nil)
		ro.Must(http.StatusForbidden, "POST", prefixes, body)
	})
}

// TestAllocationConcurrency: 100 POSTs at once to one parent give 100
// distinct objects, never a duplicate, never an error (an allocation reads
// what is used inside its write transaction, under an advisory lock of the
// parent's VRF on PostgreSQL).
func TestAllocationConcurrency(t *testing.T) {
	const n = 100
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		parent := mk(t, e, "/api/ipam/prefixes/", map[string]any{"prefix": "10.20.0.0/22", "status": "container"})
		group := mk(t, e, "/api/ipam/vlan-groups/", map[string]any{"name": "G", "slug": "g"})
		rir := mk(t, e, "/api/ipam/rirs/", map[string]any{"name": "Private", "slug": "private"})
		asnRange := mk(t, e, "/api/ipam/asn-ranges/", map[string]any{"name": "R", "slug": "r", "rir": rir, "start": 64512, "end": 65534})
		lan := mk(t, e, "/api/ipam/prefixes/", map[string]any{"prefix": "10.40.0.0/24"})
		ipRange := mk(t, e, "/api/ipam/ip-ranges/", map[string]any{"start_address": "10.41.0.1/24", "end_address": "10.41.0.200/24"})
		for _, c := range []struct {
			name, path, field string
			body              func(i int) map[string]any
		}{
			{"available-prefixes", fmt.Sprintf("/api/ipam/prefixes/%d/available-prefixes/", parent), "prefix",
				func(int) map[string]any { return map[string]any{"prefix_length": 30} }},
			{"available-vlans", fmt.Sprintf("/api/ipam/vlan-groups/%d/available-vlans/", group), "vid",
				func(i int) map[string]any { return map[string]any{"name": fmt.Sprintf("v%d", i)} }},
			{"available-asns", fmt.Sprintf("/api/ipam/asn-ranges/%d/available-asns/", asnRange), "asn",
				func(int) map[string]any { return map[string]any{} }},
			{"available-ips of a prefix", fmt.Sprintf("/api/ipam/prefixes/%d/available-ips/", lan), "address",
				func(int) map[string]any { return map[string]any{} }},
			{"available-ips of an IP range", fmt.Sprintf("/api/ipam/ip-ranges/%d/available-ips/", ipRange), "address",
				func(int) map[string]any { return map[string]any{} }},
		} {
			t.Run(c.name, func(t *testing.T) {
				got := concurrently(t, e.Admin(), n, "POST", c.path, c.body)
				seen := map[string]bool{}
				for _, r := range got {
					v := fmt.Sprint(r[c.field])
					if seen[v] {
						t.Errorf("%s %s allocated twice", c.field, v)
					}
					seen[v] = true
				}
				if len(seen) != n {
					t.Fatalf("%d distinct of %d", len(seen), n)
				}
			})
		}
	})
}

// TestAllocationBesidePlainWrites: addresses created by hand while
// allocations run in the same prefix never end up twice and never fail
// an allocation: plain IP address writes wait for the allocations (and
// these for them) as NetBox's IPAddressViewSet locks them. A plain create
// may lose the address to an allocation (400: duplicate), never the
// other way round.
func TestAllocationBesidePlainWrites(t *testing.T) {
	const n = 40
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		lan := mk(t, e, "/api/ipam/prefixes/", map[string]any{"prefix": "10.50.0.0/24"})
		a := e.Admin()
		var wg sync.WaitGroup
		start := make(chan struct{})
		allocStatus := make([]int, n)
		plainStatus := make([]int, n)
		for i := 0; i < n; i++ {
			wg.Add(2)
			go func(i int) {
				defer wg.Done()
				<-start
				r := a.Do("POST", fmt.Sprintf("/api/ipam/prefixes/%d/available-ips/", lan), map[string]any{})
				allocStatus[i] = r.Status
			}(i)
			go func(i int) {
				defer wg.Done()
				<-start
				r := a.Do("POST", "/api/ipam/ip-addresses/", map[string]any{"address": fmt.Sprintf("10.50.0.%d/24", i+1)})
				plainStatus[i] = r.Status
			}(i)
		}
		close(start)
		wg.Wait()
		for i := 0; i < n; i++ {
			if allocStatus[i] != http.StatusCreated {
				t.Errorf("allocation #%d: status %d", i, allocStatus[i])
			}
			if plainStatus[i] != http.StatusCreated && plainStatus[i] != http.StatusBadRequest {
				t.Errorf("plain create #%d: status %d", i, plainStatus[i])
			}
		}
		seen := map[string]bool{}
		for _, ip := range a.Must(http.StatusOK, "GET", "/api/ipam/ip-addresses/?parent=10.50.0.0/24&limit=1000", nil).Results() {
			addr := ip["address"].(string)
			if seen[addr] {
				t.Errorf("%s twice", addr)
			}
			seen[addr] = true
		}
		if len(seen) < n {
			t.Errorf("%d addresses for %d allocations", len(seen), n)
		}
	})
}

// burst sends n requests at once (no pacing) and returns their answers.
func burst(e *servertest.Env, n int, method, path string, body func(i int) map[string]any, headers ...string) []*servertest.Response {
	return together(n, func(i int) *servertest.Response { return e.Do(method, path, body(i), headers...) })
}

// together runs n requests (do(i) sends request i) at once and returns
// their answers.
func together(n int, do func(i int) *servertest.Response) []*servertest.Response {
	out := make([]*servertest.Response, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			out[i] = do(i)
		}(i)
	}
	close(start)
	wg.Wait()
	return out
}

// concurrently sends n requests at once and returns their answers, failing
// on any status but 201.
func concurrently(t *testing.T, e *servertest.Env, n int, method, path string, body func(i int) map[string]any, headers ...string) []map[string]any {
	t.Helper()
	out := make([]map[string]any, n)
	for i, r := range burst(e, n, method, path, body, headers...) {
		if r.Status != http.StatusCreated {
			t.Fatalf("#%d: status %d: %s", i, r.Status, r.Body)
		}
		out[i] = r.Object()
	}
	return out
}

// TestIdempotencyKey: a POST repeated with the same Idempotency-Key gets
// the first answer again and allocates nothing; the key is the user's and
// the endpoint's; another request under a used key is 422; keys expire
// and are pruned; a window of 0 ignores them.
func TestIdempotencyKey(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		parent := mk(t, e, "/api/ipam/prefixes/", map[string]any{"prefix": "10.30.0.0/24", "status": "container"})
		other := mk(t, e, "/api/ipam/prefixes/", map[string]any{"prefix": "10.31.0.0/24", "status": "container"})
		at := func(id int) string { return fmt.Sprintf("/api/ipam/prefixes/%d/available-prefixes/", id) }
		a := e.Admin()
		u, uid := e.NewUser("second")
		e.Grant(uid, []string{"ipam.prefix"}, []string{"view", "add"}, nil)
		key := func(k string) string { return "Idempotency-Key: " + k }
		body := map[string]any{"prefix_length": 28, "description": "once"}
		post := func(as *servertest.Env, path string, b any, k string) *servertest.Response {
			return as.Do("POST", path, b, key(k))
		}
		allocated := func() int {
			return len(a.Must(http.StatusOK, "GET", "/api/ipam/prefixes/?mask_length=28", nil).Results())
		}

		first := post(a, at(parent), body, "k1")
		if first.Status != http.StatusCreated {
			t.Fatalf("first: %d %s", first.Status, first.Body)
		}
		for _, c := range []struct {
			name   string
			as     *servertest.Env
			path   string
			body   any
			key    string
			status int
			same   bool // the first answer again
			more   int  // prefixes allocated by it
		}{
			{"a retry", a, at(parent), body, "k1", 201, true, 0},
			{"a retry with the body spelled differently", a, at(parent), `{ "description":"once", "prefix_length":28 }`, "k1", 201, true, 0},
			{"another body under the key", a, at(parent), map[string]any{"prefix_length": 29}, "k1", 422, false, 0},
			{"another endpoint, same key", a, at(other), body, "k1", 201, false, 1},
			{"another user, same key", u, at(parent), body, "k1", 201, false, 1},
			{"another key", a, at(parent), body, "k2", 201, false, 1},
			{"a failed request is not remembered", a, at(parent), map[string]any{"prefix_length": 8}, "k3", 409, false, 0},
			{"so its key is free for another", a, at(parent), body, "k3", 201, false, 1},
			{"a key too long", a, at(parent), body, strings.Repeat("k", 256), 400, false, 0},
		} {
			t.Run(c.name, func(t *testing.T) {
				before := allocated()
				r := post(c.as, c.path, c.body, c.key)
				if r.Status != c.status {
					t.Fatalf("status %d, want %d: %s", r.Status, c.status, r.Body)
				}
				if same := string(r.Body) == string(first.Body); same != c.same {
					t.Fatalf("same answer %v, want %v: %s", same, c.same, r.Body)
				}
				if n := allocated() - before; n != c.more {
					t.Fatalf("allocated %d, want %d", n, c.more)
				}
			})
		}

		// The same key sent by many at once: one allocation, one answer.
		got := concurrently(t, a, 20, "POST", at(parent), func(int) map[string]any { return map[string]any{"prefix_length": 30} }, key("burst"))
		for _, r := range got {
			if r["id"] != got[0]["id"] {
				t.Fatalf("answers differ: %v and %v", r["id"], got[0]["id"])
			}
		}
		if n := len(a.Must(http.StatusOK, "GET", "/api/ipam/prefixes/?mask_length=30", nil).Results()); n != 1 {
			t.Fatalf("%d allocations for one key", n)
		}

		// Expired answers are forgotten and pruned by the cleanup job.
		ctx := context.Background()
		if err := e.Server.Webhooks().Cleanup(ctx); err != nil {
			t.Fatal(err)
		}
		if n, err := e.DB.Client.IdempotencyKey.Query().Count(ctx); err != nil || n == 0 {
			t.Fatalf("cleanup removed live keys: %d %v", n, err)
		}
	})
}

// TestIdempotencyKeyExpiry: with a window of a nanosecond every answer
// has expired by the retry, and the cleanup job prunes it.
func TestIdempotencyKeyExpiry(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		parent := mk(t, e, "/api/ipam/prefixes/", map[string]any{"prefix": "10.30.0.0/24", "status": "container"})
		at := fmt.Sprintf("/api/ipam/prefixes/%d/available-prefixes/", parent)
		a := e.Admin()
		r1 := a.Must(http.StatusCreated, "POST", at, map[string]any{"prefix_length": 28}, "Idempotency-Key: k")
		r2 := a.Must(http.StatusCreated, "POST", at, map[string]any{"prefix_length": 28}, "Idempotency-Key: k")
		if r1.Object()["prefix"] == r2.Object()["prefix"] {
			t.Fatalf("an expired key answered again: %s", r2.Body)
		}
		ctx := context.Background()
		if err := e.Server.Webhooks().Cleanup(ctx); err != nil {
			t.Fatal(err)
		}
		if n, err := e.DB.Client.IdempotencyKey.Query().Count(ctx); err != nil || n != 0 {
			t.Fatalf("%d expired keys left after cleanup (%v)", n, err)
		}
	}, func(c *server.Config) { c.IdempotencyWindow = 1 })
}

// TestIdempotencyKeyOff: a window of 0 ignores the header.
func TestIdempotencyKeyOff(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		parent := mk(t, e, "/api/ipam/prefixes/", map[string]any{"prefix": "10.30.0.0/24", "status": "container"})
		at := fmt.Sprintf("/api/ipam/prefixes/%d/available-prefixes/", parent)
		a := e.Admin()
		r1 := a.Must(http.StatusCreated, "POST", at, map[string]any{"prefix_length": 28}, "Idempotency-Key: k")
		r2 := a.Must(http.StatusCreated, "POST", at, map[string]any{"prefix_length": 28}, "Idempotency-Key: k")
		if r1.Object()["prefix"] == r2.Object()["prefix"] {
			t.Fatalf("the key was honoured with a window of 0: %s", r2.Body)
		}
	}, func(c *server.Config) { c.IdempotencyWindow = 0 })
}
