package server_test

import (
	"net/http"
	"testing"

	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/server/servertest"
)

// Blank and null as DRF reads them (issue 33): "" for a relation is null
// (DRF's RelatedField), "" is accepted where NetBox's field is blank=True
// and refused elsewhere, and stored as NetBox stores it.
func TestBlankAndNull(t *testing.T) {
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		w := newWorld(e, resource.ByContentType("extras.tag"))
		path := func(ct string, n int) string {
			return detailPath(resource.ByContentType(ct), w.ensure(t, ct, n))
		}
		device, cable, iface := path("dcim.device", 0), path("dcim.cable", 0), path("dcim.interface", 0)
		for _, c := range []struct {
			name, method, path string
			body               map[string]any
			status             int
			want               map[string]any // fields of the answer
			errBody            string
		}{
			// Content types: NetBox's ContentTypeField is a RelatedField.
			{"ip address with blank assigned type", "POST", "/api/ipam/ip-addresses/",
				map[string]any{"address": "198.51.100.7/24", "assigned_object_type": "", "assigned_object_id": nil},
				201, map[string]any{"assigned_object_type": nil, "assigned_object_id": nil}, ""},
			{"mac address with blank assigned type", "POST", "/api/dcim/mac-addresses/",
				map[string]any{"mac_address": "00:11:22:33:44:55", "assigned_object_type": "", "assigned_object_id": nil},
				201, map[string]any{"assigned_object_type": nil}, ""},
			{"prefix with blank scope type", "POST", "/api/ipam/prefixes/",
				map[string]any{"prefix": "198.51.100.0/24", "scope_type": "", "scope_id": nil},
				201, map[string]any{"scope_type": nil, "scope": nil}, ""},
			// Foreign keys by id.
			{"blank nullable FK", "PATCH", device, map[string]any{"tenant": ""}, 200, map[string]any{"tenant": nil}, ""},
			{"blank required FK", "PATCH", device, map[string]any{"site": ""}, 400, nil, `{"site":["This field may not be null."]}`},
			// Colours: blank=True on cables, ports, circuit types.
			{"blank cable colour", "PATCH", cable, map[string]any{"color": ""}, 200, map[string]any{"color": ""}, ""},
			{"blank circuit type colour", "POST", "/api/circuits/circuit-types/",
				map[string]any{"name": "Blank", "slug": "blank", "color": ""}, 201, map[string]any{"color": ""}, ""},
			{"blank tag colour", "POST", "/api/extras/tags/", map[string]any{"name": "Blank", "slug": "blank", "color": ""},
				400, nil, `{"color":["This field may not be blank."]}`},
			{"bad cable colour", "PATCH", cable, map[string]any{"color": "red"}, 400, nil,
				`{"color":["Enter a valid hexadecimal RGB color code."]}`},
			// Choices: allow_blank where NetBox's serializer says so.
			{"blank face", "PATCH", device, map[string]any{"face": ""}, 200, map[string]any{"face": nil}, ""},
			{"null face", "PATCH", device, map[string]any{"face": nil}, 200, map[string]any{"face": nil}, ""},
			{"blank interface mode", "PATCH", iface, map[string]any{"mode": "", "untagged_vlan": nil, "tagged_vlans": []any{}}, 200, map[string]any{"mode": nil}, ""},
			{"blank cable profile", "PATCH", cable, map[string]any{"profile": ""}, 400, nil, `{"profile":["This field may not be blank."]}`},
			{"null cable profile", "PATCH", cable, map[string]any{"profile": nil}, 400, nil, `{"profile":["This field may not be blank."]}`},
			{"blank console speed", "PATCH", path("dcim.consoleport", 0), map[string]any{"speed": ""}, 400, nil,
				`{"speed":["This field may not be blank."]}`},
			{"null console speed", "PATCH", path("dcim.consoleport", 0), map[string]any{"speed": nil}, 200, map[string]any{"speed": nil}, ""},
			{"blank qinq role", "PATCH", path("ipam.vlan", 0), map[string]any{"qinq_role": ""}, 400, nil,
				`{"qinq_role":["This field may not be blank."]}`},
			// Text: blank=False with a default refuses "".
			{"blank webhook content type", "PATCH", path("extras.webhook", 0), map[string]any{"http_content_type": ""}, 400, nil,
				`{"http_content_type":["This field may not be blank."]}`},
			// Special kinds answer a blank before their format check.
			{"blank wwn", "PATCH", iface, map[string]any{"wwn": ""}, 200, map[string]any{"wwn": nil}, ""},
			// A unique nullable text column stores NULL for "", so that
			// blanks never collide.
			{"blank asset tag", "PATCH", device, map[string]any{"asset_tag": ""}, 200, map[string]any{"asset_tag": nil}, ""},
			{"another blank asset tag", "PATCH", path("dcim.device", 1), map[string]any{"asset_tag": " "}, 200, map[string]any{"asset_tag": nil}, ""},
		} {
			t.Run(c.name, func(t *testing.T) {
				r := do(t, e, c.method, c.path, c.body)
				if r.Status != c.status {
					t.Fatalf("%s %s %s: %d %s, want %d", c.method, c.path, canon(c.body), r.Status, r.Body, c.status)
				}
				if c.errBody != "" && string(r.Body) != c.errBody {
					t.Errorf("body %s, want %s", r.Body, c.errBody)
				}
				got := r.Object()
				for k, v := range c.want {
					if canon(got[k]) != canon(v) {
						t.Errorf("%s = %s, want %s", k, canon(got[k]), canon(v))
					}
				}
			})
		}
	})
}

