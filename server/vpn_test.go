package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// vpnWorld is a device with three interfaces, a VM with an interface (both
// at site Paris, in region Europe), two VLANs (the first at Paris) and two
// tunnels, to terminate tunnels and L2VPNs on.
type vpnWorld struct {
	e                      *servertest.Env
	region, site, dev, vm  int
	eth0, eth1, eth2, vmif int
	vlan1, vlan2           int
	tun1, tun2             int
}

const (
	tunnelsPath   = "/api/vpn/tunnels/"
	tunTermsPath  = "/api/vpn/tunnel-terminations/"
	l2vpnsPath    = "/api/vpn/l2vpns/"
	l2vpnTermPath = "/api/vpn/l2vpn-terminations/"
)

func newVPNWorld(t *testing.T, e *servertest.Env) *vpnWorld {
	a := e.Admin()
	mk := func(path string, body map[string]any) int {
		t.Helper()
		return idOf(a.Must(http.StatusCreated, "POST", path, body).Object())
	}
	w := &vpnWorld{e: a}
	w.region = mk("/api/dcim/regions/", map[string]any{"name": "Europe", "slug": "europe"})
	w.site = mk("/api/dcim/sites/", map[string]any{"name": "Paris", "slug": "paris", "region": w.region})
	site := w.site
	man := mk("/api/dcim/manufacturers/", map[string]any{"name": "M", "slug": "m"})
	dt := mk("/api/dcim/device-types/", map[string]any{"manufacturer": man, "model": "X", "slug": "x"})
	role := mk("/api/dcim/device-roles/", map[string]any{"name": "R", "slug": "r"})
	w.dev = mk("/api/dcim/devices/", map[string]any{"name": "r1", "device_type": dt, "role": role, "site": site})
	dev := w.dev
	w.eth0 = mk("/api/dcim/interfaces/", map[string]any{"device": dev, "name": "eth0", "type": "1000base-t"})
	w.eth1 = mk("/api/dcim/interfaces/", map[string]any{"device": dev, "name": "eth1", "type": "1000base-t"})
	w.eth2 = mk("/api/dcim/interfaces/", map[string]any{"device": dev, "name": "eth2", "type": "1000base-t", "label": "uplink"})
	ct := mk("/api/virtualization/cluster-types/", map[string]any{"name": "CT", "slug": "ct"})
	cl := mk("/api/virtualization/clusters/", map[string]any{"name": "C1", "type": ct})
	w.vm = mk("/api/virtualization/virtual-machines/", map[string]any{"name": "vm1", "cluster": cl, "site": site})
	vm := w.vm
	w.vmif = mk("/api/virtualization/interfaces/", map[string]any{"virtual_machine": vm, "name": "veth0"})
	w.vlan1 = mk("/api/ipam/vlans/", map[string]any{"vid": 10, "name": "Ten", "site": site})
	w.vlan2 = mk("/api/ipam/vlans/", map[string]any{"vid": 20, "name": "Twenty"})
	w.tun1 = mk(tunnelsPath, map[string]any{"name": "T1", "encapsulation": "gre", "status": "active"})
	w.tun2 = mk(tunnelsPath, map[string]any{"name": "T2", "encapsulation": "ipsec-tunnel", "status": "active"})
	return w
}

func (w *vpnWorld) get(t *testing.T, path string, id int) map[string]any {
	t.Helper()
	return w.e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", path, id), nil).Object()
}

// refused creates body at list path, which must answer 400 with a message
// on field (msg, when given, first) and create nothing.
func (w *vpnWorld) refused(t *testing.T, path string, body map[string]any, field, msg string) {
	t.Helper()
	before := w.count(t, path)
	r := w.e.Must(http.StatusBadRequest, "POST", path, body)
	msgs, _ := r.Object()[field].([]any)
	if len(msgs) == 0 || (msg != "" && msgs[0] != msg) {
		t.Errorf("body %s, want %s: %q", r.Body, field, msg)
	}
	if n := w.count(t, path); n != before {
		t.Errorf("%d objects after a refused create, want %d", n, before)
	}
}

func (w *vpnWorld) count(t *testing.T, path string) int {
	t.Helper()
	return int(w.e.Must(http.StatusOK, "GET", path+"?limit=1", nil).Object()["count"].(float64))
}

