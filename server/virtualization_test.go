package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// virtWorld is two sites (the first in a region, with a location), a
// cluster type and group, a cluster at each site, a device hosting the
// first cluster and a standalone one, and a role and platform for VMs.
type virtWorld struct {
	e                                *servertest.Env
	region, site, site2, loc         int
	ctype, cgroup, cluster, cluster2 int
	host, standalone, role, platform int
	dtype, drole                     int
}

const (
	clustersPath = "/api/virtualization/clusters/"
	vmsPath      = "/api/virtualization/virtual-machines/"
	vmIfacesPath = "/api/virtualization/interfaces/"
	vdisksPath   = "/api/virtualization/virtual-disks/"
)

func newVirtWorld(t *testing.T, e *servertest.Env) *virtWorld {
	a := e.Admin()
	mk := func(path string, body map[string]any) int {
		t.Helper()
		return idOf(a.Must(http.StatusCreated, "POST", path, body).Object())
	}
	w := &virtWorld{e: a}
	w.region = mk("/api/dcim/regions/", map[string]any{"name": "Europe", "slug": "europe"})
	w.site = mk("/api/dcim/sites/", map[string]any{"name": "Paris", "slug": "paris", "region": w.region})
	w.site2 = mk("/api/dcim/sites/", map[string]any{"name": "Berlin", "slug": "berlin"})
	w.loc = mk("/api/dcim/locations/", map[string]any{"name": "Hall 1", "slug": "hall-1", "site": w.site})
	w.ctype = mk("/api/virtualization/cluster-types/", map[string]any{"name": "KVM", "slug": "kvm"})
	w.cgroup = mk("/api/virtualization/cluster-groups/", map[string]any{"name": "Prod", "slug": "prod"})
	w.cluster = mk(clustersPath, map[string]any{"name": "pve-paris", "type": w.ctype, "group": w.cgroup,
		"scope_type": "dcim.site", "scope_id": w.site})
	w.cluster2 = mk(clustersPath, map[string]any{"name": "pve-berlin", "type": w.ctype, "scope_type": "dcim.site", "scope_id": w.site2})
	man := mk("/api/dcim/manufacturers/", map[string]any{"name": "M", "slug": "m"})
	w.dtype = mk("/api/dcim/device-types/", map[string]any{"manufacturer": man, "model": "X", "slug": "x"})
	w.drole = mk("/api/dcim/device-roles/", map[string]any{"name": "Host", "slug": "host"})
	w.host = mk("/api/dcim/devices/", map[string]any{"name": "hv1", "device_type": w.dtype, "role": w.drole, "site": w.site,
		"cluster": w.cluster})
	w.standalone = mk("/api/dcim/devices/", map[string]any{"name": "hv2", "device_type": w.dtype, "role": w.drole, "site": w.site})
	w.role = mk("/api/dcim/device-roles/", map[string]any{"name": "App", "slug": "app"})
	w.platform = mk("/api/dcim/platforms/", map[string]any{"name": "Debian", "slug": "debian"})
	return w
}

func (w *virtWorld) vm(t *testing.T, name string, kv ...any) int {
	t.Helper()
	b := map[string]any{"name": name}
	for i := 0; i+1 < len(kv); i += 2 {
		b[kv[i].(string)] = kv[i+1]
	}
	return idOf(w.e.Must(http.StatusCreated, "POST", vmsPath, b).Object())
}

func (w *virtWorld) get(t *testing.T, path string, id int) map[string]any {
	t.Helper()
	return w.e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", path, id), nil).Object()
}

func (w *virtWorld) count(t *testing.T, path, query string) int {
	t.Helper()
	return len(w.e.Must(http.StatusOK, "GET", path+"?"+query+"&limit=0", nil).Results())
}

func nestedID(v any) int {
	m, _ := v.(map[string]any)
	if m == nil {
		return 0
	}
	return idOf(m)
}

