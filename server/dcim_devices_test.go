package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// deviceWorld is what the device behaviour tests share: the rack world
// plus a manufacturer, device types (1U half depth, 2U full depth, 0U,
// child), a role and racks in both sites.
type deviceWorld struct {
	*rackWorld
	man, oneU, twoUFull, zeroU, child, role int
	rackA, rackA2, rackB                    int
}

func newDeviceWorld(t *testing.T, e *servertest.Env) *deviceWorld {
	t.Helper()
	w := &deviceWorld{rackWorld: newRackWorld(t, e)}
	mk := func(path string, body map[string]any) int {
		return idOf(w.e.Must(http.StatusCreated, "POST", path, body).Object())
	}
	w.man = mk("/api/dcim/manufacturers/", map[string]any{"name": "Juniper", "slug": "juniper"})
	w.oneU = mk("/api/dcim/device-types/", map[string]any{"manufacturer": w.man, "model": "EX4300", "slug": "ex4300",
		"u_height": 1, "is_full_depth": false, "airflow": "front-to-rear"})
	w.twoUFull = mk("/api/dcim/device-types/", map[string]any{"manufacturer": w.man, "model": "MX204", "slug": "mx204", "u_height": 2})
	w.zeroU = mk("/api/dcim/device-types/", map[string]any{"manufacturer": w.man, "model": "PDU", "slug": "pdu", "u_height": 0})
	w.child = mk("/api/dcim/device-types/", map[string]any{"manufacturer": w.man, "model": "Blade", "slug": "blade",
		"u_height": 0, "subdevice_role": "child"})
	w.role = mk("/api/dcim/device-roles/", map[string]any{"name": "Switch", "slug": "switch"})
	w.rackA = idOf(w.rack(t, map[string]any{"name": "RA", "site": w.siteA, "location": w.locA, "u_height": 20}))
	w.rackA2 = idOf(w.rack(t, map[string]any{"name": "RA2", "site": w.siteA, "u_height": 10}))
	w.rackB = idOf(w.rack(t, map[string]any{"name": "RB", "site": w.siteB}))
	return w
}

// device is a create body: a device of type dt at site A, with extra.
func (w *deviceWorld) device(dt int, kv ...any) map[string]any {
	b := map[string]any{"device_type": dt, "role": w.role, "site": w.siteA}
	for i := 0; i+1 < len(kv); i += 2 {
		b[kv[i].(string)] = kv[i+1]
	}
	return b
}