// TestVPNTunnelTerminations: NetBox's rules for tunnel ends (an object
// ends one tunnel at most, refused on termination with NetBox's message;
// only interfaces and VM interfaces), the termination's display and the
// tunnel's terminations_count, and a renamed tunnel renaming itself in
// its terminations' displays. A refused write changes nothing.
func TestVPNTunnelTerminations(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newVPNWorld(t, e)
		a := w.e
		t1 := idOf(a.Must(http.StatusCreated, "POST", tunTermsPath, map[string]any{"tunnel": w.tun1, "role": "hub",
			"termination_type": "dcim.interface", "termination_id": w.eth0}).Object())
		a.Must(http.StatusCreated, "POST", tunTermsPath, map[string]any{"tunnel": w.tun1, "role": "spoke",
			"termination_type": "virtualization.vminterface", "termination_id": w.vmif})

		for _, c := range []struct {
			name  string
			body  map[string]any
			field string
			msg   string
		}{
			{"interface already on a tunnel", map[string]any{"tunnel": w.tun2, "role": "peer", "termination_type": "dcim.interface", "termination_id": w.eth0},
				"termination", "eth0 is already attached to a tunnel (T1)."},
			{"VM interface already on a tunnel", map[string]any{"tunnel": w.tun1, "role": "peer", "termination_type": "virtualization.vminterface", "termination_id": w.vmif},
				"termination", "veth0 is already attached to a tunnel (T1)."},
			{"not an interface", map[string]any{"tunnel": w.tun2, "role": "peer", "termination_type": "ipam.vlan", "termination_id": w.vlan1},
				"termination_type", ""},
			{"bad role", map[string]any{"tunnel": w.tun2, "role": "boss", "termination_type": "dcim.interface", "termination_id": w.eth1},
				"role", ""},
		} {
			t.Run(c.name, func(t *testing.T) { w.refused(t, tunTermsPath, c.body, c.field, c.msg) })
		}
		// Moving a termination onto an object another one holds is refused
		// too; moving it to a free one is fine.
		a.Must(http.StatusBadRequest, "PATCH", fmt.Sprintf("%s%d/", tunTermsPath, t1),
			map[string]any{"termination_type": "virtualization.vminterface", "termination_id": w.vmif})
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", tunTermsPath, t1), map[string]any{"termination_id": w.eth1})

		if d := w.get(t, tunTermsPath, t1)["display"]; d != fmt.Sprintf("T1: Termination %d", t1) {
			t.Errorf("termination display %q", d)
		}
		if n := w.get(t, tunnelsPath, w.tun1)["terminations_count"]; n != 2.0 {
			t.Errorf("terminations_count %v, want 2", n)
		}
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", tunnelsPath, w.tun1), map[string]any{"name": "Core"})
		if d := w.get(t, tunTermsPath, t1)["display"]; d != fmt.Sprintf("Core: Termination %d", t1) {
			t.Errorf("termination display after rename %q", d)
		}
		// Deleting the tunnel deletes its terminations (CASCADE).
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", tunnelsPath, w.tun1), nil)
		if n := w.count(t, tunTermsPath); n != 0 {
			t.Errorf("%d terminations left after the tunnel's deletion", n)
		}
	})
}