// TestVirtualMachinePlacement: VirtualMachine.clean() and save(): a VM is
// at a site, in a cluster or on a device, those agreeing (a cluster in
// another site, a clustered host without its cluster, a host outside the
// cluster are refused naming the field, with nothing written); the site
// follows the cluster or the device; the type's defaults fill a new VM;
// the cluster's counts and allocations follow its VMs; a cluster moved to
// another site takes its VMs along.
func TestVirtualMachinePlacement(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newVirtWorld(t, e)
		a := w.e
		refused(t, a, "POST", vmsPath, map[string]any{"name": "x", "cluster": w.cluster, "site": w.site2},
			"cluster", "The selected cluster (pve-paris) is not assigned to this site (Berlin).")
		refused(t, a, "POST", vmsPath, map[string]any{"name": "x"},
			"__all__", "A virtual machine must be assigned to a site, cluster, or device.")
		refused(t, a, "POST", vmsPath, map[string]any{"name": "x", "device": w.host},
			"cluster", "Must specify the assigned device's cluster (pve-paris) when assigning host device hv1.")
		refused(t, a, "POST", vmsPath, map[string]any{"name": "x", "device": w.standalone, "cluster": w.cluster},
			"device", "The selected device (hv2) is not assigned to this cluster (pve-paris).")
		refused(t, a, "POST", vmsPath, map[string]any{"name": "x", "device": w.standalone, "site": w.site2},
			"site", "The selected device (hv2) is not assigned to this site (Berlin).")

		vm1 := w.vm(t, "web1", "cluster", w.cluster, "device", w.host, "vcpus", 2, "memory", 1024)
		vm2 := w.vm(t, "web2", "device", w.standalone, "vcpus", 1.5, "memory", 512)
		// NetBox's four name constraints: per cluster (and tenant), and
		// without a cluster per device (and tenant), case-insensitively.
		refused(t, a, "POST", vmsPath, map[string]any{"name": "WEB1", "cluster": w.cluster},
			"__all__", "Virtual machine name must be unique per cluster.")
		refused(t, a, "POST", vmsPath, map[string]any{"name": "Web2", "device": w.standalone},
			"__all__", "Virtual machine name must be unique per device.")
		tenant := idOf(a.Must(http.StatusCreated, "POST", "/api/tenancy/tenants/", map[string]any{"name": "T", "slug": "t"}).Object())
		web2t := w.vm(t, "web2", "device", w.standalone, "tenant", tenant)
		refused(t, a, "POST", vmsPath, map[string]any{"name": "web2", "device": w.standalone, "tenant": tenant},
			"__all__", "Virtual machine name must be unique per device and tenant.")
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", vmsPath, web2t), nil)
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/tenancy/tenants/%d/", tenant), nil)
		if s := nestedID(w.get(t, vmsPath, vm1)["site"]); s != w.site {
			t.Errorf("VM in a cluster: site %d, want the cluster's %d", s, w.site)
		}
		if s := nestedID(w.get(t, vmsPath, vm2)["site"]); s != w.site {
			t.Errorf("VM on a standalone device: site %d, want the device's %d", s, w.site)
		}
		c := w.get(t, clustersPath, w.cluster)
		if c["virtualmachine_count"] != 1.0 || c["device_count"] != 1.0 || c["allocated_vcpus"] != 2.0 ||
			c["allocated_memory"] != 1024.0 || c["allocated_disk"] != nil {
			t.Errorf("cluster counts and allocations: %v %v %v %v %v", c["virtualmachine_count"], c["device_count"],
				c["allocated_vcpus"], c["allocated_memory"], c["allocated_disk"])
		}
		// The counts of sites, roles, platforms and tenants.
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", vmsPath, vm2), map[string]any{"role": w.role, "platform": w.platform})
		site := w.get(t, "/api/dcim/sites/", w.site)
		role := w.get(t, "/api/dcim/device-roles/", w.role)
		platform := w.get(t, "/api/dcim/platforms/", w.platform)
		if site["virtualmachine_count"] != 2.0 || role["virtualmachine_count"] != 1.0 || platform["virtualmachine_count"] != 1.0 {
			t.Errorf("virtualmachine_count: site %v, role %v, platform %v", site["virtualmachine_count"],
				role["virtualmachine_count"], platform["virtualmachine_count"])
		}
		// Moving the VM to the other cluster moves the allocations.
		refused(t, a, "PATCH", fmt.Sprintf("%s%d/", vmsPath, vm1), map[string]any{"cluster": w.cluster2, "device": nil},
			"cluster", "The selected cluster (pve-berlin) is not assigned to this site (Paris).")
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", vmsPath, vm1), map[string]any{"cluster": w.cluster2, "device": nil, "site": nil})
		if got := w.get(t, vmsPath, vm1); nestedID(got["site"]) != w.site2 {
			t.Errorf("VM moved to the Berlin cluster: site %v", got["site"])
		}
		if c := w.get(t, clustersPath, w.cluster); c["allocated_vcpus"] != nil || c["virtualmachine_count"] != 0.0 {
			t.Errorf("old cluster after the move: %v %v", c["allocated_vcpus"], c["virtualmachine_count"])
		}
		if c := w.get(t, clustersPath, w.cluster2); c["allocated_vcpus"] != 2.0 {
			t.Errorf("new cluster after the move: %v", c["allocated_vcpus"])
		}
		// A cluster rescoped to a location of Paris takes its VMs to Paris
		// (NetBox's update_virtualmachine_site); its cached scope feeds the
		// site, location and region filters.
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", clustersPath, w.cluster2), map[string]any{"scope_type": "dcim.location", "scope_id": w.loc})
		if got := w.get(t, vmsPath, vm1); nestedID(got["site"]) != w.site {
			t.Errorf("VM of a cluster moved to Paris: site %v", got["site"])
		}
		for q, want := range map[string]int{
			fmt.Sprintf("site_id=%d", w.site): 2, fmt.Sprintf("location_id=%d", w.loc): 1,
			fmt.Sprintf("region_id=%d", w.region): 2, fmt.Sprintf("site_id=%d", w.site2): 0,
		} {
			if n := w.count(t, clustersPath, q); n != want {
				t.Errorf("clusters ?%s: %d, want %d", q, n, want)
			}
		}
		// Cluster.clean(): the hosts must lie in the scope.
		refused(t, a, "PATCH", fmt.Sprintf("%s%d/", clustersPath, w.cluster), map[string]any{"scope_type": "dcim.site", "scope_id": w.site2},
			"scope", "1 devices are assigned as hosts for this cluster but are not in site Berlin")
		// NetBox's unique (_site, name): a second pve-paris in Paris.
		refused(t, a, "POST", clustersPath, map[string]any{"name": "pve-paris", "type": w.ctype, "scope_type": "dcim.location", "scope_id": w.loc},
			"__all__", "Cluster with this Site and Name already exists.")
		// Device.clean(): a host in another site than its cluster's.
		refused(t, a, "PATCH", fmt.Sprintf("/api/dcim/devices/%d/", w.standalone), map[string]any{"cluster": w.cluster2, "location": nil},
			"cluster", "The assigned cluster belongs to a different location (Hall 1)")
		if n := w.count(t, "/api/dcim/devices/", fmt.Sprintf("cluster_group_id=%d", w.cgroup)); n != 1 {
			t.Errorf("devices ?cluster_group_id: %d", n)
		}

		// The type's defaults fill a new VM where it leaves them empty.
		vt := idOf(a.Must(http.StatusCreated, "POST", "/api/virtualization/virtual-machine-types/", map[string]any{
			"name": "Small", "slug": "small", "default_platform": w.platform, "default_vcpus": 1.25, "default_memory": 2048}).Object())
		got := a.Must(http.StatusCreated, "POST", vmsPath, map[string]any{"name": "typed", "site": w.site,
			"virtual_machine_type": vt, "memory": 4096}).Object()
		if nestedID(got["platform"]) != w.platform || got["vcpus"] != 1.25 || got["memory"] != 4096.0 {
			t.Errorf("type defaults: platform %v vcpus %v memory %v", got["platform"], got["vcpus"], got["memory"])
		}
		if vtGot := w.get(t, "/api/virtualization/virtual-machine-types/", vt); vtGot["virtual_machine_count"] != 1.0 {
			t.Errorf("virtual_machine_count of the type: %v", vtGot["virtual_machine_count"])
		}
		// A cluster with VMs cannot go (PROTECT).
		a.Must(http.StatusConflict, "DELETE", fmt.Sprintf("%s%d/", clustersPath, w.cluster2), nil)
	})
}

