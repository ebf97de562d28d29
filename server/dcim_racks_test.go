package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// rackWorld is what the rack behaviour tests share: two sites, a location
// in each, a manufacturer with a rack type, a rack role and a user.
type rackWorld struct {
	e                      *servertest.Env
	siteA, siteB           int
	locA, locB             int
	rackType, role, holder int
}

func newRackWorld(t *testing.T, e *servertest.Env) *rackWorld {
	t.Helper()
	a := e.Admin()
	mk := func(path string, body map[string]any) int {
		return int(a.Must(http.StatusCreated, "POST", path, body).Object()["id"].(float64))
	}
	w := &rackWorld{e: a}
	w.siteA = mk("/api/dcim/sites/", map[string]any{"name": "Site A", "slug": "site-a"})
	w.siteB = mk("/api/dcim/sites/", map[string]any{"name": "Site B", "slug": "site-b"})
	w.locA = mk("/api/dcim/locations/", map[string]any{"name": "Hall A", "slug": "hall-a", "site": w.siteA})
	w.locB = mk("/api/dcim/locations/", map[string]any{"name": "Hall B", "slug": "hall-b", "site": w.siteB})
	man := mk("/api/dcim/manufacturers/", map[string]any{"name": "APC", "slug": "apc"})
	w.rackType = mk("/api/dcim/rack-types/", map[string]any{"manufacturer": man, "model": "AR3100", "slug": "ar3100",
		"form_factor": "4-post-cabinet", "width": 19, "u_height": 20, "starting_unit": 5, "max_weight": 500, "weight_unit": "kg"})
	w.role = mk("/api/dcim/rack-roles/", map[string]any{"name": "Core", "slug": "core"})
	_, w.holder = e.NewUser("holder")
	return w
}

func (w *rackWorld) rack(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	return w.e.Must(http.StatusCreated, "POST", "/api/dcim/racks/", body).Object()
}

func idOf(m map[string]any) int { return int(m["id"].(float64)) }