// TestVPNL2VPNTerminations: an object terminates one L2VPN at most; a
// point-to-point L2VPN (VPWS, EPL ...) takes two terminations at most,
// a multipoint one more; only VLANs, interfaces and VM interfaces
// terminate L2VPNs. NetBox raises the first two from clean() without a
// field (non_field_errors). Displays follow NetBox's __str__, and follow
// renames. A refused write changes nothing.
func TestVPNL2VPNTerminations(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newVPNWorld(t, e)
		a := w.e
		p2p := idOf(a.Must(http.StatusCreated, "POST", l2vpnsPath, map[string]any{"name": "Wire", "slug": "wire", "type": "vpws", "identifier": 7}).Object())
		mp := idOf(a.Must(http.StatusCreated, "POST", l2vpnsPath, map[string]any{"name": "Fabric", "slug": "fabric", "type": "vxlan"}).Object())
		if d := w.get(t, l2vpnsPath, p2p)["display"]; d != "Wire (7)" {
			t.Errorf("L2VPN display %q, want Wire (7)", d)
		}
		term := func(l2vpn int, ct string, id int) map[string]any {
			return map[string]any{"l2vpn": l2vpn, "assigned_object_type": ct, "assigned_object_id": id}
		}
		first := idOf(a.Must(http.StatusCreated, "POST", l2vpnTermPath, term(p2p, "dcim.interface", w.eth2)).Object())
		a.Must(http.StatusCreated, "POST", l2vpnTermPath, term(p2p, "ipam.vlan", w.vlan1))
		vmTerm := idOf(a.Must(http.StatusCreated, "POST", l2vpnTermPath, term(mp, "virtualization.vminterface", w.vmif)).Object())
		a.Must(http.StatusCreated, "POST", l2vpnTermPath, term(mp, "dcim.interface", w.eth0))
		a.Must(http.StatusCreated, "POST", l2vpnTermPath, term(mp, "ipam.vlan", w.vlan2))

		for _, c := range []struct {
			name  string
			body  map[string]any
			field string
			msg   string
		}{
			{"third termination of a point-to-point L2VPN", term(p2p, "dcim.interface", w.eth1),
				"non_field_errors", "VPWS L2VPNs cannot have more than two terminations; found 2 already defined."},
			{"interface already terminated", term(mp, "dcim.interface", w.eth2),
				"non_field_errors", "L2VPN Termination already assigned (eth2 (uplink))"},
			{"VLAN already terminated", term(mp, "ipam.vlan", w.vlan1),
				"non_field_errors", "L2VPN Termination already assigned (Ten (10))"},
			{"not a VLAN or interface", term(mp, "dcim.site", 1), "assigned_object_type", ""},
		} {
			t.Run(c.name, func(t *testing.T) { w.refused(t, l2vpnTermPath, c.body, c.field, c.msg) })
		}
		// Moving a termination into a full point-to-point L2VPN is refused.
		r := a.Must(http.StatusBadRequest, "PATCH", fmt.Sprintf("%s%d/", l2vpnTermPath, vmTerm), map[string]any{"l2vpn": p2p})
		if !strings.Contains(string(r.Body), "VPWS L2VPNs cannot have more than two terminations") {
			t.Errorf("move into a full point-to-point L2VPN: %s", r.Body)
		}
		// The multipoint one takes a fourth.
		a.Must(http.StatusCreated, "POST", l2vpnTermPath, term(mp, "dcim.interface", w.eth1))

		if d := w.get(t, l2vpnTermPath, first)["display"]; d != "eth2 (uplink) <> Wire (7)" {
			t.Errorf("termination display %q", d)
		}
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", l2vpnsPath, p2p), map[string]any{"name": "Line", "identifier": nil})
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/interfaces/%d/", w.eth2), map[string]any{"label": ""})
		if d := w.get(t, l2vpnTermPath, first)["display"]; d != "eth2 <> Line" {
			t.Errorf("termination display after renames %q, want %q", d, "eth2 <> Line")
		}
		// Making the multipoint L2VPN (four terminations) point-to-point is
		// refused.
		r = a.Must(http.StatusBadRequest, "PATCH", fmt.Sprintf("%s%d/", l2vpnsPath, mp), map[string]any{"type": "epl"})
		if !strings.Contains(string(r.Body), "cannot have more than two terminations") {
			t.Errorf("type change body %s", r.Body)
		}
		// Deleting a VLAN deletes its termination (CASCADE).
		before := w.count(t, l2vpnTermPath)
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/ipam/vlans/%d/", w.vlan2), nil)
		if n := w.count(t, l2vpnTermPath); n != before-1 {
			t.Errorf("%d terminations after the VLAN's deletion, want %d", n, before-1)
		}
	})
}