// TestDeviceRules: NetBox's Device.clean() rules, each refused with a 400
// naming the field and nothing written, on both databases.
func TestDeviceRules(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newDeviceWorld(t, e)
		a := w.e
		sw1 := a.Must(http.StatusCreated, "POST", "/api/dcim/devices/",
			w.device(w.oneU, "name", "sw1", "rack", w.rackA, "position", 10, "face", "front", "asset_tag", "AT-9")).Object()
		full := a.Must(http.StatusCreated, "POST", "/api/dcim/devices/",
			w.device(w.twoUFull, "name", "r1", "rack", w.rackA, "position", 14, "face", "rear")).Object()
		vc := idOf(a.Must(http.StatusCreated, "POST", "/api/dcim/virtual-chassis/", map[string]any{"name": "stack"}).Object())
		a.Must(http.StatusCreated, "POST", "/api/dcim/devices/", w.device(w.oneU, "name", "m1", "virtual_chassis", vc, "vc_position", 1))

		cases := []struct {
			name, method, path string
			body               any
			field, message     string
		}{
			{"second device at position 10 of the same face", "POST", "/api/dcim/devices/",
				w.device(w.oneU, "name", "sw2", "rack", w.rackA, "position", 10, "face", "front"),
				"position", "U10.0 is already occupied or does not have sufficient space to accommodate this device type: EX4300 (1.0U)"},
			{"a full-depth device over a rear device", "POST", "/api/dcim/devices/",
				w.device(w.twoUFull, "name", "r2", "rack", w.rackA, "position", 9, "face", "rear"),
				"position", "U9.0 is already occupied or does not have sufficient space to accommodate this device type: MX204 (2.0U)"},
			{"a half-depth device on the front of a full-depth one", "POST", "/api/dcim/devices/",
				w.device(w.oneU, "name", "sw3", "rack", w.rackA, "position", 15, "face", "front"),
				"position", "U15.0 is already occupied or does not have sufficient space to accommodate this device type: EX4300 (1.0U)"},
			{"above the rack", "POST", "/api/dcim/devices/",
				w.device(w.twoUFull, "name", "r3", "rack", w.rackA, "position", 20, "face", "front"),
				"position", "U20.0 is already occupied or does not have sufficient space to accommodate this device type: MX204 (2.0U)"},
			{"rack of another site", "POST", "/api/dcim/devices/",
				w.device(w.oneU, "name", "x", "rack", w.rackB),
				"rack", "Rack RB does not belong to site Site A."},
			{"location of another site", "POST", "/api/dcim/devices/",
				w.device(w.oneU, "name", "x", "location", w.locB),
				"location", "Location Hall B does not belong to site Site A."},
			{"rack outside the location", "POST", "/api/dcim/devices/",
				w.device(w.oneU, "name", "x", "location", w.locA, "rack", w.rackA2),
				"rack", "Rack RA2 does not belong to location Hall A."},
			{"face without a rack", "POST", "/api/dcim/devices/", w.device(w.oneU, "name", "x", "face", "front"),
				"face", "Cannot select a rack face without assigning a rack."},
			{"position without a rack", "POST", "/api/dcim/devices/", w.device(w.oneU, "name", "x", "position", 3),
				"position", "Cannot select a rack position without assigning a rack."},
			{"position without a face", "POST", "/api/dcim/devices/",
				w.device(w.oneU, "name", "x", "rack", w.rackA, "position", 3),
				"face", "Must specify rack face when defining rack position."},
			{"position off the half-unit grid", "POST", "/api/dcim/devices/",
				w.device(w.oneU, "name", "x", "rack", w.rackA, "position", 3.3, "face", "front"),
				"position", "Position must be in increments of 0.5 rack units."},
			{"a 0U type at a position", "POST", "/api/dcim/devices/",
				w.device(w.zeroU, "name", "x", "rack", w.rackA, "position", 3, "face", "front"),
				"position", "A 0U device type (PDU) cannot be assigned to a rack position."},
			{"a child type on a rack face", "POST", "/api/dcim/devices/",
				w.device(w.child, "name", "x", "rack", w.rackA, "face", "front"),
				"face", "Child device types cannot be assigned to a rack face. This is an attribute of the parent device."},
			{"moving onto another device", "PATCH", fmt.Sprintf("/api/dcim/devices/%d/", idOf(sw1)),
				map[string]any{"position": 15, "face": "front"},
				"position", "U15.0 is already occupied or does not have sufficient space to accommodate this device type: EX4300 (1.0U)"},
			{"same name in another case at the site", "POST", "/api/dcim/devices/", w.device(w.oneU, "name", "SW1"),
				"__all__", "Device name must be unique per site."},
			{"duplicate asset tag", "POST", "/api/dcim/devices/", w.device(w.oneU, "asset_tag", "AT-9"),
				"asset_tag", "device with this asset tag already exists."},
			{"chassis member without a position", "POST", "/api/dcim/devices/", w.device(w.oneU, "virtual_chassis", vc),
				"vc_position", "A device assigned to a virtual chassis must have its position defined."},
			{"chassis position taken", "POST", "/api/dcim/devices/", w.device(w.oneU, "virtual_chassis", vc, "vc_position", 1),
				"__all__", "Device with this Virtual chassis and VC position already exists."},
			{"master not a member", "PATCH", fmt.Sprintf("/api/dcim/virtual-chassis/%d/", vc), map[string]any{"master": idOf(full)},
				"master", "The selected master (r1) is not assigned to this virtual chassis."},
			{"device of another site for a context", "POST", "/api/dcim/virtual-device-contexts/",
				map[string]any{"name": "v", "status": "active"}, "device", "This field is required."},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				before := a.Must(http.StatusOK, "GET", "/api/core/object-changes/?limit=1", nil).Object()["count"]
				r := a.Must(http.StatusBadRequest, c.method, c.path, c.body)
				got, _ := r.Object()[c.field].([]any)
				if len(got) != 1 || got[0] != c.message {
					t.Errorf("body %s, want %s: [%q]", r.Body, c.field, c.message)
				}
				if after := a.Must(http.StatusOK, "GET", "/api/core/object-changes/?limit=1", nil).Object()["count"]; after != before {
					t.Errorf("a refused write left change records: %v → %v", before, after)
				}
			})
		}

		// What is allowed: the other face of a half-depth device, a 0U
		// device in the rack, and the rack's location taken by the device.
		rear := a.Must(http.StatusCreated, "POST", "/api/dcim/devices/",
			w.device(w.oneU, "name", "sw-rear", "rack", w.rackA, "position", 10, "face", "rear")).Object()
		a.Must(http.StatusCreated, "POST", "/api/dcim/devices/", w.device(w.zeroU, "name", "pdu", "rack", w.rackA))
		if loc, _ := rear["location"].(map[string]any); loc == nil || idOf(loc) != w.locA {
			t.Errorf("device in a rack of a location: location %v", rear["location"])
		}
		if rear["airflow"].(map[string]any)["value"] != "front-to-rear" {
			t.Errorf("airflow not taken from the type: %v", rear["airflow"])
		}
		// A device keeps its own place when it moves within its units.
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/devices/%d/", idOf(full)), map[string]any{"position": 13})
		// A master chassis member cannot leave its chassis.
		m2 := idOf(a.Must(http.StatusCreated, "POST", "/api/dcim/devices/", w.device(w.oneU, "name", "m2", "virtual_chassis", vc, "vc_position", 2)).Object())
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/virtual-chassis/%d/", vc), map[string]any{"master": m2})
		r := a.Must(http.StatusBadRequest, "PATCH", fmt.Sprintf("/api/dcim/devices/%d/", m2), map[string]any{"virtual_chassis": nil})
		if !strings.Contains(string(r.Body), "currently designated as its master") {
			t.Errorf("master leaving its chassis: %s", r.Body)
		}
	})
}

