package server_test

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// circuitWorld is a provider with an account and a network, a second
// provider, a circuit type, and a site (in a region, with a location) to
// terminate circuits at.
type circuitWorld struct {
	e                                      *servertest.Env
	prov, prov2, acct, acct2, net, ctype   int
	region, child, group, site, loc, site2 int
	vctype, dev, vif, phys, dt, role       int
}

const (
	circuitsPath  = "/api/circuits/circuits/"
	termsPath     = "/api/circuits/circuit-terminations/"
	providersPath = "/api/circuits/providers/"
	vcsPath       = "/api/circuits/virtual-circuits/"
	vctsPath      = "/api/circuits/virtual-circuit-terminations/"
)

func newCircuitWorld(t *testing.T, e *servertest.Env) *circuitWorld {
	a := e.Admin()
	mk := func(path string, body map[string]any) int {
		t.Helper()
		return idOf(a.Must(http.StatusCreated, "POST", path, body).Object())
	}
	w := &circuitWorld{e: a}
	w.region = mk("/api/dcim/regions/", map[string]any{"name": "Europe", "slug": "europe"})
	w.child = mk("/api/dcim/regions/", map[string]any{"name": "France", "slug": "france", "parent": w.region})
	w.group = mk("/api/dcim/site-groups/", map[string]any{"name": "Edge", "slug": "edge"})
	w.site = mk("/api/dcim/sites/", map[string]any{"name": "Paris", "slug": "paris", "region": w.child, "group": w.group})
	w.site2 = mk("/api/dcim/sites/", map[string]any{"name": "Berlin", "slug": "berlin"})
	w.loc = mk("/api/dcim/locations/", map[string]any{"name": "Cage 1", "slug": "cage-1", "site": w.site})
	w.prov = mk(providersPath, map[string]any{"name": "Carrier", "slug": "carrier"})
	w.prov2 = mk(providersPath, map[string]any{"name": "Other", "slug": "other"})
	w.acct = mk("/api/circuits/provider-accounts/", map[string]any{"provider": w.prov, "account": "A-1"})
	w.acct2 = mk("/api/circuits/provider-accounts/", map[string]any{"provider": w.prov2, "account": "B-1"})
	w.net = mk("/api/circuits/provider-networks/", map[string]any{"provider": w.prov, "name": "MPLS"})
	w.ctype = mk("/api/circuits/circuit-types/", map[string]any{"name": "Transit", "slug": "transit"})
	w.vctype = mk("/api/circuits/virtual-circuit-types/", map[string]any{"name": "L2VPN", "slug": "l2vpn"})
	man := mk("/api/dcim/manufacturers/", map[string]any{"name": "M", "slug": "m"})
	w.dt = mk("/api/dcim/device-types/", map[string]any{"manufacturer": man, "model": "X", "slug": "x"})
	w.role = mk("/api/dcim/device-roles/", map[string]any{"name": "R", "slug": "r"})
	w.dev = mk("/api/dcim/devices/", map[string]any{"name": "r1", "device_type": w.dt, "role": w.role, "site": w.site})
	w.vif = mk("/api/dcim/interfaces/", map[string]any{"device": w.dev, "name": "vlan10", "type": "virtual"})
	w.phys = mk("/api/dcim/interfaces/", map[string]any{"device": w.dev, "name": "eth0", "type": "1000base-t"})
	return w
}

func (w *circuitWorld) circuit(t *testing.T, cid string, kv ...any) int {
	t.Helper()
	b := map[string]any{"cid": cid, "provider": w.prov, "type": w.ctype}
	for i := 0; i+1 < len(kv); i += 2 {
		b[kv[i].(string)] = kv[i+1]
	}
	return idOf(w.e.Must(http.StatusCreated, "POST", circuitsPath, b).Object())
}

func (w *circuitWorld) term(t *testing.T, circuit int, side, typ string, id int) int {
	t.Helper()
	return idOf(w.e.Must(http.StatusCreated, "POST", termsPath, map[string]any{"circuit": circuit, "term_side": side,
		"termination_type": typ, "termination_id": id}).Object())
}

func (w *circuitWorld) get(t *testing.T, path string, id int) map[string]any {
	t.Helper()
	return w.e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", path, id), nil).Object()
}

func (w *circuitWorld) count(t *testing.T, path, query string) int {
	t.Helper()
	return len(w.e.Must(http.StatusOK, "GET", path+"?"+query+"&limit=0", nil).Results())
}