// TestVPNCryptoRules: the clean() rules of vpn/models/crypto.py, with
// NetBox's messages (no field: non_field_errors), on create and on update
// (the stored values count with the new ones): an IPSec proposal names an
// encryption or an authentication algorithm (or both); IKEv1 needs a
// mode, IKEv2 takes none. A refused write changes nothing.
func TestVPNCryptoRules(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		const proposals, policies = "/api/vpn/ipsec-proposals/", "/api/vpn/ike-policies/"
		v1 := idOf(a.Must(http.StatusCreated, "POST", policies, map[string]any{"name": "v1", "version": 1, "mode": "main"}).Object())
		enc := idOf(a.Must(http.StatusCreated, "POST", proposals, map[string]any{"name": "enc", "encryption_algorithm": "aes-256-gcm"}).Object())
		for _, c := range []struct {
			name, method, path string
			body               map[string]any
			want               int
			msg                string
		}{
			{"proposal without algorithm", "POST", proposals, map[string]any{"name": "none"}, 400,
				"Encryption and/or authentication algorithm must be defined"},
			{"proposal with authentication only", "POST", proposals,
				map[string]any{"name": "auth", "authentication_algorithm": "hmac-sha256"}, 201, ""},
			{"proposal losing its only algorithm", "PATCH", fmt.Sprintf("%s%d/", proposals, enc),
				map[string]any{"encryption_algorithm": nil}, 400, "Encryption and/or authentication algorithm must be defined"},
			{"IKEv1 without mode", "POST", policies, map[string]any{"name": "a", "version": 1}, 400,
				"Mode is required for selected IKE version"},
			{"IKEv2 with a mode", "POST", policies, map[string]any{"name": "b", "version": 2, "mode": "aggressive"}, 400,
				"Mode cannot be used for selected IKE version"},
			{"IKEv2 without mode", "POST", policies, map[string]any{"name": "c", "version": 2}, 201, ""},
			{"IKEv1 made v2, its mode kept", "PATCH", fmt.Sprintf("%s%d/", policies, v1), map[string]any{"version": 2}, 400,
				"Mode cannot be used for selected IKE version"},
			{"IKEv1 losing its mode", "PATCH", fmt.Sprintf("%s%d/", policies, v1), map[string]any{"mode": ""}, 400,
				"Mode is required for selected IKE version"},
			{"IKEv1 made v2 without mode", "PATCH", fmt.Sprintf("%s%d/", policies, v1), map[string]any{"version": 2, "mode": ""}, 200, ""},
		} {
			t.Run(c.name, func(t *testing.T) {
				list := c.path[:strings.Index(c.path[len("/api/vpn/"):], "/")+len("/api/vpn/")+1]
				before := a.Must(http.StatusOK, "GET", list+"?limit=0", nil).Body
				r := a.Must(c.want, c.method, c.path, c.body)
				if c.want != 400 {
					return
				}
				if msgs, _ := r.Object()["non_field_errors"].([]any); len(msgs) != 1 || msgs[0] != c.msg {
					t.Errorf("body %s, want non_field_errors %q", r.Body, c.msg)
				}
				if after := a.Must(http.StatusOK, "GET", list+"?limit=0", nil).Body; string(after) != string(before) {
					t.Errorf("a refused write changed the list:\n%s\n%s", before, after)
				}
			})
		}
	})
}

