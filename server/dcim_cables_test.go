package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// Cables: NetBox's Cable.clean() and CableTermination.clean() answered as
// 400s naming the end, nothing written; what a cable leaves on the objects
// it terminates (cable, cable_end, _occupied, link_peers) and on its
// termination rows; and what deletes of the cable, of a port and of a
// device do to the rest, with their change records.

// cablesWorld creates, by key: devices d1 and d2 (site s1, d2 in rack r1)
// and d3 (site s2); interfaces e1..e4 on d1, f1..f3 on d2, virt (virtual)
// and wifi (wireless) on d1, marked (mark_connected) on d1; power port pp1
// on d1 and power outlet po1 on d2; console port cp1 on d1 and console
// server port csp1 on d2.
func cablesWorld(t *testing.T, e *servertest.Env) map[string]int {
	t.Helper()
	ids := map[string]int{}
	add := func(key, path string, body map[string]any) {
		t.Helper()
		ids[key] = int(e.Must(http.StatusCreated, "POST", path, resolveRefs(ids, body)).Object()["id"].(float64))
	}
	add("m", "/api/dcim/manufacturers/", map[string]any{"name": "Juniper", "slug": "juniper"})
	add("dt", dtPath, map[string]any{"manufacturer": "@m", "model": "EX4300", "slug": "ex4300"})
	add("role", "/api/dcim/device-roles/", map[string]any{"name": "Access", "slug": "access"})
	add("s1", "/api/dcim/sites/", map[string]any{"name": "Site 1", "slug": "site-1"})
	add("s2", "/api/dcim/sites/", map[string]any{"name": "Site 2", "slug": "site-2"})
	add("r1", "/api/dcim/racks/", map[string]any{"name": "R1", "site": "@s1"})
	add("d1", "/api/dcim/devices/", map[string]any{"name": "d1", "device_type": "@dt", "role": "@role", "site": "@s1"})
	add("d2", "/api/dcim/devices/", map[string]any{"name": "d2", "device_type": "@dt", "role": "@role", "site": "@s1", "rack": "@r1"})
	add("d3", "/api/dcim/devices/", map[string]any{"name": "d3", "device_type": "@dt", "role": "@role", "site": "@s2"})
	for i := 1; i <= 4; i++ {
		add(fmt.Sprintf("e%d", i), compPath("interfaces"), map[string]any{"device": "@d1", "name": fmt.Sprintf("e%d", i), "type": "1000base-t"})
	}
	for i := 1; i <= 3; i++ {
		add(fmt.Sprintf("f%d", i), compPath("interfaces"), map[string]any{"device": "@d2", "name": fmt.Sprintf("f%d", i), "type": "1000base-t"})
	}
	add("g1", compPath("interfaces"), map[string]any{"device": "@d3", "name": "g1", "type": "1000base-t"})
	add("virt", compPath("interfaces"), map[string]any{"device": "@d1", "name": "vlan10", "type": "virtual"})
	add("wifi", compPath("interfaces"), map[string]any{"device": "@d1", "name": "wlan0", "type": "ieee802.11ac"})
	add("marked", compPath("interfaces"), map[string]any{"device": "@d1", "name": "marked", "type": "1000base-t", "mark_connected": true})
	add("pp1", compPath("power-ports"), map[string]any{"device": "@d1", "name": "PSU0"})
	add("po1", compPath("power-outlets"), map[string]any{"device": "@d2", "name": "Out1"})
	add("cp1", compPath("console-ports"), map[string]any{"device": "@d1", "name": "Con"})
	add("csp1", compPath("console-server-ports"), map[string]any{"device": "@d2", "name": "Srv1"})
	return ids
}

// ends is a cable body terminating a on ends A and b on ends B, each an
// "app.model:@key" reference.
func ends(a, b []string) map[string]any {
	side := func(refs []string) []any {
		out := []any{}
		for _, r := range refs {
			ct, key, _ := strings.Cut(r, ":")
			out = append(out, map[string]any{"object_type": ct, "object_id": key})
		}
		return out
	}
	body := map[string]any{}
	if a != nil {
		body["a_terminations"] = side(a)
	}
	if b != nil {
		body["b_terminations"] = side(b)
	}
	return body
}

