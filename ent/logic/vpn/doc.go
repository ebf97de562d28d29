// Package vpn holds the domain rules of NetBox's vpn app that are more
// than declarations; ent/schema wires them in as hooks and display
// functions.
//
//   - Choices (choices.go): NetBox's vpn/choices.py, declared here where
//     the rules need them (the point-to-point L2VPN types).
//   - Tunnel terminations (tunnel.go): a device or VM interface terminates
//     one tunnel at most (declared as a unique pair of type and id, with
//     NetBox's message); the display "<tunnel>: Termination <id>" reads
//     the tunnel's name from a hidden copy on the row, kept by the hooks.
//   - L2VPN terminations (l2vpn.go): a VLAN, interface or VM interface
//     terminates one L2VPN at most (L2VPNTermination.clean()), and a
//     point-to-point L2VPN has at most two terminations. The display
//     "<object> <> <l2vpn>" is cached on the row when it is written.
//
// This package must not import the generated ent client, the resource
// layer or server/ (see ent/logic/layering_test.go).
package vpn
