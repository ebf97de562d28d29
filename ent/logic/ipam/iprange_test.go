package ipam

import (
	"net/netip"
	"testing"
)

// TestIPRangeName checks NetBox's IPRange.name, quirks included (every
// equal group is kept, even after a differing one); the expectations are
// what NetBox 4.6.8's code gives for the same addresses.
func TestIPRangeName(t *testing.T) {
	for _, tc := range []struct{ start, end, want string }{
		{"192.0.2.10/24", "192.0.2.20/24", "192.0.2.10-20/24"},
		{"10.0.1.5/24", "10.1.1.9/24", "10.1.1.5-1.9/24"},
		{"10.0.0.1/8", "11.0.0.1/8", "0.0.1.1-1/8"},
		{"1.2.3.4/32", "5.6.7.8/32", ".1.2.3.4-5.6.7.8/32"},
		{"2001:db8::1:0/64", "2001:db8::2:ff/64", "2001:db8::1:0-2:ff/64"},
		{"2001:db8::1/64", "2001:db8::1/64", "2001:db8::1-2001:db8::1/64"},
		{"2001:db8::/48", "2001:db8:0:1::/48", "2001:db8::-0:1::/48"},
	} {
		if got := IPRangeName(tc.start, tc.end); got != tc.want {
			t.Errorf("IPRangeName(%s, %s) = %q, want %q", tc.start, tc.end, got, tc.want)
		}
	}
}

func TestRangeSize(t *testing.T) {
	for _, tc := range []struct {
		start, end string
		want       int64
	}{
		{"192.0.2.10", "192.0.2.20", 11},
		{"10.0.0.0", "10.0.0.0", 1},
		{"0.0.0.0", "255.255.255.255", 1 << 32},
		{"2001:db8::", "2001:db8::ffff:fffe", MaxRangeSize},
	} {
		if got := RangeSize(netip.MustParseAddr(tc.start), netip.MustParseAddr(tc.end)); got.Int64() != tc.want {
			t.Errorf("RangeSize(%s, %s) = %v, want %d", tc.start, tc.end, got, tc.want)
		}
	}
}

func TestASNDisplay(t *testing.T) {
	for n, want := range map[int]string{1: "AS1", 65535: "AS65535", 65536: "AS65536 (1.0)",
		4200000000: "AS4200000000 (64086.59904)", 4294967295: "AS4294967295 (65535.65535)"} {
		if got := ASNDisplay(func(string) any { return n }); got != want {
			t.Errorf("ASNDisplay(%d) = %q, want %q", n, got, want)
		}
	}
}
