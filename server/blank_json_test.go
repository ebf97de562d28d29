package server_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestBlankJSONRefused: a JSON or array field that NetBox declares
// without blank=True refuses [] and {} as Django's full_clean does ("This
// field cannot be blank."), after the serializer took the value; the
// same fields take a non-empty value, and PATCH cannot empty them.
func TestBlankJSONRefused(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		site := id(e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "S", "slug": "s"}))
		rack := id(e.Must(http.StatusCreated, "POST", "/api/dcim/racks/", map[string]any{"name": "R", "site": site}))
		for _, tc := range []struct {
			path, field string
			body        map[string]any // without field
			empty, good any
		}{
			{"/api/ipam/service-templates/", "ports", map[string]any{"name": "ssh", "protocol": "tcp"}, []any{}, []int{22}},
			{"/api/extras/saved-filters/", "parameters", map[string]any{"name": "f", "slug": "f", "object_types": []string{"dcim.site"}},
				map[string]any{}, map[string]any{"status": "active"}},
			{"/api/extras/table-configs/", "columns", map[string]any{"name": "t", "object_type": "dcim.site", "table": "SiteTable"},
				[]any{}, []string{"name"}},
			{"/api/dcim/rack-reservations/", "units", map[string]any{"rack": rack, "user": 1, "description": "r"}, []any{}, []int{1}},
			{"/api/ipam/vlan-groups/", "vid_ranges", map[string]any{"name": "g", "slug": "g"}, []any{}, [][]int{{1, 10}}},
		} {
			want := fmt.Sprintf(`{%q:["This field cannot be blank."]}`, tc.field)
			with := func(v any) map[string]any {
				b := map[string]any{tc.field: v}
				for k, x := range tc.body {
					b[k] = x
				}
				return b
			}
			if r := e.Do("POST", tc.path, with(tc.empty)); r.Status != http.StatusBadRequest || string(r.Body) != want {
				t.Errorf("POST %s %s=%v: %d %s, want 400 %s", tc.path, tc.field, tc.empty, r.Status, r.Body, want)
			}
			obj := id(e.Must(http.StatusCreated, "POST", tc.path, with(tc.good)))
			if r := e.Do("PATCH", fmt.Sprintf("%s%d/", tc.path, obj), map[string]any{tc.field: tc.empty}); r.Status != http.StatusBadRequest || string(r.Body) != want {
				t.Errorf("PATCH %s %s=%v: %d %s, want 400 %s", tc.path, tc.field, tc.empty, r.Status, r.Body, want)
			}
		}
		// A service's ports too (the same ServiceBase field).
		dev := deviceFor(t, e, site)
		r := e.Do("POST", "/api/ipam/services/", map[string]any{"parent_object_type": "dcim.device", "parent_object_id": dev,
			"name": "s", "protocol": "tcp", "ports": []int{}})
		if r.Status != http.StatusBadRequest || string(r.Body) != `{"ports":["This field cannot be blank."]}` {
			t.Errorf("service with no ports: %d %s", r.Status, r.Body)
		}
	})
}

// deviceFor makes a device at site.
func deviceFor(t *testing.T, e *servertest.Env, site int) int {
	t.Helper()
	man := id(e.Must(http.StatusCreated, "POST", "/api/dcim/manufacturers/", map[string]any{"name": "M", "slug": "m"}))
	dt := id(e.Must(http.StatusCreated, "POST", "/api/dcim/device-types/", map[string]any{"manufacturer": man, "model": "T", "slug": "t"}))
	role := id(e.Must(http.StatusCreated, "POST", "/api/dcim/device-roles/", map[string]any{"name": "R", "slug": "r"}))
	return id(e.Must(http.StatusCreated, "POST", "/api/dcim/devices/", map[string]any{"name": "d", "device_type": dt, "role": role, "site": site}))
}
