package vpn

import (
	"strconv"

	"github.com/inventory/inventory/ent/schema/api"
)

// NetBox 4.6's vpn/choices.py.
var (
	TunnelStatus        = api.C("planned", "Planned", "active", "Active", "disabled", "Disabled")
	TunnelEncapsulation = api.C("ipsec-transport", "IPsec - Transport", "ipsec-tunnel", "IPsec - Tunnel",
		"ip-ip", "IP-in-IP", "gre", "GRE", "wireguard", "WireGuard", "openvpn", "OpenVPN", "l2tp", "L2TP", "pptp", "PPTP")
	TerminationRoles = api.C("peer", "Peer", "hub", "Hub", "spoke", "Spoke")
	IKEModes         = api.C("aggressive", "Aggressive", "main", "Main")
	AuthMethods      = api.C("preshared-keys", "Pre-shared keys", "certificates", "Certificates",
		"rsa-signatures", "RSA signatures", "dsa-signatures", "DSA signatures")
	IPSecModes           = api.C("esp", "ESP", "ah", "AH")
	EncryptionAlgorithms = api.C("aes-128-cbc", "128-bit AES (CBC)", "aes-128-gcm", "128-bit AES (GCM)",
		"aes-192-cbc", "192-bit AES (CBC)", "aes-192-gcm", "192-bit AES (GCM)", "aes-256-cbc", "256-bit AES (CBC)",
		"aes-256-gcm", "256-bit AES (GCM)", "3des-cbc", "3DES", "des-cbc", "DES")
	AuthAlgorithms = api.C("hmac-sha1", "SHA-1 HMAC", "hmac-sha256", "SHA-256 HMAC", "hmac-sha384", "SHA-384 HMAC",
		"hmac-sha512", "SHA-512 HMAC", "hmac-md5", "MD5 HMAC")
	L2VPNStatus = api.C("active", "Active", "planned", "Planned", "decommissioning", "Decommissioning")
	L2VPNTypes  = api.C("vpws", "VPWS", "vpls", "VPLS", "vxlan", "VXLAN", "vxlan-evpn", "VXLAN-EVPN",
		"mpls-evpn", "MPLS EVPN", "pbb-evpn", "PBB EVPN", "evpn-vpws", "EVPN VPWS", "epl", "EPL", "evpl", "EVPL",
		"ep-lan", "Ethernet Private LAN", "evp-lan", "Ethernet Virtual Private LAN", "ep-tree", "Ethernet Private Tree",
		"evp-tree", "Ethernet Virtual Private Tree", "spb", "SPB")
)

// IKEVersions are IKEVersionChoices (integer values).
var IKEVersions = []api.Choice{{Value: 1, Label: "IKEv1"}, {Value: 2, Label: "IKEv2"}}

// DHGroups are DHGroupChoices: "Group <n>" for the IANA groups NetBox lists.
var DHGroups = func() []api.Choice {
	var out []api.Choice
	for _, n := range []int{1, 2, 5, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34} {
		out = append(out, api.Choice{Value: n, Label: "Group " + strconv.Itoa(n)})
	}
	return out
}()

// p2pTypes are L2VPNTypeChoices.P2P: the point-to-point types, which take
// two terminations at most.
var p2pTypes = []string{"vpws", "epl", "ep-lan", "ep-tree"}

// Content types a termination may attach to.
const (
	ctInterface   = "dcim.interface"
	ctVMInterface = "virtualization.vminterface"
	ctVLAN        = "ipam.vlan"
)

// TunnelTerminationTypes are the objects a tunnel may end on.
var TunnelTerminationTypes = []string{ctInterface, ctVMInterface}

// L2VPNTerminationTypes are NetBox's L2VPN_ASSIGNMENT_MODELS.
var L2VPNTerminationTypes = []string{ctInterface, ctVLAN, ctVMInterface}
