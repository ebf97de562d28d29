package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/ent/schema"
	"github.com/inventory/inventory/webhooks"
)

// The DCIM side of the benchmark at a multiple of the public demo data
// (issue 37; --scale N). One unit of scale is shaped like the demo set
// (../shared/netbox-demo/_counts.json): 24 sites, 42 racks, 63 devices
// (12 access switches of a 52-interface type, 12 routers, 12 PDUs, 12
// copper and 6 fibre patch panels with front/rear port pairs, 8 top-of-rack
// switches and a core switch of 500 interfaces, 480 of them on 10 installed
// line-card modules), about 1,650 interfaces and 1,440 front and rear
// ports, 110 cables (10 paths, each through 10 patch panels), 29 circuits
// with 45 terminations, 8 clusters with 180 VMs of 4 interfaces each,
// 180 IP addresses on interfaces, 63 VLANs and 90 prefixes. The device
// types, module type, roles and the 100 config contexts exist once,
// whatever the scale. Everything goes through the resource layer's Create
// in tracked transactions (seedBench's create), as a bulk POST does, so
// every object and every component a template makes gets its change
// record; --changes then tops the change log up with the records of
// interface updates, written in bulk (topUpChanges).

// Per unit of scale.
const (
	unitSites    = 24
	unitRacks    = 42
	unitAccess   = 12
	unitRouters  = 12
	unitPDUs     = 12
	unitPanels   = 12 // 10 of them carry the paths
	unitFibre    = 6
	unitToRs     = 8
	unitCircuits = 29
	unitZSides   = 16
	unitClusters = 8
	unitVMs      = 180
	unitVMIfaces = 4
	unitVLANs    = 63
	unitChildren = 89 // /24s under the unit's /16
	unitIPs      = 180
	unitPaths    = 10
	pathPanels   = 10
	coreFixed    = 20 // the core switch's own interfaces
	coreModules  = 10 // installed line cards of 48 interfaces
	lineCard     = 48
	benchCCs     = 100 // config contexts, whatever the scale
)

// accessPorts is the interface count of the access switch type (the
// issue's 52-interface type: 48 access ports and 4 uplinks).
const accessPorts = 52

// dcimSeed is what the DCIM workloads need to know about the data set.
type dcimSeed struct {
	scale                int
	accessType, roleEdge int
	site                 int
	core                 int   // a core switch with 500 interfaces
	traceFrom            int   // an interface whose path crosses 10 patch panels
	spares               []int // core switches to delete, each cabled
	interfaces           int   // dcim interfaces seeded
	changed              int   // an interface with change records
	changes              int   // change records in the database after seeding
	allocIPs             int   // a /16 for POST available-ips of 100
}