func total(t *testing.T, e *servertest.Env, path string) int {
	t.Helper()
	return int(e.Must(http.StatusOK, "GET", path+"?limit=1", nil).Object()["count"].(float64))
}

func TestCableRules(t *testing.T) {
	i := func(key string) string { return "dcim.interface:@" + key }
	cases := []struct {
		name        string
		body        map[string]any
		field, text string
	}{
		{"one end only", ends([]string{i("e1")}, nil), "__all__", "Must define A and B terminations when creating a new cable."},
		{"no such object", ends([]string{"dcim.interface:99999999"}, []string{i("f1")}), "a_terminations",
			"Related object not found using the provided value: 99999999."},
		{"not a list", map[string]any{"a_terminations": "e1", "b_terminations": []any{}}, "a_terminations", "Expected a list of items"},
		{"not a cabled type", map[string]any{"a_terminations": []any{map[string]any{"object_type": "dcim.site", "object_id": 1}},
			"b_terminations": []any{}}, "a_terminations", "object_type"},
		{"mixed types on one end", ends([]string{i("e1"), "dcim.powerport:@pp1"}, []string{i("f1")}), "a_terminations",
			"Cannot connect different termination types to same end of cable."},
		{"two devices on one end", ends([]string{i("e1"), i("f2")}, []string{i("g1")}), "a_terminations",
			"All terminations of one end must belong to the same parent object"},
		{"incompatible types", ends([]string{i("e1")}, []string{"dcim.powerport:@pp1"}), "b_terminations",
			"Incompatible termination types: interface and powerport"},
		{"same object on both ends", ends([]string{i("e1")}, []string{i("e1")}), "b_terminations",
			"A and B terminations cannot connect to the same object."},
		{"marked connected", ends([]string{i("marked")}, []string{i("f1")}), "a_terminations",
			"Cannot connect a cable to d1 > marked because it is marked as connected."},
		{"virtual interface", ends([]string{i("virt")}, []string{i("f1")}), "a_terminations",
			"Cables cannot be terminated to Virtual interfaces"},
		{"wireless interface", ends([]string{i("f1")}, []string{i("wifi")}), "b_terminations",
			"Cables cannot be terminated to IEEE 802.11ac (Wi-Fi 5) interfaces"},
		{"already cabled", ends([]string{i("e4")}, []string{i("f2")}), "a_terminations", "Duplicate termination found for dcim.interface"},
		{"length without unit", func() map[string]any {
			b := ends([]string{i("e1")}, []string{i("f1")})
			b["length"] = 3
			return b
		}(), "__all__", "Must specify a unit when setting a cable length"},
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := cablesWorld(t, e)
		e.Must(http.StatusCreated, "POST", "/api/dcim/cables/", resolveRefs(ids, ends([]string{i("e4")}, []string{i("f3")})))
		cables, terms := total(t, e, "/api/dcim/cables/"), total(t, e, "/api/dcim/cable-terminations/")
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				r := e.Must(http.StatusBadRequest, "POST", "/api/dcim/cables/", resolveRefs(ids, c.body))
				msgs, _ := r.Object()[c.field].([]any)
				if len(msgs) == 0 || !strings.Contains(fmt.Sprint(msgs[0]), c.text) {
					t.Errorf("%s: %s, want %s naming %q", c.name, r.Body, c.field, c.text)
				}
				if n, m := total(t, e, "/api/dcim/cables/"), total(t, e, "/api/dcim/cable-terminations/"); n != cables || m != terms {
					t.Errorf("%s: cables %d→%d, terminations %d→%d: something was written", c.name, cables, n, terms, m)
				}
			})
		}
		// A cabled interface cannot be marked connected.
		r := e.Must(http.StatusBadRequest, "PATCH", fmt.Sprintf("%s%d/", compPath("interfaces"), ids["e4"]), map[string]any{"mark_connected": true})
		if !strings.Contains(string(r.Body), "Cannot mark as connected with a cable attached.") {
			t.Errorf("mark_connected on a cabled interface: %s", r.Body)
		}
	})
}

