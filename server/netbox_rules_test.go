package server_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/server/servertest"
)

// Domain rules that are NetBox 4.6.8's and no stricter (issue 33): a VM
// interface is checked as VMInterface.clean() and its serializer check it,
// not as a device interface; a LAG is any interface of the device or its
// virtual chassis; unique constraints are exactly NetBox's; nested lists
// are in the related model's order; NULLs sort where PostgreSQL puts them,
// on both databases.

// TestVMInterfaceRules: NetBox's VM interface serializer makes none of the
// device interface serializer's 802.1Q mode checks. Tagged VLANs without a
// mode (or in access mode) are taken; an untagged VLAN without a mode is
// dropped by save(), after clean() has checked its site; a service VLAN
// needs Q-in-Q mode (BaseInterface.clean()); any later save of an interface
// out of tagged mode drops the tagged VLANs the request does not set again.
func TestVMInterfaceRules(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newVirtWorld(t, e)
		a := w.e
		vm := w.vm(t, "app1", "cluster", w.cluster) // at w.site
		mkVLAN := func(body map[string]any) int {
			return idOf(a.Must(http.StatusCreated, "POST", "/api/ipam/vlans/", body).Object())
		}
		vlans := map[string]int{
			"global":  mkVLAN(map[string]any{"vid": 100, "name": "g100"}),
			"global2": mkVLAN(map[string]any{"vid": 101, "name": "g101"}),
			"here":    mkVLAN(map[string]any{"vid": 200, "name": "here200", "site": w.site}),
			"there":   mkVLAN(map[string]any{"vid": 300, "name": "there300", "site": w.site2}),
		}
		n := 0
		create := func(extra map[string]any) map[string]any {
			n++
			body := map[string]any{"virtual_machine": vm, "name": fmt.Sprintf("eth%d", n)}
			for k, v := range extra {
				if s, ok := v.(string); ok && strings.HasPrefix(s, "@") {
					v = vlans[s[1:]]
				}
				if l, ok := v.([]string); ok {
					ids := []any{}
					for _, s := range l {
						ids = append(ids, vlans[s])
					}
					v = ids
				}
				body[k] = v
			}
			return body
		}
		type want struct {
			untagged string   // the untagged VLAN's name read back, "" for null
			tagged   []string // the tagged VLANs' names read back
		}
		cases := []struct {
			name        string
			body        map[string]any
			status      int
			field, text string
			want        want
		}{
			// VLANs in their order: site (NULLs last), group, vid.
			{name: "tagged VLANs without a mode", body: create(map[string]any{"tagged_vlans": []string{"global", "here"}}),
				status: 201, want: want{tagged: []string{"here200", "g100"}}},
			{name: "tagged VLANs in access mode", body: create(map[string]any{"mode": "access", "tagged_vlans": []string{"global"}}),
				status: 201, want: want{tagged: []string{"g100"}}},
			{name: "untagged VLAN without a mode is dropped", body: create(map[string]any{"untagged_vlan": "@here"}),
				status: 201, want: want{}},
			{name: "untagged VLAN in access mode", body: create(map[string]any{"mode": "access", "untagged_vlan": "@here"}),
				status: 201, want: want{untagged: "here200"}},
			{name: "untagged VLAN of another site without a mode", body: create(map[string]any{"untagged_vlan": "@there"}),
				status: 400, field: "untagged_vlan",
				text: "The untagged VLAN (there300 (300)) must belong to the same site as the interface's parent virtual machine, or it must be global."},
			{name: "tagged VLAN of another site", body: create(map[string]any{"mode": "tagged", "tagged_vlans": []string{"global", "there"}}),
				status: 400, field: "tagged_vlans",
				text: "VLAN there300 (300) must belong to the same site as the interface's parent virtual machine, or it must be global."},
			{name: "service VLAN outside Q-in-Q mode", body: create(map[string]any{"mode": "tagged", "qinq_svlan": "@global"}),
				status: 400, field: "qinq_svlan", text: "Only Q-in-Q interfaces may specify a service VLAN."},
			{name: "service VLAN without a mode", body: create(map[string]any{"qinq_svlan": "@global"}),
				status: 400, field: "qinq_svlan", text: "Only Q-in-Q interfaces may specify a service VLAN."},
			{name: "service VLAN in Q-in-Q mode", body: create(map[string]any{"mode": "q-in-q", "qinq_svlan": "@there"}),
				status: 201, want: want{}},
		}
		read := func(id int) want {
			got := w.get(t, vmIfacesPath, id)
			var out want
			if u, _ := got["untagged_vlan"].(map[string]any); u != nil {
				out.untagged, _ = u["name"].(string)
			}
			for _, v := range got["tagged_vlans"].([]any) {
				out.tagged = append(out.tagged, v.(map[string]any)["name"].(string))
			}
			return out
		}
		ids := map[string]int{}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				if c.status == 400 {
					refused(t, a, "POST", vmIfacesPath, c.body, c.field, c.text)
					return
				}
				id := idOf(a.Must(c.status, "POST", vmIfacesPath, c.body).Object())
				ids[c.name] = id
				if got := read(id); got.untagged != c.want.untagged || !slices.Equal(got.tagged, c.want.tagged) {
					t.Errorf("read back %+v, want %+v", got, c.want)
				}
			})
		}

		// Saves of an interface out of tagged mode: the tagged VLANs the
		// request sets stay, the others go (BaseInterface.save() clears
		// them, the serializer sets the request's).
		id := ids["tagged VLANs without a mode"]
		saves := []struct {
			name string
			body map[string]any
			want []string
		}{
			{"setting them again keeps them", map[string]any{"description": "x", "tagged_vlans": []any{vlans["global2"]}}, []string{"g101"}},
			{"another field alone drops them", map[string]any{"description": "y"}, nil},
			{"tagged mode keeps them", map[string]any{"mode": "tagged", "tagged_vlans": []any{vlans["global"]}}, []string{"g100"}},
			{"another field in tagged mode keeps them", map[string]any{"description": "z"}, []string{"g100"}},
		}
		for _, s := range saves {
			a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", vmIfacesPath, id), s.body)
			if got := read(id).tagged; !slices.Equal(got, s.want) {
				t.Errorf("%s: tagged VLANs %v, want %v", s.name, got, s.want)
			}
		}
	})
}

