// Package virtualization holds the domain rules of NetBox's virtualization
// app that are more than declarations; ent/schema wires them in as hooks.
//
//   - Clusters (cluster.go): the scope (region, site group, site or
//     location) with its cached columns (ipam.ClusterScope, recomputed
//     when a site or location moves, as NetBox's sync_cached_scope_fields
//     does); Cluster.clean(): the host devices lie in the scope's site or
//     location; the cluster's site passed on to its virtual machines
//     (update_virtualmachine_site); the cached allocated_vcpus,
//     allocated_memory and allocated_disk (NetBox's annotations: sums over
//     the cluster's virtual machines).
//   - Virtual machines (vm.go): VirtualMachine.clean() and save(): placed
//     at a site, in a cluster or on a device, those three agreeing; the site
//     taken from the cluster or device; the type's defaults on create; the
//     disk equal to the sum of the virtual disks (the config context is
//     computed at read time, extras.ConfigContexts); the primary IP addresses
//     (ipam.VirtualMachinePrimaryIPHooks).
//   - VM interfaces (vminterface.go): parent and bridge on the same
//     virtual machine, the 802.1Q mode's VLANs of the VM's site or global,
//     the primary MAC address assigned to the interface; the cached
//     mac_address; tagged VLANs dropped out of tagged mode.
//   - Virtual disks (disk.go): the VM's disk kept the sum of its disks
//     (update_virtualmachine_disk).
//
// The hooks read and write rows with SQL in the write's transaction
// (ent/logic/rawsql): they must not import the generated code.
package virtualization
