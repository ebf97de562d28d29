// Package dcim holds the domain rules of NetBox's dcim app that are more
// than declarations; ent/schema wires them in as hooks
// (func (Site) Hooks() []ent.Hook { return dcim.SiteHooks() }).
//
// Today that is NetBox's sync_cached_scope_fields signal: a site that
// changes region or site group, or a location that changes site, moves
// the cached scope of the prefixes on it (ipam.RecomputePrefixScopes),
// after the update and in its transaction.
//
// Device types, module types and profiles (types.go): NetBox's clean()
// of each (u_height in 0.5 steps, child types 0U, a weight needs its
// unit, profile schemas are JSON Schemas and module type attributes
// satisfy them). Component templates (templates.go): one hook per
// template model built from the shared rules (exactly one parent type,
// no move to another device type, {module} only on module types) and the
// model's own (references to other templates stay on the same parent).
// Device components (components.go): the same rules for components (no
// move to another device, references within the device, the front/rear
// port mappings mirrored as the templates' are), Interface.clean() and
// save() (parent, bridge and LAG, PoE, wireless, the 802.1Q mode and the
// VLANs a device's interfaces may use, the primary MAC address) and the
// cached columns (_occupied, _site/_location/_rack, mac_address).
// rows.go runs such a check on the row a write leaves behind, for creates
// and one- and many-row updates. Power panels and feeds (power.go): a
// panel's location and a feed's rack at the same site, the voltage rules,
// and the values a feed caches (available_power as PowerFeed.save()
// computes it, _occupied, the panel's name for q). Cables and their paths
// (cable*.go, cablepath*.go): NetBox's Cable.clean() and CablePath,
// traced at the end of each write that changes a cable, a termination, a
// port mapping or a wireless link (a link of a path as a cable is), and
// stored; a trace that would go round a loop ends
// there, incomplete, and MaxPathHops and MaxPathFanout bound the rest.
// New cables' ends are written at the end of the write too, batched over
// its cables (cable_ends.go: a bulk create costs one statement a cable).
// Device placement: placement.go, racks.go, elevation.go.
//
// Checks of a row against the rows that depend on it: a rack keeps room
// for the devices mounted in it (Rack.clean(); racks.go), and so does a
// change of its rack type (beyond NetBox, which copies a rack type's new
// height to its racks unchecked); a device type's height or depth
// changes only where its racked devices still fit (DeviceType.clean();
// types.go); a location's parent is at its site (Location.clean()); a
// module type profile's new schema accepts its module types' attributes
// (beyond NetBox).
//
// Like every logic package that ent/schema imports, it must not import the
// generated ent packages, ent/resource, ent/db, webhooks, server or cmd
// (TestLayering in ent/logic). It may import other logic packages (ipam:
// NetBox's dcim signals update ipam's models too).
package dcim