// TestInterfaceLAGChoices: NetBox's API takes as an interface's LAG any
// interface (of any type: only the UI offers type lag alone) of its device
// or of another member of its virtual chassis, and refuses the others with
// Interface.clean()'s messages.
func TestInterfaceLAGChoices(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := componentsWorld(t, e)
		a := e.Admin()
		vc := idOf(a.Must(http.StatusCreated, "POST", "/api/dcim/virtual-chassis/", map[string]any{"name": "stack"}).Object())
		for i, d := range []string{"d1", "d2"} {
			a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/devices/%d/", ids[d]), map[string]any{"virtual_chassis": vc, "vc_position": i + 1})
		}
		eth3 := idOf(a.Must(http.StatusCreated, "POST", compPath("interfaces"),
			map[string]any{"device": ids["d3"], "name": "ge-0/0/9", "type": "1000base-t"}).Object())
		n := 0
		cases := []struct {
			name, device string
			lag          int
			status       int
			text         string
		}{
			{"a LAG of its device", "d1", ids["lag1"], 201, ""},
			{"a physical interface of its device", "d1", ids["eth1"], 201, ""},
			{"a LAG of another chassis member", "d1", ids["lag2"], 201, ""},
			{"a LAG of a device outside the chassis", "d3", ids["lag1"], 400,
				"The selected LAG interface (ae0) belongs to a different device (d1)."},
			{"a chassis member's LAG on a device outside it", "d1", eth3, 400,
				"The selected LAG interface (ge-0/0/9) belongs to d3, which is not part of virtual chassis stack."},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				n++
				body := map[string]any{"device": ids[c.device], "name": fmt.Sprintf("xe-9/0/%d", n), "type": "10gbase-x-sfpp", "lag": c.lag}
				if c.status == 400 {
					refused(t, a, "POST", compPath("interfaces"), body, "lag", c.text)
					return
				}
				got := a.Must(c.status, "POST", compPath("interfaces"), body).Object()
				if nestedID(got["lag"]) != c.lag {
					t.Errorf("lag %v, want %d", got["lag"], c.lag)
				}
			})
		}
	})
}

