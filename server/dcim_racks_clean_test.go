package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestRackShrinkBelowDevice is issue 32's reproduction: a 42U rack with a
// device at U10 on the front may not shrink to 5U (NetBox's
// Rack.clean()), and the refused write leaves rack and device as they
// were. NetBox renders the height as the Decimal it computes (position
// 10.0 + height 1.0 - starting unit 1), "10.0U".
func TestRackShrinkBelowDevice(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		mk := func(path string, body map[string]any) int {
			return idOf(a.Must(http.StatusCreated, "POST", path, body).Object())
		}
		site := mk("/api/dcim/sites/", map[string]any{"name": "S1", "slug": "s1"})
		rack := mk("/api/dcim/racks/", map[string]any{"name": "R1", "site": site, "u_height": 42})
		man := mk("/api/dcim/manufacturers/", map[string]any{"name": "M", "slug": "m"})
		dt := mk("/api/dcim/device-types/", map[string]any{"manufacturer": man, "model": "1U", "slug": "1u"})
		role := mk("/api/dcim/device-roles/", map[string]any{"name": "R", "slug": "r"})
		dev := mk("/api/dcim/devices/", map[string]any{"name": "d1", "device_type": dt, "role": role, "site": site,
			"rack": rack, "position": 10, "face": "front"})

		r := a.Must(http.StatusBadRequest, "PATCH", fmt.Sprintf("/api/dcim/racks/%d/", rack), map[string]any{"u_height": 5})
		if want := `{"u_height":["Rack must be at least 10.0U tall to house currently installed devices."]}`; string(r.Body) != want {
			t.Errorf("shrinking the rack: %s, want %s", r.Body, want)
		}
		if got := a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/racks/%d/", rack), nil).Object()["u_height"]; got != 42.0 {
			t.Errorf("rack after the refused shrink: u_height %v", got)
		}
		d := a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/devices/%d/", dev), nil).Object()
		if d["position"] != 10.0 || d["rack"].(map[string]any)["id"] != float64(rack) {
			t.Errorf("device after the refused shrink: position %v, rack %v", d["position"], d["rack"])
		}
		// Down to the device's top it fits.
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/racks/%d/", rack), map[string]any{"u_height": 10})
	})
}