// seedDCIM seeds o.scale units. It returns the number of rows the
// database holds in the tables it wrote, for the objects/s figure.
func seedDCIM(ctx context.Context, d *db.DB, create benchCreate, o *benchOptions, s *benchSeed,
	tags func(int) []int, cf func(int) map[string]any) (*dcimSeed, error) {
	N := o.scale
	ds := &dcimSeed{scale: N}
	many := func(ct string, kvs ...[]any) ([]int, error) {
		return create(ct, len(kvs), func(i int) resource.Input { return jsonInput(kvs[i]...) })
	}
	// Fixed: manufacturer, roles, platform, types with their templates.
	man, err := create.one("dcim.manufacturer", "name", "Demo Networks", "slug", "demo-networks")
	if err != nil {
		return nil, err
	}
	roleSlugs := []string{"access-switch", "router", "pdu", "patch-panel", "tor-switch", "core-switch", "server"}
	roles, err := create("dcim.devicerole", len(roleSlugs), func(i int) resource.Input {
		return jsonInput("name", roleSlugs[i], "slug", roleSlugs[i], "vm_role", i == 6)
	})
	if err != nil {
		return nil, err
	}
	rAccess, rRouter, rPDU, rPanel, rToR, rCore, rServer := roles[0], roles[1], roles[2], roles[3], roles[4], roles[5], roles[6]
	platform, err := create.one("dcim.platform", "name", "DemoOS", "slug", "demo-os", "manufacturer", man)
	if err != nil {
		return nil, err
	}
	dtype := func(model string, h int) (int, error) {
		return create.one("dcim.devicetype", "manufacturer", man, "model", model, "slug", strings.ToLower(model), "u_height", h)
	}
	var tAccess, tRouter, tPDU, tPanel, tFibre, tToR, tCore int
	for _, t := range []struct {
		p     *int
		model string
		h     int
	}{{&tAccess, "AS-52", 1}, {&tRouter, "RT-8", 1}, {&tPDU, "PDU-24", 0}, {&tPanel, "PP-48", 1}, {&tFibre, "FP-24", 1}, {&tToR, "TOR-54", 1}, {&tCore, "CORE-500", 16}} {
		if *t.p, err = dtype(t.model, t.h); err != nil {
			return nil, err
		}
	}
	ifTemplates := func(dt int, n int, name func(int) string, typ func(int) string) error {
		_, err := create("dcim.interfacetemplate", n, func(i int) resource.Input {
			return jsonInput("device_type", dt, "name", name(i), "type", typ(i))
		})
		return err
	}
	ge := func(i int) string { return fmt.Sprintf("ge-0/0/%d", i) }
	if err := ifTemplates(tAccess, accessPorts, func(i int) string {
		if i < 48 {
			return ge(i)
		}
		return fmt.Sprintf("xe-0/1/%d", i-48)
	}, func(i int) string {
		if i < 48 {
			return "1000base-t"
		}
		return "10gbase-x-sfpp"
	}); err != nil {
		return nil, err
	}
	t1g := func(int) string { return "1000base-t" }
	t10g := func(int) string { return "10gbase-x-sfpp" }
	if err := ifTemplates(tRouter, 8, ge, t1g); err != nil {
		return nil, err
	}
	if err := ifTemplates(tToR, 54, func(i int) string { return fmt.Sprintf("xe-0/0/%d", i) }, t10g); err != nil {
		return nil, err
	}
	if err := ifTemplates(tCore, coreFixed, func(i int) string { return fmt.Sprintf("mgmt%d", i) }, t1g); err != nil {
		return nil, err
	}
	for _, t := range []struct{ dt, n int }{{tAccess, 1}, {tRouter, 1}, {tToR, 1}, {tCore, 2}} {
		if _, err := create("dcim.consoleporttemplate", t.n, func(i int) resource.Input {
			return jsonInput("device_type", t.dt, "name", fmt.Sprintf("con%d", i), "type", "rj-45")
		}); err != nil {
			return nil, err
		}
	}
	for _, t := range []struct{ dt, n int }{{tAccess, 2}, {tRouter, 1}, {tPDU, 1}, {tToR, 2}, {tCore, 4}} {
		if _, err := create("dcim.powerporttemplate", t.n, func(i int) resource.Input {
			return jsonInput("device_type", t.dt, "name", fmt.Sprintf("PSU%d", i), "maximum_draw", 300)
		}); err != nil {
			return nil, err
		}
	}
	if _, err := create("dcim.poweroutlettemplate", 24, func(i int) resource.Input {
		return jsonInput("device_type", tPDU, "name", fmt.Sprintf("outlet%d", i+1))
	}); err != nil {
		return nil, err
	}
	// Panels: rear ports first, then the front ports mapped to them 1:1.
	for _, t := range []struct {
		dt, n int
		typ   string
	}{{tPanel, 48, "8p8c"}, {tFibre, 24, "lc"}} {
		rps, err := create("dcim.rearporttemplate", t.n, func(i int) resource.Input {
			return jsonInput("device_type", t.dt, "name", fmt.Sprintf("Rear %d", i+1), "type", t.typ, "positions", 1)
		})
		if err != nil {
			return nil, err
		}
		if _, err := create("dcim.frontporttemplate", t.n, func(i int) resource.Input {
			return jsonInput("device_type", t.dt, "name", fmt.Sprintf("Port %d", i+1), "type", t.typ,
				"rear_ports", []any{map[string]any{"position": 1, "rear_port": rps[i], "rear_port_position": 1}})
		}); err != nil {
			return nil, err
		}
	}
	if _, err := create("dcim.modulebaytemplate", coreModules+2, func(i int) resource.Input {
		return jsonInput("device_type", tCore, "name", fmt.Sprintf("Slot %d", i), "position", fmt.Sprint(i))
	}); err != nil {
		return nil, err
	}
	mt, err := create.one("dcim.moduletype", "manufacturer", man, "model", "LC-48")
	if err != nil {
		return nil, err
	}
	if _, err := create("dcim.interfacetemplate", lineCard, func(i int) resource.Input {
		return jsonInput("module_type", mt, "name", fmt.Sprintf("et-{module}/0/%d", i), "type", "10gbase-x-sfpp")
	}); err != nil {
		return nil, err
	}
	ds.accessType, ds.roleEdge = tAccess, rAccess

	// Per unit: sites, racks, devices.
	sites, err := create("dcim.site", N*unitSites, func(i int) resource.Input {
		return jsonInput("name", fmt.Sprintf("S%03d-%02d", i/unitSites, i%unitSites), "slug", fmt.Sprintf("s%03d-%02d", i/unitSites, i%unitSites),
			"status", "active", "facility", fmt.Sprintf("DC-%d", i%50), "tags", tags(i), "custom_fields", cf(i))
	})
	if err != nil {
		return nil, err
	}
	s.sites = sites
	ds.site = sites[0]
	siteOf := func(u, j int) int { return sites[u*unitSites+j%unitSites] }
	racks, err := create("dcim.rack", N*unitRacks, func(i int) resource.Input {
		u, j := i/unitRacks, i%unitRacks
		return jsonInput("name", fmt.Sprintf("R%03d-%02d", u, j), "site", siteOf(u, j), "u_height", 42, "status", "active")
	})
	if err != nil {
		return nil, err
	}
	type kind struct {
		name      string
		dt, role  int
		n         int
		withRoles bool
	}
	kinds := []kind{{"access", tAccess, rAccess, unitAccess, true}, {"router", tRouter, rRouter, unitRouters, true},
		{"pdu", tPDU, rPDU, unitPDUs, false}, {"panel", tPanel, rPanel, unitPanels, false}, {"fibre", tFibre, rPanel, unitFibre, false},
		{"tor", tToR, rToR, unitToRs, true}, {"core", tCore, rCore, 1, true}}
	perUnit := 0
	for _, k := range kinds {
		perUnit += k.n
	}
	// dev[kind][u][j] is the id of the j-th device of that kind in unit u.
	dev := map[string][][]int{}
	devices, err := create("dcim.device", N*perUnit, func(i int) resource.Input {
		u, j := i/perUnit, i%perUnit
		for _, k := range kinds {
			if j >= k.n {
				j -= k.n
				continue
			}
			in := jsonInput("name", fmt.Sprintf("u%03d-%s-%02d", u, k.name, j), "device_type", k.dt, "role", k.role,
				"site", siteOf(u, j), "rack", racks[u*unitRacks+j%unitSites], "status", "active",
				"serial", fmt.Sprintf("SN%03d%s%02d", u, k.name[:2], j), "tags", tags(i), "custom_fields", cf(i))
			if k.withRoles {
				in["platform"] = rawJSON(platform)
			}
			return in
		}
		panic("unreachable")
	})
	if err != nil {
		return nil, err
	}
	s.devices = devices
	for u := 0; u < N; u++ {
		off := u * perUnit
		for _, k := range kinds {
			dev[k.name] = append(dev[k.name], devices[off:off+k.n])
			off += k.n
		}
	}
	var cores []int
	for u := 0; u < N; u++ {
		cores = append(cores, dev["core"][u][0])
	}
	ds.core = cores[0]
	if err := installModules(ctx, d, create, cores, mt); err != nil {
		return nil, err
	}

	// Cables: per unit, 10 paths from an access switch's uplink through
	// 10 patch panels (front in, rear out, rear to rear, front to front)
	// to a top-of-rack switch.
	var devAll []int
	for u := 0; u < N; u++ {
		devAll = append(devAll, dev["access"][u]...)
		devAll = append(devAll, dev["tor"][u]...)
		devAll = append(devAll, dev["panel"][u]...)
		devAll = append(devAll, dev["router"][u]...)
	}
	ifc, err := componentIDs(ctx, d, "dcim_interface", devAll)
	if err != nil {
		return nil, err
	}
	fps, err := componentIDs(ctx, d, "dcim_frontport", devAll)
	if err != nil {
		return nil, err
	}
	rps, err := componentIDs(ctx, d, "dcim_rearport", devAll)
	if err != nil {
		return nil, err
	}
	type end struct {
		ct string
		id int
	}
	var pairs [][2]end
	for u := 0; u < N; u++ {
		panels := dev["panel"][u][:pathPanels]
		for p := 0; p < unitPaths; p++ {
			port := fmt.Sprintf("Port %d", p+1)
			rear := fmt.Sprintf("Rear %d", p+1)
			prev := end{"dcim.interface", ifc[dev["access"][u][p]]["xe-0/1/0"]}
			if u == 0 && p == 0 {
				ds.traceFrom = prev.id
			}
			for k, pn := range panels {
				// Panel k is entered by its front port when k is even,
				// by its rear port when odd; it leaves by the other side.
				in, out := end{"dcim.frontport", fps[pn][port]}, end{"dcim.rearport", rps[pn][rear]}
				if k%2 == 1 {
					in, out = out, in
				}
				pairs = append(pairs, [2]end{prev, in})
				prev = out
			}
			pairs = append(pairs, [2]end{prev, {"dcim.interface", ifc[dev["tor"][u][p%unitToRs]][fmt.Sprintf("xe-0/0/%d", p)]}})
		}
	}
	for _, p := range pairs {
		if p[0].id == 0 || p[1].id == 0 {
			return nil, fmt.Errorf("seed: a path's port is missing (%v)", p)
		}
	}
	term := func(e end) []any { return []any{map[string]any{"object_type": e.ct, "object_id": e.id}} }
	if _, err := create("dcim.cable", len(pairs), func(i int) resource.Input {
		return jsonInput("a_terminations", term(pairs[i][0]), "b_terminations", term(pairs[i][1]), "status", "connected")
	}); err != nil {
		return nil, err
	}

	// Circuits with terminations on sites.
	provs, err := many("circuits.provider", []any{"name", "Level 3", "slug", "level-3"}, []any{"name", "Zayo", "slug", "zayo"}, []any{"name", "Lumen", "slug", "lumen"})
	if err != nil {
		return nil, err
	}
	ctype, err := create.one("circuits.circuittype", "name", "Internet", "slug", "internet")
	if err != nil {
		return nil, err
	}
	circuits, err := create("circuits.circuit", N*unitCircuits, func(i int) resource.Input {
		return jsonInput("cid", fmt.Sprintf("CID%06d", i), "provider", provs[i%len(provs)], "type", ctype, "status", "active", "commit_rate", 10000)
	})
	if err != nil {
		return nil, err
	}
	var cterms [][]any
	for i, c := range circuits {
		u, j := i/unitCircuits, i%unitCircuits
		cterms = append(cterms, []any{"circuit", c, "term_side", "A", "termination_type", "dcim.site", "termination_id", siteOf(u, j), "port_speed", 10000})
		if j < unitZSides {
			cterms = append(cterms, []any{"circuit", c, "term_side", "Z", "termination_type", "dcim.site", "termination_id", siteOf(u, j+1), "port_speed", 10000})
		}
	}
	if _, err := many("circuits.circuittermination", cterms...); err != nil {
		return nil, err
	}

	// VLANs, prefixes (a /16 per unit and 89 /24s in it), VMs.
	if _, err := create("ipam.vlan", N*unitVLANs, func(i int) resource.Input {
		u, j := i/unitVLANs, i%unitVLANs
		return jsonInput("vid", 100+j, "name", fmt.Sprintf("vlan%03d-%02d", u, j), "site", siteOf(u, j), "status", "active", "tags", tags(i))
	}); err != nil {
		return nil, err
	}
	unitNet := func(u int) (int, int) { return 10 + u/256, u % 256 }
	if _, err := create("ipam.prefix", N, func(u int) resource.Input {
		a, b := unitNet(u)
		return jsonInput("prefix", fmt.Sprintf("%d.%d.0.0/16", a, b), "status", "container", "scope_type", "dcim.site", "scope_id", siteOf(u, 0))
	}); err != nil {
		return nil, err
	}
	if _, err := create("ipam.prefix", N*unitChildren, func(i int) resource.Input {
		a, b := unitNet(i / unitChildren)
		return jsonInput("prefix", fmt.Sprintf("%d.%d.%d.0/24", a, b, i%unitChildren), "status", "active",
			"description", fmt.Sprintf("unit %d net %d", i/unitChildren, i%unitChildren), "tags", tags(i), "custom_fields", cf(i))
	}); err != nil {
		return nil, err
	}
	clType, err := create.one("virtualization.clustertype", "name", "VMware", "slug", "vmware")
	if err != nil {
		return nil, err
	}
	clusters, err := create("virtualization.cluster", N*unitClusters, func(i int) resource.Input {
		return jsonInput("name", fmt.Sprintf("cluster-%03d-%d", i/unitClusters, i%unitClusters), "type", clType,
			"scope_type", "dcim.site", "scope_id", siteOf(i/unitClusters, i%unitClusters))
	})
	if err != nil {
		return nil, err
	}
	vms, err := create("virtualization.virtualmachine", N*unitVMs, func(i int) resource.Input {
		return jsonInput("name", fmt.Sprintf("vm%03d-%03d", i/unitVMs, i%unitVMs), "cluster", clusters[i*unitClusters/unitVMs],
			"role", rServer, "platform", platform, "status", "active", "vcpus", 2, "memory", 4096, "tags", tags(i), "custom_fields", cf(i))
	})
	if err != nil {
		return nil, err
	}
	s.vms = vms
	vmIfaces, err := create("virtualization.vminterface", len(vms)*unitVMIfaces, func(i int) resource.Input {
		return jsonInput("virtual_machine", vms[i/unitVMIfaces], "name", fmt.Sprintf("eth%d", i%unitVMIfaces))
	})
	if err != nil {
		return nil, err
	}
	// IP addresses: two thirds on the VMs' eth0, a third on routers.
	if _, err := create("ipam.ipaddress", N*unitIPs, func(i int) resource.Input {
		u, j := i/unitIPs, i%unitIPs
		a, b := unitNet(u)
		in := jsonInput("address", fmt.Sprintf("%d.%d.%d.%d/24", a, b, j%unitChildren, 1+j/unitChildren), "status", "active",
			"dns_name", fmt.Sprintf("host%d-%d.example.com", u, j))
		if j < unitIPs*2/3 {
			in["assigned_object_type"], in["assigned_object_id"] = rawJSON("virtualization.vminterface"), rawJSON(vmIfaces[(u*unitVMs+j)*unitVMIfaces])
		} else {
			k := j - unitIPs*2/3 // 60: 12 routers x 5 interfaces
			in["assigned_object_type"], in["assigned_object_id"] = rawJSON("dcim.interface"), rawJSON(ifc[dev["router"][u][k%unitRouters]][ge(k/unitRouters)])
		}
		return in
	}); err != nil {
		return nil, err
	}
	if err := benchScaleContexts(create, s, sites, roles, platform); err != nil {
		return nil, err
	}
	ids, err := create("ipam.prefix", 1, func(int) resource.Input {
		return jsonInput("prefix", "172.20.0.0/16", "status", "active", "description", "POST available-ips")
	})
	if err != nil {
		return nil, err
	}
	ds.allocIPs = ids[0]

	// Spare core switches (modules installed), each cabled to a spare
	// access switch by 48 cables: the device-delete workload.
	if o.deleteRequests > 0 {
		spareDevs, err := create("dcim.device", 2*o.deleteRequests, func(i int) resource.Input {
			dt, role, name := tCore, rCore, fmt.Sprintf("spare-core-%02d", i/2)
			if i%2 == 1 {
				dt, role, name = tAccess, rAccess, fmt.Sprintf("spare-access-%02d", i/2)
			}
			return jsonInput("name", name, "device_type", dt, "role", role, "site", sites[0], "status", "planned")
		})
		if err != nil {
			return nil, err
		}
		var spareCores []int
		for i := 0; i < len(spareDevs); i += 2 {
			spareCores = append(spareCores, spareDevs[i])
		}
		if err := installModules(ctx, d, create, spareCores, mt); err != nil {
			return nil, err
		}
		sif, err := componentIDs(ctx, d, "dcim_interface", spareDevs)
		if err != nil {
			return nil, err
		}
		if _, err := create("dcim.cable", len(spareCores)*48, func(i int) resource.Input {
			c, a := spareDevs[2*(i/48)], spareDevs[2*(i/48)+1]
			return jsonInput("a_terminations", term(end{"dcim.interface", sif[c][fmt.Sprintf("et-0/0/%d", i%48)]}),
				"b_terminations", term(end{"dcim.interface", sif[a][ge(i%48)]}))
		}); err != nil {
			return nil, err
		}
		ds.spares = spareCores
	}

	ds.changed = ifc[dev["access"][0][0]]["ge-0/0/0"]
	return ds, nil
}