// netboxUnique is every served model's unique constraints in NetBox 4.6.8
// (Meta.constraints and unique=True/OneToOne fields, from its models'
// source): "a,b" is a set of fields unique together, "~" compares the first
// (a name) case-insensitively (Lower('name')), "?c=null" applies the set
// only when the fields c are all null (condition=Q(c__isnull=True)).
var netboxUnique = map[string][]string{
	"circuits.circuit":                   {"provider,cid", "provider_account,cid"},
	"core.objecttype":                    {"app_label,model"},
	"circuits.circuitgroup":              {"name", "slug"},
	"circuits.circuitgroupassignment":    {"member_type,member_id,group"},
	"circuits.circuittermination":        {"circuit,term_side"},
	"circuits.circuittype":               {"name", "slug"},
	"circuits.provider":                  {"name", "slug"},
	"circuits.provideraccount":           {"provider,account", "provider,name?name!=''"},
	"circuits.providernetwork":           {"provider,name"},
	"circuits.virtualcircuit":            {"provider_network,cid", "provider_account,cid"},
	"circuits.virtualcircuittermination": {"interface"},
	"circuits.virtualcircuittype":        {"name", "slug"},
	"core.datafile":                      {"source,path"},
	"core.datasource":                    {"name"},
	"core.job":                           {"job_id"},
	"core.objectchange":                  {},
	"dcim.cable":                         {},
	"dcim.cablebundle":                   {"name"},
	"dcim.cabletermination":              {"termination_type,termination_id", "cable,cable_end,connector"},
	"dcim.consoleport":                   {"device,name"},
	"dcim.consoleporttemplate":           {"device_type,name", "module_type,name"},
	"dcim.consoleserverport":             {"device,name"},
	"dcim.consoleserverporttemplate":     {"device_type,name", "module_type,name"},
	"dcim.device": {"asset_tag", "~name,site,tenant", "~name,site?tenant=null", "rack,position,face",
		"virtual_chassis,vc_position", "primary_ip4", "primary_ip6", "oob_ip"},
	"dcim.devicebay":              {"installed_device", "device,name"},
	"dcim.devicebaytemplate":      {"device_type,name"},
	"dcim.devicerole":             {"parent,name", "name?parent=null", "parent,slug", "slug?parent=null"},
	"dcim.devicetype":             {"manufacturer,model", "manufacturer,slug"},
	"dcim.frontport":              {"device,name"},
	"dcim.frontporttemplate":      {"device_type,name", "module_type,name"},
	"dcim.interface":              {"device,name", "primary_mac_address"},
	"dcim.interfacetemplate":      {"device_type,name", "module_type,name"},
	"dcim.inventoryitem":          {"asset_tag", "device,parent,name"},
	"dcim.inventoryitemrole":      {"name", "slug"},
	"dcim.inventoryitemtemplate":  {"device_type,parent,name"},
	"dcim.location":               {"site,parent,name", "site,name?parent=null", "site,parent,slug", "site,slug?parent=null"},
	"dcim.macaddress":             {},
	"dcim.manufacturer":           {"name", "slug"},
	"dcim.module":                 {"module_bay", "asset_tag"},
	"dcim.modulebay":              {"device,module,name"},
	"dcim.modulebaytemplate":      {"device_type,name", "module_type,name"},
	"dcim.moduletype":             {"manufacturer,model"},
	"dcim.moduletypeprofile":      {"name"},
	"dcim.platform":               {"manufacturer,name", "name?manufacturer=null", "manufacturer,slug", "slug?manufacturer=null"},
	"dcim.powerfeed":              {"power_panel,name"},
	"dcim.poweroutlet":            {"device,name"},
	"dcim.poweroutlettemplate":    {"device_type,name", "module_type,name"},
	"dcim.powerpanel":             {"site,name"},
	"dcim.powerport":              {"device,name"},
	"dcim.powerporttemplate":      {"device_type,name", "module_type,name"},
	"dcim.rack":                   {"asset_tag", "location,name", "location,facility_id"},
	"dcim.rackgroup":              {"name", "slug"},
	"dcim.rackreservation":        {},
	"dcim.rackrole":               {"name", "slug"},
	"dcim.racktype":               {"slug", "manufacturer,model", "manufacturer,slug"},
	"dcim.rearport":               {"device,name"},
	"dcim.rearporttemplate":       {"device_type,name", "module_type,name"},
	"dcim.region":                 {"parent,name", "name?parent=null", "parent,slug", "slug?parent=null"},
	"dcim.site":                   {"name", "slug"},
	"dcim.sitegroup":              {"parent,name", "name?parent=null", "parent,slug", "slug?parent=null"},
	"dcim.virtualchassis":         {"master"},
	"dcim.virtualdevicecontext":   {"device,identifier", "device,name", "primary_ip4", "primary_ip6"},
	"extras.bookmark":             {"object_type,object_id,user"},
	"extras.configcontext":        {"name"},
	"extras.configcontextprofile": {"name"},
	"extras.configtemplate":       {},
	"extras.customfield":          {"name"},
	"extras.customfieldchoiceset": {"name"},
	"extras.customlink":           {"name"},
	"extras.eventrule":            {"name"},
	"extras.exporttemplate":       {},
	"extras.imageattachment":      {},
	"extras.journalentry":         {},
	"extras.notification":         {"object_type,object_id,user"},
	"extras.notificationgroup":    {"name"},
	"extras.savedfilter":          {"name", "slug"},
	"extras.script":               {"name,module"},
	"extras.subscription":         {"object_type,object_id,user"},
	"extras.tableconfig":          {},
	"extras.tag":                  {"name", "slug"},
	"extras.taggeditem":           {},
	"extras.webhook":              {"name"},
	"ipam.aggregate":              {},
	"ipam.asn":                    {"asn"},
	"ipam.asnrange":               {"name", "slug"},
	"ipam.fhrpgroup":              {},
	"ipam.fhrpgroupassignment":    {"interface_type,interface_id,group"},
	"ipam.ipaddress":              {},
	"ipam.iprange":                {},
	"ipam.prefix":                 {},
	"ipam.rir":                    {"name", "slug"},
	"ipam.role":                   {"name", "slug"},
	"wireless.wirelesslangroup":   {"parent,name", "name", "slug"},
	"wireless.wirelesslan":        {},
	// interface_a and interface_b alone are ours, not NetBox's (README,
	// Differences: an interface put in a second wireless link).
	"wireless.wirelesslink":       {"interface_a,interface_b", "interface_a", "interface_b"},
	"ipam.routetarget":            {"name"},
	"ipam.service":                {},
	"ipam.servicetemplate":        {"name"},
	"ipam.vlan":                   {"group,vid", "group,name", "qinq_svlan,vid", "qinq_svlan,name"},
	"ipam.vlangroup":              {"scope_type,scope_id,name", "scope_type,scope_id,slug"},
	"ipam.vlantranslationpolicy":  {"name"},
	"ipam.vlantranslationrule":    {"policy,local_vid", "policy,remote_vid"},
	"ipam.vrf":                    {"rd"},
	"tenancy.contact":             {},
	"tenancy.contactassignment":   {"object_type,object_id,contact,role"},
	"tenancy.contactgroup":        {"parent,name"},
	"tenancy.contactrole":         {"name", "slug"},
	"tenancy.tenant":              {"group,name", "name?group=null", "group,slug", "slug?group=null"},
	"tenancy.tenantgroup":         {"name", "slug"},
	"users.group":                 {"name"},
	"users.objectpermission":      {},
	"users.owner":                 {"name"},
	"users.ownergroup":            {"name"},
	"users.token":                 {"key", "plaintext"},
	"users.user":                  {"username"},
	"virtualization.cluster":      {"group,name", "_site,name"},
	"virtualization.clustergroup": {"name", "slug"},
	"virtualization.clustertype":  {"name", "slug"},
	"virtualization.virtualdisk":  {"virtual_machine,name"},
	"virtualization.virtualmachine": {"~name,cluster,tenant", "~name,cluster?tenant=null", "~name,device,tenant?cluster=null",
		"~name,device?cluster,tenant=null", "primary_ip4", "primary_ip6"},
	"virtualization.virtualmachinetype": {"slug", "~name"},
	"virtualization.vminterface":        {"virtual_machine,name", "primary_mac_address"},
	"vpn.ikepolicy":                     {"name"},
	"vpn.ikeproposal":                   {"name"},
	"vpn.ipsecpolicy":                   {"name"},
	"vpn.ipsecprofile":                  {"name"},
	"vpn.ipsecproposal":                 {"name"},
	"vpn.l2vpn":                         {"name", "slug"},
	"vpn.l2vpntermination":              {"assigned_object_type,assigned_object_id"},
	"vpn.tunnel":                        {"name", "group,name", "name?group=null"},
	"vpn.tunnelgroup":                   {"name", "slug"},
	"vpn.tunneltermination":             {"termination_type,termination_id"},
}