// TestCircuitTerminations: a circuit with an A side at a site and a Z side
// at a provider network shows both on the circuit in NetBox's nested form
// (with what they attach to); the scope cached on a termination feeds the
// site, location and region filters of terminations, circuits and
// providers and the site's circuit_count; moving or deleting a
// termination keeps the circuit's sides right; paths are listed (none
// until cabled). Bad sides and types are refused naming the field, with
// nothing written.
func TestCircuitTerminations(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newCircuitWorld(t, e)
		a := w.e
		c := w.circuit(t, "C-100", "provider_account", w.acct, "commit_rate", 10000)
		ta := w.term(t, c, "A", "dcim.location", w.loc)
		tz := w.term(t, c, "Z", "circuits.providernetwork", w.net)

		got := w.get(t, circuitsPath, c)
		for side, id := range map[string]int{"termination_a": ta, "termination_z": tz} {
			n, _ := got[side].(map[string]any)
			if n == nil || idOf(n) != id {
				t.Fatalf("%s = %v, want termination %d", side, got[side], id)
			}
			// NetBox's CircuitCircuitTerminationSerializer.
			want := []string{"description", "display", "display_url", "id", "port_speed", "termination", "termination_id",
				"termination_type", "upstream_speed", "url", "xconnect_id"}
			keys := slices.Sorted(maps.Keys(n))
			if !slices.Equal(keys, want) {
				t.Errorf("%s form: keys %v, want %v", side, keys, want)
			}
		}
		if tn := got["termination_a"].(map[string]any)["termination"].(map[string]any); idOf(tn) != w.loc || tn["display"] != "Cage 1" {
			t.Errorf("termination_a's termination: %v", tn)
		}
		if tn := got["termination_z"].(map[string]any)["termination"].(map[string]any); idOf(tn) != w.net || tn["display"] != "MPLS" {
			t.Errorf("termination_z's termination: %v", tn)
		}
		term := w.get(t, termsPath, ta)
		if term["display"] != "C-100: Termination A" {
			t.Errorf("termination display %q", term["display"])
		}
		if n := w.get(t, "/api/dcim/sites/", w.site)["circuit_count"]; n != 1.0 {
			t.Errorf("site circuit_count %v, want 1", n)
		}

		// The cached scope: the location's site, the site's region (and
		// its parent, tree filters) and group; the provider network.
		other := w.circuit(t, "C-200")
		w.term(t, other, "A", "dcim.site", w.site2)
		for _, q := range []struct {
			path, query string
			want        int
		}{
			{termsPath, fmt.Sprintf("site_id=%d", w.site), 1},
			{termsPath, "site=paris", 1},
			{termsPath, fmt.Sprintf("location_id=%d", w.loc), 1},
			{termsPath, fmt.Sprintf("region_id=%d", w.region), 1},
			{termsPath, "region=france", 1},
			{termsPath, fmt.Sprintf("site_group_id=%d", w.group), 1},
			{termsPath, fmt.Sprintf("provider_network_id=%d", w.net), 1},
			{circuitsPath, fmt.Sprintf("site_id=%d", w.site), 1},
			{circuitsPath, "site=berlin", 1},
			{circuitsPath, fmt.Sprintf("region_id=%d", w.region), 1},
			{circuitsPath, "region=europe", 1},
			{circuitsPath, fmt.Sprintf("region_id__n=%d", w.region), 1},
			{circuitsPath, "site_group=edge", 1},
			{circuitsPath, fmt.Sprintf("location_id=%d", w.loc), 1},
			{circuitsPath, fmt.Sprintf("provider_network_id=%d", w.net), 1},
			{circuitsPath, fmt.Sprintf("termination_a_id=%d", ta), 1},
			{providersPath, "region=europe", 1},
			{providersPath, fmt.Sprintf("site_id=%d", w.site2), 1},
			{providersPath, "site=nowhere-known", 0},
		} {
			if n := w.count(t, q.path, q.query); n != q.want {
				t.Errorf("%s?%s: %d, want %d", q.path, q.query, n, q.want)
			}
		}

		// Bad input: side C, a second A, a type not allowed, no
		// termination at all.
		refused(t, a, "POST", termsPath, map[string]any{"circuit": c, "term_side": "C", "termination_type": "dcim.site",
			"termination_id": w.site}, "term_side", `"C" is not a valid choice.`)
		refused(t, a, "POST", termsPath, map[string]any{"circuit": c, "term_side": "A", "termination_type": "dcim.site",
			"termination_id": w.site}, "__all__", "Circuit termination with this Circuit and Termination side already exists.")
		refused(t, a, "POST", termsPath, map[string]any{"circuit": other, "term_side": "Z", "termination_type": "dcim.device",
			"termination_id": w.dev}, "termination_type", "Invalid content type: dcim.device")
		refused(t, a, "POST", termsPath, map[string]any{"circuit": other, "term_side": "Z"},
			"__all__", "A circuit termination must attach to a terminating object.")
		refused(t, a, "PATCH", fmt.Sprintf("%s%d/", termsPath, tz), map[string]any{"term_side": "A"},
			"__all__", "Circuit termination with this Circuit and Termination side already exists.")

		// Paths: a plain list, empty until cabled; 404 for a missing
		// termination.
		if r := a.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/paths/", termsPath, ta), nil); strings.TrimSpace(string(r.Body)) != "[]" {
			t.Errorf("paths: %s", r.Body)
		}
		a.Must(http.StatusNotFound, "GET", fmt.Sprintf("%s%d/paths/", termsPath, missing), nil)

		// A termination moved to another circuit leaves its old side empty;
		// a renamed circuit renames its terminations' displays.
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", termsPath, tz), map[string]any{"circuit": other})
		if got := w.get(t, circuitsPath, c); got["termination_z"] != nil {
			t.Errorf("old circuit's termination_z after the move: %v", got["termination_z"])
		}
		if z, _ := w.get(t, circuitsPath, other)["termination_z"].(map[string]any); z == nil || idOf(z) != tz {
			t.Errorf("new circuit's termination_z: %v", z)
		}
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", circuitsPath, c), map[string]any{"cid": "C-101"})
		if d := w.get(t, termsPath, ta)["display"]; d != "C-101: Termination A" {
			t.Errorf("display after the circuit's rename: %q", d)
		}
		// Moving the A side to a site recomputes its cached scope.
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", termsPath, ta), map[string]any{"termination_type": "dcim.site",
			"termination_id": w.site2})
		if n := w.count(t, termsPath, fmt.Sprintf("location_id=%d", w.loc)); n != 0 {
			t.Errorf("terminations at the old location: %d", n)
		}
		if n := w.count(t, circuitsPath, fmt.Sprintf("site_id=%d", w.site2)); n != 2 {
			t.Errorf("circuits at the new site: %d", n)
		}

		// Deleting a termination clears the circuit's side without an
		// update record of the circuit (related_name='+').
		before := changeCount(t, a)
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", termsPath, ta), nil)
		if got := w.get(t, circuitsPath, c); got["termination_a"] != nil {
			t.Errorf("termination_a after its delete: %v", got["termination_a"])
		}
		if after := changeCount(t, a); after != before.(float64)+1 {
			t.Errorf("deleting a termination: change records %v → %v, want one more", before, after)
		}
	})
}

