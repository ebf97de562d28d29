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
//   - Wireless LANs keep NetBox's cached scope through ipam.WirelessLANScope.
//
// It must not import the generated ent packages (ent/schema imports it).
package wireless
