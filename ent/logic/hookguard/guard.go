package hookguard

import (
	"fmt"
	"net/netip"
	"strings"
)

// Guard decides which addresses outgoing webhooks may reach: public
// addresses always, internal ones (loopback, private, link-local, CGNAT,
// multicast, unspecified, broadcast, reserved) only when the operator
// allows them.
type Guard struct {
	nets  []netip.Prefix
	hosts map[string]bool
}

// NewGuard parses an allow-list of CIDRs, single addresses and host names.
func NewGuard(allow []string) (*Guard, error) {
	g := &Guard{hosts: map[string]bool{}}
	for _, a := range allow {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		if p, err := netip.ParsePrefix(a); err == nil {
			g.nets = append(g.nets, p.Masked())
			continue
		}
		if ip, err := netip.ParseAddr(a); err == nil {
			g.nets = append(g.nets, netip.PrefixFrom(ip, ip.BitLen()))
			continue
		}
		if strings.ContainsAny(a, "/ :") {
			return nil, fmt.Errorf("webhook allow-list: %q is neither a CIDR, an address nor a host name", a)
		}
		g.hosts[strings.ToLower(strings.TrimSuffix(a, "."))] = true
	}
	return g, nil
}

var internalNets = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
		"192.0.0.0/24", "192.0.2.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24",
		"203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
		"::/128", "::1/128", "64:ff9b::/96", "64:ff9b:1::/48", "100::/64", "2001:db8::/32",
		"fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// Internal reports whether ip is not a public unicast address.
func Internal(ip netip.Addr) bool {
	ip = ip.Unmap().WithZone("")
	for _, p := range internalNets {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// AllowedIP reports whether ip may be reached.
func (g *Guard) AllowedIP(ip netip.Addr) bool {
	ip = ip.Unmap().WithZone("")
	for _, p := range g.nets {
		if p.Contains(ip) {
			return true
		}
	}
	return !Internal(ip)
}

// AllowedHost reports whether the host name is on the allow-list (its
// addresses are then not checked).
func (g *Guard) AllowedHost(host string) bool {
	return g.hosts[strings.ToLower(strings.TrimSuffix(host, "."))]
}