// TestVirtualMachineDisksAndIPs: a VM's disk is the sum of its virtual
// disks (a different figure is refused); its primary IPv4 is an address
// on one of its interfaces (another VM's, or an IPv6 address, refused);
// the interface's MAC address and IP count show; config_context is the
// local context data, left out with ?exclude=config_context.
func TestVirtualMachineDisksAndIPs(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newVirtWorld(t, e)
		a := w.e
		vm := w.vm(t, "db1", "cluster", w.cluster, "disk", 10, "local_context_data", map[string]any{"role": "db"})
		other := w.vm(t, "db2", "cluster", w.cluster)
		for i, size := range []int{100, 200, 50} {
			a.Must(http.StatusCreated, "POST", vdisksPath, map[string]any{"virtual_machine": vm, "name": fmt.Sprintf("sd%d", i), "size": size})
		}
		got := w.get(t, vmsPath, vm)
		if got["disk"] != 350.0 || got["virtual_disk_count"] != 3.0 {
			t.Errorf("disk %v (want 350), virtual_disk_count %v", got["disk"], got["virtual_disk_count"])
		}
		if c := w.get(t, clustersPath, w.cluster); c["allocated_disk"] != 350.0 {
			t.Errorf("cluster allocated_disk: %v", c["allocated_disk"])
		}
		refused(t, a, "PATCH", fmt.Sprintf("%s%d/", vmsPath, vm), map[string]any{"disk": 100},
			"disk", "The specified disk size (100) must match the aggregate size of assigned virtual disks (350).")

		iface := idOf(a.Must(http.StatusCreated, "POST", vmIfacesPath, map[string]any{"virtual_machine": vm, "name": "eth0"}).Object())
		oiface := idOf(a.Must(http.StatusCreated, "POST", vmIfacesPath, map[string]any{"virtual_machine": other, "name": "eth0"}).Object())
		ip := idOf(a.Must(http.StatusCreated, "POST", "/api/ipam/ip-addresses/", map[string]any{"address": "10.1.0.5/24",
			"assigned_object_type": "virtualization.vminterface", "assigned_object_id": iface}).Object())
		oip := idOf(a.Must(http.StatusCreated, "POST", "/api/ipam/ip-addresses/", map[string]any{"address": "10.1.0.6/24",
			"assigned_object_type": "virtualization.vminterface", "assigned_object_id": oiface}).Object())
		ip6 := idOf(a.Must(http.StatusCreated, "POST", "/api/ipam/ip-addresses/", map[string]any{"address": "2001:db8::5/64",
			"assigned_object_type": "virtualization.vminterface", "assigned_object_id": iface}).Object())
		refused(t, a, "PATCH", fmt.Sprintf("%s%d/", vmsPath, vm), map[string]any{"primary_ip4": oip},
			"primary_ip4", "The specified IP address (10.1.0.6/24) is not assigned to this VM.")
		refused(t, a, "PATCH", fmt.Sprintf("%s%d/", vmsPath, vm), map[string]any{"primary_ip4": ip6},
			"primary_ip4", "Must be an IPv4 address. (2001:db8::5/64 is an IPv6 address.)")
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", vmsPath, vm), map[string]any{"primary_ip4": ip})
		got = w.get(t, vmsPath, vm)
		if nestedID(got["primary_ip4"]) != ip || nestedID(got["primary_ip"]) != ip {
			t.Errorf("primary_ip4 %v, primary_ip %v", got["primary_ip4"], got["primary_ip"])
		}
		// The primary address cannot move to another VM's interface.
		refused(t, a, "PATCH", fmt.Sprintf("/api/ipam/ip-addresses/%d/", ip), map[string]any{"assigned_object_id": oiface},
			"__all__", "Cannot reassign IP address while it is designated as the primary IP for the parent object")
		if n := w.count(t, "/api/ipam/ip-addresses/", fmt.Sprintf("virtual_machine_id=%d", vm)); n != 2 {
			t.Errorf("ip-addresses ?virtual_machine_id: %d", n)
		}
		if n := w.count(t, "/api/ipam/ip-addresses/", fmt.Sprintf("vminterface_id=%d", oiface)); n != 1 {
			t.Errorf("ip-addresses ?vminterface_id: %d", n)
		}
		if n := w.count(t, vmsPath, "has_primary_ip=true"); n != 1 {
			t.Errorf("VMs ?has_primary_ip=true: %d", n)
		}
		mac := idOf(a.Must(http.StatusCreated, "POST", "/api/dcim/mac-addresses/", map[string]any{"mac_address": "52:54:00:12:34:56",
			"assigned_object_type": "virtualization.vminterface", "assigned_object_id": iface}).Object())
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", vmIfacesPath, iface), map[string]any{"primary_mac_address": mac})
		gi := w.get(t, vmIfacesPath, iface)
		if gi["mac_address"] != "52:54:00:12:34:56" || gi["count_ipaddresses"] != 2.0 || len(gi["mac_addresses"].([]any)) != 1 {
			t.Errorf("interface: mac_address %v, count_ipaddresses %v, mac_addresses %v", gi["mac_address"], gi["count_ipaddresses"], gi["mac_addresses"])
		}
		mac2 := idOf(a.Must(http.StatusCreated, "POST", "/api/dcim/mac-addresses/", map[string]any{"mac_address": "52:54:00:12:34:57",
			"assigned_object_type": "virtualization.vminterface", "assigned_object_id": iface}).Object())
		refused(t, a, "PATCH", fmt.Sprintf("%s%d/", vmIfacesPath, oiface), map[string]any{"primary_mac_address": mac2},
			"primary_mac_address", "MAC address 52:54:00:12:34:57 is assigned to a different interface (eth0).")
		if n := w.count(t, "/api/dcim/mac-addresses/", fmt.Sprintf("virtual_machine_id=%d", vm)); n != 2 {
			t.Errorf("mac-addresses ?virtual_machine_id: %d", n)
		}
		// A VM interface created with an unassigned primary MAC gets it
		// assigned (NetBox's update_mac_address_interface).
		mac3 := idOf(a.Must(http.StatusCreated, "POST", "/api/dcim/mac-addresses/", map[string]any{"mac_address": "52:54:00:12:34:58"}).Object())
		eth9 := idOf(a.Must(http.StatusCreated, "POST", vmIfacesPath, map[string]any{"virtual_machine": vm, "name": "eth9",
			"primary_mac_address": mac3}).Object())
		if got := w.get(t, "/api/dcim/mac-addresses/", mac3); got["assigned_object_type"] != "virtualization.vminterface" || got["assigned_object_id"] != float64(eth9) {
			t.Errorf("MAC of a new VM interface: assigned to %v %v", got["assigned_object_type"], got["assigned_object_id"])
		}
		if n := w.count(t, vmsPath, "mac_address=52:54:00:12:34:56"); n != 1 {
			t.Errorf("VMs ?mac_address: %d", n)
		}
		refused(t, a, "PATCH", fmt.Sprintf("%s%d/", vmIfacesPath, oiface), map[string]any{"parent": iface},
			"parent", "The selected parent interface (eth0) belongs to a different virtual machine (db1).")
		// VLANs of another site are refused.
		vlan := idOf(a.Must(http.StatusCreated, "POST", "/api/ipam/vlans/", map[string]any{"vid": 10, "name": "v10", "site": w.site2}).Object())
		refused(t, a, "PATCH", fmt.Sprintf("%s%d/", vmIfacesPath, iface), map[string]any{"mode": "access", "untagged_vlan": vlan},
			"untagged_vlan", "The untagged VLAN (v10 (10)) must belong to the same site as the interface's parent virtual machine, or it must be global.")

		// Global VLANs are fine; the VLANs of the interface filter by it.
		g1 := idOf(a.Must(http.StatusCreated, "POST", "/api/ipam/vlans/", map[string]any{"vid": 11, "name": "g11"}).Object())
		g2 := idOf(a.Must(http.StatusCreated, "POST", "/api/ipam/vlans/", map[string]any{"vid": 12, "name": "g12"}).Object())
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", vmIfacesPath, iface), map[string]any{"mode": "tagged", "untagged_vlan": g1,
			"tagged_vlans": []any{g2}})
		if n := w.count(t, "/api/ipam/vlans/", fmt.Sprintf("vminterface_id=%d", iface)); n != 2 {
			t.Errorf("vlans ?vminterface_id: %d, want 2", n)
		}
		if n := w.count(t, vmIfacesPath, fmt.Sprintf("vlan_id=%d", g2)); n != 1 {
			t.Errorf("VM interfaces ?vlan_id (tagged): %d", n)
		}
		// Out of tagged mode the tagged VLANs go (BaseInterface.save();
		// no serializer check refuses the change: TestVMInterfaceRules).
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", vmIfacesPath, iface), map[string]any{"mode": "access"})
		if n := w.count(t, "/api/ipam/vlans/", fmt.Sprintf("vminterface_id=%d", iface)); n != 1 {
			t.Errorf("vlans ?vminterface_id in access mode: %d, want 1", n)
		}
		if cc, _ := got["config_context"].(map[string]any); cc == nil || cc["role"] != "db" {
			t.Errorf("config_context: %v", got["config_context"])
		}
		r := a.Must(http.StatusOK, "GET", vmsPath+"?exclude=config_context", nil)
		for _, v := range r.Results() {
			if _, ok := v["config_context"]; ok {
				t.Errorf("config_context rendered despite ?exclude=config_context")
			}
		}
		// Deleting a disk shrinks the VM's disk.
		disks := a.Must(http.StatusOK, "GET", fmt.Sprintf("%s?virtual_machine_id=%d&name=sd2", vdisksPath, vm), nil).Results()
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", vdisksPath, idOf(disks[0])), nil)
		if d := w.get(t, vmsPath, vm)["disk"]; d != 300.0 {
			t.Errorf("disk after deleting a 50 MB disk: %v", d)
		}
		// A service on the VM (NetBox 4.6's parent) goes with it.
		svc := idOf(a.Must(http.StatusCreated, "POST", "/api/ipam/services/", map[string]any{"parent_object_type": "virtualization.virtualmachine",
			"parent_object_id": other, "name": "ssh", "protocol": "tcp", "ports": []any{22}}).Object())
		if n := w.count(t, "/api/ipam/services/", fmt.Sprintf("virtual_machine_id=%d", other)); n != 1 {
			t.Errorf("services ?virtual_machine_id: %d", n)
		}
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", vmsPath, other), nil)
		a.Must(http.StatusNotFound, "GET", fmt.Sprintf("/api/ipam/services/%d/", svc), nil)
		a.Must(http.StatusNotFound, "GET", fmt.Sprintf("/api/ipam/ip-addresses/%d/", oip), nil)
	})
}