// uniqueElsewhere are NetBox's constraints the descriptor's unique sets do
// not hold, each checked elsewhere (or not applicable), with where.
var uniqueElsewhere = map[string]map[string]string{
	// On cached fields or a condition the sets cannot say: schema hooks.
	"virtualization.cluster":   {"_site,name": "ent/logic/virtualization/cluster.go uniqueAtSite"},
	"circuits.provideraccount": {"provider,name?name!=''": "ent/logic/circuits/groups.go"},
	// Device.clean()'s rack space check refuses any overlap first.
	"dcim.device": {"rack,position,face": "ent/logic/dcim/devices.go (U... is already occupied)"},
	// Read-only endpoints: written by the service itself, under indexes.
	"dcim.cabletermination": {"termination_type,termination_id": "index", "cable,cable_end,connector": "index"},
	"extras.script":         {"name,module": "index"},
	// Tokens are stored as keyed hashes only (DESIGN.md §7): no plaintext.
	"users.token": {"plaintext": "not stored"},
	// A tunnel's name is unique on its own (unique=True), which implies
	// both conditional constraints.
	"vpn.tunnel": {"group,name": "implied by the unique name", "name?group=null": "implied by the unique name"},
	// One termination per object: clean()'s message first (the hooks),
	// the unique index behind it.
	"vpn.tunneltermination": {"termination_type,termination_id": "ent/logic/vpn/tunnel.go attachedOnce, and an index"},
	"vpn.l2vpntermination":  {"assigned_object_type,assigned_object_id": "ent/logic/vpn/l2vpn.go L2VPNTerminationHooks, and an index"},
}