// TestCircuitRules: Circuit.clean() and the distance rules, the cid
// unique per provider and per account, virtual circuits' account and
// terminations (virtual interfaces only), and group assignments' display
// and the circuit's assignments.
func TestCircuitRules(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newCircuitWorld(t, e)
		a := w.e
		c := w.circuit(t, "C-1", "provider_account", w.acct, "distance", 12.5, "distance_unit", "km")
		path := fmt.Sprintf("%s%d/", circuitsPath, c)
		for _, tc := range []struct {
			name           string
			method, path   string
			body           map[string]any
			field, message string
		}{
			{"account of another provider", "POST", circuitsPath,
				map[string]any{"cid": "C-2", "provider": w.prov, "type": w.ctype, "provider_account": w.acct2},
				"provider_account", "The assigned account must belong to the assigned provider."},
			{"provider changed away from the account", "PATCH", path, map[string]any{"provider": w.prov2},
				"provider_account", "The assigned account must belong to the assigned provider."},
			{"cid twice for a provider", "POST", circuitsPath, map[string]any{"cid": "C-1", "provider": w.prov, "type": w.ctype},
				"__all__", "Circuit with this Provider and Circuit ID already exists."},
			{"distance without unit", "POST", circuitsPath,
				map[string]any{"cid": "C-3", "provider": w.prov, "type": w.ctype, "distance": 3},
				"distance_unit", "Must specify a unit when setting a distance"},
			{"distance with three decimals", "PATCH", path, map[string]any{"distance": 1.125},
				"distance", "Ensure that there are no more than 2 decimal places."},
			{"commit rate below 0", "PATCH", path, map[string]any{"commit_rate": -5},
				"commit_rate", "Ensure this value is greater than or equal to 0."},
			{"bad install date", "PATCH", path, map[string]any{"install_date": "2024-13-45"},
				"install_date", "Date has wrong format. Use one of these formats instead: YYYY-MM-DD."},
		} {
			t.Run(tc.name, func(t *testing.T) { refused(t, a, tc.method, tc.path, tc.body, tc.field, tc.message) })
		}
		// The same cid at another provider is fine; clearing the distance
		// clears its unit (DistanceMixin.save()).
		w.circuit(t, "C-1", "provider", w.prov2)
		got := a.Must(http.StatusOK, "PATCH", path, map[string]any{"distance": nil}).Object()
		if got["distance"] != nil || got["distance_unit"] != nil {
			t.Errorf("distance %v unit %v after clearing the distance", got["distance"], got["distance_unit"])
		}

		// Virtual circuits: the account belongs to the network's provider;
		// terminations sit on virtual interfaces, once per interface.
		refused(t, a, "POST", vcsPath, map[string]any{"cid": "V-1", "provider_network": w.net, "type": w.vctype,
			"provider_account": w.acct2}, "provider_account", "The assigned account must belong to the provider of the assigned network.")
		vc := idOf(a.Must(http.StatusCreated, "POST", vcsPath, map[string]any{"cid": "V-1", "provider_network": w.net,
			"type": w.vctype, "provider_account": w.acct}).Object())
		refused(t, a, "POST", vctsPath, map[string]any{"virtual_circuit": vc, "interface": w.phys, "role": "hub"},
			"interface", "Virtual circuits may be terminated only to virtual interfaces.")
		vct := a.Must(http.StatusCreated, "POST", vctsPath, map[string]any{"virtual_circuit": vc, "interface": w.vif, "role": "hub"}).Object()
		if vct["display"] != "V-1: Hub termination" {
			t.Errorf("virtual termination display %q", vct["display"])
		}
		refused(t, a, "POST", vctsPath, map[string]any{"virtual_circuit": vc, "interface": w.vif, "role": "spoke"},
			"interface", "virtual circuit termination with this interface already exists.")
		if r := a.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/paths/", vctsPath, idOf(vct)), nil); strings.TrimSpace(string(r.Body)) != "[]" {
			t.Errorf("virtual termination paths: %s", r.Body)
		}
		if n := w.count(t, "/api/dcim/interfaces/", fmt.Sprintf("virtual_circuit_id=%d", vc)); n != 1 {
			t.Errorf("interfaces of the virtual circuit: %d", n)
		}

		// Group assignments: the display names the group (and the
		// priority), follows the group's renames; the circuit lists its
		// assignments; a member twice in a group is refused.
		const groups, assigns = "/api/circuits/circuit-groups/", "/api/circuits/circuit-group-assignments/"
		g := idOf(a.Must(http.StatusCreated, "POST", groups, map[string]any{"name": "Core", "slug": "core"}).Object())
		as := a.Must(http.StatusCreated, "POST", assigns, map[string]any{"group": g, "member_type": "circuits.circuit",
			"member_id": c, "priority": "primary"}).Object()
		if as["display"] != "Core (Primary)" {
			t.Errorf("assignment display %q", as["display"])
		}
		a.Must(http.StatusCreated, "POST", assigns, map[string]any{"group": g, "member_type": "circuits.virtualcircuit", "member_id": vc})
		refused(t, a, "POST", assigns, map[string]any{"group": g, "member_type": "circuits.circuit", "member_id": c},
			"__all__", "Circuit group assignment with this Member type, Member ID and Group already exists.")
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", groups, g), map[string]any{"name": "Backbone"})
		if d := w.get(t, assigns, idOf(as))["display"]; d != "Backbone (Primary)" {
			t.Errorf("assignment display after the group's rename: %q", d)
		}
		// NetBox 4.6 declares assignments on the circuit serializer, but
		// the model's relation is group_assignments: it never sends them.
		if _, has := w.get(t, circuitsPath, c)["assignments"]; has {
			t.Errorf("a circuit shows assignments")
		}
		if p, _ := as["priority"].(map[string]any); p["value"] != "primary" || p["label"] != "Primary" {
			t.Errorf("assignment priority %v", as["priority"])
		}
		if n := w.get(t, groups, g)["circuit_count"]; n != 2.0 {
			t.Errorf("group circuit_count %v", n)
		}
	})
}