// TestDeviceDisplayAndContext: the display forms of NetBox's
// Device.__str__ (kept when the type, manufacturer or chassis is
// renamed), config_context and ?exclude=config_context, and the device
// counts of the models devices point at.
func TestDeviceDisplayAndContext(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newDeviceWorld(t, e)
		a := w.e
		mk := func(body map[string]any) int {
			return idOf(a.Must(http.StatusCreated, "POST", "/api/dcim/devices/", body).Object())
		}
		vc := idOf(a.Must(http.StatusCreated, "POST", "/api/dcim/virtual-chassis/", map[string]any{"name": "stack"}).Object())
		named := mk(w.device(w.oneU, "name", "sw1", "local_context_data", map[string]any{"ntp": "10.0.0.1"}))
		tagged := mk(w.device(w.oneU, "name", "sw2", "asset_tag", "A-2"))
		anon := mk(w.device(w.oneU))
		anonTag := mk(w.device(w.oneU, "asset_tag", "A-4"))
		member := mk(w.device(w.twoUFull, "virtual_chassis", vc, "vc_position", 3))
		display := func(id int) string {
			return a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/devices/%d/", id), nil).Object()["display"].(string)
		}
		check := func(when string, want map[int]string) {
			t.Helper()
			for id, d := range want {
				if got := display(id); got != d {
					t.Errorf("%s: device %d display %q, want %q", when, id, got, d)
				}
			}
		}
		check("created", map[int]string{named: "sw1", tagged: "sw2 (A-2)", anon: fmt.Sprintf("Juniper EX4300 (%d)", anon),
			anonTag: "Juniper EX4300 (A-4)", member: "stack:3"})
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/device-types/%d/", w.oneU), map[string]any{"model": "EX4400"})
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/manufacturers/%d/", w.man), map[string]any{"name": "HPE"})
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/virtual-chassis/%d/", vc), map[string]any{"name": "core"})
		check("renamed", map[int]string{anon: fmt.Sprintf("HPE EX4400 (%d)", anon), anonTag: "HPE EX4400 (A-4)", member: "core:3"})
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/devices/%d/", anon), map[string]any{"device_type": w.twoUFull})
		check("retyped", map[int]string{anon: fmt.Sprintf("HPE MX204 (%d)", anon)})

		// config_context: local context data over {}, never null; the
		// exclude parameter drops it from lists and details.
		for _, c := range []struct {
			path    string
			present bool
			want    string
		}{
			{fmt.Sprintf("/api/dcim/devices/%d/", named), true, `{"ntp":"10.0.0.1"}`},
			{fmt.Sprintf("/api/dcim/devices/%d/", tagged), true, `{}`},
			{fmt.Sprintf("/api/dcim/devices/%d/?exclude=config_context", named), false, ""},
			{fmt.Sprintf("/api/dcim/devices/?id=%d&exclude=config_context", named), false, ""},
			{fmt.Sprintf("/api/dcim/devices/?id=%d", named), true, `{"ntp":"10.0.0.1"}`},
		} {
			obj := a.Must(http.StatusOK, "GET", c.path, nil).Object()
			if res, ok := obj["results"].([]any); ok {
				obj = res[0].(map[string]any)
			}
			v, ok := obj["config_context"]
			if ok != c.present || c.present && jsonText(t, v) != c.want {
				t.Errorf("%s: config_context %v (present %v), want %s", c.path, v, ok, c.want)
			}
			if _, ok := obj["name"]; !ok {
				t.Errorf("%s: exclude dropped more than config_context", c.path)
			}
		}
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/devices/%d/", named), map[string]any{"local_context_data": nil})
		if got := jsonText(t, a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/devices/%d/", named), nil).Object()["config_context"]); got != "{}" {
			t.Errorf("config_context after clearing local data: %s", got)
		}

		// Counts of the models devices point at.
		mk(w.device(w.oneU, "name", "in-rack", "rack", w.rackA))
		for _, c := range []struct {
			path string
			want float64
		}{
			{fmt.Sprintf("/api/dcim/sites/%d/", w.siteA), 6},
			{fmt.Sprintf("/api/dcim/locations/%d/", w.locA), 1},
			{fmt.Sprintf("/api/dcim/racks/%d/", w.rackA), 1},
			{fmt.Sprintf("/api/dcim/device-types/%d/", w.twoUFull), 2},
			{fmt.Sprintf("/api/dcim/device-roles/%d/", w.role), 6},
			{fmt.Sprintf("/api/dcim/virtual-chassis/%d/", vc), 1},
		} {
			obj := a.Must(http.StatusOK, "GET", c.path, nil).Object()
			n, ok := obj["device_count"]
			if !ok {
				n = obj["member_count"]
			}
			if n != c.want {
				t.Errorf("%s: count %v, want %v", c.path, n, c.want)
			}
		}
	})
}