// PUT is a full update (issue 33): a field whose NetBox serializer
// declares a default gets it when PUT leaves the field out; any other
// field keeps its value; PATCH leaves out what it leaves out.
func TestPutDefaults(t *testing.T) {
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		w := newWorld(e, resource.ByContentType("extras.tag"))
		dd := resource.ByContentType("dcim.device")
		device := detailPath(dd, w.ensure(t, "dcim.device", 0))
		member := w.ensure(t, "dcim.device", 1) // a member of virtual chassis 0
		vd := resource.ByContentType("dcim.virtualchassis")
		vc := detailPath(vd, w.ensure(t, "dcim.virtualchassis", 0))
		must(t, e, http.StatusOK, "PATCH", vc, map[string]any{"master": member})
		fd := resource.ByContentType("dcim.powerfeed")
		feed := detailPath(fd, w.ensure(t, "dcim.powerfeed", 0))
		must(t, e, http.StatusOK, "PATCH", feed, map[string]any{"status": "planned", "type": "redundant"})
		must(t, e, http.StatusOK, "PATCH", device, map[string]any{"position": 10, "face": "front"})

		for _, c := range []struct {
			name, path string
			d          *resource.Descriptor
			omit       []string
			partial    map[string]any // PATCH with the same omissions: these stay
			want       map[string]any
		}{
			{"device", device, dd, []string{"rack", "face", "position", "tenant", "location", "platform", "serial"},
				nil, map[string]any{"rack": nil, "face": nil, "position": nil, "tenant": nil, "location": nil,
					// No declared default: kept.
					"platform": "kept", "serial": "SN-1"}},
			{"virtual chassis", vc, vd, []string{"master", "domain"}, nil,
				map[string]any{"master": nil, "domain": "stack1.example"}},
			{"power feed", feed, fd, []string{"status", "type", "supply", "phase", "voltage"}, nil,
				map[string]any{"status": "active", "type": "primary", "supply": "ac", "phase": "single-phase", "voltage": "kept"}},
		} {
			t.Run(c.name, func(t *testing.T) {
				before := must(t, e, http.StatusOK, "GET", c.path, nil).Object()
				body := writeBack(c.d, before)
				for _, k := range c.omit {
					delete(body, k)
				}
				// PATCH of the same body leaves every omitted field alone.
				r := must(t, e, http.StatusOK, "PATCH", c.path, body)
				if diff := objectDiff(before, r.Object()); diff != "" {
					t.Errorf("PATCH without %v changed the object:\n%s", c.omit, diff)
				}
				got := must(t, e, http.StatusOK, "PUT", c.path, body).Object()
				for k, v := range c.want {
					g := got[k]
					if m, ok := g.(map[string]any); ok && m["value"] != nil {
						g = m["value"]
					}
					if v == "kept" {
						v = before[k]
					}
					if canon(g) != canon(v) {
						t.Errorf("after PUT without %s: %s, want %s", k, canon(g), canon(v))
					}
				}
			})
		}
	})
}
