// Package circuits holds the domain rules of NetBox's circuits app that
// are more than declarations; ent/schema wires them in as hooks and
// display functions.
//
//   - Circuits (circuit.go): the provider account belongs to the
//     circuit's provider, a distance needs its unit (and a cleared
//     distance clears the unit, DistanceMixin.save()); a renamed circuit
//     renames itself in its terminations' cached copy of the cid.
//   - Circuit terminations (termination.go): A or Z, once per circuit
//     (declared as a unique set); they attach to a region, site group,
//     site, location or provider network (a generic relation whose
//     cached scope ipam.CachedScope keeps, as NetBox's
//     cache_related_objects() does), and the circuit caches each side's
//     termination in termination_a / termination_z (CircuitTermination.save()).
//     Unlike prefixes, NetBox does not recompute a termination's cached
//     scope when its site moves (sync_cached_scope_fields lists Prefix,
//     Cluster and WirelessLAN only), and neither do we.
//   - Virtual circuits (virtual.go): the provider account belongs to the
//     provider of the provider network; terminations sit on virtual
//     interfaces.
//   - Group assignments and accounts (groups.go): the assignment's display
//     reads the group's name from a cached copy; accounts' names are
//     unique per provider unless blank.
//   - The paths of terminations (paths.go).
//
// Displays that name a related object (a termination's circuit, an
// assignment's group) read a hidden copy of its name on the row itself,
// kept by these hooks, so that a page renders from its own rows.
package circuits