// TestCableLifecycle: a cable and its ends from create to delete, on both
// databases.
func TestCableLifecycle(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := cablesWorld(t, e)
		iface := func(key string) map[string]any {
			return e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", compPath("interfaces"), ids[key]), nil).Object()
		}
		r := e.Must(http.StatusCreated, "POST", "/api/dcim/cables/", resolveRefs(ids, map[string]any{
			"a_terminations": []any{map[string]any{"object_type": "dcim.interface", "object_id": "@e1"},
				map[string]any{"object_type": "dcim.interface", "object_id": "@e2"}},
			"b_terminations": []any{map[string]any{"object_type": "dcim.interface", "object_id": "@f1"}},
			"label":          "patch-1", "length": 2, "length_unit": "m", "color": "00ff00",
		}))
		cable := r.Object()
		cid := int(cable["id"].(float64))
		createReq := r.Header.Get("X-Request-ID")
		a := cable["a_terminations"].([]any)
		if len(a) != 2 || a[0].(map[string]any)["object"].(map[string]any)["name"] != "e1" {
			t.Fatalf("a_terminations: %v", a)
		}
		// The ends: cable, end, occupied, peers.
		e1 := iface("e1")
		if e1["cable"].(map[string]any)["display"] != "patch-1" || e1["cable_end"] != "A" || e1["_occupied"] != true {
			t.Errorf("e1 after the cable: cable %v end %v occupied %v", e1["cable"], e1["cable_end"], e1["_occupied"])
		}
		if peers := e1["link_peers"].([]any); len(peers) != 1 || peers[0].(map[string]any)["name"] != "f1" || e1["link_peers_type"] != "dcim.interface" {
			t.Errorf("e1 link peers %v (%v)", e1["link_peers"], e1["link_peers_type"])
		}
		f1 := iface("f1")
		if peers := f1["link_peers"].([]any); len(peers) != 2 || f1["cable_end"] != "B" {
			t.Errorf("f1: end %v link peers %v", f1["cable_end"], peers)
		}
		// Termination rows, with the cached device, rack and site.
		terms := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/cable-terminations/?cable_id=%d", cid), nil).Results()
		if len(terms) != 3 || terms[0]["display"] != "Cable patch-1 to e1" || terms[2]["cable_end"] != "B" {
			t.Errorf("terminations: %v", terms)
		}
		for q, want := range map[string]int{
			fmt.Sprintf("device_id=%d", ids["d2"]): 1, fmt.Sprintf("rack_id=%d", ids["r1"]): 1, "site=site-1": 1, "site=site-2": 0,
			fmt.Sprintf("interface_id=%d", ids["e2"]): 1, "termination_a_type=dcim.interface": 1, "unterminated=true": 0,
			fmt.Sprintf("termination_b_id=%d", ids["f1"]): 1,
		} {
			if n := len(e.Must(http.StatusOK, "GET", "/api/dcim/cables/?"+q, nil).Results()); n != want {
				t.Errorf("cables ?%s: %d, want %d", q, n, want)
			}
		}
		if n := len(e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/cable-terminations/?interface_id=%d", ids["f1"]), nil).Results()); n != 1 {
			t.Errorf("terminations ?interface_id: %d", n)
		}
		for q, want := range map[string]int{
			"cabled=true": 3, "cabled=false": 8, fmt.Sprintf("cable_id=%d", cid): 3, "cable_end=A": 2, "occupied=true": 4,
		} {
			if n := len(e.Must(http.StatusOK, "GET", compPath("interfaces")+"?limit=100&"+q, nil).Results()); n != want {
				t.Errorf("interfaces ?%s: %d, want %d", q, n, want)
			}
		}
		// One create record each for the cable and its terminations (per
		// end), an update record for each interface.
		if got := recordsOf(t, e, createReq); !slices.Equal(got, []string{"create dcim.cable", "create dcim.cabletermination",
			"create dcim.cabletermination", "update dcim.interface", "update dcim.interface", "create dcim.cabletermination",
			"update dcim.interface"}) {
			t.Errorf("create records: %v", got)
		}

		// Moving the B end: f1 is cleared, f2 takes the cable.
		r = e.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/cables/%d/", cid), resolveRefs(ids, map[string]any{
			"b_terminations": []any{map[string]any{"object_type": "dcim.interface", "object_id": "@f2"}}}))
		if f1 := iface("f1"); f1["cable"] != nil || f1["cable_end"] != nil || f1["_occupied"] != false || len(f1["link_peers"].([]any)) != 0 {
			t.Errorf("f1 after the move: %v %v %v %v", f1["cable"], f1["cable_end"], f1["_occupied"], f1["link_peers"])
		}
		if f2 := iface("f2"); f2["cable_end"] != "B" {
			t.Errorf("f2 after the move: end %v", f2["cable_end"])
		}
		got := recordsOf(t, e, r.Header.Get("X-Request-ID"))
		for _, want := range []string{"update dcim.cable", "delete dcim.cabletermination", "create dcim.cabletermination"} {
			if !slices.Contains(got, want) {
				t.Errorf("move records %v lack %q", got, want)
			}
		}

		// Deleting an end's port takes it off the cable (an update record of
		// the cable); its peer keeps the cable.
		e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", compPath("interfaces"), ids["e2"]), nil)
		c := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/cables/%d/", cid), nil).Object()
		if a := c["a_terminations"].([]any); len(a) != 1 || int(a[0].(map[string]any)["object_id"].(float64)) != ids["e1"] {
			t.Errorf("a_terminations after deleting e2: %v", a)
		}
		if n := total(t, e, "/api/dcim/cable-terminations/"); n != 2 {
			t.Errorf("terminations after deleting e2: %d, want 2", n)
		}

		// Deleting the cable clears its ends, with an update record of each
		// (their cable and connection changed: the issue asks for an event
		// for each endpoint whose connection changed; NetBox's post_delete
		// signal writes them with update() and records none, see the
		// README's differences).
		r = e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/dcim/cables/%d/", cid), nil)
		for _, key := range []string{"e1", "f2"} {
			if x := iface(key); x["cable"] != nil || x["cable_end"] != nil || x["_occupied"] != false {
				t.Errorf("%s after the cable's delete: %v %v %v", key, x["cable"], x["cable_end"], x["_occupied"])
			}
		}
		if got := recordsOf(t, e, r.Header.Get("X-Request-ID")); !slices.Equal(got, []string{"delete dcim.cabletermination",
			"delete dcim.cabletermination", "delete dcim.cable", "update dcim.interface", "update dcim.interface"}) {
			t.Errorf("delete records: %v", got)
		}
		if n := total(t, e, "/api/dcim/cable-terminations/"); n != 0 {
			t.Errorf("terminations after the cable's delete: %d", n)
		}

		// Deleting a device removes its ports' terminations; the cable stays
		// with the other end.
		pc := e.Must(http.StatusCreated, "POST", "/api/dcim/cables/", resolveRefs(ids, ends([]string{"dcim.powerport:@pp1"},
			[]string{"dcim.poweroutlet:@po1"}))).Object()
		e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/dcim/devices/%d/", ids["d2"]), nil)
		pcNow := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/cables/%v/", pc["id"]), nil).Object()
		if b := pcNow["b_terminations"].([]any); len(b) != 0 {
			t.Errorf("b_terminations after deleting the outlet's device: %v", b)
		}
		pp := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", compPath("power-ports"), ids["pp1"]), nil).Object()
		if pp["cable_end"] != "A" || len(pp["link_peers"].([]any)) != 0 || pp["link_peers_type"] != nil {
			t.Errorf("pp1 after its peer's device went: end %v peers %v (%v)", pp["cable_end"], pp["link_peers"], pp["link_peers_type"])
		}
		if n := len(e.Must(http.StatusOK, "GET", "/api/dcim/cables/?unterminated=true", nil).Results()); n != 1 {
			t.Errorf("unterminated cables: %d, want 1", n)
		}
	})
}

