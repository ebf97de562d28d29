// Package wireless holds the domain rules of NetBox's wireless app that
// are more than declarations; ent/schema wires them in as hooks and
// display functions.
//
//   - Wireless links (link.go): WirelessLink.clean(): both ends are
//     wireless interfaces (the message names the type's label, as
//     NetBox's does). Beyond NetBox, which lets a second link silently
//     take an interface over (Interface.wireless_link is a single
//     foreign key), an interface belongs to one link at most and a link
//     joins two different interfaces: either is a 400. WirelessLink.save()
//     caches each end's device (_interface_a_device, _interface_b_device:
//     deleting a device deletes its links); NetBox's cascades set each
//     interface's wireless_link to the link and clear it when an end
//     moves away (a deleted link clears it through the interface's
//     SET_NULL foreign key). DistanceMixin's rules are circuits'.
//   - Cable paths across links: a link is a link of a path as a cable is
//     (dcim's Trace follows an interface's cable, else its wireless link).
//     Creating a link traces its ends (NetBox's
//     update_connected_interfaces, whose save() of each interface gives
//     it an update record), deleting one retraces the paths through it
//     (nullify_connected_interfaces); beyond NetBox, which leaves the
//     paths as they were, so does a move of an end or a new status.
//   - Wireless LANs keep NetBox's cached scope through ipam.WirelessLANScope.
//
// It must not import the generated ent packages (ent/schema imports it).
package wireless
