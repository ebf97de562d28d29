// Package ipam holds the domain rules of NetBox's ipam app that are more
// than declarations; ent/schema wires them in as hooks
// (func (Prefix) Hooks() []ent.Hook { return ipam.PrefixHooks() }).
//
// Prefix (prefix.go, prefix_scope.go):
//
//   - The hierarchy. A prefix row carries hidden columns beside its text
//     (family; network and broadcast as 16-byte, IPv4 v4-mapped binary;
//     prefix_length; vrf_key, 0 for the global table) derived by the hook
//     from prefix and vrf_id, with the prefix canonicalised (host bits
//     cleared, as Prefix.save() does). _depth (distinct strictly
//     containing prefixes of the same VRF) and _children (strictly
//     contained ones, duplicates counted) are cached columns kept right
//     in the mutation's transaction: a one-row create, update or delete
//     adjusts the counters of the rows it enters or leaves; a many-row
//     update or delete rebuilds the VRFs involved (RebuildPrefixCaches,
//     which tests and repairs may call too).
//   - The cached scope (NetBox's CachedScopeMixin): _region_id,
//     _site_group_id, _site_id and _location_id are set from scope_type
//     and scope_id on create and recomputed in SQL when the scope changes.
//     CachedScope describes it per table, so that circuit terminations
//     (ent/logic/circuits) keep theirs with the same code.
//     When a site or location moves, ent/logic/dcim calls
//     RecomputePrefixScopes. RebuildPrefixScopes refills every row after a
//     migration that adds the columns (ent/db.Migrate).
//
// VLANGroup (vlangroup.go): vid_ranges is validated with NetBox's messages
// and total_vlan_ids kept equal to the number of IDs it holds. VLAN
// (vlan.go): VLAN.clean(), a site that agrees with a group scoped to a
// site or site group, a VID within the group's ranges, and the Q-in-Q
// roles, before every row written.
//
// Aggregate (aggregate.go) and IPRange (iprange.go): the hidden
// containment columns are derived as for prefixes (an IP range's
// start_host and end_host, family, prefix_length, vrf_key, and its
// size), and NetBox's clean() rules are enforced with its messages: no
// aggregate covers or lies inside another; a range's addresses share
// family and mask, the end is not below the start, it overlaps no range
// of its VRF and holds at most MaxRangeSize addresses. On PostgreSQL the
// overlap checks take a transaction-scoped advisory lock (per VRF for
// ranges), so that concurrent writes cannot both pass them.
//
// ASNRange (asn.go): the end above the start. VLANTranslationRule and
// VLANTranslationPolicy (vlantranslation.go): a rule's policy must exist,
// and the rule keeps the policy's name for its display, renamed with the
// policy. Displays that a template cannot express (IP ranges, ASNs,
// rules, VRFs) are in display.go.
//
// IPAddress (ipaddress.go): hidden columns beside the address text (host,
// 16-byte binary as the prefixes' network; prefix_length; vrf_key;
// _network and _broadcast of its network) derived by the hook, dns_name
// lower-cased, and IPAddress.clean(): no network ID or IPv4 broadcast
// address assigned to an object (but /31, /32, /127, /128), uniqueness per
// VRF (enforce_unique) or in the global table (ENFORCE_GLOBAL_UNIQUE, from
// api.SettingsFrom), a device's primary or OOB address not moved off the
// device, SLAAC for IPv6 only; and a NAT loop refused. The primary and OOB
// addresses of devices and virtual device contexts are checked by their
// own hooks (primaryip.go, Device.clean() and VirtualDeviceContext.clean()).
//
// FHRP groups (fhrp.go): their display names their first address and an
// assignment's names its interface and group; display functions see one
// row, so both are cached (_first_ip, _display) and renewed by the hooks
// of IP addresses, groups, assignments and interfaces.
//
// Services (service.go): ports between 1 and 65535, the lowest cached for
// the ordering; a service's IP addresses belong to its parent.
//
// Allocation (available*.go): the handlers of NetBox's available-prefixes,
// available-ips (of prefixes and IP ranges), available-vlans and
// available-asns endpoints, declared on the parents' schemas
// (ent/schema/ipam_available.go). What is free is the parent's span minus
// the spans of its children, walked lazily (Gaps) over children read in
// order from their indexes in growing batches (Paged; Points also steps
// over a run of taken hosts or ASNs inside the database, in one statement
// whatever its length: available_run.go), so that nothing enumerates the
// space. POST runs in the request's write transaction
// (api.Op.Write): it locks what it reads (Request.Lock: NetBox's advisory
// lock classes, keyed by VRF or VLAN group; nothing on SQLite, whose write
// transactions are serial), takes the lowest free blocks (Free), and
// creates the objects through the created model's normal create path
// (Request.Create). IPWriteLockHook makes IP addresses written by hand
// wait for the IP allocations, as NetBox locks its IP address views.
//
// Hooks see the generic ent.Mutation and run hand-written SQL for SQLite
// and PostgreSQL through package rawsql. Because ent/schema imports this
// package and ent's generator compiles ent/schema before the generated
// code exists, this package must not import the generated ent packages,
// ent/resource, ent/db, webhooks, server or cmd (TestLayering in ent/logic
// fails if it does).
package ipam
