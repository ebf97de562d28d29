package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// ipamWorld is what the address space scenarios share: two RIRs and two
// VRFs, made through the API.
type ipamWorld struct {
	e          *servertest.Env
	rir, rir2  int
	vrfA, vrfB int
}

func newIPAMWorld(t *testing.T, e *servertest.Env) *ipamWorld {
	t.Helper()
	a := e.Admin()
	w := &ipamWorld{e: a}
	w.rir = w.make(t, "/api/ipam/rirs/", map[string]any{"name": "RFC 1918", "slug": "rfc-1918", "is_private": true})
	w.rir2 = w.make(t, "/api/ipam/rirs/", map[string]any{"name": "ARIN", "slug": "arin"})
	w.vrfA = w.make(t, "/api/ipam/vrfs/", map[string]any{"name": "Blue", "rd": "65000:1"})
	w.vrfB = w.make(t, "/api/ipam/vrfs/", map[string]any{"name": "Red"})
	return w
}

func (w *ipamWorld) make(t *testing.T, path string, body map[string]any) int {
	t.Helper()
	return idOf(w.e.Must(http.StatusCreated, "POST", path, body).Object())
}

// changes is the number of change records so far: a refused write adds
// none.
func (w *ipamWorld) changes(t *testing.T) any {
	t.Helper()
	return w.e.Must(http.StatusOK, "GET", "/api/core/object-changes/?limit=1", nil).Object()["count"]
}

// refusal is a write that must answer 400 with exactly one message on
// field, and write nothing.
type refusal struct {
	name, method, path string
	body               any
	field, message     string
}

func (w *ipamWorld) refuse(t *testing.T, cases []refusal) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := w.changes(t)
			r := w.e.Must(http.StatusBadRequest, c.method, c.path, c.body)
			got, _ := r.Object()[c.field].([]any)
			if len(got) != 1 || got[0] != c.message {
				t.Errorf("body %s, want %s: [%q]", r.Body, c.field, c.message)
			}
			if after := w.changes(t); after != before {
				t.Errorf("a refused write left change records: %v → %v", before, after)
			}
		})
	}
}

// names lists one attribute of a list's results, sorted.
func names(t *testing.T, e *servertest.Env, path, attr string) []string {
	t.Helper()
	var out []string
	for _, m := range e.Must(http.StatusOK, "GET", path, nil).Results() {
		out = append(out, fmt.Sprint(m[attr]))
	}
	sort.Strings(out)
	return out
}

