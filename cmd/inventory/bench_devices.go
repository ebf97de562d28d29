package main

import (
	"fmt"

	"github.com/inventory/inventory/ent/resource"
)

// benchDevices seeds the device side of the benchmark through create (see
// seedBench): a manufacturer, two device types, a role, a platform and a
// tenant, one 42U rack per site for the first racks sites, and devices
// filling those racks from the bottom (1U and 2U, alternately), each
// with the relations a complete device renders (site, rack, type with its
// manufacturer, role, tenant, platform), local context data, tags and a
// custom field value.
func benchDevices(create benchCreate,
	s *benchSeed, n int, tags func(int) []int, cf func(int) map[string]any) ([]int, error) {
	if n <= 0 {
		return nil, nil
	}
	man, err := create.one("dcim.manufacturer", "name", "Bench Networks", "slug", "bench-networks")
	if err != nil {
		return nil, err
	}
	var types [2]int
	for i, h := range []int{1, 2} {
		if types[i], err = create.one("dcim.devicetype", "manufacturer", man, "model", fmt.Sprintf("BN-%dU", h),
			"slug", fmt.Sprintf("bn-%du", h), "u_height", h, "is_full_depth", h == 2); err != nil {
			return nil, err
		}
	}
	role, err := create.one("dcim.devicerole", "name", "Bench role", "slug", "bench-role")
	if err != nil {
		return nil, err
	}
	platform, err := create.one("dcim.platform", "name", "Bench OS", "slug", "bench-os", "manufacturer", man)
	if err != nil {
		return nil, err
	}
	tenant, err := create.one("tenancy.tenant", "name", "Bench tenant", "slug", "bench-tenant")
	if err != nil {
		return nil, err
	}
	// 28 devices (14 of 1U, 14 of 2U: 42U) fill a rack.
	const perRack = 28
	racks := min((n+perRack-1)/perRack, len(s.sites))
	rackIDs, err := create("dcim.rack", racks, func(i int) resource.Input {
		return jsonInput("name", fmt.Sprintf("Rack %04d", i), "site", s.sites[i], "u_height", 42, "status", "active")
	})
	if err != nil {
		return nil, err
	}
	n = min(n, racks*perRack)
	devices, err := create("dcim.device", n, func(i int) resource.Input {
		slot := i % perRack
		pos := 1 + 3*(slot/2) + slot%2 // 1U at 1, 2U at 2-3, 1U at 4 ...
		return jsonInput("name", fmt.Sprintf("dev-%05d", i), "device_type", types[slot%2], "role", role,
			"tenant", tenant, "platform", platform, "site", s.sites[i/perRack], "rack", rackIDs[i/perRack],
			"position", pos, "face", "front", "status", "active", "serial", fmt.Sprintf("SN%05d", i),
			"local_context_data", map[string]any{"index": i}, "tags", tags(i), "custom_fields", cf(i))
	})
	if err != nil {
		return devices, err
	}
	if err := benchConfigContexts(create, s, role, platform, tenant); err != nil {
		return devices, err
	}
	if resource.ByContentType("dcim.interface") == nil {
		return devices, nil
	}
	// 48 interfaces on each of the first devices, for the interface list.
	withPorts := min(len(devices), (benchInterfaces+47)/48)
	_, err = create("dcim.interface", withPorts*48, func(i int) resource.Input {
		return jsonInput("device", devices[i/48], "name", fmt.Sprintf("et-0/0/%d", i%48), "type", "10gbase-x-sfpp",
			"description", fmt.Sprintf("port %d", i), "tags", tags(i))
	})
	s.interfaces = withPorts * 48
	return devices, err
}

// benchInterfaces is the least number of interfaces seeded with the
// devices, for the "list 1000 interfaces" scenario.
const benchInterfaces = 1000

// benchConfigContexts seeds the config contexts that the devices' (and
// VMs') config_context merges: one for everything, one per assigned kind
// that the devices carry (role, platform, tenant, a tag) and one for each
// of the first sites, so that a page of devices matches a handful of them
// out of benchContextSites+5.
func benchConfigContexts(create benchCreate,
	s *benchSeed, role, platform, tenant int) error {
	if resource.ByContentType("extras.configcontext") == nil {
		return nil
	}
	shared := []resource.Input{
		jsonInput("name", "bench all", "weight", 100, "data", map[string]any{
			"ntp": map[string]any{"servers": []any{"192.0.2.1", "192.0.2.2"}, "tz": "UTC"}, "dns": []any{"192.0.2.53"}}),
		jsonInput("name", "bench role", "weight", 200, "roles", []int{role}, "data", map[string]any{
			"ntp": map[string]any{"prefer": "192.0.2.1"}, "syslog": map[string]any{"host": "192.0.2.5", "level": "info"}}),
		jsonInput("name", "bench platform", "weight", 300, "platforms", []int{platform}, "data", map[string]any{"os": "bench-os"}),
		jsonInput("name", "bench tenant", "weight", 400, "tenants", []int{tenant}, "data", map[string]any{"owner": "bench"}),
		jsonInput("name", "bench tag", "weight", 500, "tags", []string{s.tagSlugs[0]}, "data", map[string]any{"tagged": true}),
	}
	if _, err := create("extras.configcontext", len(shared), func(i int) resource.Input { return shared[i] }); err != nil {
		return err
	}
	_, err := create("extras.configcontext", min(benchContextSites, len(s.sites)), func(i int) resource.Input {
		return jsonInput("name", fmt.Sprintf("bench site %03d", i), "weight", 1000, "sites", []int{s.sites[i]},
			"data", map[string]any{"site": map[string]any{"index": i, "banner": fmt.Sprintf("site %d", i)}})
	})
	return err
}

// benchContextSites is the number of site-specific config contexts.
const benchContextSites = 50