// TestVirtualizationOnDelete: a VM interface takes its IP addresses, MAC
// addresses and FHRP group assignments along; a VM its interfaces, disks
// (services: TestVirtualMachineDisksAndIPs); a cluster with VMs, a cluster type with clusters are
// protected; a device's cluster is cleared; VLAN groups scoped to a
// cluster go with it.
func TestVirtualizationOnDelete(t *testing.T) {
	base := []odObj{
		{"ct", "/api/virtualization/cluster-types/", map[string]any{"name": "ODCT", "slug": "odct"}},
		{"cl", clustersPath, map[string]any{"name": "ODC", "type": "@ct"}},
		{"vm", vmsPath, map[string]any{"name": "odvm", "cluster": "@cl"}},
	}
	with := func(more ...odObj) []odObj { return append(append([]odObj{}, base...), more...) }
	cases := []odCase{
		{name: "cluster type PROTECT from its clusters", objects: base, del: []string{"ct"}, protectedBy: []string{"cl"}},
		{name: "cluster PROTECT from its virtual machines", objects: base, del: []string{"cl"}, protectedBy: []string{"vm"}},
		{
			name: "VM interface deleted: its IP addresses, MAC addresses and FHRP assignments CASCADE",
			objects: with(
				odObj{"if", vmIfacesPath, map[string]any{"virtual_machine": "@vm", "name": "eth0"}},
				odObj{"ip", "/api/ipam/ip-addresses/", map[string]any{"address": "10.9.0.1/24",
					"assigned_object_type": "virtualization.vminterface", "assigned_object_id": "@if"}},
				odObj{"mac", "/api/dcim/mac-addresses/", map[string]any{"mac_address": "52:54:00:00:00:01",
					"assigned_object_type": "virtualization.vminterface", "assigned_object_id": "@if"}},
				odObj{"grp", "/api/ipam/fhrp-groups/", map[string]any{"protocol": "vrrp2", "group_id": 1}},
				odObj{"asg", "/api/ipam/fhrp-group-assignments/", map[string]any{"group": "@grp",
					"interface_type": "virtualization.vminterface", "interface_id": "@if", "priority": 100}},
			),
			del:     []string{"if"},
			gone:    []string{"if", "ip", "mac", "asg"},
			changed: []odRef{{"if", "delete"}, {"ip", "delete"}, {"mac", "delete"}, {"asg", "delete"}},
		},
		{
			name: "VM deleted: its interfaces and disks CASCADE",
			objects: with(
				odObj{"if", vmIfacesPath, map[string]any{"virtual_machine": "@vm", "name": "eth0"}},
				odObj{"disk", vdisksPath, map[string]any{"virtual_machine": "@vm", "name": "sda", "size": 10}},
			),
			del:     []string{"vm"},
			gone:    []string{"vm", "if", "disk"},
			changed: []odRef{{"vm", "delete"}, {"if", "delete"}, {"disk", "delete"}},
		},
		{
			name: "cluster deleted: VLAN groups scoped to it CASCADE",
			objects: []odObj{
				{"ct", "/api/virtualization/cluster-types/", map[string]any{"name": "ODCT2", "slug": "odct2"}},
				{"cl", clustersPath, map[string]any{"name": "ODC2", "type": "@ct"}},
				{"vg", "/api/ipam/vlan-groups/", map[string]any{"name": "ODVG", "slug": "odvg",
					"scope_type": "virtualization.cluster", "scope_id": "@cl"}},
			},
			del:     []string{"cl"},
			gone:    []string{"cl", "vg"},
			changed: []odRef{{"cl", "delete"}, {"vg", "delete"}},
		},
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.ListenToAllEvents()
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) { runOnDelete(t, e.Admin(), c) })
		}
	})
}

