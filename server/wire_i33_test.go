package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestTokenPepperIDByVersion: a v1 token's pepper_id renders null, as
// NetBox's (whose v1 tokens keep their key in the clear, unpeppered); a v2
// token shows the pepper its digest was keyed with. Both in the detail, the
// list and the creating response.
func TestTokenPepperIDByVersion(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		_, uid := e.NewUser("pepper")
		for _, version := range []int{1, 2} {
			created := e.Must(http.StatusCreated, "POST", "/api/users/tokens/", map[string]any{"user": uid, "version": version}).Object()
			tid := itoa(int(created["id"].(float64)))
			detail := e.Must(http.StatusOK, "GET", "/api/users/tokens/"+tid+"/", nil).Object()
			listed := e.Must(http.StatusOK, "GET", "/api/users/tokens/?id="+tid, nil).Results()[0]
			for where, obj := range map[string]map[string]any{"create": created, "detail": detail, "list": listed} {
				pepper, present := obj["pepper_id"]
				switch {
				case !present:
					t.Errorf("v%d %s: no pepper_id key", version, where)
				case version == 1 && pepper != nil:
					t.Errorf("v%d %s: pepper_id %v, want null", version, where, pepper)
				case version == 2 && pepper == nil:
					t.Errorf("v%d %s: pepper_id null, want the pepper id", version, where)
				}
			}
		}
	})
}