// TestAggregateOverlap: aggregates never overlap, whichever way round
// (NetBox's Aggregate.clean()), on create and on update; their family is
// derived and /0 is refused.
func TestAggregateOverlap(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newIPAMWorld(t, e)
		agg := func(prefix string) map[string]any { return map[string]any{"prefix": prefix, "rir": w.rir} }
		ten := w.e.Must(http.StatusCreated, "POST", "/api/ipam/aggregates/", agg("10.0.0.0/8")).Object()
		if fam := ten["family"].(map[string]any); fam["value"] != 4.0 || fam["label"] != "IPv4" {
			t.Errorf("family of an IPv4 aggregate: %v", fam)
		}
		v6 := w.make(t, "/api/ipam/aggregates/", map[string]any{"prefix": "2001:DB8::/32", "rir": w.rir2, "date_added": "2020-02-29"})
		got := w.e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/ipam/aggregates/%d/", v6), nil).Object()
		if got["prefix"] != "2001:db8::/32" || got["family"].(map[string]any)["value"] != 6.0 || got["date_added"] != "2020-02-29" {
			t.Errorf("IPv6 aggregate: %v", got)
		}
		w.make(t, "/api/ipam/aggregates/", agg("11.0.0.0/8")) // adjacent, not overlapping
		w.refuse(t, []refusal{
			{"inside an aggregate", "POST", "/api/ipam/aggregates/", agg("10.1.0.0/16"),
				"prefix", "Aggregates cannot overlap. 10.1.0.0/16 is already covered by an existing aggregate (10.0.0.0/8)."},
			{"the same prefix", "POST", "/api/ipam/aggregates/", agg("10.0.0.0/8"),
				"prefix", "Aggregates cannot overlap. 10.0.0.0/8 is already covered by an existing aggregate (10.0.0.0/8)."},
			{"covering an aggregate", "POST", "/api/ipam/aggregates/", agg("10.0.0.0/7"),
				"prefix", "Prefixes cannot overlap aggregates. 10.0.0.0/7 covers an existing aggregate (10.0.0.0/8)."},
			{"covering IPv6", "POST", "/api/ipam/aggregates/", agg("2000::/3"),
				"prefix", "Prefixes cannot overlap aggregates. 2000::/3 covers an existing aggregate (2001:db8::/32)."},
			{"moved onto another", "PATCH", fmt.Sprintf("/api/ipam/aggregates/%d/", idOf(ten)), map[string]any{"prefix": "11.128.0.0/9"},
				"prefix", "Aggregates cannot overlap. 11.128.0.0/9 is already covered by an existing aggregate (11.0.0.0/8)."},
			{"zero mask", "POST", "/api/ipam/aggregates/", agg("0.0.0.0/0"), "prefix", "Cannot create aggregate with /0 mask."},
			{"host bits", "POST", "/api/ipam/aggregates/", agg("192.168.1.1/16"),
				"prefix", "192.168.1.1/16 is not a valid prefix. Did you mean 192.168.0.0/16?"},
			{"no RIR", "POST", "/api/ipam/aggregates/", map[string]any{"prefix": "192.168.0.0/16"}, "rir", "This field is required."},
			{"bad date", "POST", "/api/ipam/aggregates/", map[string]any{"prefix": "192.168.0.0/16", "rir": w.rir, "date_added": "2021-02-30"},
				"date_added", "Date has wrong format. Use one of these formats instead: YYYY-MM-DD."},
		})
		// Two overlapping aggregates in one bulk create: the second sees
		// the first, and neither is written.
		before := w.changes(t)
		r := w.e.Must(http.StatusBadRequest, "POST", "/api/ipam/aggregates/", []any{agg("192.168.0.0/16"), agg("192.168.1.0/24")})
		if !strings.Contains(string(r.Body), "already covered by an existing aggregate (192.168.0.0/16)") {
			t.Errorf("bulk create of overlapping aggregates: %s", r.Body)
		}
		if w.changes(t) != before {
			t.Errorf("a refused bulk create left change records")
		}
		// Resizing an aggregate within itself, and its own prefix again,
		// are no overlap.
		w.e.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/ipam/aggregates/%d/", idOf(ten)), map[string]any{"prefix": "10.0.0.0/9"})
		w.e.Must(http.StatusOK, "PUT", fmt.Sprintf("/api/ipam/aggregates/%d/", idOf(ten)), map[string]any{"prefix": "10.0.0.0/9", "rir": w.rir2})
		for q, want := range map[string][]string{
			"within=10.0.0.0/8":  {"10.0.0.0/9"},
			"contains=11.2.3.4":  {"11.0.0.0/8"},
			"prefix=11.1.1.1/8":  {"11.0.0.0/8"},
			"family=6":           {"2001:db8::/32"},
			"mask_length__lte=8": {"11.0.0.0/8"},
			"rir=arin":           {"10.0.0.0/9", "2001:db8::/32"},
		} {
			if got := names(t, w.e, "/api/ipam/aggregates/?"+q, "prefix"); !slices.Equal(got, want) {
				t.Errorf("?%s: %v, want %v", q, got, want)
			}
		}
		// A RIR counts its aggregates, and keeps them: PROTECT.
		rir := w.e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/ipam/rirs/%d/", w.rir2), nil).Object()
		if rir["aggregate_count"] != 2.0 {
			t.Errorf("aggregate_count %v, want 2", rir["aggregate_count"])
		}
		w.e.Must(http.StatusConflict, "DELETE", fmt.Sprintf("/api/ipam/rirs/%d/", w.rir2), nil)
	})
}