// TestRackElevationDevices: the elevation shows the devices in the rack
// on their face (full-depth ones on both), nested, highest unit first.
func TestRackElevationDevices(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newDeviceWorld(t, e)
		a := w.e
		sw := idOf(a.Must(http.StatusCreated, "POST", "/api/dcim/devices/",
			w.device(w.oneU, "name", "sw1", "rack", w.rackA2, "position", 10, "face", "front")).Object())
		r := idOf(a.Must(http.StatusCreated, "POST", "/api/dcim/devices/",
			w.device(w.twoUFull, "name", "r1", "rack", w.rackA2, "position", 1, "face", "rear")).Object())
		el := func(q string) string {
			var b strings.Builder
			res := a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/racks/%d/elevation/%s", w.rackA2, q), nil).Object()["results"].([]any)
			for _, u := range res {
				m := u.(map[string]any)
				mark := "-"
				if d, ok := m["device"].(map[string]any); ok {
					mark = d["display"].(string)
					if idOf(d) != sw && idOf(d) != r {
						t.Errorf("unit %v: device %v", m["id"], d)
					}
				} else if m["occupied"] == true {
					mark = "?"
				}
				fmt.Fprintf(&b, "%v:%s ", m["id"], mark)
			}
			return strings.TrimSpace(b.String())
		}
		front := "10.5:sw1 10:sw1 9.5:- 9:- 8.5:- 8:- 7.5:- 7:- 6.5:- 6:- 5.5:- 5:- 4.5:- 4:- 3.5:- 3:- 2.5:r1 2:r1 1.5:r1 1:r1"
		rear := "10.5:- 10:- 9.5:- 9:- 8.5:- 8:- 7.5:- 7:- 6.5:- 6:- 5.5:- 5:- 4.5:- 4:- 3.5:- 3:- 2.5:r1 2:r1 1.5:r1 1:r1"
		if got := el(""); got != front {
			t.Errorf("front:\n got  %s\n want %s", got, front)
		}
		if got := el("?face=rear"); got != rear {
			t.Errorf("rear:\n got  %s\n want %s", got, rear)
		}
		if got := el(fmt.Sprintf("?exclude=%d", r)); !strings.HasSuffix(got, "2.5:- 2:- 1.5:- 1:-") {
			t.Errorf("exclude: %s", got)
		}
	})
}