// TestVPNL2VPNTerminationFilters: NetBox's L2VPNTerminationFilterSet
// (vlan_vid a NumberFilter with its lookups, a bad number a 400 and never
// a database error; device as interface__device; site and region through
// each object's owner), and the l2vpn_id and l2vpn (identifier) filters
// of interfaces, VM interfaces and VLANs, through their termination.
func TestVPNL2VPNTerminationFilters(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newVPNWorld(t, e)
		a := w.e
		p2p := idOf(a.Must(http.StatusCreated, "POST", l2vpnsPath, map[string]any{"name": "Wire", "slug": "wire", "type": "vpws", "identifier": 7}).Object())
		mp := idOf(a.Must(http.StatusCreated, "POST", l2vpnsPath, map[string]any{"name": "Fabric", "slug": "fabric", "type": "vxlan", "identifier": 9}).Object())
		for _, b := range []map[string]any{
			{"l2vpn": p2p, "assigned_object_type": "dcim.interface", "assigned_object_id": w.eth2},
			{"l2vpn": p2p, "assigned_object_type": "ipam.vlan", "assigned_object_id": w.vlan1},
			{"l2vpn": mp, "assigned_object_type": "virtualization.vminterface", "assigned_object_id": w.vmif},
			{"l2vpn": mp, "assigned_object_type": "dcim.interface", "assigned_object_id": w.eth0},
			{"l2vpn": mp, "assigned_object_type": "ipam.vlan", "assigned_object_id": w.vlan2},
		} {
			a.Must(http.StatusCreated, "POST", l2vpnTermPath, b)
		}
		for _, c := range []struct {
			path, q string
			want    int // -1: 400 naming the parameter
		}{
			{l2vpnTermPath, "q=wir", 2}, // the L2VPN's name only, as NetBox's search()
			{l2vpnTermPath, "q=eth", 0},
			{l2vpnTermPath, "vlan_vid=10", 1},
			{l2vpnTermPath, "vlan_vid__n=10", 4},
			{l2vpnTermPath, "vlan_vid__gte=10", 2},
			{l2vpnTermPath, "vlan_vid__gt=10", 1},
			{l2vpnTermPath, "vlan_vid__lt=15.5", 1},
			{l2vpnTermPath, "vlan_vid__lte=19.5", 1},
			{l2vpnTermPath, "vlan_vid__empty=true", 3},
			{l2vpnTermPath, "vlan_vid__empty=false", 2},
			{l2vpnTermPath, "vlan_vid=10.5", 0},
			{l2vpnTermPath, "vlan_vid=1e300", 0},
			{l2vpnTermPath, "vlan_vid=ten", -1},
			{l2vpnTermPath, "vlan_vid__gt=null", -1},
			{l2vpnTermPath, fmt.Sprintf("device_id=%d", w.dev), 2},
			{l2vpnTermPath, fmt.Sprintf("device_id__n=%d", w.dev), 3},
			{l2vpnTermPath, "device=r1", 2},
			{l2vpnTermPath, fmt.Sprintf("virtual_machine_id=%d", w.vm), 1},
			{l2vpnTermPath, "site=paris", 4}, // not VLAN 20, which has no site
			{l2vpnTermPath, fmt.Sprintf("site_id=%d", w.site), 4},
			{l2vpnTermPath, "region=europe", 4},
			{l2vpnTermPath, fmt.Sprintf("region_id=%d", w.region), 4},
			{l2vpnTermPath, "site=nowhere", 0},
			{l2vpnTermPath, "site_id=paris", -1},
			{"/api/dcim/interfaces/", fmt.Sprintf("l2vpn_id=%d", p2p), 1},
			{"/api/dcim/interfaces/", fmt.Sprintf("l2vpn_id__n=%d", p2p), 2},
			{"/api/dcim/interfaces/", "l2vpn=9", 1},
			{"/api/dcim/interfaces/", "l2vpn=7&l2vpn=9", 2},
			{"/api/virtualization/interfaces/", fmt.Sprintf("l2vpn_id=%d", mp), 1},
			{"/api/virtualization/interfaces/", fmt.Sprintf("l2vpn_id=%d", p2p), 0},
			{"/api/ipam/vlans/", fmt.Sprintf("l2vpn_id=%d", p2p), 1},
			{"/api/ipam/vlans/", "l2vpn__n=7", 1},
			{"/api/ipam/vlans/", "l2vpn=seven", -1},
		} {
			t.Run(c.path+"?"+c.q, func(t *testing.T) {
				if c.want < 0 {
					r := a.Must(http.StatusBadRequest, "GET", c.path+"?"+c.q, nil)
					name, _, _ := strings.Cut(c.q, "=")
					if _, ok := r.Object()[name]; !ok {
						t.Errorf("400 without %s: %s", name, r.Body)
					}
					return
				}
				r := a.Must(http.StatusOK, "GET", c.path+"?"+c.q+"&limit=1", nil)
				if n := int(r.Object()["count"].(float64)); n != c.want {
					t.Errorf("count %d, want %d", n, c.want)
				}
			})
		}
	})
}