// TestRackRules: the cross-object rules of racks and rack reservations,
// each refused with a 400 naming the field and nothing written, on both
// databases.
func TestRackRules(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newRackWorld(t, e)
		a := w.e
		r1 := w.rack(t, map[string]any{"name": "R1", "site": w.siteA, "location": w.locA, "u_height": 10, "asset_tag": "AT-1"})
		typed := w.rack(t, map[string]any{"name": "T1", "site": w.siteA, "rack_type": w.rackType, "u_height": 42, "form_factor": "2-post-frame"})
		res := func(units ...int) map[string]any {
			if units == nil {
				units = []int{}
			}
			return map[string]any{"rack": idOf(typed), "units": units, "user": w.holder, "description": "reserved"}
		}
		a.Must(http.StatusCreated, "POST", "/api/dcim/rack-reservations/", res(5, 6))

		cases := []struct {
			name, method, path string
			body               any
			field, message     string
		}{
			// Rack.clean()'s first check, a non-field error (its later
			// check keyed by location is unreachable).
			{"location of another site", "POST", "/api/dcim/racks/",
				map[string]any{"name": "X", "site": w.siteA, "location": w.locB},
				"__all__", "Assigned location must belong to parent site (Site A)."},
			{"move to a location of another site", "PATCH", fmt.Sprintf("/api/dcim/racks/%d/", idOf(r1)),
				map[string]any{"location": w.locB}, "__all__", "Assigned location must belong to parent site (Site A)."},
			{"move to another site, keeping the location", "PATCH", fmt.Sprintf("/api/dcim/racks/%d/", idOf(r1)),
				map[string]any{"site": w.siteB}, "__all__", "Assigned location must belong to parent site (Site B)."},
			{"outer dimension without a unit", "POST", "/api/dcim/racks/",
				map[string]any{"name": "X", "site": w.siteA, "outer_width": 600}, "__all__", "Must specify a unit when setting an outer dimension"},
			{"weight without a unit", "POST", "/api/dcim/racks/",
				map[string]any{"name": "X", "site": w.siteA, "weight": 50}, "__all__", "Must specify a unit when setting a weight"},
			{"maximum weight without a unit", "POST", "/api/dcim/racks/",
				map[string]any{"name": "X", "site": w.siteA, "max_weight": 5}, "__all__", "Must specify a unit when setting a maximum weight"},
			{"duplicate asset tag", "POST", "/api/dcim/racks/",
				map[string]any{"name": "X", "site": w.siteB, "asset_tag": "AT-1"}, "asset_tag", "rack with this asset tag already exists."},
			{"duplicate name in a location", "POST", "/api/dcim/racks/",
				map[string]any{"name": "R1", "site": w.siteA, "location": w.locA}, "__all__", "Rack with this Location and Name already exists."},
			{"unit above the rack", "POST", "/api/dcim/rack-reservations/", res(24, 25),
				"units", "Invalid unit(s) for 20U rack: 25"},
			{"units below the starting unit and above the rack", "POST", "/api/dcim/rack-reservations/", res(4, 8, 30),
				"units", "Invalid unit(s) for 20U rack: 4, 30"},
			{"units reserved already", "POST", "/api/dcim/rack-reservations/", res(7, 6, 5),
				"units", "The following units have already been reserved: 6, 5"},
			{"no units", "POST", "/api/dcim/rack-reservations/", res([]int{}...), "units", "This field cannot be blank."},
			{"unit not a number", "POST", "/api/dcim/rack-reservations/",
				map[string]any{"rack": idOf(typed), "units": []any{"top"}, "user": w.holder, "description": "x"},
				"units", "A valid integer is required."},
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

		// The rack type's physical attributes replace the rack's own, now
		// and when the type changes.
		if typed["u_height"] != 20.0 || typed["starting_unit"] != 5.0 || typed["form_factor"].(map[string]any)["value"] != "4-post-cabinet" ||
			typed["max_weight"] != 500.0 || typed["weight_unit"].(map[string]any)["value"] != "kg" {
			t.Errorf("rack of a rack type: %v", typed)
		}
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/rack-types/%d/", w.rackType), map[string]any{"u_height": 30})
		got := a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/racks/%d/", idOf(typed)), nil).Object()
		if got["u_height"] != 30.0 {
			t.Errorf("rack after its type grew: u_height %v", got["u_height"])
		}
		a.Must(http.StatusCreated, "POST", "/api/dcim/rack-reservations/", res(34))

		// A reservation may keep its own units; a bulk create is all or
		// none, its items checked against each other.
		list := a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/rack-reservations/?rack_id=%d&unit=5", idOf(typed)), nil).Results()
		if len(list) != 1 {
			t.Fatalf("reservations holding unit 5: %d", len(list))
		}
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/rack-reservations/%d/", idOf(list[0])), map[string]any{"units": []int{5, 6, 7}})
		count := func() any {
			return a.Must(http.StatusOK, "GET", "/api/dcim/rack-reservations/?limit=1", nil).Object()["count"]
		}
		before := count()
		r := a.Must(http.StatusBadRequest, "POST", "/api/dcim/rack-reservations/", []any{res(10), res(10)})
		if !strings.Contains(string(r.Body), "The following units have already been reserved: 10") {
			t.Errorf("bulk create of overlapping reservations: %s", r.Body)
		}
		if count() != before {
			t.Error("a refused bulk create wrote reservations")
		}

		// A renamed rack renames its reservations' display; deleting the
		// rack deletes them and the VLAN groups scoped to it; a rack role
		// in use is protected; a deleted location leaves its racks at the
		// site.
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/racks/%d/", idOf(typed)), map[string]any{"name": "T2", "facility_id": "F9"})
		rs := a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/rack-reservations/?rack_id=%d", idOf(typed)), nil).Results()
		if len(rs) != 2 || rs[0]["display"] != "Reservation for rack T2 (F9)" {
			t.Errorf("reservations after the rename: %v", rs)
		}
		if n := len(a.Must(http.StatusOK, "GET", "/api/dcim/rack-reservations/?q=t2", nil).Results()); n != 2 {
			t.Errorf("q=t2 found %d reservations", n)
		}
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/racks/%d/", idOf(r1)), map[string]any{"role": w.role})
		a.Must(http.StatusConflict, "DELETE", fmt.Sprintf("/api/dcim/rack-roles/%d/", w.role), nil)
		vg := a.Must(http.StatusCreated, "POST", "/api/ipam/vlan-groups/", map[string]any{"name": "Rack VLANs", "slug": "rack-vlans",
			"scope_type": "dcim.rack", "scope_id": idOf(typed)}).Object()
		if n := len(a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/ipam/vlan-groups/?rack=%d", idOf(typed)), nil).Results()); n != 1 {
			t.Errorf("VLAN groups of the rack: %d", n)
		}
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/dcim/racks/%d/", idOf(typed)), nil)
		a.Must(http.StatusNotFound, "GET", fmt.Sprintf("/api/ipam/vlan-groups/%d/", idOf(vg)), nil) // NetBox's GenericRelation cascade
		if n := count(); n != 0.0 {
			t.Errorf("reservations after their rack was deleted: %v", n)
		}
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/dcim/locations/%d/", w.locA), nil)
		got = a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/racks/%d/", idOf(r1)), nil).Object()
		if got["location"] != nil || got["site"].(map[string]any)["id"] != float64(w.siteA) {
			t.Errorf("rack after its location was deleted: location %v, site %v", got["location"], got["site"])
		}
		// rack_count on the site, the role and the rack type.
		site := a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/sites/%d/", w.siteA), nil).Object()
		role := a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/rack-roles/%d/", w.role), nil).Object()
		if site["rack_count"] != 1.0 || role["rack_count"] != 1.0 {
			t.Errorf("rack_count: site %v, role %v", site["rack_count"], role["rack_count"])
		}
	})
}

