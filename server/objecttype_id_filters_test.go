package server_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// NetBox's object type id filters (object_type_id beside object_type, and
// the other "<type>_id" twins): the object types named by the ids
// /api/core/object-types/ lists, with the number lookups; a word is a
// 400, an id of no object type matches nothing.
func TestObjectTypeIDFilters(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		typeID := func(app, model string) int {
			r := a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/core/object-types/?app_label=%s&model=%s", app, model), nil).Results()
			if len(r) != 1 {
				t.Fatalf("object type %s.%s: %v", app, model, r)
			}
			return int(r[0]["id"].(float64))
		}
		site, dev := typeID("dcim", "site"), typeID("dcim", "device")
		a.Must(http.StatusCreated, "POST", "/api/extras/custom-fields/", map[string]any{"name": "on_sites", "type": "text", "object_types": []string{"dcim.site"}})
		a.Must(http.StatusCreated, "POST", "/api/extras/custom-fields/", map[string]any{"name": "on_devices", "type": "text", "object_types": []string{"dcim.device"}})
		s := a.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "S", "slug": "s"}).Object()
		a.Must(http.StatusCreated, "POST", "/api/extras/journal-entries/", map[string]any{"assigned_object_type": "dcim.site", "assigned_object_id": s["id"], "comments": "x"})
		names := func(path string) []string {
			var out []string
			for _, o := range a.Must(http.StatusOK, "GET", path, nil).Results() {
				switch {
				case o["name"] != nil:
					out = append(out, o["name"].(string))
				case o["comments"] != nil:
					out = append(out, o["comments"].(string))
				default:
					out = append(out, o["changed_object_type"].(string))
				}
			}
			return out
		}
		for _, c := range []struct {
			path string
			want string
		}{
			{fmt.Sprintf("/api/extras/custom-fields/?object_type_id=%d", site), "[on_sites]"},
			{fmt.Sprintf("/api/extras/custom-fields/?object_type_id=%d&object_type_id=%d&ordering=name", site, dev), "[on_devices on_sites]"},
			{fmt.Sprintf("/api/extras/custom-fields/?object_type_id__n=%d", site), "[on_devices]"},
			{"/api/extras/custom-fields/?object_type_id=999999", "[]"},
			{fmt.Sprintf("/api/extras/journal-entries/?assigned_object_type_id=%d", site), "[x]"},
			{fmt.Sprintf("/api/extras/journal-entries/?assigned_object_type_id=%d", dev), "[]"},
			{fmt.Sprintf("/api/core/object-changes/?changed_object_type_id=%d&limit=1", site), "[dcim.site]"},
		} {
			if got := fmt.Sprint(names(c.path)); got != c.want {
				t.Errorf("%s: %s, want %s", c.path, got, c.want)
			}
		}
		a.Must(http.StatusBadRequest, "GET", "/api/extras/custom-fields/?object_type_id=site", nil)
	})
}