// TestVirtualMachineListQueries: a page of VMs showing their cluster,
// site, platform, primary IPs and config context costs the same number of
// read queries for 2 VMs as for 50.
func TestVirtualMachineListQueries(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newVirtWorld(t, e)
		a := w.e
		var vms []any
		for i := 0; i < 50; i++ {
			vms = append(vms, map[string]any{"name": fmt.Sprintf("q-%02d", i), "cluster": w.cluster, "platform": w.platform,
				"role": w.role, "local_context_data": map[string]any{"n": i}})
		}
		var ids []string
		for _, v := range a.Must(http.StatusCreated, "POST", vmsPath, vms).JSON().([]any) {
			id := idOf(v.(map[string]any))
			ids = append(ids, fmt.Sprintf("id=%d", id))
			iface := idOf(a.Must(http.StatusCreated, "POST", vmIfacesPath, map[string]any{"virtual_machine": id, "name": "eth0"}).Object())
			p4 := idOf(a.Must(http.StatusCreated, "POST", "/api/ipam/ip-addresses/", map[string]any{"address": fmt.Sprintf("10.2.%d.1/24", len(ids)),
				"assigned_object_type": "virtualization.vminterface", "assigned_object_id": iface}).Object())
			p6 := idOf(a.Must(http.StatusCreated, "POST", "/api/ipam/ip-addresses/", map[string]any{"address": fmt.Sprintf("2001:db8:%x::1/64", len(ids)),
				"assigned_object_type": "virtualization.vminterface", "assigned_object_id": iface}).Object())
			a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", vmsPath, id), map[string]any{"primary_ip4": p4, "primary_ip6": p6})
		}
		cost := func(q string) int64 {
			// limit 51: both pages are short, so neither runs a count query (a
			// short page knows its count); the comparison is of the page's loads.
			n, r := a.CostOf(vmsPath + "?limit=51&" + q)
			for _, v := range r.Results() {
				if v["cluster"] == nil || v["site"] == nil || v["platform"] == nil || v["primary_ip4"] == nil ||
					v["primary_ip6"] == nil || v["config_context"] == nil {
					t.Fatalf("VM without its relations: %v", v)
				}
			}
			return n
		}
		two, fifty := cost(ids[0]+"&"+ids[1]), cost(strings.Join(ids, "&"))
		if two != fifty {
			t.Errorf("VM list: %d read queries for 2 VMs, %d for 50", two, fifty)
		}
		t.Logf("a page of VMs with cluster, site, platform, primary IPs and config context: %d read queries", fifty)
	})
}