// TestIPRangeRules: an IP range's addresses share family and mask, the
// end is not below the start, and ranges of one VRF never overlap (NetBox's
// IPRange.clean()); size and family are derived.
func TestIPRangeRules(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newIPAMWorld(t, e)
		rng := func(start, end string, vrf any) map[string]any {
			return map[string]any{"start_address": start, "end_address": end, "vrf": vrf}
		}
		global := w.e.Must(http.StatusCreated, "POST", "/api/ipam/ip-ranges/", rng("192.0.2.10/24", "192.0.2.20/24", nil)).Object()
		if global["size"] != 11.0 || global["display"] != "192.0.2.10-20/24" || global["family"].(map[string]any)["value"] != 4.0 {
			t.Errorf("range: %v", global)
		}
		// The same addresses in a VRF are another space.
		inA := w.e.Must(http.StatusCreated, "POST", "/api/ipam/ip-ranges/", rng("192.0.2.15/24", "192.0.2.30/24", w.vrfA)).Object()
		// One address is a range; a bare address gets a host mask.
		one := w.e.Must(http.StatusCreated, "POST", "/api/ipam/ip-ranges/", rng("192.0.2.100", "192.0.2.100", nil)).Object()
		if one["start_address"] != "192.0.2.100/32" || one["size"] != 1.0 || one["display"] != "192.0.2.100-192.0.2.100/32" {
			t.Errorf("one-address range: %v", one)
		}
		v6 := w.e.Must(http.StatusCreated, "POST", "/api/ipam/ip-ranges/", rng("2001:DB8::1:0/64", "2001:db8::2:ff/64", w.vrfB)).Object()
		if v6["size"] != 65792.0 || v6["start_address"] != "2001:db8::1:0/64" || v6["display"] != "2001:db8::1:0-2:ff/64" {
			t.Errorf("IPv6 range: %v", v6)
		}
		w.refuse(t, []refusal{
			{"overlapping at the start", "POST", "/api/ipam/ip-ranges/", rng("192.0.2.1/24", "192.0.2.10/24", nil),
				"__all__", "Defined addresses overlap with range 192.0.2.10-20/24 in VRF None"},
			{"inside another", "POST", "/api/ipam/ip-ranges/", rng("192.0.2.16/24", "192.0.2.17/24", w.vrfA),
				"__all__", "Defined addresses overlap with range 192.0.2.15-30/24 in VRF Blue (65000:1)"},
			{"around another", "POST", "/api/ipam/ip-ranges/", rng("192.0.2.90/24", "192.0.2.110/24", nil),
				"__all__", "Defined addresses overlap with range 192.0.2.100-192.0.2.100/32 in VRF None"},
			{"moved into a VRF onto another", "PATCH", fmt.Sprintf("/api/ipam/ip-ranges/%d/", idOf(global)), map[string]any{"vrf": w.vrfA},
				"__all__", "Defined addresses overlap with range 192.0.2.15-30/24 in VRF Blue (65000:1)"},
			{"grown onto another", "PATCH", fmt.Sprintf("/api/ipam/ip-ranges/%d/", idOf(global)), map[string]any{"end_address": "192.0.2.100/24"},
				"__all__", "Defined addresses overlap with range 192.0.2.100-192.0.2.100/32 in VRF None"},
			{"families differ", "POST", "/api/ipam/ip-ranges/", rng("10.0.0.1/24", "2001:db8::1/24", nil),
				"end_address", "Starting and ending IP address versions must match"},
			{"masks differ", "POST", "/api/ipam/ip-ranges/", rng("10.0.0.1/24", "10.0.0.9/25", nil),
				"end_address", "Starting and ending IP address masks must match"},
			{"end below start", "POST", "/api/ipam/ip-ranges/", rng("10.0.0.9/24", "10.0.0.1/24", nil),
				"end_address", "Ending address must be greater than or equal to the starting address (10.0.0.9/24)"},
			{"too large", "POST", "/api/ipam/ip-ranges/", rng("2001:db8::/64", "2001:db8::1:0:0/64", nil),
				"__all__", "Defined range exceeds maximum supported size (4294967295)"},
			{"not an address", "POST", "/api/ipam/ip-ranges/", rng("10.0.0.256/24", "10.0.0.9/24", nil),
				"start_address", "Invalid IP address format: 10.0.0.256/24"},
			{"a zone", "POST", "/api/ipam/ip-ranges/", rng("fe80::1%eth0", "fe80::9", nil),
				"start_address", "Invalid IP address format: fe80::1%eth0"},
		})
		// Shrinking in place is fine, and so is the largest range.
		w.e.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/ipam/ip-ranges/%d/", idOf(inA)), map[string]any{"start_address": "192.0.2.16/24"})
		big := w.e.Must(http.StatusCreated, "POST", "/api/ipam/ip-ranges/", rng("2001:db8:1::/64", "2001:db8:1::ffff:fffe/64", nil)).Object()
		if big["size"] != 4294967295.0 {
			t.Errorf("largest range: size %v", big["size"])
		}
		for q, want := range map[string][]string{
			"parent=192.0.2.0/24":           {"192.0.2.10/24", "192.0.2.100/32", "192.0.2.16/24"},
			"parent=192.0.2.0/27":           {"192.0.2.10/24", "192.0.2.16/24"},
			"contains=192.0.2.18":           {"192.0.2.10/24", "192.0.2.16/24"},
			"contains=2001:db8::1:80/64":    {"2001:db8::1:0/64"},
			"start_address=192.0.2.100":     {"192.0.2.100/32"},
			"start_address=192.0.2.10/25":   nil,
			"vrf_id=null":                   {"192.0.2.10/24", "192.0.2.100/32", "2001:db8:1::/64"},
			"family=6&size__gte=1000000000": {"2001:db8:1::/64"},
		} {
			if got := names(t, w.e, "/api/ipam/ip-ranges/?"+q, "start_address"); !slices.Equal(got, want) {
				t.Errorf("?%s: %v, want %v", q, got, want)
			}
		}
		// The VRF keeps its ranges: PROTECT.
		w.e.Must(http.StatusConflict, "DELETE", fmt.Sprintf("/api/ipam/vrfs/%d/", w.vrfA), nil)
	})
}

