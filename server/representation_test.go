package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// Issue 33's representation differences beyond the forms (which
// ent/resource's TestBriefFormsMatchReference and
// TestNestedFormsMatchReference and the wire aspect check for every
// model): ETag, Allow, display_url, labels and fields NetBox 4.6 does not
// send, each as NetBox 4.6.8 answers.

// TestRepresentationDetails runs on both databases.
func TestRepresentationDetails(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		mfr := id(a.Must(http.StatusCreated, "POST", "/api/dcim/manufacturers/", map[string]any{"name": "M", "slug": "m"}))
		dt := id(a.Must(http.StatusCreated, "POST", "/api/dcim/device-types/", map[string]any{"manufacturer": mfr, "model": "T", "slug": "t"}))
		site := id(a.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "S", "slug": "s", "description": "d"}))
		role := id(a.Must(http.StatusCreated, "POST", "/api/dcim/device-roles/", map[string]any{"name": "R", "slug": "r"}))
		var devs []int
		for _, n := range []string{"d1", "d2"} {
			devs = append(devs, id(a.Must(http.StatusCreated, "POST", "/api/dcim/devices/", map[string]any{
				"name": n, "device_type": dt, "role": role, "site": site})))
		}
		dev := a.Must(http.StatusOK, "GET", "/api/dcim/devices/"+itoa(devs[0])+"/", nil).Object()

		t.Run("nested counts", func(t *testing.T) {
			// A CounterCacheField is a column of NetBox's model: the
			// nested device type carries the real count; a nested group's
			// IntegerField(default=0) renders 0; a nested site (no such
			// count) has its brief keys in field order.
			if got := dev["device_type"].(map[string]any)["device_count"]; got != float64(2) {
				t.Errorf("nested device_type device_count = %v, want 2", got)
			}
			if got := dev["role"].(map[string]any)["device_count"]; got != float64(0) {
				t.Errorf("nested role device_count = %v, want NetBox's 0", got)
			}
			r := a.Must(http.StatusOK, "GET", "/api/dcim/devices/"+itoa(devs[0])+"/", nil)
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(r.Body, &obj); err != nil {
				t.Fatal(err)
			}
			if got := keys(t, obj["site"]); strings.Join(got, ",") != "id,url,display,name,slug,description" {
				t.Errorf("nested site keys %v", got)
			}
		})

		t.Run("etag", func(t *testing.T) {
			// Models whose serializer leaves the timestamps out still get
			// NetBox's ETag, from the model's last_updated.
			pol := a.Must(http.StatusCreated, "POST", "/api/ipam/vlan-translation-policies/", map[string]any{"name": "P"})
			polID := id(pol)
			rule := a.Must(http.StatusCreated, "POST", "/api/ipam/vlan-translation-rules/", map[string]any{"policy": polID, "local_vid": 10, "remote_vid": 20})
			ng := a.Must(http.StatusCreated, "POST", "/api/extras/notification-groups/", map[string]any{"name": "G"})
			for _, c := range []struct {
				path string
				r    *servertest.Response
			}{
				{"/api/ipam/vlan-translation-policies/" + itoa(polID) + "/", pol},
				{"/api/ipam/vlan-translation-rules/" + itoa(id(rule)) + "/", rule},
				{"/api/extras/notification-groups/" + itoa(id(ng)) + "/", ng},
			} {
				created := c.r.Header.Get("ETag")
				if !strings.HasPrefix(created, `W/"`) {
					t.Errorf("POST %s: ETag %q", c.path, created)
				}
				if got := a.Must(http.StatusOK, "GET", c.path, nil).Header.Get("ETag"); got != created {
					t.Errorf("GET %s: ETag %q, want %q", c.path, got, created)
				}
				if r := a.Do("PATCH", c.path, map[string]any{"description": "x"}, `If-Match: W/"2000-01-01T00:00:00+00:00"`); r.Status != http.StatusPreconditionFailed {
					t.Errorf("PATCH %s with a stale If-Match: %d", c.path, r.Status)
				}
				if r := a.Do("PATCH", c.path, map[string]any{"description": "x"}, "If-Match: "+created); r.Status != http.StatusOK || r.Header.Get("ETag") == "" || r.Header.Get("ETag") == created {
					t.Errorf("PATCH %s: %d, ETag %q after %q", c.path, r.Status, r.Header.Get("ETag"), created)
				}
			}
		})

		t.Run("allow trace", func(t *testing.T) {
			// NetBox's viewsets with a trace action list TRACE.
			iface := id(a.Must(http.StatusCreated, "POST", "/api/dcim/interfaces/", map[string]any{"device": devs[0], "name": "e0", "type": "1000base-t"}))
			for _, c := range []struct{ path, want string }{
				{"/api/dcim/interfaces/", "GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, TRACE"},
				{"/api/dcim/interfaces/" + itoa(iface) + "/", "GET, PUT, PATCH, DELETE, HEAD, OPTIONS, TRACE"},
				{"/api/dcim/interfaces/" + itoa(iface) + "/trace/", "GET, HEAD, OPTIONS, TRACE"},
				{"/api/dcim/power-feeds/", "GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, TRACE"},
				{"/api/dcim/front-ports/", "GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS"},
				{"/api/dcim/sites/", "GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS"},
			} {
				if got := a.Must(http.StatusOK, "GET", c.path, nil).Header.Get("Allow"); got != c.want {
					t.Errorf("GET %s: Allow %q, want %q", c.path, got, c.want)
				}
			}
		})

		t.Run("display_url", func(t *testing.T) {
			cs := a.Must(http.StatusCreated, "POST", "/api/extras/custom-field-choice-sets/", map[string]any{
				"name": "C", "extra_choices": [][]string{{"a", "A"}}}).Object()
			if got, want := cs["display_url"], "/extras/custom-field-choices/"+itoa(int(cs["id"].(float64)))+"/"; !strings.HasSuffix(got.(string), want) {
				t.Errorf("choice set display_url %v, want …%s", got, want)
			}
			ch := a.Must(http.StatusOK, "GET", "/api/core/object-changes/?limit=1", nil).Results()
			if len(ch) != 1 {
				t.Fatalf("no object change")
			}
			if got, want := ch[0]["display_url"].(string), "/core/changelog/"+itoa(int(ch[0]["id"].(float64)))+"/"; !strings.HasSuffix(got, want) || strings.Contains(got, "/api/") {
				t.Errorf("object change display_url %v, want …%s", got, want)
			}
		})

		t.Run("labels and removed fields", func(t *testing.T) {
			v := a.Must(http.StatusCreated, "POST", "/api/ipam/vlans/", map[string]any{"vid": 5, "name": "V", "qinq_role": "svlan"}).Object()
			if got := v["qinq_role"].(map[string]any)["label"]; got != "Service" {
				t.Errorf("qinq_role label %v, want Service", got)
			}
			for _, p := range []string{"/api/users/users/?limit=1", "/api/authentication-check/"} {
				obj := a.Must(http.StatusOK, "GET", p, nil).Object()
				if rs, ok := obj["results"].([]any); ok {
					obj = rs[0].(map[string]any)
				}
				if _, ok := obj["is_staff"]; ok {
					t.Errorf("%s sends is_staff (removed in NetBox 4.2)", p)
				}
			}
			prov := id(a.Must(http.StatusCreated, "POST", "/api/circuits/providers/", map[string]any{"name": "P", "slug": "p"}))
			ct := id(a.Must(http.StatusCreated, "POST", "/api/circuits/circuit-types/", map[string]any{"name": "CT", "slug": "ct"}))
			c := a.Must(http.StatusCreated, "POST", "/api/circuits/circuits/", map[string]any{"cid": "C1", "provider": prov, "type": ct}).Object()
			if _, ok := c["assignments"]; ok {
				t.Errorf("a circuit sends assignments, which NetBox never renders")
			}
		})
	})
}