// TestCleanAgainstDependents: the checks NetBox's clean() methods make of
// a row against the rows that depend on it (Rack.clean(), DeviceType.clean(),
// Location.clean()), and those added here where NetBox leaves dependents
// broken (a rack type or a module type profile changed under what uses
// it, a device type becoming full depth), each a 400 naming the field with
// nothing written, on both databases.
func TestCleanAgainstDependents(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newDeviceWorld(t, e)
		a := w.e
		mk := func(path string, body map[string]any) int {
			return idOf(a.Must(http.StatusCreated, "POST", path, body).Object())
		}
		// Rack RA (20U from U1, site A, hall A): sw1 (1U, half depth) at
		// U10 front, r1 (2U, full depth) at U14.
		a.Must(http.StatusCreated, "POST", "/api/dcim/devices/", w.device(w.oneU, "name", "sw1", "rack", w.rackA, "position", 10, "face", "front"))
		a.Must(http.StatusCreated, "POST", "/api/dcim/devices/", w.device(w.oneU, "name", "sw2", "rack", w.rackA, "position", 10, "face", "rear"))
		a.Must(http.StatusCreated, "POST", "/api/dcim/devices/", w.device(w.twoUFull, "name", "r1", "rack", w.rackA, "position", 14, "face", "rear"))
		small := mk("/api/dcim/rack-types/", map[string]any{"manufacturer": w.man, "model": "Small", "slug": "small",
			"form_factor": "4-post-frame", "width": 19, "u_height": 12})
		late := mk("/api/dcim/rack-types/", map[string]any{"manufacturer": w.man, "model": "Late", "slug": "late",
			"form_factor": "4-post-frame", "width": 19, "u_height": 42, "starting_unit": 11})
		// Rack T1 of the world's rack type (20U from U5): sw9 at U20.
		typed := idOf(w.rack(t, map[string]any{"name": "T1", "site": w.siteA, "rack_type": w.rackType}))
		a.Must(http.StatusCreated, "POST", "/api/dcim/devices/", w.device(w.oneU, "name", "sw9", "rack", typed, "position", 20, "face", "front"))
		// A profile whose schema a module type's attributes satisfy.
		profile := mk("/api/dcim/module-type-profiles/", map[string]any{"name": "PSU", "schema": map[string]any{
			"properties": map[string]any{"watts": map[string]any{"type": "integer"}}}})
		mk("/api/dcim/module-types/", map[string]any{"manufacturer": w.man, "model": "PSU-9", "profile": profile,
			"attributes": map[string]any{"watts": 900}})
		hallA1 := mk("/api/dcim/locations/", map[string]any{"name": "Hall A1", "slug": "hall-a1", "site": w.siteA, "parent": w.locA})

		rackA := fmt.Sprintf("/api/dcim/racks/%d/", w.rackA)
		rackType := fmt.Sprintf("/api/dcim/rack-types/%d/", w.rackType)
		oneU := fmt.Sprintf("/api/dcim/device-types/%d/", w.oneU)
		cases := []struct {
			name, method, path string
			body               any
			field, message     string
			prefix             bool // message is the start of the text
		}{
			// Rack.clean(), in its order.
			{"rack shorter than its highest device", "PATCH", rackA, map[string]any{"u_height": 14},
				"u_height", "Rack must be at least 15.0U tall to house currently installed devices.", false},
			{"rack numbering starting above its lowest device", "PATCH", rackA, map[string]any{"starting_unit": 11},
				"starting_unit", "Rack unit numbering must begin at 10.0 or less to house currently installed devices.", false},
			{"rack renumbered so that its top falls short", "PATCH", rackA, map[string]any{"starting_unit": 5, "u_height": 10},
				"u_height", "Rack must be at least 11.0U tall to house currently installed devices.", false},
			{"rack type too short for the devices", "PATCH", rackA, map[string]any{"rack_type": small},
				"rack_type", "Rack must be at least 15.0U tall to house currently installed devices.", false},
			{"rack type numbered above the devices", "PATCH", rackA, map[string]any{"rack_type": late},
				"rack_type", "Rack unit numbering must begin at 10.0 or less to house currently installed devices.", false},
			{"rack in a location of another site", "PATCH", rackA, map[string]any{"location": w.locB},
				"__all__", "Assigned location must belong to parent site (Site A).", false},
			{"weight checked before the outer dimensions", "PATCH", rackA, map[string]any{"weight": 10, "outer_width": 600},
				"__all__", "Must specify a unit when setting a weight", false},
			{"outer dimension without a unit", "PATCH", rackA, map[string]any{"outer_depth": 900},
				"__all__", "Must specify a unit when setting an outer dimension", false},
			{"maximum weight without a unit", "PATCH", rackA, map[string]any{"max_weight": 900},
				"__all__", "Must specify a unit when setting a maximum weight", false},
			// A rack type's change reaches its racks (beyond NetBox).
			{"rack type shrunk under a rack's device", "PATCH", rackType, map[string]any{"u_height": 10},
				"u_height", "Rack T1 must be at least 16.0U tall to house currently installed devices.", false},
			{"rack type renumbered above a rack's device", "PATCH", rackType, map[string]any{"starting_unit": 21},
				"starting_unit", "Rack T1 unit numbering must begin at 20.0 or less to house currently installed devices.", false},
			{"rack type weight without a unit", "POST", "/api/dcim/rack-types/", map[string]any{"manufacturer": w.man, "model": "W",
				"slug": "w", "form_factor": "4-post-frame", "weight": 80}, "__all__", "Must specify a unit when setting a weight", false},
			// DeviceType.clean().
			{"device type grown into the device above", "PATCH", oneU, map[string]any{"u_height": 5},
				"u_height", "Device sw1 in rack RA does not have sufficient space to accommodate a height of 5.0U", false},
			{"device type grown above the rack", "PATCH", fmt.Sprintf("/api/dcim/device-types/%d/", w.twoUFull), map[string]any{"u_height": 8},
				"u_height", "Device r1 in rack RA does not have sufficient space to accommodate a height of 8.0U", false},
			{"device type made 0U while racked", "PATCH", oneU, map[string]any{"u_height": 0},
				"u_height", "Unable to set 0U height: Found 3 instances already mounted within racks.", false},
			{"device type made full depth over the other face", "PATCH", oneU, map[string]any{"is_full_depth": true},
				"is_full_depth", "Device sw1 in rack RA does not have sufficient space to become full depth", true},
			// Location.clean().
			{"location under a parent of another site", "POST", "/api/dcim/locations/",
				map[string]any{"name": "B2", "slug": "b2", "site": w.siteB, "parent": w.locA},
				"__all__", "Parent location (Hall A) must belong to the same site (Site B).", false},
			{"location moved away from its parent's site", "PATCH", fmt.Sprintf("/api/dcim/locations/%d/", hallA1),
				map[string]any{"site": w.siteB}, "__all__", "Parent location (Hall A) must belong to the same site (Site B).", false},
			// A module type profile's schema reaches its module types
			// (beyond NetBox).
			{"profile schema refusing a module type's attributes", "PATCH", fmt.Sprintf("/api/dcim/module-type-profiles/%d/", profile),
				map[string]any{"schema": map[string]any{"properties": map[string]any{"watts": map[string]any{"type": "string"}}}},
				"schema", "The attributes of module type PSU-9 do not conform to this schema: ", true},
		}
		changes := func() any {
			return a.Must(http.StatusOK, "GET", "/api/core/object-changes/?limit=1", nil).Object()["count"]
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				before := changes()
				var old map[string]any
				if c.method == "PATCH" {
					old = a.Must(http.StatusOK, "GET", c.path, nil).Object()
				}
				r := a.Must(http.StatusBadRequest, c.method, c.path, c.body)
				got, _ := r.Object()[c.field].([]any)
				ok := len(got) == 1 && len(r.Object()) == 1
				if ok {
					s, _ := got[0].(string)
					ok = s == c.message || (c.prefix && strings.HasPrefix(s, c.message))
				}
				if !ok {
					t.Errorf("body %s, want %s: [%q]", r.Body, c.field, c.message)
				}
				if after := changes(); after != before {
					t.Errorf("a refused write left change records: %v → %v", before, after)
				}
				if old != nil {
					now := a.Must(http.StatusOK, "GET", c.path, nil).Object()
					if fmt.Sprint(now) != fmt.Sprint(old) {
						t.Errorf("a refused write changed the object:\n%v\n%v", old, now)
					}
				}
			})
		}

		// What fits is accepted: the rack down to its top device, a rack
		// type that houses them, a device type grown where there is room,
		// and a schema the attributes satisfy.
		a.Must(http.StatusOK, "PATCH", rackA, map[string]any{"u_height": 15})
		a.Must(http.StatusOK, "PATCH", rackA, map[string]any{"u_height": 20, "starting_unit": 10})
		a.Must(http.StatusOK, "PATCH", rackType, map[string]any{"u_height": 19})
		a.Must(http.StatusOK, "PATCH", oneU, map[string]any{"u_height": 4})
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/module-type-profiles/%d/", profile), map[string]any{"schema": map[string]any{
			"properties": map[string]any{"watts": map[string]any{"type": "integer", "minimum": 100}}}})
		// A bulk update is checked row by row.
		r := a.Must(http.StatusBadRequest, "PATCH", "/api/dcim/racks/", []any{
			map[string]any{"id": w.rackA2, "u_height": 5}, map[string]any{"id": w.rackA, "u_height": 5}})
		if !strings.Contains(string(r.Body), "Rack must be at least 6.0U tall to house currently installed devices.") {
			t.Errorf("bulk shrink: %s", r.Body)
		}
		if got := a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/racks/%d/", w.rackA2), nil).Object()["u_height"]; got != 10.0 {
			t.Errorf("the other rack of a refused bulk update: u_height %v", got)
		}
	})
}