// TestUniqueConstraintsAreNetBoxs: every served model checks exactly
// NetBox's unique constraints, no more (a module bay may share a name
// with another bay of its device, as in NetBox) and no fewer.
func TestUniqueConstraintsAreNetBoxs(t *testing.T) {
	for _, d := range resource.All() {
		ct := d.ContentType()
		want, ok := netboxUnique[ct]
		if !ok {
			t.Errorf("%s: not in netboxUnique: add NetBox's unique constraints of the model", ct)
			continue
		}
		var got []string
		for _, u := range d.Unique {
			s := strings.Join(u.Fields, ",")
			if u.IgnoreCase {
				s = "~" + s
			}
			if len(u.WhenNull) > 0 {
				s += "?" + strings.Join(u.WhenNull, ",") + "=null"
			}
			got = append(got, s)
		}
		for s := range uniqueElsewhere[ct] {
			got = append(got, s)
		}
		want = slices.Clone(want)
		sort.Strings(got)
		sort.Strings(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: unique sets %q, NetBox's %q", ct, got, want)
		}
	}
}

// TestModuleBayNames: NetBox's only module bay constraint is unique
// (device, module, name): bays of the device itself (module null) may
// share a name, bays of one module may not.
func TestModuleBayNames(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := componentsWorld(t, e)
		a := e.Admin()
		mt := idOf(a.Must(http.StatusCreated, "POST", "/api/dcim/module-types/", map[string]any{"manufacturer": ids["m"], "model": "LC"}).Object())
		holder := idOf(a.Must(http.StatusCreated, "POST", compPath("module-bays"), map[string]any{"device": ids["d1"], "name": "Slot 0"}).Object())
		module := idOf(a.Must(http.StatusCreated, "POST", "/api/dcim/modules/", map[string]any{"device": ids["d1"], "module_bay": holder, "module_type": mt}).Object())
		cases := []struct {
			name   string
			body   map[string]any
			status int
		}{
			{"a bay of the device", map[string]any{"device": ids["d1"], "name": "Slot 1"}, 201},
			{"another bay of the device with that name", map[string]any{"device": ids["d1"], "name": "Slot 1"}, 201},
			{"a bay of the module with that name", map[string]any{"device": ids["d1"], "module": module, "name": "Slot 1"}, 201},
			{"another bay of the module with that name", map[string]any{"device": ids["d1"], "module": module, "name": "Slot 1"}, 400},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				if c.status == 400 {
					refused(t, a, "POST", compPath("module-bays"), c.body, "__all__", "Module bay with this Device, Module and Name already exists.")
					return
				}
				a.Must(c.status, "POST", compPath("module-bays"), c.body)
			})
		}
		if got := len(a.Must(http.StatusOK, "GET", compPath("module-bays")+"?name=Slot+1", nil).Results()); got != 3 {
			t.Errorf("bays named Slot 1: %d, want 3", got)
		}
	})
}