// TestASNBounds: AS numbers are 32-bit (1 to 4294967295) and unique; an
// ASN range's end is above its start, and it counts the ASNs inside.
func TestASNBounds(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newIPAMWorld(t, e)
		asn := func(n any) map[string]any { return map[string]any{"asn": n, "rir": w.rir} }
		low := w.e.Must(http.StatusCreated, "POST", "/api/ipam/asns/", asn(1)).Object()
		high := w.e.Must(http.StatusCreated, "POST", "/api/ipam/asns/", asn(4294967295)).Object()
		if low["display"] != "AS1" || high["display"] != "AS4294967295 (65535.65535)" || high["asn"] != 4294967295.0 {
			t.Errorf("displays %v, %v", low["display"], high["display"])
		}
		w.make(t, "/api/ipam/asns/", asn(65536))
		w.make(t, "/api/ipam/asns/", asn(64512))
		w.refuse(t, []refusal{
			{"zero", "POST", "/api/ipam/asns/", asn(0), "asn", "Ensure this value is greater than or equal to 1."},
			{"33 bits", "POST", "/api/ipam/asns/", asn(4294967296), "asn", "Ensure this value is less than or equal to 4294967295."},
			{"negative", "POST", "/api/ipam/asns/", asn(-65000), "asn", "Ensure this value is greater than or equal to 1."},
			{"a fraction", "POST", "/api/ipam/asns/", asn(65000.5), "asn", "A valid integer is required."},
			{"taken", "POST", "/api/ipam/asns/", asn(64512), "asn", "ASN with this ASN already exists."},
			{"no RIR", "POST", "/api/ipam/asns/", map[string]any{"asn": 65001}, "rir", "This field is required."},
			{"range ending at its start", "POST", "/api/ipam/asn-ranges/",
				map[string]any{"name": "R", "slug": "r", "rir": w.rir, "start": 65000, "end": 65000},
				"__all__", "Starting ASN (65000) must be lower than ending ASN (65000)."},
			{"range beyond 32 bits", "POST", "/api/ipam/asn-ranges/",
				map[string]any{"name": "R", "slug": "r", "rir": w.rir, "start": 65000, "end": 4294967296},
				"end", "Ensure this value is less than or equal to 4294967295."},
		})
		private := w.make(t, "/api/ipam/asn-ranges/", map[string]any{"name": "Private", "slug": "private", "rir": w.rir2,
			"start": 64512, "end": 65536})
		all := w.make(t, "/api/ipam/asn-ranges/", map[string]any{"name": "All", "slug": "all", "rir": w.rir,
			"start": 1, "end": 4294967295})
		w.refuse(t, []refusal{
			{"range turned round", "PATCH", fmt.Sprintf("/api/ipam/asn-ranges/%d/", private), map[string]any{"start": 70000},
				"__all__", "Starting ASN (70000) must be lower than ending ASN (65536)."},
		})
		counts := map[string]any{}
		for _, m := range w.e.Must(http.StatusOK, "GET", "/api/ipam/asn-ranges/", nil).Results() {
			counts[m["name"].(string)] = m["asn_count"]
		}
		if counts["Private"] != 2.0 || counts["All"] != 4.0 {
			t.Errorf("asn_count: %v", counts)
		}
		got := w.e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/ipam/asn-ranges/%d/", all), nil).Object()
		if got["display"] != "All (1-4294967295)" {
			t.Errorf("range display %v", got["display"])
		}
		if got := names(t, w.e, "/api/ipam/asns/?q=65536", "asn"); !slices.Equal(got, []string{"65536"}) {
			t.Errorf("?q=65536: %v", got)
		}
	})
}

