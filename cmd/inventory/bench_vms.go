package main

import (
	"fmt"

	"github.com/inventory/inventory/ent/resource"
)

// The virtualization side of the benchmark: --vms virtual machines in one
// cluster (scoped to the first site), each with a role, a platform, local
// context data, tags, a custom field value and one interface carrying an
// IPv4 and an IPv6 address that are its primary addresses: everything a
// complete VM renders (cluster, site, platform, primary IPs, config
// context). The scenario lists 50 of them.

// benchVMs seeds n virtual machines (none when the build has no VM model
// or no site was seeded).
func benchVMs(create benchCreate,
	update func(string, []int, func(int) resource.Input) error,
	s *benchSeed, n int, tags func(int) []int, cf func(int) map[string]any) ([]int, error) {
	if n <= 0 || len(s.sites) == 0 || resource.ByContentType("virtualization.virtualmachine") == nil {
		return nil, nil
	}
	ctype, err := create.one("virtualization.clustertype", "name", "Bench hypervisor", "slug", "bench-hypervisor")
	if err != nil {
		return nil, err
	}
	cluster, err := create.one("virtualization.cluster", "name", "Bench cluster", "type", ctype,
		"scope_type", "dcim.site", "scope_id", s.sites[0])
	if err != nil {
		return nil, err
	}
	role, err := create.one("dcim.devicerole", "name", "Bench VM role", "slug", "bench-vm-role")
	if err != nil {
		return nil, err
	}
	platform, err := create.one("dcim.platform", "name", "Bench guest OS", "slug", "bench-guest-os")
	if err != nil {
		return nil, err
	}
	vms, err := create("virtualization.virtualmachine", n, func(i int) resource.Input {
		return jsonInput("name", fmt.Sprintf("vm-%05d", i), "cluster", cluster, "role", role, "platform", platform,
			"status", "active", "vcpus", 2, "memory", 4096, "local_context_data", map[string]any{"index": i},
			"tags", tags(i), "custom_fields", cf(i))
	})
	if err != nil {
		return nil, err
	}
	ifaces, err := create("virtualization.vminterface", n, func(i int) resource.Input {
		return jsonInput("virtual_machine", vms[i], "name", "eth0")
	})
	if err != nil {
		return nil, err
	}
	// 172.16.0.0/12 and 2001:db8:ffff::/48: outside the other seeded
	// address space.
	v4, err := create("ipam.ipaddress", n, func(i int) resource.Input {
		j := i + 1 // not the /12's network address
		return jsonInput("address", fmt.Sprintf("172.%d.%d.%d/12", 16+j>>16, (j>>8)&255, j&255), "status", "active",
			"assigned_object_type", "virtualization.vminterface", "assigned_object_id", ifaces[i])
	})
	if err != nil {
		return nil, err
	}
	v6, err := create("ipam.ipaddress", n, func(i int) resource.Input {
		return jsonInput("address", fmt.Sprintf("2001:db8:ffff:%x::1/64", i), "status", "active",
			"assigned_object_type", "virtualization.vminterface", "assigned_object_id", ifaces[i])
	})
	if err != nil {
		return nil, err
	}
	return vms, update("virtualization.virtualmachine", vms, func(i int) resource.Input {
		return jsonInput("primary_ip4", v4[i], "primary_ip6", v6[i])
	})
}