// TestNestedListOrder: nested lists are in the related model's order, as
// NetBox's related managers give them: an interface's MAC addresses by
// address (of either interface kind), a virtual chassis' members by name
// with the unnamed last; whatever order they were created in.
func TestNestedListOrder(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := componentsWorld(t, e)
		a := e.Admin()
		w := newVirtWorld(t, e)
		vmif := idOf(a.Must(http.StatusCreated, "POST", vmIfacesPath, map[string]any{"virtual_machine": w.vm(t, "vm1", "cluster", w.cluster), "name": "eth0"}).Object())
		macs := []string{"00:00:5E:00:53:09", "00:00:5E:00:53:0A", "00:00:5E:00:53:01"}
		want := []string{"00:00:5E:00:53:01", "00:00:5E:00:53:09", "00:00:5E:00:53:0A"}
		for _, owner := range []struct {
			ct   string
			id   int
			path string
		}{{"dcim.interface", ids["eth1"], compPath("interfaces")}, {"virtualization.vminterface", vmif, vmIfacesPath}} {
			for _, m := range macs {
				a.Must(http.StatusCreated, "POST", compPath("mac-addresses"), map[string]any{"mac_address": m,
					"assigned_object_type": owner.ct, "assigned_object_id": owner.id})
			}
			for _, q := range []string{fmt.Sprintf("%d/", owner.id), fmt.Sprintf("?id=%d", owner.id)} {
				r := a.Must(http.StatusOK, "GET", owner.path+q, nil)
				obj := r.Object()
				if strings.HasPrefix(q, "?") {
					obj = r.Results()[0]
				}
				var got []string
				for _, m := range obj["mac_addresses"].([]any) {
					got = append(got, m.(map[string]any)["mac_address"].(string))
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s %s: mac_addresses %q, want %q", owner.ct, q, got, want)
				}
			}
		}

		// Virtual chassis members: Device's ordering (name, pk), NULLs last.
		vc := idOf(a.Must(http.StatusCreated, "POST", "/api/dcim/virtual-chassis/", map[string]any{"name": "stack"}).Object())
		unnamed := idOf(a.Must(http.StatusCreated, "POST", "/api/dcim/devices/", map[string]any{"device_type": ids["dt"], "role": ids["role"],
			"site": ids["s1"], "virtual_chassis": vc, "vc_position": 1}).Object())
		for i, d := range []string{"d2", "d1"} {
			a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/devices/%d/", ids[d]), map[string]any{"virtual_chassis": vc, "vc_position": i + 2})
		}
		var members []int
		for _, m := range a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/virtual-chassis/%d/", vc), nil).Object()["members"].([]any) {
			members = append(members, idOf(m.(map[string]any)))
		}
		if w := []int{ids["d1"], ids["d2"], unnamed}; !slices.Equal(members, w) {
			t.Errorf("members %v, want %v (d1, d2, unnamed)", members, w)
		}
	})
}

