package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestFilterLookupsI33: the filters and lookups NetBox has that came last.
// Pattern lookups on integer choices compare the number as text once the
// value is a valid choice (a rack's width__ic, a token's version__ie);
// object type filters take every lookup NetBox generates, matching the
// named type whatever the lookup as NetBox's MultiValueContentTypeFilter
// does (the negated ones exclude it); a service's parent_object_type__empty;
// front and rear ports (and their templates) by their mappings; device
// types by images (none is stored); circuit group assignments by the
// provider of a circuit or of a virtual circuit's network; VLANs by the
// interface carrying them.
func TestFilterLookupsI33(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newCircuitWorld(t, e)
		a := e.Admin()
		mk := func(path string, body map[string]any) int {
			t.Helper()
			return idOf(a.Must(http.StatusCreated, "POST", path, body).Object())
		}
		r19 := mk("/api/dcim/racks/", map[string]any{"name": "R19", "site": w.site, "width": 19})
		r23 := mk("/api/dcim/racks/", map[string]any{"name": "R23", "site": w.site, "width": 23})
		man := mk("/api/dcim/manufacturers/", map[string]any{"name": "RT", "slug": "rt"})
		rt19 := mk("/api/dcim/rack-types/", map[string]any{"manufacturer": man, "model": "T19", "slug": "t19", "form_factor": "4-post-cabinet", "width": 19})
		rt10 := mk("/api/dcim/rack-types/", map[string]any{"manufacturer": man, "model": "T10", "slug": "t10", "form_factor": "4-post-cabinet", "width": 10})
		_, uid := e.NewUser("filters")
		v1 := mk("/api/users/tokens/", map[string]any{"user": uid, "version": 1})
		v2 := mk("/api/users/tokens/", map[string]any{"user": uid, "version": 2})
		theTokens := fmt.Sprintf("&id=%d&id=%d", v1, v2)

		cfSite := mk("/api/extras/custom-fields/", map[string]any{"name": "cf_site", "type": "text", "object_types": []string{"dcim.site"}})
		cfDev := mk("/api/extras/custom-fields/", map[string]any{"name": "cf_dev", "type": "text", "object_types": []string{"dcim.device"}})
		svcDev := mk("/api/ipam/services/", map[string]any{"name": "ssh", "protocol": "tcp", "ports": []int{22},
			"parent_object_type": "dcim.device", "parent_object_id": w.dev})
		grp := mk("/api/ipam/fhrp-groups/", map[string]any{"protocol": "vrrp2", "group_id": 1})
		svcFHRP := mk("/api/ipam/services/", map[string]any{"name": "vip", "protocol": "tcp", "ports": []int{80},
			"parent_object_type": "ipam.fhrpgroup", "parent_object_id": grp})

		rp1 := mk("/api/dcim/rear-ports/", map[string]any{"device": w.dev, "name": "rp1", "type": "lc", "positions": 4})
		rp2 := mk("/api/dcim/rear-ports/", map[string]any{"device": w.dev, "name": "rp2", "type": "lc", "positions": 4})
		fp1 := mk("/api/dcim/front-ports/", map[string]any{"device": w.dev, "name": "fp1", "type": "lc",
			"rear_ports": []any{map[string]any{"position": 1, "rear_port": rp1, "rear_port_position": 1}}})
		fp2 := mk("/api/dcim/front-ports/", map[string]any{"device": w.dev, "name": "fp2", "type": "lc",
			"rear_ports": []any{map[string]any{"position": 1, "rear_port": rp1, "rear_port_position": 3}}})
		fp3 := mk("/api/dcim/front-ports/", map[string]any{"device": w.dev, "name": "fp3", "type": "lc",
			"rear_ports": []any{map[string]any{"position": 1, "rear_port": rp2, "rear_port_position": 2}}})
		fpNone := mk("/api/dcim/front-ports/", map[string]any{"device": w.dev, "name": "fp4", "type": "lc"})
		dmf := mk("/api/dcim/manufacturers/", map[string]any{"name": "DT", "slug": "dt"})
		dt := mk("/api/dcim/device-types/", map[string]any{"manufacturer": dmf, "model": "Patch", "slug": "patch"})
		rpt := mk("/api/dcim/rear-port-templates/", map[string]any{"device_type": dt, "name": "R", "type": "lc", "positions": 2})
		rptOther := mk("/api/dcim/rear-port-templates/", map[string]any{"device_type": dt, "name": "R2", "type": "lc", "positions": 2})
		fpt := mk("/api/dcim/front-port-templates/", map[string]any{"device_type": dt, "name": "F", "type": "lc",
			"rear_ports": []any{map[string]any{"position": 1, "rear_port": rpt, "rear_port_position": 2}}})

		c := w.circuit(t, "C-1")
		c2 := idOf(a.Must(http.StatusCreated, "POST", circuitsPath, map[string]any{"cid": "C-2", "provider": w.prov2, "type": w.ctype}).Object())
		vc := mk(vcsPath, map[string]any{"cid": "V-1", "provider_network": w.net, "type": w.vctype})
		g := mk("/api/circuits/circuit-groups/", map[string]any{"name": "G", "slug": "g"})
		const assigns = "/api/circuits/circuit-group-assignments/"
		asC := mk(assigns, map[string]any{"group": g, "member_type": "circuits.circuit", "member_id": c})
		asC2 := mk(assigns, map[string]any{"group": g, "member_type": "circuits.circuit", "member_id": c2})
		asVC := mk(assigns, map[string]any{"group": g, "member_type": "circuits.virtualcircuit", "member_id": vc})

		vlan10 := mk("/api/ipam/vlans/", map[string]any{"vid": 10, "name": "ten"})
		vlan20 := mk("/api/ipam/vlans/", map[string]any{"vid": 20, "name": "twenty"})
		mk("/api/ipam/vlans/", map[string]any{"vid": 30, "name": "thirty"})
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/interfaces/%d/", w.phys), map[string]any{
			"mode": "tagged", "untagged_vlan": vlan10, "tagged_vlans": []int{vlan20}})

		cases := []struct {
			path, query string
			want        []int // nil: a 400
		}{
			{"/api/dcim/racks/", "width=19", []int{r19}},
			{"/api/dcim/racks/", "width__ic=19", []int{r19}},
			{"/api/dcim/racks/", "width__n=19", []int{r23}},
			{"/api/dcim/racks/", "width__nic=23", []int{r19}},
			{"/api/dcim/racks/", "width__isw=2", nil}, // 2 is no width: NetBox's choice check
			{"/api/dcim/racks/", "width__regex=23", []int{r23}},
			{"/api/dcim/racks/", "width__iew=19&width__iew=23", []int{r19, r23}},
			{"/api/dcim/rack-types/", "width__ie=10", []int{rt10}},
			{"/api/dcim/rack-types/", "width__niew=10", []int{rt19}},
			{"/api/users/tokens/", "version__ic=1" + theTokens, []int{v1}},
			{"/api/users/tokens/", "version__nie=1" + theTokens, []int{v2}},
			{"/api/users/tokens/", "version__iregex=2" + theTokens, []int{v2}},
			{"/api/users/tokens/", "version__ic=3", nil},
			{"/api/extras/custom-fields/", "object_type=dcim.site", []int{cfSite}},
			{"/api/extras/custom-fields/", "object_type__ic=DCIM.Site", []int{cfSite}},
			{"/api/extras/custom-fields/", "object_type__regex=dcim.device", []int{cfDev}},
			{"/api/extras/custom-fields/", "object_type__regex=^dcim", []int{}}, // no type is named "^dcim"
			{"/api/extras/custom-fields/", "object_type__nic=dcim.site", []int{cfDev}},
			{"/api/extras/custom-fields/", "object_type__isw=dcim.site&object_type__isw=dcim.device", []int{cfSite, cfDev}},
			{"/api/ipam/services/", "parent_object_type=dcim.device", []int{svcDev}},
			{"/api/ipam/services/", "parent_object_type__iew=ipam.fhrpgroup", []int{svcFHRP}},
			{"/api/ipam/services/", "parent_object_type__n=ipam.fhrpgroup", []int{svcDev}},
			{"/api/ipam/services/", "parent_object_type__empty=true", []int{}},
			{"/api/ipam/services/", "parent_object_type__empty=false", []int{svcDev, svcFHRP}},
			{"/api/dcim/front-ports/", "rear_port_id=" + itoa(rp1), []int{fp1, fp2}},
			{"/api/dcim/front-ports/", "rear_port_id__n=" + itoa(rp1), []int{fp3, fpNone}},
			{"/api/dcim/front-ports/", "rear_port_position=2", []int{fp3}},
			{"/api/dcim/front-ports/", "rear_port_position__gte=2", []int{fp2, fp3}},
			{"/api/dcim/front-ports/", "rear_port_position__lt=2", []int{fp1}},
			{"/api/dcim/front-ports/", "rear_port_position__empty=true", []int{fpNone}},
			{"/api/dcim/front-ports/", "rear_port_position=x", nil},
			{"/api/dcim/rear-ports/", "front_port_id=" + itoa(fp3), []int{rp2}},
			{"/api/dcim/rear-ports/", "front_port_id=" + itoa(fp1) + "&front_port_id=" + itoa(fp3), []int{rp1, rp2}},
			{"/api/dcim/front-port-templates/", "rear_port_id=" + itoa(rpt), []int{fpt}},
			{"/api/dcim/front-port-templates/", "rear_port_position__gt=2", []int{}},
			{"/api/dcim/rear-port-templates/", "front_port_id=" + itoa(fpt), []int{rpt}},
			{"/api/dcim/rear-port-templates/", "front_port_id__n=" + itoa(fpt), []int{rptOther}},
			{"/api/dcim/device-types/", "has_front_image=true", []int{}},
			{"/api/dcim/device-types/", "has_rear_image=false&id=" + itoa(dt), []int{dt}},
			{assigns, "provider_id=" + itoa(w.prov), []int{asC, asVC}},
			{assigns, "provider_id=" + itoa(w.prov2), []int{asC2}},
			{assigns, "provider=carrier&provider=other", []int{asC, asC2, asVC}},
			{assigns, "provider=nobody", []int{}},
			{assigns, "provider_id=x", nil},
			{"/api/ipam/vlans/", "interface_id=" + itoa(w.phys), []int{vlan10, vlan20}},
			{"/api/ipam/vlans/", "interface_id=" + itoa(w.vif), []int{}},
		}
		for _, c := range cases {
			r := a.Do("GET", c.path+"?"+c.query+"&limit=0", nil)
			if c.want == nil {
				if r.Status != http.StatusBadRequest {
					t.Errorf("GET %s?%s: %d, want 400: %.200s", c.path, c.query, r.Status, r.Body)
				}
				continue
			}
			if r.Status != http.StatusOK {
				t.Errorf("GET %s?%s: %d %.300s", c.path, c.query, r.Status, r.Body)
				continue
			}
			got := ids(r.Results())
			slices.Sort(got)
			want := slices.Clone(c.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("GET %s?%s: %v, want %v", c.path, c.query, got, want)
			}
		}
	})
}