// TestSiteASNs: sites and ASNs are linked from either side; each shows the
// other, counts it, and filters by it.
func TestSiteASNs(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newIPAMWorld(t, e)
		group := w.make(t, "/api/dcim/site-groups/", map[string]any{"name": "Europe", "slug": "europe"})
		sub := w.make(t, "/api/dcim/site-groups/", map[string]any{"name": "Germany", "slug": "germany", "parent": group})
		a1 := w.make(t, "/api/ipam/asns/", map[string]any{"asn": 65001, "rir": w.rir})
		a2 := w.make(t, "/api/ipam/asns/", map[string]any{"asn": 65002, "rir": w.rir})
		site := w.e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "Berlin", "slug": "berlin",
			"group": sub, "asns": []any{a1, a2}}).Object()
		if got := site["asns"].([]any); len(got) != 2 || got[0].(map[string]any)["display"] != "AS65001" {
			t.Errorf("site asns: %v", got)
		}
		other := w.make(t, "/api/dcim/sites/", map[string]any{"name": "Paris", "slug": "paris"})
		w.e.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/ipam/asns/%d/", a2), map[string]any{"sites": []any{idOf(site), other}})
		got := w.e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/ipam/asns/%d/", a2), nil).Object()
		if got["site_count"] != 2.0 || len(got["sites"].([]any)) != 2 {
			t.Errorf("asn seen from the sites: %v", got)
		}
		for q, want := range map[string][]string{
			"/api/dcim/sites/?asn_id=" + fmt.Sprint(a2):           {"Berlin", "Paris"},
			"/api/dcim/sites/?asn=65001":                          {"Berlin"},
			"/api/ipam/asns/?site=paris":                          {"AS65002"},
			"/api/ipam/asns/?site_group=europe":                   {"AS65001", "AS65002"},
			"/api/ipam/asns/?site_group_id__n=" + fmt.Sprint(sub): nil,
		} {
			if got := names(t, w.e, q, "display"); !slices.Equal(got, want) {
				t.Errorf("%s: %v, want %v", q, got, want)
			}
		}
		w.e.Must(http.StatusBadRequest, "GET", "/api/dcim/sites/?asn=not-a-number", nil)
		// Deleting a site unlinks it.
		w.e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/dcim/sites/%d/", other), nil)
		got = w.e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/ipam/asns/%d/", a2), nil).Object()
		if got["site_count"] != 1.0 {
			t.Errorf("site_count after deleting a site: %v", got["site_count"])
		}
	})
}