// recordsOf lists "action type" of the change records of one request.
func recordsOf(t *testing.T, e *servertest.Env, reqID string) []string {
	t.Helper()
	var out []string
	for _, rec := range changes(t, e, reqID) {
		out = append(out, fmt.Sprint(rec["action"].(map[string]any)["value"], " ", rec["changed_object_type"]))
	}
	return out
}

// TestCableLinkPeersQueries: a page of cabled interfaces costs the same
// queries whatever its size (link peers load per page).
func TestCableLinkPeersQueries(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := cablesWorld(t, e)
		for i := 1; i <= 3; i++ {
			e.Must(http.StatusCreated, "POST", "/api/dcim/cables/", resolveRefs(ids, ends([]string{fmt.Sprintf("dcim.interface:@e%d", i)},
				[]string{fmt.Sprintf("dcim.interface:@f%d", i)})))
		}
		e.Must(http.StatusCreated, "POST", "/api/dcim/cables/", resolveRefs(ids, ends([]string{"dcim.consoleport:@cp1"},
			[]string{"dcim.consoleserverport:@csp1"})))
		cost := e.Cost
		// Both pages are short (no count query). The bigger page may cost
		// one query less than the single row, never more: nested rows are
		// cached by their id set within a request, and the page of six asks
		// for both devices as its link peers' did.
		one := cost(fmt.Sprintf("%s?id=%d", compPath("interfaces"), ids["e1"]))
		six := cost(fmt.Sprintf("%s?cabled=true&limit=10", compPath("interfaces")))
		if six > one {
			t.Errorf("interfaces with link peers: %d queries for 1, %d for 6 (N+1)", one, six)
		}
		// Cables with their ends' objects: no more for 3 than for 1.
		cables := e.Must(http.StatusOK, "GET", "/api/dcim/cables/?termination_a_type=dcim.interface", nil).Results()
		if len(cables) != 3 {
			t.Fatalf("%d interface cables, want 3", len(cables))
		}
		oneCable := cost(fmt.Sprintf("/api/dcim/cables/?id=%v", cables[0]["id"]))
		three := cost("/api/dcim/cables/?termination_a_type=dcim.interface&limit=10")
		if three > oneCable {
			t.Errorf("cables: %d queries for 1, %d for 3 (N+1)", oneCable, three)
		}
	})
}