// TestVPNL2VPNTerminationOnObjects: an interface, a VM interface and a
// VLAN show their L2VPN termination nested as NetBox does (id, url,
// display, l2vpn), or null; deleting the termination makes it null again.
func TestVPNL2VPNTerminationOnObjects(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newVPNWorld(t, e)
		a := w.e
		l2 := idOf(a.Must(http.StatusCreated, "POST", l2vpnsPath, map[string]any{"name": "Fabric", "slug": "fabric", "type": "vxlan", "identifier": 9}).Object())
		terms := map[string]int{}
		for _, o := range []struct {
			ct   string
			id   int
			path string
		}{
			{"dcim.interface", w.eth0, "/api/dcim/interfaces/"},
			{"virtualization.vminterface", w.vmif, "/api/virtualization/interfaces/"},
			{"ipam.vlan", w.vlan1, "/api/ipam/vlans/"},
		} {
			term := idOf(a.Must(http.StatusCreated, "POST", l2vpnTermPath,
				map[string]any{"l2vpn": l2, "assigned_object_type": o.ct, "assigned_object_id": o.id}).Object())
			terms[o.ct] = term
			got, _ := w.get(t, o.path, o.id)["l2vpn_termination"].(map[string]any)
			keys := make([]string, 0, len(got))
			for k := range got {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			nested, _ := got["l2vpn"].(map[string]any)
			if !slices.Equal(keys, []string{"display", "id", "l2vpn", "url"}) || idOf(got) != term ||
				nested["name"] != "Fabric" || !strings.HasSuffix(fmt.Sprint(got["url"]), fmt.Sprintf("%s%d/", l2vpnTermPath, term)) {
				t.Errorf("%s l2vpn_termination %v, want termination %d nested", o.ct, got, term)
			}
		}
		// Objects of the same id but another type do not take it: eth1 and
		// VLAN 20 have none (and the list renders every row's).
		pg := a.Must(http.StatusOK, "GET", "/api/dcim/interfaces/?brief=0", nil).Object()
		for _, r := range pg["results"].([]any) {
			m := r.(map[string]any)
			if idOf(m) != w.eth0 && m["l2vpn_termination"] != nil {
				t.Errorf("interface %v: l2vpn_termination %v, want null", m["name"], m["l2vpn_termination"])
			}
		}
		if v := w.get(t, "/api/ipam/vlans/", w.vlan2)["l2vpn_termination"]; v != nil {
			t.Errorf("VLAN 20 l2vpn_termination %v, want null", v)
		}
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", l2vpnTermPath, terms["dcim.interface"]), nil)
		if v := w.get(t, "/api/dcim/interfaces/", w.eth0)["l2vpn_termination"]; v != nil {
			t.Errorf("after the termination's deletion: %v, want null", v)
		}
	})
}

// TestVPNRoots: /api/ lists NetBox 4.6.8's apps (APIRootView: vpn and
// wireless included), and /api/vpn/ the ten endpoints of vpn/api/urls.py,
// sorted as NetBox's router sorts them, each its list URL.
func TestVPNRoots(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		keys := func(path string) ([]string, map[string]any) {
			t.Helper()
			r := a.Must(http.StatusOK, "GET", path, nil)
			var ks []string
			// The body's key order, as a client would read it.
			dec := json.NewDecoder(bytes.NewReader(r.Body))
			if _, err := dec.Token(); err != nil {
				t.Fatal(err)
			}
			for dec.More() {
				k, _ := dec.Token()
				ks = append(ks, k.(string))
				var skip any
				if err := dec.Decode(&skip); err != nil {
					t.Fatal(err)
				}
			}
			return ks, r.Object()
		}
		root, _ := keys("/api/")
		if want := []string{"circuits", "core", "dcim", "extras", "ipam", "plugins", "status", "tenancy", "users",
			"virtualization", "vpn", "wireless"}; !slices.Equal(root, want) {
			t.Errorf("/api/ lists %v, NetBox %v", root, want)
		}
		vpn, urls := keys("/api/vpn/")
		want := []string{"ike-policies", "ike-proposals", "ipsec-policies", "ipsec-profiles", "ipsec-proposals",
			"l2vpn-terminations", "l2vpns", "tunnel-groups", "tunnel-terminations", "tunnels"}
		if !slices.Equal(vpn, want) {
			t.Errorf("/api/vpn/ lists %v, NetBox %v", vpn, want)
		}
		for _, k := range want {
			if u, _ := urls[k].(string); !strings.HasSuffix(u, "/api/vpn/"+k+"/") {
				t.Errorf("/api/vpn/ %s: %v", k, urls[k])
			}
			a.Must(http.StatusOK, "GET", "/api/vpn/"+k+"/", nil)
		}
	})
}