// TestRouteTargetsAndPresentInVRF: VRFs import and export route targets
// (rendered in full, as NetBox renders them), and a prefix is present in
// a VRF that imports a route target its own VRF exports.
func TestRouteTargetsAndPresentInVRF(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newIPAMWorld(t, e)
		tenant := w.make(t, "/api/tenancy/tenants/", map[string]any{"name": "Acme", "slug": "acme"})
		rt1 := w.make(t, "/api/ipam/route-targets/", map[string]any{"name": "65000:100", "tenant": tenant})
		rt2 := w.make(t, "/api/ipam/route-targets/", map[string]any{"name": "65000:200"})
		// Blue imports 100 and 200; Red exports 100; Green exports 200 and
		// imports nothing; Grey exports nothing.
		w.e.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/ipam/vrfs/%d/", w.vrfA), map[string]any{"import_targets": []any{rt1, rt2}})
		w.e.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/ipam/vrfs/%d/", w.vrfB), map[string]any{"export_targets": []any{map[string]any{"id": rt1}}})
		green := w.make(t, "/api/ipam/vrfs/", map[string]any{"name": "Green", "rd": "65000:3", "export_targets": []any{rt2}})
		grey := w.make(t, "/api/ipam/vrfs/", map[string]any{"name": "Grey"})
		for vrf, p := range map[any]string{w.vrfA: "10.1.0.0/16", w.vrfB: "10.2.0.0/16", green: "10.3.0.0/16", grey: "10.4.0.0/16", nil: "10.5.0.0/16"} {
			w.make(t, "/api/ipam/prefixes/", map[string]any{"prefix": p, "vrf": vrf})
		}
		blue := w.e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/ipam/vrfs/%d/", w.vrfA), nil).Object()
		imp := blue["import_targets"].([]any)
		if len(imp) != 2 {
			t.Fatalf("import_targets %v", imp)
		}
		first := imp[0].(map[string]any)
		if first["name"] != "65000:100" || first["tenant"].(map[string]any)["slug"] != "acme" || first["tags"] == nil ||
			first["display_url"] == nil || first["created"] == nil {
			t.Errorf("an import target in full: %v", first)
		}
		for q, want := range map[string][]string{
			"present_in_vrf_id=" + fmt.Sprint(w.vrfA): {"10.1.0.0/16", "10.2.0.0/16", "10.3.0.0/16"},
			"present_in_vrf=65000:1":                  {"10.1.0.0/16", "10.2.0.0/16", "10.3.0.0/16"},
			"present_in_vrf_id=" + fmt.Sprint(w.vrfB): {"10.2.0.0/16"},
			"present_in_vrf_id=" + fmt.Sprint(grey):   {"10.4.0.0/16"},
		} {
			if got := names(t, w.e, "/api/ipam/prefixes/?"+q, "prefix"); !slices.Equal(got, want) {
				t.Errorf("?%s: %v, want %v", q, got, want)
			}
		}
		for _, q := range []string{"present_in_vrf_id=99999", "present_in_vrf=65000:9", "present_in_vrf_id=x"} {
			r := w.e.Must(http.StatusBadRequest, "GET", "/api/ipam/prefixes/?"+q, nil)
			if !strings.Contains(string(r.Body), "Select a valid choice.") {
				t.Errorf("?%s: %s", q, r.Body)
			}
		}
		for q, want := range map[string][]string{
			"/api/ipam/route-targets/?importing_vrf_id=" + fmt.Sprint(w.vrfA):   {"65000:100", "65000:200"},
			"/api/ipam/route-targets/?exporting_vrf=65000:3":                    {"65000:200"},
			"/api/ipam/route-targets/?exporting_vrf_id__n=" + fmt.Sprint(green): {"65000:100"},
			"/api/ipam/vrfs/?import_target=65000:200":                           {"Blue (65000:1)"},
			"/api/ipam/vrfs/?export_target_id=" + fmt.Sprint(rt1):               {"Red"},
		} {
			if got := names(t, w.e, q, "display"); !slices.Equal(got, want) {
				t.Errorf("%s: %v, want %v", q, got, want)
			}
		}
		// Deleting a route target takes it out of the VRFs.
		w.e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/ipam/route-targets/%d/", rt1), nil)
		blue = w.e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/ipam/vrfs/%d/", w.vrfA), nil).Object()
		if imp := blue["import_targets"].([]any); len(imp) != 1 || imp[0].(map[string]any)["name"] != "65000:200" {
			t.Errorf("import_targets after deleting 65000:100: %v", imp)
		}
		// A list of VRFs with targets costs the same whatever its length.
		if one, all := w.e.Cost(fmt.Sprintf("/api/ipam/vrfs/?id=%d", w.vrfA)), w.e.Cost("/api/ipam/vrfs/"); one != all {
			t.Errorf("queries for 1 VRF %d, for 4 %d", one, all)
		}
	})
}

