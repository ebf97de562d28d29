// Package ipnet holds the IP arithmetic shared by the prefix schema's hook
// and the resource layer's cidr kind and containment filters. It is a leaf:
// it imports only the standard library.
//
// Storage convention (DESIGN.md §4, §8): every address is stored as 16 bytes,
// IPv4 as its v4-mapped IPv6 form (::ffff:a.b.c.d), so that byte order is
// numeric order on SQLite BLOBs and PostgreSQL bytea alike. A family column
// keeps IPv4 and IPv6 apart; prefix lengths are kept in the family's own
// bits (an IPv4 /24 is stored as 24, not 120).
package ipnet

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// Key is what containment queries need to know about a prefix.
type Key struct {
	Family    int    // 4 or 6
	Network   []byte // 16 bytes, the first address
	Broadcast []byte // 16 bytes, the last address
	Length    int    // prefix length in the family's bits
}

// Bits is the number of address bits of a family.
func Bits(family int) int {
	if family == 4 {
		return 32
	}
	return 128
}

// Family of an address: 4 for IPv4, 6 otherwise (v4-mapped IPv6 is 6).
func Family(a netip.Addr) int {
	if a.Is4() {
		return 4
	}
	return 6
}

// Bytes16 is the stored form of an address.
func Bytes16(a netip.Addr) []byte {
	b := a.As16() // IPv4 comes back v4-mapped
	return b[:]
}

// KeyOf computes the stored key of a canonical (masked) prefix.
func KeyOf(p netip.Prefix) Key {
	p = p.Masked()
	fam := Family(p.Addr())
	return Key{Family: fam, Network: Bytes16(p.Addr()), Broadcast: Bytes16(Last(p)), Length: p.Bits()}
}

// Last is the last address of a prefix (its "broadcast").
func Last(p netip.Prefix) netip.Addr {
	p = p.Masked()
	b := p.Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

// Supernets returns the distinct stored networks of every strictly
// containing prefix of k (lengths 0 .. k.Length-1). Querying
// `network IN (...)` with them lets the database use the index instead of
// scanning (DESIGN.md §8); callers must still require prefix_length <
// k.Length and broadcast >= k.Broadcast, since a network value alone does
// not fix the length.
func Supernets(k Key) [][]byte {
	off := 0
	if k.Family == 4 {
		off = 96
	}
	var out [][]byte
	var last []byte
	for l := k.Length - 1; l >= 0; l-- {
		n := make([]byte, 16)
		copy(n, k.Network)
		for i := off + l; i < 128; i++ {
			n[i/8] &^= 0x80 >> (i % 8)
		}
		if last != nil && string(last) == string(n) {
			continue
		}
		out = append(out, n)
		last = n
	}
	return out
}

// Canonical parses s as NetBox's IPNetworkField does for a prefix and
// returns the canonical prefix. A bare address is a host prefix (/32 or
// /128); an IPv4 netmask ("10.0.0.0/255.0.0.0") is accepted. Host bits set
// are refused with NetBox's "... is not a valid prefix. Did you mean ...?"
// unless mask is true, in which case they are cleared (Prefix.save()).
func Canonical(s string, mask bool) (netip.Prefix, string) {
	p, ok := ParseLoose(s)
	if !ok {
		return netip.Prefix{}, "Invalid IP address format: " + s
	}
	if m := p.Masked(); m != p {
		if !mask {
			return netip.Prefix{}, fmt.Sprintf("%s is not a valid prefix. Did you mean %s?", p, m)
		}
		p = m
	}
	return p, ""
}

// ParseLoose parses an address with an optional mask (length or IPv4
// netmask) without masking host bits. IPv4-mapped IPv6 stays IPv6.
func ParseLoose(s string) (netip.Prefix, bool) {
	s = strings.TrimSpace(s)
	addr, mask, hasMask := strings.Cut(s, "/")
	if strings.Contains(addr, "%") {
		return netip.Prefix{}, false // zones are not addresses of a network
	}
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return netip.Prefix{}, false
	}
	bits := a.BitLen()
	if hasMask {
		if n, err := strconv.Atoi(mask); err == nil && mask != "" && mask[0] != '+' && mask[0] != '-' {
			if n < 0 || n > a.BitLen() {
				return netip.Prefix{}, false
			}
			bits = n
		} else if m, err := netip.ParseAddr(mask); err == nil && a.Is4() && m.Is4() {
			n, ok := netmaskBits(m)
			if !ok {
				return netip.Prefix{}, false
			}
			bits = n
		} else {
			return netip.Prefix{}, false
		}
	}
	return netip.PrefixFrom(a, bits), true
}

// netmaskBits converts a contiguous IPv4 netmask to its length.
func netmaskBits(m netip.Addr) (int, bool) {
	b := m.As4()
	v := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
	n := 0
	for n < 32 && v&(1<<(31-n)) != 0 {
		n++
	}
	if v<<n != 0 {
		return 0, false
	}
	return n, true
}
