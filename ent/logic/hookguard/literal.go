package hookguard

import (
	"net/netip"
	"strconv"
	"strings"
)

// LiteralIP reads host (a URL's host, brackets allowed) as an address the
// way resolvers do, so that a spelling the guard's table does not list
// cannot pass for a host name: IPv6 (with a zone, or IPv4-mapped), and
// IPv4 in inet_aton's forms — one to four parts, each decimal, octal
// (leading 0) or hexadecimal (0x), the last part filling the remaining
// bytes ("127.1", "2130706433", "0x7f000001", "0177.0.0.1"). ok is false
// for a host name.
func LiteralIP(host string) (ip netip.Addr, ok bool) {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if a, err := netip.ParseAddr(host); err == nil {
		return a, true
	}
	parts := strings.Split(strings.TrimSuffix(host, "."), ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	vals := make([]uint64, len(parts))
	for i, p := range parts {
		v, ok := atonPart(p)
		if !ok {
			return netip.Addr{}, false
		}
		vals[i] = v
	}
	// Every part but the last is one byte; the last fills the rest.
	var n uint64
	for _, v := range vals[:len(vals)-1] {
		if v > 0xff {
			return netip.Addr{}, false
		}
		n = n<<8 | v
	}
	rest := uint(8 * (5 - len(vals)))
	last := vals[len(vals)-1]
	if last >= 1<<rest {
		return netip.Addr{}, false
	}
	n = n<<rest | last
	return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}), true
}

// atonPart reads one inet_aton part.
func atonPart(p string) (uint64, bool) {
	base, digits := 10, p
	switch {
	case len(p) > 1 && (p[:2] == "0x" || p[:2] == "0X"):
		base, digits = 16, p[2:]
		if digits == "" { // "0x" alone is 0 for inet_aton
			return 0, true
		}
	case len(p) > 1 && p[0] == '0':
		base, digits = 8, p[1:]
	}
	if digits == "" || strings.ContainsAny(digits, "+-_") {
		return 0, false
	}
	v, err := strconv.ParseUint(digits, base, 32)
	return v, err == nil
}