// TestVLANGroupUtilization: a VLAN group's utilization is its VLANs as a
// percentage of its VLAN IDs, rounded to two decimals and rendered as
// NetBox renders that float ("0.0", "12.5", "33.33"), and a list of
// groups costs a fixed number of queries.
func TestVLANGroupUtilization(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newIPAMWorld(t, e)
		group := func(name string, ranges ...[]int) int {
			body := map[string]any{"name": name, "slug": strings.ToLower(name)}
			if ranges != nil {
				body["vid_ranges"] = ranges
			}
			return w.make(t, "/api/ipam/vlan-groups/", body)
		}
		vlans := func(g, n int) {
			for vid := 1; vid <= n; vid++ {
				w.make(t, "/api/ipam/vlans/", map[string]any{"vid": vid, "name": fmt.Sprintf("v%d", vid), "group": g})
			}
		}
		cases := []struct {
			name   string
			ranges [][]int
			vlans  int
			want   any
		}{
			{"Empty", nil, 0, "0.0"},
			{"Default", nil, 3, "0.07"}, // 3 of 4094
			{"Eight", [][]int{{1, 8}}, 1, "12.5"},
			{"Third", [][]int{{1, 3}}, 1, "33.33"},
			{"TwoThirds", [][]int{{1, 3}}, 2, "66.67"},
			{"Split", [][]int{{1, 2}, {10, 11}}, 2, "50.0"},
			{"Sixteenth", [][]int{{1, 16}}, 1, "6.25"},
			{"Down", [][]int{{1, 1600}}, 1, "0.06"},   // 0.0625
			{"HalfUp", [][]int{{1, 4000}}, 3, "0.08"}, // 0.075: half away from zero
			{"Whole", [][]int{{1, 1}}, 1, "100.0"},
		}
		for _, c := range cases {
			g := group(c.name, c.ranges...)
			vlans(g, c.vlans)
		}
		got := map[string]any{}
		for _, m := range w.e.Must(http.StatusOK, "GET", "/api/ipam/vlan-groups/", nil).Results() {
			got[m["name"].(string)] = m["utilization"]
		}
		for _, c := range cases {
			if got[c.name] != c.want {
				t.Errorf("%s: utilization %v, want %v", c.name, got[c.name], c.want)
			}
		}
		if one, all := w.e.Cost("/api/ipam/vlan-groups/?name=Default"), w.e.Cost("/api/ipam/vlan-groups/"); one != all {
			t.Errorf("queries for 1 VLAN group %d, for %d groups %d", one, len(cases), all)
		}
		if fields := w.e.Must(http.StatusOK, "GET", "/api/ipam/vlan-groups/?name=Third&fields=utilization", nil).Results(); len(fields) != 1 ||
			fields[0]["utilization"] != "33.33" {
			t.Errorf("?fields=utilization: %v", fields)
		}
	})
}