// installModules installs a line card in each of the first coreModules
// module bays of every device of cores.
func installModules(ctx context.Context, d *db.DB, create benchCreate, cores []int, mt int) error {
	bays, err := componentIDs(ctx, d, "dcim_modulebay", cores)
	if err != nil {
		return err
	}
	_, err = create("dcim.module", len(cores)*coreModules, func(i int) resource.Input {
		return jsonInput("device", cores[i/coreModules], "module_bay", bays[cores[i/coreModules]][fmt.Sprintf("Slot %d", i%coreModules)],
			"module_type", mt, "status", "active")
	})
	return err
}

// rawJSON is v as one JSON value of a resource.Input.
func rawJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// componentIDs reads the ids of the components of the given devices, by
// device and name (the templates made them: their ids are not returned).
func componentIDs(ctx context.Context, d *db.DB, table string, devices []int) (map[int]map[string]int, error) {
	out := map[int]map[string]int{}
	for lo := 0; lo < len(devices); lo += 2000 {
		var in strings.Builder
		for i, id := range devices[lo:min(lo+2000, len(devices))] {
			if i > 0 {
				in.WriteByte(',')
			}
			fmt.Fprint(&in, id)
		}
		rows, err := d.Read.QueryContext(ctx, "SELECT id, device_id, name FROM "+table+" WHERE device_id IN ("+in.String()+")")
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id, dev int
			var name string
			if err := rows.Scan(&id, &dev, &name); err != nil {
				rows.Close()
				return nil, err
			}
			if out[dev] == nil {
				out[dev] = map[string]int{}
			}
			out[dev][name] = id
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// benchScaleContexts seeds benchCCs config contexts: five that every
// device or VM of a role, platform or tag matches, and the rest each for
// a site (a device page matches a handful out of 100, as in nb#20327).
func benchScaleContexts(create benchCreate, s *benchSeed, sites, roles []int, platform int) error {
	_, err := create("extras.configcontext", benchCCs, func(i int) resource.Input {
		switch i {
		case 0:
			return jsonInput("name", "cc all", "weight", 100, "data", map[string]any{
				"ntp": map[string]any{"servers": []any{"192.0.2.1", "192.0.2.2"}, "tz": "UTC"}, "dns": []any{"192.0.2.53"}})
		case 1:
			return jsonInput("name", "cc roles", "weight", 200, "roles", roles, "data", map[string]any{
				"syslog": map[string]any{"host": "192.0.2.5", "level": "info"}})
		case 2:
			return jsonInput("name", "cc platform", "weight", 300, "platforms", []int{platform}, "data", map[string]any{"os": "demo-os"})
		case 3:
			return jsonInput("name", "cc tag", "weight", 400, "tags", []string{s.tagSlugs[0]}, "data", map[string]any{"tagged": true})
		case 4:
			return jsonInput("name", "cc access", "weight", 500, "roles", roles[:1], "data", map[string]any{"snmp": map[string]any{"community": "demo"}})
		}
		return jsonInput("name", fmt.Sprintf("cc site %03d", i), "weight", 1000+i, "sites", []int{sites[i%len(sites)]},
			"data", map[string]any{"site": map[string]any{"index": i, "banner": fmt.Sprintf("site %d", i)}})
	})
	return err
}

// topUpChanges brings the change log to want records: the records that
// updating the description of the seeded interfaces in turn would write
// (round r sets "rev r"; at scale 100 about 380,000), written in bulk.
// Making each update through the write path ran at 640 a second on SQLite
// and 235 on PostgreSQL (10 to 27 minutes at scale 100) for records no
// different from these: each is built by the change capture's own pieces,
// the interface's snapshot (Descriptor.SnapshotsOf of its row, read
// once, with the description of the round before and of the round), its
// display and related device, under the bench's user, --batch records to
// a request id and a time as a bulk PATCH of --batch interfaces writes
// them, inserted with the write side's multi-row INSERTs
// (webhooks.WriteChanges). The interfaces are then left as the last
// update would have: their description and last_updated set, in two
// statements.
func topUpChanges(ctx context.Context, d *db.DB, batch, want int, ds *dcimSeed) error {
	count := func() error {
		return d.Read.QueryRowContext(ctx, "SELECT count(*) FROM core_objectchange").Scan(&ds.changes)
	}
	if err := count(); err != nil {
		return err
	}
	if ds.changes >= want {
		return nil
	}
	// All interfaces (the cable scenarios' too), in id order: a round
	// touches each once.
	var pool []int
	rows, err := d.Read.QueryContext(ctx, "SELECT id FROM dcim_interface ORDER BY id")
	if err != nil {
		return err
	}
	for rows.Next() {
		var id int
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		pool = append(pool, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(pool) == 0 {
		return err
	}
	t0 := time.Now()
	n := want - ds.changes
	rounds := (n + len(pool) - 1) / len(pool)
	desc := resource.ByContentType("dcim.interface")
	descCol := slices.Index(desc.Columns(), "description")
	if descCol < 0 {
		return fmt.Errorf("dcim.interface has no description column")
	}
	st := resource.Store{Dialect: d.Dialect, Q: d.Read}
	rev := func(r int) string { return fmt.Sprintf("rev %d", r) }
	// The description in a snapshot: a marker replaced by each round's
	// value, encoded as a JSON string.
	const marker = "bench-description-7f3a9c1e"
	quoted := func(s string) []byte { b, _ := json.Marshal(s); return b }
	var last time.Time
	const chunk = 1000
	for lo := 0; lo < len(pool); lo += chunk {
		ids := pool[lo:min(lo+chunk, len(pool))]
		rs, err := desc.GetMany(ctx, st, ids)
		if err != nil {
			return err
		}
		type tmpl struct {
			id      int
			orig    []byte // the seeded description, quoted
			pre     [2][]byte
			repr    string
			rct     string
			rid     int
			related bool
		}
		byID := map[int]*tmpl{}
		for _, r := range rs {
			orig, _ := r.Vals[descCol].(string)
			byID[r.ID] = &tmpl{id: r.ID, orig: quoted(orig), repr: desc.DisplayOf(r)}
			byID[r.ID].rct, byID[r.ID].rid, byID[r.ID].related = desc.RelatedObject(r)
			r.Vals[descCol] = marker
		}
		snaps, err := desc.SnapshotsOf(ctx, st, rs)
		if err != nil {
			return err
		}
		for id, snap := range snaps {
			before, after, ok := bytes.Cut(snap, []byte(`"`+marker+`"`))
			if !ok || bytes.Contains(after, []byte(marker)) {
				return fmt.Errorf("interface %d: the description is not in its snapshot once: %s", id, snap)
			}
			byID[id].pre = [2][]byte{before, after}
		}
		snap := func(t *tmpl, desc []byte) json.RawMessage {
			return json.RawMessage(slices.Concat(t.pre[0], desc, t.pre[1]))
		}
		for r := range rounds {
			var recs []webhooks.Change
			for j, id := range ids {
				if r*len(pool)+lo+j >= n {
					break
				}
				t := byID[id]
				if t == nil || t.pre[0] == nil {
					return fmt.Errorf("interface %d: no snapshot", id)
				}
				pre := t.orig
				if r > 0 {
					pre = quoted(rev(r - 1))
				}
				recs = append(recs, webhooks.Change{Action: "update", ObjectType: "dcim.interface", ObjectID: id,
					Related: t.related, RelatedType: t.rct, RelatedID: t.rid, Repr: t.repr,
					Pre: snap(t, pre), Post: snap(t, quoted(rev(r)))})
			}
			for b := range slices.Chunk(recs, batch) {
				// One bulk PATCH: one request id, one time.
				last = schema.Now()
				actor := webhooks.Actor{Username: "bench", RequestID: uuid.NewString(), Method: "PATCH", Path: "/api/dcim/interfaces/"}
				if err := d.InTx(ctx, func(ctx context.Context, tx *ent.Tx) error {
					return webhooks.WriteChanges(ctx, tx.Client(), d.Dialect, actor, last, b)
				}); err != nil {
					return err
				}
			}
		}
	}
	// Each interface as its last update left it: pool[:k] went through
	// round `rounds`-1, the others through the round before (if any).
	k := n - (rounds-1)*len(pool)
	set := func(r int, cond string, id int) error {
		a := &rawsql.Args{PG: d.Dialect == dialect.Postgres}
		q := "UPDATE dcim_interface SET description = " + a.P(rev(r)) + ", last_updated = " + a.P(last) + " WHERE id " + cond + " " + a.P(id)
		_, err := d.Write.ExecContext(ctx, q, a.List...)
		return err
	}
	if err := set(rounds-1, "<=", pool[k-1]); err != nil {
		return err
	}
	if rounds > 1 && k < len(pool) {
		if err := set(rounds-2, ">", pool[k-1]); err != nil {
			return err
		}
	}
	el := time.Since(t0)
	fmt.Printf("changes:   %d change records added in %.1fs (%.0f/s): those of %d interface updates (round r sets description \"rev r\"), built from each interface's snapshot and written in bulk, %d to a request id, not made one by one\n",
		n, el.Seconds(), float64(n)/el.Seconds(), n, batch)
	return count()
}