// TestVLANAvailability: the VLAN filters available_at_site,
// available_at_site_group, available_on_device and
// available_on_virtualmachine offer what NetBox's VLANQuerySet offers:
// global VLANs, the object's site's VLANs, and VLANs of groups scoped to
// what the object sits in (ancestors included). An unknown object is a 400.
func TestVLANAvailability(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newVirtWorld(t, e)
		a := w.e
		mk := func(path string, body map[string]any) int {
			t.Helper()
			return idOf(a.Must(http.StatusCreated, "POST", path, body).Object())
		}
		sgParent := mk("/api/dcim/site-groups/", map[string]any{"name": "West", "slug": "west"})
		sgChild := mk("/api/dcim/site-groups/", map[string]any{"name": "FR", "slug": "fr", "parent": sgParent})
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/sites/%d/", w.site), map[string]any{"group": sgChild})
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/devices/%d/", w.standalone), map[string]any{"location": w.loc})
		regional := mk(clustersPath, map[string]any{"name": "pve-eu", "type": w.ctype, "scope_type": "dcim.region", "scope_id": w.region})
		vmParis := w.vm(t, "app1", "cluster", w.cluster)
		vmBerlin := w.vm(t, "app2", "cluster", w.cluster2)
		vmEU := w.vm(t, "app3", "cluster", regional)

		group := func(name string, scope ...any) int {
			b := map[string]any{"name": name, "slug": strings.ToLower(name)}
			if len(scope) == 2 {
				b["scope_type"], b["scope_id"] = scope[0], scope[1]
			}
			return mk("/api/ipam/vlan-groups/", b)
		}
		vid := 0
		vlan := func(name string, kv ...any) {
			vid++
			b := map[string]any{"vid": vid, "name": name}
			for i := 0; i+1 < len(kv); i += 2 {
				b[kv[i].(string)] = kv[i+1]
			}
			mk("/api/ipam/vlans/", b)
		}
		vlan("global")
		vlan("in-global-group", "group", group("Everywhere"))
		vlan("at-paris", "site", w.site)
		vlan("at-berlin", "site", w.site2)
		vlan("region", "group", group("Europe", "dcim.region", w.region))
		vlan("sitegroup", "group", group("West", "dcim.sitegroup", sgParent))
		vlan("site-paris", "group", group("Paris", "dcim.site", w.site))
		vlan("site-berlin", "group", group("Berlin", "dcim.site", w.site2))
		vlan("location", "group", group("Hall", "dcim.location", w.loc))
		vlan("cluster", "group", group("PVE", "virtualization.cluster", w.cluster))
		vlan("cluster-group", "group", group("Prod", "virtualization.clustergroup", w.cgroup))
		vlan("cluster-eu", "group", group("PVE-EU", "virtualization.cluster", regional))

		global := "global in-global-group "
		for _, c := range []struct{ query, want string }{
			{fmt.Sprintf("available_at_site=%d", w.site), global + "at-paris region sitegroup site-paris"},
			{fmt.Sprintf("available_at_site=%d", w.site2), global + "at-berlin site-berlin"},
			{fmt.Sprintf("available_at_site_group=%d", sgChild), global + "sitegroup"},
			{fmt.Sprintf("available_on_device=%d", w.host), global + "at-paris region sitegroup site-paris cluster cluster-group"},
			{fmt.Sprintf("available_on_device=%d", w.standalone), global + "at-paris region sitegroup site-paris location"},
			{fmt.Sprintf("available_on_virtualmachine=%d", vmParis), global + "at-paris region sitegroup site-paris cluster cluster-group"},
			{fmt.Sprintf("available_on_virtualmachine=%d", vmBerlin), global + "at-berlin site-berlin"},
			{fmt.Sprintf("available_on_virtualmachine=%d", vmEU), global + "region cluster-eu"},
		} {
			var got []string
			for _, v := range a.Must(http.StatusOK, "GET", "/api/ipam/vlans/?ordering=vid&limit=0&"+c.query, nil).Results() {
				got = append(got, v["name"].(string))
			}
			if strings.Join(got, " ") != c.want {
				t.Errorf("?%s: %v, want %s", c.query, got, c.want)
			}
		}
		r := a.Must(http.StatusBadRequest, "GET", "/api/ipam/vlans/?available_on_device=999999", nil)
		if !strings.Contains(string(r.Body), `"available_on_device":["Select a valid choice.`) {
			t.Errorf("unknown device: %s", r.Body)
		}
	})
}