// TestVLANTranslationRules: a rule's VLAN IDs are unique per policy, its
// policy is a bare id that must exist, its display names the policy (also
// once renamed), and the policy lists its rules and takes them along when
// deleted; an interface keeps its policy (PROTECT).
func TestVLANTranslationRules(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newIPAMWorld(t, e)
		p1 := w.make(t, "/api/ipam/vlan-translation-policies/", map[string]any{"name": "Customer A"})
		p2 := w.make(t, "/api/ipam/vlan-translation-policies/", map[string]any{"name": "Customer B"})
		rule := func(p, local, remote int) map[string]any {
			return map[string]any{"policy": p, "local_vid": local, "remote_vid": remote}
		}
		r1 := w.e.Must(http.StatusCreated, "POST", "/api/ipam/vlan-translation-rules/", rule(p1, 100, 200)).Object()
		if r1["policy"] != float64(p1) || r1["display"] != "100 -> 200 (Customer A)" {
			t.Errorf("rule: %v", r1)
		}
		w.make(t, "/api/ipam/vlan-translation-rules/", rule(p1, 101, 201))
		w.make(t, "/api/ipam/vlan-translation-rules/", rule(p2, 100, 200)) // another policy: fine
		w.refuse(t, []refusal{
			{"local VID twice", "POST", "/api/ipam/vlan-translation-rules/", rule(p1, 100, 300),
				"__all__", "VLAN translation rule with this Policy and Local VLAN ID already exists."},
			{"remote VID twice", "POST", "/api/ipam/vlan-translation-rules/", rule(p1, 102, 201),
				"__all__", "VLAN translation rule with this Policy and Remote VLAN ID already exists."},
			{"no such policy", "POST", "/api/ipam/vlan-translation-rules/", rule(99999, 1, 2),
				"policy", `Invalid pk "99999" - object does not exist.`},
			{"VID out of range", "POST", "/api/ipam/vlan-translation-rules/", rule(p1, 4095, 2),
				"local_vid", "Ensure this value is less than or equal to 4094."},
		})
		w.e.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/ipam/vlan-translation-policies/%d/", p1), map[string]any{"name": "Customer A2"})
		got := w.e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/ipam/vlan-translation-rules/%d/", idOf(r1)), nil).Object()
		if got["display"] != "100 -> 200 (Customer A2)" {
			t.Errorf("display after renaming the policy: %v", got["display"])
		}
		pol := w.e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/ipam/vlan-translation-policies/%d/", p1), nil).Object()
		rules := pol["rules"].([]any)
		if len(rules) != 2 || rules[0].(map[string]any)["local_vid"] != 100.0 || rules[0].(map[string]any)["policy"] != float64(p1) {
			t.Errorf("policy rules: %v", rules)
		}
		if got := names(t, w.e, "/api/ipam/vlan-translation-rules/?q=customer+a2", "local_vid"); !slices.Equal(got, []string{"100", "101"}) {
			t.Errorf("?q=customer a2: %v", got)
		}
		// An interface uses p2: p2 stays; p1 goes with its rules.
		site := w.make(t, "/api/dcim/sites/", map[string]any{"name": "S", "slug": "s"})
		man := w.make(t, "/api/dcim/manufacturers/", map[string]any{"name": "M", "slug": "m"})
		dt := w.make(t, "/api/dcim/device-types/", map[string]any{"manufacturer": man, "model": "T", "slug": "t"})
		role := w.make(t, "/api/dcim/device-roles/", map[string]any{"name": "R", "slug": "r"})
		dev := w.make(t, "/api/dcim/devices/", map[string]any{"name": "d", "site": site, "device_type": dt, "role": role})
		iface := w.e.Must(http.StatusCreated, "POST", "/api/dcim/interfaces/", map[string]any{"device": dev, "name": "eth0",
			"type": "1000base-t", "vlan_translation_policy": p2}).Object()
		if pol := iface["vlan_translation_policy"].(map[string]any); pol["name"] != "Customer B" {
			t.Errorf("interface's policy: %v", pol)
		}
		w.e.Must(http.StatusConflict, "DELETE", fmt.Sprintf("/api/ipam/vlan-translation-policies/%d/", p2), nil)
		w.e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/ipam/vlan-translation-policies/%d/", p1), nil)
		if n := w.e.Must(http.StatusOK, "GET", "/api/ipam/vlan-translation-rules/", nil).Object()["count"]; n != 1.0 {
			t.Errorf("rules left after deleting a policy: %v", n)
		}
	})
}