// TestNullOrdering: NULLs sort as on PostgreSQL (and so in NetBox) on
// both databases: last ascending, first descending, whether the field
// orders by default (devices: name, pk), is asked for with ?ordering=
// (a naturally ordered name, a plain nullable column, both), or follows a
// rename to null and back. Each database is held to the same
// expected order, so a database placing NULLs otherwise fails.
func TestNullOrdering(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := componentsWorld(t, e) // devices d1, d2 (site 1) and d3 (site 2)
		a := e.Admin()
		dev := func(name any, extra map[string]any) int {
			body := map[string]any{"device_type": ids["dt"], "role": ids["role"], "site": ids["s1"], "name": name}
			for k, v := range extra {
				body[k] = v
			}
			return idOf(a.Must(http.StatusCreated, "POST", "/api/dcim/devices/", body).Object())
		}
		ids["u1"] = dev(nil, map[string]any{"asset_tag": "A2"})
		ids["z"] = dev("z", map[string]any{"asset_tag": "A1"})
		ids["u2"] = dev(nil, nil)
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/devices/%d/", ids["d3"]), map[string]any{"asset_tag": "A3"})
		order := func(query string) []string {
			byID := map[int]string{}
			for _, k := range []string{"d1", "d2", "d3", "z", "u1", "u2"} {
				byID[ids[k]] = k
			}
			var out []string
			for _, r := range a.Must(http.StatusOK, "GET", "/api/dcim/devices/?limit=0&"+query, nil).Results() {
				out = append(out, byID[idOf(r)])
			}
			return out
		}
		cases := []struct {
			query string
			want  []string
		}{
			{"", []string{"d1", "d2", "d3", "z", "u1", "u2"}},
			{"ordering=name", []string{"d1", "d2", "d3", "z", "u1", "u2"}},
			// Ties broken by id (u1 was created before u2).
			{"ordering=-name", []string{"u1", "u2", "z", "d3", "d2", "d1"}},
			{"ordering=asset_tag,name", []string{"z", "u1", "d3", "d1", "d2", "u2"}},
			{"ordering=-asset_tag,name", []string{"d1", "d2", "u2", "d3", "u1", "z"}},
			{"ordering=-asset_tag,-name", []string{"u2", "d2", "d1", "d3", "u1", "z"}},
			{"brief=1", []string{"d1", "d2", "d3", "z", "u1", "u2"}},
		}
		for _, c := range cases {
			if got := order(c.query); !slices.Equal(got, c.want) {
				t.Errorf("?%s: %v, want %v", c.query, got, c.want)
			}
		}
		// A name cleared sorts with the unnamed; named again, by its name.
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/devices/%d/", ids["d1"]), map[string]any{"name": nil})
		if got, w := order(""), []string{"d2", "d3", "z", "d1", "u1", "u2"}; !slices.Equal(got, w) {
			t.Errorf("after clearing d1's name: %v, want %v", got, w)
		}
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/devices/%d/", ids["d1"]), map[string]any{"name": "d1"})
		if got, w := order(""), []string{"d1", "d2", "d3", "z", "u1", "u2"}; !slices.Equal(got, w) {
			t.Errorf("after naming d1 again: %v, want %v", got, w)
		}
		// A database from before NULLs had their sort key (theirs was
		// empty, sorting first): Migrate gives them theirs.
		if _, err := e.DB.Write.ExecContext(context.Background(), `UPDATE dcim_device SET _name_natural = '' WHERE name IS NULL`); err != nil {
			t.Fatal(err)
		}
		if err := e.DB.Migrate(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got, w := order(""), []string{"d1", "d2", "d3", "z", "u1", "u2"}; !slices.Equal(got, w) {
			t.Errorf("after Migrate: %v, want %v", got, w)
		}
	})
}