// maxStatementsPerCable bounds what one more cable of a bulk create costs
// (interface to interface): the cable's INSERT. Everything else is
// batched over the request: its ends' objects are read for the checks at
// its first cable (api.BulkItems), and the terminations' INSERT, the
// interfaces' snapshots (their rows, many-to-many lists and tags) and
// cable columns (cable_ends.go, api.Postpone), the traced paths, the
// change records and events are written at its end; those statements
// grow only with the batches' pieces (rawsql.Batches), a few for a
// thousand cables. It was 16 (issue 37) before the ends were batched.
const maxStatementsPerCable = 1

// maxBulkCablePieces bounds the statements a bulk of 200 cables makes
// beyond one of 10 other than its cables' own: the batched writes of 400
// rows (terminations, cable columns, paths, their nodes and _path_id,
// change records) cut in more pieces than those of 20 (rawsql.Batches:
// past 256 rows, powers of two), one statement more per piece.
const maxBulkCablePieces = 12

// maxBulkCableFixed bounds what a bulk of 10 cables costs beyond its
// cables' own statements: the request (token, user, custom fields, event
// rules), the ends' objects, the batched ends and paths, the change
// records, and the response's read (66 on SQLite, 67 on PostgreSQL when
// written).
const maxBulkCableFixed = 67