// TestRackElevation: GET /api/dcim/racks/{id}/elevation/ lists the rack's
// half units top first as NetBox's RackViewSet.elevation does, on both
// databases.
func TestRackElevation(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newRackWorld(t, e)
		a := w.e
		asc := idOf(w.rack(t, map[string]any{"name": "Asc", "site": w.siteA, "u_height": 3}))
		desc := idOf(w.rack(t, map[string]any{"name": "Desc", "site": w.siteA, "u_height": 2, "starting_unit": 7, "desc_units": true}))
		unit := func(id, name, face string) string {
			label := map[string]string{"front": "Front", "rear": "Rear"}[face]
			return fmt.Sprintf(`{"id":%s,"name":%q,"face":{"value":%q,"label":%q},"device":null,"occupied":false,"display":%q,"description":null}`,
				id, name, face, label, name)
		}
		page := func(count int, units ...string) string {
			return fmt.Sprintf(`{"count":%d,"next":null,"previous":null,"results":[%s]}`, count, strings.Join(units, ","))
		}
		el := func(rack int) string { return fmt.Sprintf("/api/dcim/racks/%d/elevation/", rack) }
		cases := []struct {
			name, path string
			status     int
			body       string
		}{
			{"ascending, front by default", el(asc), 200, page(6, unit("3.5", "U3.5", "front"), unit("3.0", "U3", "front"),
				unit("2.5", "U2.5", "front"), unit("2.0", "U2", "front"), unit("1.5", "U1.5", "front"), unit("1.0", "U1", "front"))},
			{"descending numbering from the starting unit, rear", el(desc) + "?face=rear", 200, page(4, unit("7.0", "U7", "rear"),
				unit("7.5", "U7.5", "rear"), unit("8.0", "U8", "rear"), unit("8.5", "U8.5", "rear"))},
			{"q matches id or name", el(asc) + "?q=2", 200, page(2, unit("2.5", "U2.5", "front"), unit("2.0", "U2", "front"))},
			{"render json", el(desc) + "?render=json&q=u8", 200, page(2, unit("8.0", "U8", "front"), unit("8.5", "U8.5", "front"))},
			{"invalid face", el(asc) + "?face=side", 400, `{"face":["\"side\" is not a valid choice."]}`},
			{"invalid render", el(asc) + "?render=png", 400, `{"render":["\"png\" is not a valid choice."]}`},
			{"svg", el(asc) + "?render=svg", 400, `{"detail":"Rendering the rack elevation as SVG is not supported; ask for render=json."}`},
			{"invalid exclude", el(asc) + "?exclude=x", 400, `{"exclude":["A valid integer is required."]}`},
			{"missing rack", el(99999999), 404, `{"detail":"No Rack matches the given query."}`},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				r := a.Must(c.status, "GET", c.path, nil)
				if !jsonEqual(t, r.Body, []byte(c.body)) {
					t.Errorf("got  %s\nwant %s", r.Body, c.body)
				}
			})
		}
		// Pagination: limit and offset over the units.
		r := a.Must(http.StatusOK, "GET", el(asc)+"?limit=2&offset=2", nil).Object()
		res := r["results"].([]any)
		if r["count"] != 6.0 || len(res) != 2 || res[0].(map[string]any)["name"] != "U2.5" || r["next"] == nil || r["previous"] == nil {
			t.Errorf("second page: %v", r)
		}
	})
}