// TestPrimaryIPNestedForm: devices, virtual machines and virtual device
// contexts render primary_ip, primary_ip4, primary_ip6 and oob_ip as NetBox
// 4.6's IPAddressSerializer(nested=True, fields=[*brief_fields, 'dns_name',
// 'nat_inside', 'nat_outside']): the brief fields plus those three, in the
// serializer's order, nat_inside and nat_outside as NestedIPAddressSerializer.
// Other relations to addresses keep the brief form. The list's statements
// do not grow with its length.
func TestPrimaryIPNestedForm(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newCircuitWorld(t, e)
		a := e.Admin()
		mk := func(path string, body map[string]any) map[string]any {
			t.Helper()
			return a.Must(http.StatusCreated, "POST", path, body).Object()
		}
		const ips = "/api/ipam/ip-addresses/"
		natForm := func(ip map[string]any) string {
			return fmt.Sprintf(`{"id":%d,"url":%q,"display_url":%q,"display":%q,"family":%v,"address":%q}`,
				idOf(ip), ip["url"], ip["display_url"], ip["display"], ip["family"].(map[string]any)["value"], ip["address"])
		}
		primaryForm := func(ip map[string]any, inside string, outside ...map[string]any) string {
			outs := make([]string, len(outside))
			for i, o := range outside {
				outs[i] = natForm(o)
			}
			return fmt.Sprintf(`{"id":%d,"url":%q,"display":%q,"family":{"value":%v,"label":%q},"address":%q,"nat_inside":%s,"nat_outside":[%s],"dns_name":%q,"description":%q}`,
				idOf(ip), ip["url"], ip["display"], ip["family"].(map[string]any)["value"], ip["family"].(map[string]any)["label"],
				ip["address"], inside, strings.Join(outs, ","), ip["dns_name"], ip["description"])
		}
		vcs := func(n int) string {
			return fmt.Sprintf("/api/dcim/devices/?site_id=%d&ordering=id&limit=%d", w.site, n)
		}

		inner := mk(ips, map[string]any{"address": "192.0.2.1/32"})
		v4 := mk(ips, map[string]any{"address": "10.0.0.1/24", "dns_name": "r1.example.com", "description": "loopback",
			"assigned_object_type": "dcim.interface", "assigned_object_id": w.phys, "nat_inside": idOf(inner)})
		out1 := mk(ips, map[string]any{"address": "203.0.113.9/32", "nat_inside": idOf(v4)})
		out2 := mk(ips, map[string]any{"address": "203.0.113.8/32", "nat_inside": idOf(v4)})
		v6 := mk(ips, map[string]any{"address": "2001:db8::1/64", "assigned_object_type": "dcim.interface", "assigned_object_id": w.phys})
		oob := mk(ips, map[string]any{"address": "10.9.0.1/24", "assigned_object_type": "dcim.interface", "assigned_object_id": w.vif})
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/devices/%d/", w.dev), map[string]any{
			"primary_ip4": idOf(v4), "primary_ip6": idOf(v6), "oob_ip": idOf(oob)})
		// NetBox orders nat_outside by the address (IPAddress.Meta.ordering).
		v4Form := primaryForm(v4, natForm(inner), out2, out1)
		v6Form := primaryForm(v6, "null")
		oobForm := primaryForm(oob, "null")

		vdc := mk("/api/dcim/virtual-device-contexts/", map[string]any{"device": w.dev, "name": "ctx", "status": "active",
			"primary_ip4": idOf(v4)})
		ctype := mk("/api/virtualization/cluster-types/", map[string]any{"name": "CT", "slug": "ct"})
		cl := mk("/api/virtualization/clusters/", map[string]any{"name": "C", "type": idOf(ctype)})
		vm := mk("/api/virtualization/virtual-machines/", map[string]any{"name": "vm1", "cluster": idOf(cl)})
		vmif := mk("/api/virtualization/interfaces/", map[string]any{"virtual_machine": idOf(vm), "name": "eth0"})
		vm6 := mk(ips, map[string]any{"address": "2001:db8::2/64", "assigned_object_type": "virtualization.vminterface",
			"assigned_object_id": idOf(vmif), "nat_inside": idOf(v6)})
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/virtualization/virtual-machines/%d/", idOf(vm)), map[string]any{"primary_ip6": idOf(vm6)})
		// v6 is now the inside address of vm6.
		v6Form = primaryForm(v6, "null", vm6)
		vm6Form := primaryForm(vm6, natForm(v6))

		fieldsOf := func(raw []byte) map[string]json.RawMessage {
			t.Helper()
			var m map[string]json.RawMessage
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			return m
		}
		check := func(where string, obj map[string]json.RawMessage, want map[string]string) {
			t.Helper()
			for k, v := range want {
				if got := string(obj[k]); got != v {
					t.Errorf("%s %s:\n got %s\nwant %s", where, k, got, v)
				}
			}
		}
		devWant := map[string]string{"primary_ip": v6Form, "primary_ip4": v4Form, "primary_ip6": v6Form, "oob_ip": oobForm}
		check("device", fieldsOf(a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/devices/%d/", w.dev), nil).Body), devWant)
		var list struct{ Results []json.RawMessage }
		if err := json.Unmarshal(a.Must(http.StatusOK, "GET", vcs(10), nil).Body, &list); err != nil || len(list.Results) != 1 {
			t.Fatalf("device list: %v %d", err, len(list.Results))
		}
		check("device list", fieldsOf(list.Results[0]), devWant)
		check("vdc", fieldsOf(a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/virtual-device-contexts/%d/", idOf(vdc)), nil).Body),
			map[string]string{"primary_ip": v4Form, "primary_ip4": v4Form, "primary_ip6": "null"})
		check("vm", fieldsOf(a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/virtualization/virtual-machines/%d/", idOf(vm)), nil).Body),
			map[string]string{"primary_ip": vm6Form, "primary_ip6": vm6Form, "primary_ip4": "null"})
		// Elsewhere an address keeps its brief form (a service's ipaddresses).
		svc := mk("/api/ipam/services/", map[string]any{"name": "ssh", "protocol": "tcp", "ports": []int{22},
			"parent_object_type": "dcim.device", "parent_object_id": w.dev, "ipaddresses": []int{idOf(v4)}})
		brief := fmt.Sprintf(`[{"id":%d,"url":%q,"display":%q,"family":{"value":4,"label":"IPv4"},"address":%q,"description":"loopback"}]`,
			idOf(v4), v4["url"], v4["display"], v4["address"])
		check("service", fieldsOf(a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/ipam/services/%d/", idOf(svc)), nil).Body),
			map[string]string{"ipaddresses": brief})

		// Two more devices with NATed primaries: the list costs the same.
		one := e.Cost(vcs(1))
		for i := range 2 {
			d := mk("/api/dcim/devices/", map[string]any{"name": fmt.Sprintf("r%d", i+2), "device_type": w.dt, "role": w.role, "site": w.site})
			ifc := mk("/api/dcim/interfaces/", map[string]any{"device": idOf(d), "name": "eth0", "type": "1000base-t"})
			in := mk(ips, map[string]any{"address": fmt.Sprintf("192.0.2.%d/32", 10+i)})
			p := mk(ips, map[string]any{"address": fmt.Sprintf("10.1.%d.1/24", i), "assigned_object_type": "dcim.interface",
				"assigned_object_id": idOf(ifc), "nat_inside": idOf(in)})
			mk(ips, map[string]any{"address": fmt.Sprintf("203.0.113.%d/32", 20+i), "nat_inside": idOf(p)})
			a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/devices/%d/", idOf(d)), map[string]any{"primary_ip4": idOf(p)})
		}
		if three := e.Cost(vcs(3)); three != one {
			t.Errorf("a list of 3 devices costs %d statements, of 1 %d", three, one)
		}
	})
}

// TestConditionalUniqueAsDRF: NetBox's single-field constraints with a
// condition (a tenant's name unique among tenants without a group) are
// checked by DRF's UniqueValidator on the field, whose queryset is the
// condition's rows whatever the new row's values: tenant "T" in a group is
// refused while a top-level "T" exists (the field's error, the model
// field's message), but a top-level "U" is accepted beside a "U" in a
// group. A write that does not give the field is not checked so (DRF
// validates only the fields given); the database's condition still holds.
func TestConditionalUniqueAsDRF(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		const tenants, regions = "/api/tenancy/tenants/", "/api/dcim/regions/"
		g := idOf(a.Must(http.StatusCreated, "POST", "/api/tenancy/tenant-groups/", map[string]any{"name": "G", "slug": "g"}).Object())
		a.Must(http.StatusCreated, "POST", tenants, map[string]any{"name": "T", "slug": "t"})
		refused(t, a, "POST", tenants, map[string]any{"name": "T", "slug": "t-in-g", "group": g}, "name", "tenant with this name already exists.")
		refused(t, a, "POST", tenants, map[string]any{"name": "T2", "slug": "t", "group": g}, "slug", "tenant with this slug already exists.")
		u := idOf(a.Must(http.StatusCreated, "POST", tenants, map[string]any{"name": "U", "slug": "u", "group": g}).Object())
		a.Must(http.StatusCreated, "POST", tenants, map[string]any{"name": "U", "slug": "u-top"})
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", tenants, u), map[string]any{"description": "grouped"})
		refused(t, a, "PATCH", fmt.Sprintf("%s%d/", tenants, u), map[string]any{"name": "U"}, "name", "tenant with this name already exists.")
		// The same rule on a tree: a region named like a top-level one.
		top := idOf(a.Must(http.StatusCreated, "POST", regions, map[string]any{"name": "Europe", "slug": "europe"}).Object())
		refused(t, a, "POST", regions, map[string]any{"name": "Europe", "slug": "europe-2", "parent": top}, "name", "region with this name already exists.")
		a.Must(http.StatusCreated, "POST", regions, map[string]any{"name": "France", "slug": "france", "parent": top})
		a.Must(http.StatusCreated, "POST", regions, map[string]any{"name": "France", "slug": "france-top"})
	})
}