// TestCircuitsOnDelete: what deleting a provider, a provider network, a
// region or a circuit does (netbox-relations.json).
func TestCircuitsOnDelete(t *testing.T) {
	base := []odObj{
		{"prov", providersPath, map[string]any{"name": "ODP", "slug": "odp"}},
		{"type", "/api/circuits/circuit-types/", map[string]any{"name": "ODT", "slug": "odt"}},
		{"cir", circuitsPath, map[string]any{"cid": "OD-1", "provider": "@prov", "type": "@type"}},
	}
	with := func(more ...odObj) []odObj { return append(append([]odObj{}, base...), more...) }
	cases := []odCase{
		{
			name:        "provider PROTECT from its circuits",
			objects:     base,
			del:         []string{"prov"},
			protectedBy: []string{"cir"},
		},
		{
			name: "provider network PROTECT from the terminations at it",
			objects: with(
				odObj{"net", "/api/circuits/provider-networks/", map[string]any{"provider": "@prov", "name": "ODN"}},
				odObj{"term", termsPath, map[string]any{"circuit": "@cir", "term_side": "Z",
					"termination_type": "circuits.providernetwork", "termination_id": "@net"}},
			),
			del:         []string{"net"},
			protectedBy: []string{"term"},
		},
		{
			name: "region deleted: the terminations cached under it CASCADE (NetBox's _region), the site stays",
			objects: with(
				odObj{"reg", "/api/dcim/regions/", map[string]any{"name": "ODR", "slug": "odr"}},
				odObj{"site", "/api/dcim/sites/", map[string]any{"name": "ODS", "slug": "ods", "region": "@reg"}},
				odObj{"term", termsPath, map[string]any{"circuit": "@cir", "term_side": "A",
					"termination_type": "dcim.site", "termination_id": "@site"}},
			),
			del:     []string{"reg"},
			gone:    []string{"reg", "term"},
			changed: []odRef{{"reg", "delete"}, {"term", "delete"}, {"site", "update"}},
			cleared: map[string]string{"site": "region"},
		},
		{
			name: "circuit deleted: its terminations and group assignments CASCADE",
			objects: with(
				odObj{"site", "/api/dcim/sites/", map[string]any{"name": "ODS2", "slug": "ods2"}},
				odObj{"term", termsPath, map[string]any{"circuit": "@cir", "term_side": "A",
					"termination_type": "dcim.site", "termination_id": "@site"}},
				odObj{"grp", "/api/circuits/circuit-groups/", map[string]any{"name": "ODG", "slug": "odg"}},
				odObj{"asg", "/api/circuits/circuit-group-assignments/", map[string]any{"group": "@grp",
					"member_type": "circuits.circuit", "member_id": "@cir"}},
			),
			del:     []string{"cir"},
			gone:    []string{"cir", "term", "asg"},
			changed: []odRef{{"cir", "delete"}, {"term", "delete"}, {"asg", "delete"}},
		},
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.ListenToAllEvents()
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) { runOnDelete(t, e.Admin(), c) })
		}
	})
}

