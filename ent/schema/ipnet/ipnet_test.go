package ipnet

import (
	"bytes"
	"net/netip"
	"testing"
)

func TestKeyAndSupernets(t *testing.T) {
	k := KeyOf(netip.MustParsePrefix("10.1.0.0/16"))
	if k.Family != 4 || k.Length != 16 || netip.AddrFrom16([16]byte(k.Network)).Unmap().String() != "10.1.0.0" ||
		netip.AddrFrom16([16]byte(k.Broadcast)).Unmap().String() != "10.1.255.255" {
		t.Fatalf("key %+v", k)
	}
	// 10.1.0.0: /15 and /0../7 differ; /8../14 all give 10.0.0.0.
	sup := Supernets(k)
	var got []string
	for _, n := range sup {
		got = append(got, netip.AddrFrom16([16]byte(n)).Unmap().String())
	}
	want := []string{"10.0.0.0", "8.0.0.0", "0.0.0.0"}
	if len(got) != len(want) {
		t.Fatalf("supernets %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("supernets %v, want %v", got, want)
		}
	}
	if len(Supernets(KeyOf(netip.MustParsePrefix("::/0")))) != 0 {
		t.Fatal("/0 has supernets")
	}
	// Byte order is numeric order, IPv4 inside the v4-mapped range.
	a, b := KeyOf(netip.MustParsePrefix("9.0.0.0/8")), KeyOf(netip.MustParsePrefix("10.0.0.0/8"))
	if bytes.Compare(a.Network, b.Network) >= 0 {
		t.Fatal("9 >= 10")
	}
}

func TestCanonical(t *testing.T) {
	for in, want := range map[string]string{
		"10.0.0.0/255.255.255.0": "10.0.0.0/24", "10.0.0.0/0.0.0.0": "0.0.0.0/0", "2001:DB8::/32": "2001:db8::/32",
		"10.1.2.3/8": "10.0.0.0/8",
	} {
		p, msg := Canonical(in, true)
		if msg != "" || p.String() != want {
			t.Errorf("%s: %v %q, want %s", in, p, msg, want)
		}
	}
	for _, in := range []string{"10.0.0.0/255.0.255.0", "10.0.0.0/-1", "10.0.0.0/+8", "fe80::1%eth0/64", "10.0.0.0/", "x"} {
		if _, msg := Canonical(in, true); msg == "" {
			t.Errorf("%s accepted", in)
		}
	}
}