// jsonText is v as compact JSON.
func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPlacementFollows: what sits in a location, rack or device follows it
// when it moves (NetBox's handle_location_site_change,
// handle_rack_site_change and handle_device_site_change), and the
// components' site, location and rack filters read where their device is
// now.
func TestPlacementFollows(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newDeviceWorld(t, e)
		a := w.e
		mk := func(path string, body map[string]any) int {
			return idOf(a.Must(http.StatusCreated, "POST", path, body).Object())
		}
		row := mk("/api/dcim/locations/", map[string]any{"name": "Row 1", "slug": "row-1", "site": w.siteA, "parent": w.locA})
		r1 := idOf(w.rack(t, map[string]any{"name": "R1", "site": w.siteA, "location": row}))
		d1 := mk(devPath, w.device(w.oneU, "name", "d1", "rack", r1, "location", row))
		d2 := mk(devPath, w.device(w.oneU, "name", "d2"))
		mk("/api/dcim/interfaces/", map[string]any{"device": d1, "name": "ge-0/0/0", "type": "1000base-t"})
		mk("/api/dcim/console-ports/", map[string]any{"device": d2, "name": "con"})
		mk("/api/ipam/prefixes/", map[string]any{"prefix": "10.1.0.0/24", "scope_type": "dcim.location", "scope_id": row})
		count := func(path, q string) int {
			return len(a.Must(http.StatusOK, "GET", path+"?"+q, nil).Results())
		}
		expect := func(step string, want map[string]int) {
			t.Helper()
			for q, n := range want {
				path, query, _ := strings.Cut(q, "?")
				if got := count(path, query); got != n {
					t.Errorf("%s: %s gives %d, want %d", step, q, got, n)
				}
			}
		}
		at := func(path string, id int) map[string]any {
			return a.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", path, id), nil).Object()
		}
		q := func(path, key string, id int) string { return fmt.Sprintf("%s?%s=%d", path, key, id) }
		ifaces, cons := "/api/dcim/interfaces/", "/api/dcim/console-ports/"
		expect("created", map[string]int{q(ifaces, "location_id", row): 1, q(ifaces, "rack_id", r1): 1,
			q(ifaces, "site_id", w.siteA): 1, q(cons, "site_id", w.siteA): 1, q(cons, "location_id", row): 0})

		// A device moves: its components' cached scope follows.
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", devPath, d2), map[string]any{"site": w.siteB, "location": w.locB})
		expect("device moved", map[string]int{q(cons, "site_id", w.siteB): 1, q(cons, "location_id", w.locB): 1,
			q(cons, "site_id", w.siteA): 0})

		// A rack moves within its site: its devices and their components follow.
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/racks/%d/", r1), map[string]any{"location": w.locA})
		if l := asObject(at(devPath, d1)["location"]); l["id"] != float64(w.locA) {
			t.Errorf("device in a moved rack: location %v, want %d", l, w.locA)
		}
		expect("rack moved", map[string]int{q(ifaces, "location_id", w.locA): 1, q(ifaces, "location_id", row): 0})

		// A location moves to another site: its descendants, the racks and
		// devices in them, their components and the prefixes scoped there
		// follow.
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/racks/%d/", r1), map[string]any{"location": row})
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/locations/%d/", w.locA), map[string]any{"site": w.siteB})
		if s := asObject(at("/api/dcim/locations/", row)["site"]); s["id"] != float64(w.siteB) {
			t.Errorf("child of a moved location: site %v, want %d", s, w.siteB)
		}
		for path, id := range map[string]int{"/api/dcim/racks/": r1, devPath: d1} {
			if s := asObject(at(path, id)["site"]); s["id"] != float64(w.siteB) {
				t.Errorf("%s%d/ in a moved location: site %v, want %d", path, id, s, w.siteB)
			}
		}
		expect("location moved", map[string]int{q(ifaces, "site_id", w.siteB): 1, q(ifaces, "site_id", w.siteA): 0,
			q("/api/ipam/prefixes/", "site_id", w.siteB): 1, q("/api/ipam/prefixes/", "site_id", w.siteA): 0,
			q(devPath, "site_id", w.siteA): 0})

		// A parent device moves: the child installed in its bay takes its
		// site, location and rack (NetBox's Device.save saves the child:
		// an update record), and the child's components follow.
		chassis := mk("/api/dcim/device-types/", map[string]any{"manufacturer": w.man, "model": "Chassis", "slug": "chassis",
			"u_height": 1, "subdevice_role": "parent"})
		mk("/api/dcim/device-bay-templates/", map[string]any{"device_type": chassis, "name": "Slot 1"})
		parent := mk(devPath, w.device(chassis, "name", "chassis", "rack", w.rackA2, "position", 1, "face", "front"))
		blade := mk(devPath, w.device(w.child, "name", "blade", "rack", w.rackA2))
		mk(cons, map[string]any{"device": blade, "name": "blade-con"})
		bay := a.Must(http.StatusOK, "GET", q("/api/dcim/device-bays/", "device_id", parent), nil).Results()[0]["id"]
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/device-bays/%v/", bay), map[string]any{"installed_device": blade})
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", devPath, parent), map[string]any{"site": w.siteB, "location": nil,
			"rack": w.rackB, "position": nil, "face": nil})
		got := at(devPath, blade)
		for k, want := range map[string]int{"site": w.siteB, "rack": w.rackB} {
			if o := asObject(got[k]); o["id"] != float64(want) {
				t.Errorf("child of a moved device: %s %v, want %d", k, o, want)
			}
		}
		expect("parent device moved", map[string]int{q(cons, "rack_id", w.rackB): 1, q(cons, "rack_id", w.rackA2): 0})
		recs := a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/core/object-changes/?changed_object_type=dcim.device&changed_object_id=%d&action=update&ordering=-id", blade), nil).Results()
		if len(recs) == 0 || asObject(recs[0]["postchange_data"])["site"] != float64(w.siteB) ||
			asObject(recs[0]["prechange_data"])["site"] != float64(w.siteA) {
			t.Errorf("child of a moved device: change records %v, want its move recorded last", recs)
		}
	})
}