// TestCircuitListQueries: a page of circuits showing both terminations
// (with what they attach to) and group assignments costs the same number
// of read queries for 2 circuits as for 50.
func TestCircuitListQueries(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newCircuitWorld(t, e)
		a := w.e
		g := idOf(a.Must(http.StatusCreated, "POST", "/api/circuits/circuit-groups/", map[string]any{"name": "G", "slug": "g"}).Object())
		var circuits, terms, assigns []any
		for i := 0; i < 50; i++ {
			circuits = append(circuits, map[string]any{"cid": fmt.Sprintf("Q-%d", i), "provider": w.prov, "type": w.ctype,
				"provider_account": w.acct, "tags": []any{}})
		}
		var ids []string
		for _, c := range a.Must(http.StatusCreated, "POST", circuitsPath, circuits).JSON().([]any) {
			id := idOf(c.(map[string]any))
			ids = append(ids, fmt.Sprintf("id=%d", id))
			at := []any{"dcim.site", w.site}
			if id%2 == 0 {
				at = []any{"dcim.location", w.loc}
			}
			terms = append(terms,
				map[string]any{"circuit": id, "term_side": "A", "termination_type": at[0], "termination_id": at[1]},
				map[string]any{"circuit": id, "term_side": "Z", "termination_type": "circuits.providernetwork", "termination_id": w.net})
			assigns = append(assigns, map[string]any{"group": g, "member_type": "circuits.circuit", "member_id": id, "priority": "primary"})
		}
		a.Must(http.StatusCreated, "POST", termsPath, terms)
		a.Must(http.StatusCreated, "POST", "/api/circuits/circuit-group-assignments/", assigns)
		cost := func(q string) int64 {
			// limit 51: both pages are short, so neither runs a count query (a
			// short page knows its count); the comparison is of the page's loads.
			n, r := a.CostOf(circuitsPath + "?limit=51&" + q)
			for _, c := range r.Results() {
				ta, _ := c["termination_a"].(map[string]any)
				tz, _ := c["termination_z"].(map[string]any)
				if ta == nil || tz == nil || ta["termination"] == nil || tz["termination"] == nil {
					t.Fatalf("circuit without its terminations: %v", c)
				}
			}
			return n
		}
		// Two circuits already show every kind of termination (one query
		// per type of object they attach to).
		two, fifty := cost(ids[0]+"&"+ids[1]), cost(strings.Join(ids, "&"))
		if two != fifty {
			t.Errorf("circuit list with terminations: %d read queries for 2 circuits, %d for 50", two, fifty)
		}
		t.Logf("a page of circuits with terminations: %d read queries", fifty)
	})
}