// TestCableBulkCreate creates cables between fresh interfaces in bulk
// requests of 10 and of 200: every interface of the first shows its peer
// as link peer and connected endpoint and has its update record, and the
// 190 more cables of the second cost at most maxStatementsPerCable
// statements each.
func TestCableBulkCreate(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := cablesWorld(t, e)
		ifaces := func(dev string, n int, prefix string) []int {
			var body []any
			for i := range n {
				body = append(body, map[string]any{"device": ids[dev], "name": fmt.Sprintf("%s%d", prefix, i), "type": "1000base-t"})
			}
			var out []int
			for _, o := range e.Must(http.StatusCreated, "POST", compPath("interfaces"), body).JSON().([]any) {
				out = append(out, int(o.(map[string]any)["id"].(float64)))
			}
			return out
		}
		bulk := func(n int, prefix string) (int64, string, []int, []int) {
			a, b := ifaces("d1", n, prefix), ifaces("d2", n, prefix)
			var body []any
			for i := range n {
				body = append(body, map[string]any{
					"a_terminations": []any{map[string]any{"object_type": "dcim.interface", "object_id": a[i]}},
					"b_terminations": []any{map[string]any{"object_type": "dcim.interface", "object_id": b[i]}},
				})
			}
			before := e.Statements()
			r := e.Must(http.StatusCreated, "POST", "/api/dcim/cables/", body)
			return e.Statements() - before, r.Header.Get("X-Request-ID"), a, b
		}
		ten, reqID, a, b := bulk(10, "ten")
		many, _, _, _ := bulk(200, "many")
		t.Logf("bulk cables: %d statements for 10, %d for 200", ten, many)
		if many-ten > 190*maxStatementsPerCable+maxBulkCablePieces || many < ten {
			t.Errorf("bulk cables: %d statements for 10, %d for 200: %.2f per cable, want at most %d (and %d for the batches' pieces)",
				ten, many, float64(many-ten)/190, maxStatementsPerCable, maxBulkCablePieces)
		}
		if fixed := ten - 10*maxStatementsPerCable; fixed > maxBulkCableFixed {
			t.Errorf("bulk cables: %d statements for 10: %d beyond the cables' own, want at most %d", ten, fixed, maxBulkCableFixed)
		}
		for i := range a {
			for _, c := range [][2]int{{a[i], b[i]}, {b[i], a[i]}} {
				o := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", compPath("interfaces"), c[0]), nil).Object()
				peers, _ := o["link_peers"].([]any)
				eps, _ := o["connected_endpoints"].([]any)
				if len(peers) != 1 || len(eps) != 1 || o["connected_endpoints_reachable"] != true ||
					int(eps[0].(map[string]any)["id"].(float64)) != c[1] || int(peers[0].(map[string]any)["id"].(float64)) != c[1] {
					t.Errorf("interface %d: link_peers %v, connected_endpoints %v (reachable %v), want interface %d",
						c[0], o["link_peers"], o["connected_endpoints"], o["connected_endpoints_reachable"], c[1])
				}
			}
		}
		recs := recordsOf(t, e, reqID)
		updated := 0
		for _, r := range recs {
			if strings.HasPrefix(r, "update dcim.interface") {
				updated++
			}
		}
		if updated != 20 || len(recs) != 10+20+20 {
			t.Errorf("bulk cables: %d records, %d interface updates, want 50 and 20: %v", len(recs), updated, recs)
		}
	})
}

// TestCableBulkCreateErrors: a failed bulk create answers one error object
// per item, {} for an item without errors or left unchecked once a failed
// statement ended the transaction; never null (schemathesis: the 400
// body then matched no schema of the document).
func TestCableBulkCreateErrors(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		body := []any{
			map[string]any{"a_terminations": []any{map[string]any{"object_type": "dcim.interface", "object_id": 99}}},
			map[string]any{"a_terminations": []any{}},
			map[string]any{},
		}
		items := e.Must(http.StatusBadRequest, "POST", "/api/dcim/cables/", body).JSON().([]any)
		if len(items) != len(body) {
			t.Fatalf("%d error items for %d items", len(items), len(body))
		}
		for i, it := range items {
			if _, ok := it.(map[string]any); !ok {
				t.Errorf("item %d: %v, want an object", i, it)
			}
		}
	})
}
