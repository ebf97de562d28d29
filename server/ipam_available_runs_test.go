package server_test

import (
	"fmt"
	"math/big"
	"net/http"
	"net/netip"
	"slices"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestAvailableRuns: long runs of used addresses and ASNs are stepped
// over inside the database (ent/logic/ipam/available_run.go), and what is
// free is what reading every row would say: gaps inside a run at and off
// the walk's step sizes, a populated range right after a run, a global
// container counting two VRFs whose addresses overlap (duplicate hosts),
// IPv6, an IPv6 run across a 2^32 boundary of the host, IP range parents,
// allocation, ASNs. The first page costs the same statements with 300
// used addresses in a row as with 1,400 (the walk is one statement
// whatever the run's length). On SQLite and PostgreSQL.
func TestAvailableRuns(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		// addrs creates addresses in bulk: offsets from base, with a mask.
		addrs := func(base string, bits int, offs []int, vrf int) {
			t.Helper()
			b := netip.MustParseAddr(base)
			for chunk := range slices.Chunk(offs, 1000) {
				var body []any
				for _, o := range chunk {
					obj := map[string]any{"address": netip.PrefixFrom(addOff(b, o), bits).String()}
					if vrf != 0 {
						obj["vrf"] = vrf
					}
					body = append(body, obj)
				}
				a.Must(http.StatusCreated, "POST", "/api/ipam/ip-addresses/", body)
			}
		}
		seq := func(lo, hi int, except ...int) []int {
			var out []int
			for i := lo; i <= hi; i++ {
				if !slices.Contains(except, i) {
					out = append(out, i)
				}
			}
			return out
		}
		pfx := func(body map[string]any) int { return mk(t, e, "/api/ipam/prefixes/", body) }
		rng := func(start, end string, populated bool) int {
			return mk(t, e, "/api/ipam/ip-ranges/", map[string]any{"start_address": start, "end_address": end, "mark_populated": populated})
		}
		// 10.9.0.0/16: hosts 1..2400 used but 1500 (off the steps), 2100,
		// 2101, and 1281 (right after the first 1024-step: 256 read +
		// 1024), then a populated range over 2401..2414.
		dense := pfx(map[string]any{"prefix": "10.9.0.0/16"})
		addrs("10.9.0.0", 16, seq(1, 2400, 1281, 1500, 2100, 2101), 0)
		rng("10.9.9.97/16", "10.9.9.110/16", true)
		within := rng("10.9.0.200/16", "10.9.9.96/16", false)
		// 10.8.0.0/16: Red has 1..1300, Blue 1000..2600; the global
		// container counts both.
		red := mk(t, e, "/api/ipam/vrfs/", map[string]any{"name": "Red"})
		blue := mk(t, e, "/api/ipam/vrfs/", map[string]any{"name": "Blue"})
		container := pfx(map[string]any{"prefix": "10.8.0.0/16", "status": "container"})
		redPfx := pfx(map[string]any{"prefix": "10.8.0.0/16", "vrf": red})
		addrs("10.8.0.0", 16, seq(1, 1300), red)
		addrs("10.8.0.0", 16, seq(1000, 2600), blue)
		// IPv6 /64s with 1,400 and 300 used from ::1.
		v6 := pfx(map[string]any{"prefix": "2001:db8:9::/64"})
		addrs("2001:db8:9::", 64, seq(1, 1400), 0)
		v6short := pfx(map[string]any{"prefix": "2001:db8:8::/64"})
		addrs("2001:db8:8::", 64, seq(1, 300), 0)
		// A run across the host's 2^32 boundary: ::ffff:fd00 .. ::1:0:300.
		across := rng("2001:db8:a::ffff:fd00/64", "2001:db8:a::1:0:ffff/64", false)
		addrs("2001:db8:a::ffff:fd00", 64, seq(0, 0x300+0x301-1), 0)
		rir := mk(t, e, "/api/ipam/rirs/", map[string]any{"name": "Private", "slug": "private"})
		asnRange := mk(t, e, "/api/ipam/asn-ranges/", map[string]any{"name": "R", "slug": "r", "rir": rir, "start": 64512, "end": 65534})
		var asns []any
		for n := 64512; n < 64512+600; n++ {
			if n != 64512+400 {
				asns = append(asns, map[string]any{"asn": n, "rir": rir})
			}
		}
		a.Must(http.StatusCreated, "POST", "/api/ipam/asns/", asns)

		at := func(id int) string { return fmt.Sprintf("/api/ipam/prefixes/%d/available-ips/", id) }
		inRange := func(id int) string { return fmt.Sprintf("/api/ipam/ip-ranges/%d/available-ips/", id) }
		v4 := func(offs ...int) []string {
			var out []string
			for _, o := range offs {
				out = append(out, netip.PrefixFrom(addOff(netip.MustParseAddr("10.9.0.0"), o), 16).String())
			}
			return out
		}
		runAllocCases(t, e, []allocCase{
			{name: "gaps inside a long run, past a populated range", method: "GET", path: at(dense) + "?limit=6", status: 200,
				field: "address", want: v4(1281, 1500, 2100, 2101, 2415, 2416)},
			{name: "an IP range over the run", method: "GET", path: inRange(within) + "?limit=3", status: 200,
				field: "address", want: v4(1281, 1500, 2100)},
			{name: "a global container counts both VRFs once", method: "GET", path: at(container) + "?limit=2", status: 200,
				field: "address", want: []string{"10.8.10.41/16", "10.8.10.42/16"}},
			{name: "a VRF's prefix counts its own", method: "GET", path: at(redPfx) + "?limit=2", status: 200,
				field: "address", want: []string{"10.8.5.21/16", "10.8.5.22/16"}},
			{name: "IPv6", method: "GET", path: at(v6) + "?limit=2", status: 200,
				field: "address", want: []string{"2001:db8:9::579/64", "2001:db8:9::57a/64"}},
			{name: "IPv6 across 2^32", method: "GET", path: inRange(across) + "?limit=2", status: 200,
				field: "address", want: []string{"2001:db8:a::1:0:301/64", "2001:db8:a::1:0:302/64"}},
			{name: "ASNs", method: "GET", path: fmt.Sprintf("/api/ipam/asn-ranges/%d/available-asns/?limit=2", asnRange), status: 200,
				field: "asn", want: []string{"64912", "65112"}},
			{name: "allocating one", method: "POST", path: at(dense), status: 201, body: map[string]any{}, field: "address", want: v4(1281)},
			{name: "allocating three", method: "POST", path: at(dense), status: 201, body: []any{map[string]any{}, map[string]any{}, map[string]any{}},
				field: "address", want: v4(1500, 2100, 2101)},
			{name: "then past the range", method: "GET", path: at(dense) + "?limit=1", status: 200, field: "address", want: v4(2415)},
		})

		// The statements of a first page do not follow the run's length.
		cost := func(path string) int64 {
			a.Must(http.StatusOK, "GET", path, nil) // warm the caches
			before := e.Statements()
			a.Must(http.StatusOK, "GET", path, nil)
			return e.Statements() - before
		}
		short, long := cost(at(v6short)+"?limit=5"), cost(at(v6)+"?limit=5")
		if short != long || long > 8 {
			t.Errorf("first page: %d statements with 300 used, %d with 1,400: the walk's statements follow the run", short, long)
		}
	})
}

// addOff is a + o.
func addOff(a netip.Addr, o int) netip.Addr {
	b := a.As16()
	n := new(big.Int).SetBytes(b[:])
	n.Add(n, big.NewInt(int64(o)))
	var out [16]byte
	n.FillBytes(out[:])
	r := netip.AddrFrom16(out)
	if a.Is4() {
		return r.Unmap()
	}
	return r
}