// TestLocationMoveTakesItsContents: a location moved to another site
// takes its child locations, its racks, their devices and the cached
// site of the cables on them along (NetBox's handle_location_site_change),
// on both databases.
func TestLocationMoveTakesItsContents(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newDeviceWorld(t, e)
		a := w.e
		mk := func(path string, body map[string]any) int {
			return idOf(a.Must(http.StatusCreated, "POST", path, body).Object())
		}
		child := mk("/api/dcim/locations/", map[string]any{"name": "Cage 1", "slug": "cage-1", "site": w.siteA, "parent": w.locA})
		inChild := idOf(w.rack(t, map[string]any{"name": "RC", "site": w.siteA, "location": child}))
		dev := mk("/api/dcim/devices/", w.device(w.oneU, "name", "sw1", "rack", w.rackA, "position", 1, "face", "front"))
		loose := mk("/api/dcim/devices/", w.device(w.oneU, "name", "sw2", "location", child))
		i1 := mk("/api/dcim/interfaces/", map[string]any{"device": dev, "name": "et-0", "type": "1000base-t"})
		i2 := mk("/api/dcim/interfaces/", map[string]any{"device": loose, "name": "et-0", "type": "1000base-t"})
		mk("/api/dcim/cables/", map[string]any{
			"a_terminations": []any{map[string]any{"object_type": "dcim.interface", "object_id": i1}},
			"b_terminations": []any{map[string]any{"object_type": "dcim.interface", "object_id": i2}}})

		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/locations/%d/", w.locA), map[string]any{"site": w.siteB})
		siteOf := func(path string) any {
			return a.Must(http.StatusOK, "GET", path, nil).Object()["site"].(map[string]any)["id"]
		}
		for _, path := range []string{
			fmt.Sprintf("/api/dcim/locations/%d/", child),
			fmt.Sprintf("/api/dcim/racks/%d/", w.rackA),
			fmt.Sprintf("/api/dcim/racks/%d/", inChild),
			fmt.Sprintf("/api/dcim/devices/%d/", dev),
			fmt.Sprintf("/api/dcim/devices/%d/", loose),
		} {
			if got := siteOf(path); got != float64(w.siteB) {
				t.Errorf("%s after its location moved: site %v, want %d", path, got, w.siteB)
			}
		}
		for site, want := range map[int]int{w.siteA: 0, w.siteB: 1} {
			if n := len(a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/cables/?site_id=%d", site), nil).Results()); n != want {
				t.Errorf("cables at site %d: %d, want %d", site, n, want)
			}
			if n := len(a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/interfaces/?site_id=%d", site), nil).Results()); n != 2*want {
				t.Errorf("interfaces at site %d: %d, want %d", site, n, 2*want)
			}
		}

		// A rack moved to another site takes its devices, their
		// components and the cables on them along.
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/racks/%d/", w.rackA), map[string]any{"site": w.siteA, "location": nil})
		if got := siteOf(fmt.Sprintf("/api/dcim/devices/%d/", dev)); got != float64(w.siteA) {
			t.Errorf("device after its rack moved: site %v", got)
		}
		if n := len(a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/cables/?site_id=%d", w.siteA), nil).Results()); n != 1 {
			t.Errorf("cables at site A after the rack moved there: %d", n)
		}
		if n := len(a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/cables/?rack_id=%d", w.rackA), nil).Results()); n != 1 {
			t.Errorf("cables in rack A: %d", n)
		}
	})
}