// TestCircuitSearch: a circuit's q also searches its terminations'
// cross-connect id, patch panel info and description
// (CircuitFilterSet.search), each circuit once.
func TestCircuitSearch(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newCircuitWorld(t, e)
		w.circuit(t, "CID-A", "description", "plain")
		b := w.circuit(t, "CID-B")
		for side, body := range map[string]map[string]any{
			"A": {"xconnect_id": "XC-77", "pp_info": "Panel 9"},
			"Z": {"description": "north feed", "xconnect_id": "xc-78"},
		} {
			id := w.term(t, b, side, "dcim.site", w.site)
			w.e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", termsPath, id), body)
		}
		for q, want := range map[string]int{"xc-7": 1, "PANEL+9": 1, "north": 1, "cid-": 2, "plain": 1, "nowhere": 0, "+": 2} {
			if n := w.count(t, circuitsPath, "q="+q); n != want {
				t.Errorf("q=%s: %d circuits, want %d", q, n, want)
			}
		}
	})
}

// TestProviderAccountsWritable: a provider's accounts take a list of
// account ids (ProviderSerializer's SerializedPKRelatedField): the listed
// accounts move to the provider, the others stay; an unknown id or a move
// that clashes with the provider's own account numbers is a 400 with
// nothing written.
func TestProviderAccountsWritable(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newCircuitWorld(t, e)
		a := w.e
		accountIDs := func(p int) []int {
			var ids []int
			for _, x := range w.get(t, providersPath, p)["accounts"].([]any) {
				ids = append(ids, idOf(x.(map[string]any)))
			}
			return ids
		}
		p3 := idOf(a.Must(http.StatusCreated, "POST", providersPath, map[string]any{"name": "Third", "slug": "third",
			"accounts": []int{w.acct}}).Object())
		if got := accountIDs(p3); !slices.Equal(got, []int{w.acct}) || len(accountIDs(w.prov)) != 0 {
			t.Errorf("after create: third %v, carrier %v", got, accountIDs(w.prov))
		}
		if p := w.get(t, "/api/circuits/provider-accounts/", w.acct)["provider"].(map[string]any); idOf(p) != p3 {
			t.Errorf("moved account's provider %v", p)
		}
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", providersPath, p3), map[string]any{"accounts": []any{map[string]any{"id": w.acct2}}})
		if got := accountIDs(p3); !slices.Equal(got, []int{w.acct, w.acct2}) {
			t.Errorf("after patch: %v", got)
		}
		refused(t, a, "PATCH", fmt.Sprintf("%s%d/", providersPath, p3), map[string]any{"accounts": []int{99999}},
			"accounts", `Invalid pk "99999" - object does not exist.`)
		// An account numbered as one the provider has already.
		clash := idOf(a.Must(http.StatusCreated, "POST", "/api/circuits/provider-accounts/",
			map[string]any{"provider": w.prov2, "account": "A-1"}).Object())
		refused(t, a, "PATCH", fmt.Sprintf("%s%d/", providersPath, p3), map[string]any{"accounts": []int{clash}},
			"accounts", "Provider account with this Provider and Account ID already exists.")
		if got := accountIDs(w.prov2); !slices.Contains(got, clash) {
			t.Errorf("clashing account moved: other's accounts %v", got)
		}
	})
}
