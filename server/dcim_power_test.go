package server_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// Power panels and power feeds: the rules across objects (NetBox's
// PowerPanel.clean() and PowerFeed.clean()), the available power that
// PowerFeed.save() caches, the counts and the deletes, on both databases.

const (
	panelPath = "/api/dcim/power-panels/"
	feedPath  = "/api/dcim/power-feeds/"
)

func TestPowerRules(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newRackWorld(t, e)
		a := w.e
		rackA := idOf(w.rack(t, map[string]any{"name": "RA", "site": w.siteA, "location": w.locA}))
		rackB := idOf(w.rack(t, map[string]any{"name": "RB", "facility_id": "F-9", "site": w.siteB}))
		panelA := idOf(a.Must(http.StatusCreated, "POST", panelPath, map[string]any{"name": "PA", "site": w.siteA, "location": w.locA}).Object())
		panelB := idOf(a.Must(http.StatusCreated, "POST", panelPath, map[string]any{"name": "PB", "site": w.siteB}).Object())
		feed := a.Must(http.StatusCreated, "POST", feedPath, map[string]any{"name": "F1", "power_panel": panelA, "rack": rackA}).Object()
		f1 := fmt.Sprintf("%s%d/", feedPath, idOf(feed))

		cases := []struct {
			name, method, path string
			body               any
			field, message     string
		}{
			{"feed on a rack of another site", "POST", feedPath,
				map[string]any{"name": "F2", "power_panel": panelA, "rack": rackB},
				"__all__", "Rack RB (F-9) (Site B) and power panel PA (Site A) are in different sites"},
			{"feed moved to a rack of another site", "PATCH", f1, map[string]any{"rack": rackB},
				"__all__", "Rack RB (F-9) (Site B) and power panel PA (Site A) are in different sites"},
			{"feed moved to a panel of another site, keeping its rack", "PATCH", f1, map[string]any{"power_panel": panelB},
				"__all__", "Rack RA (Site A) and power panel PB (Site B) are in different sites"},
			{"panel in a location of another site", "POST", panelPath,
				map[string]any{"name": "PX", "site": w.siteA, "location": w.locB},
				"__all__", "Location Hall B (Site B) is in a different site than Site A"},
			{"panel moved to another site, keeping its location", "PATCH", fmt.Sprintf("%s%d/", panelPath, panelA),
				map[string]any{"site": w.siteB}, "__all__", "Location Hall A (Site A) is in a different site than Site B"},
			{"negative AC voltage", "POST", feedPath, map[string]any{"name": "F2", "power_panel": panelA, "voltage": -230},
				"voltage", "Voltage cannot be negative for AC supply"},
			{"AC feed patched to a negative voltage", "PATCH", f1, map[string]any{"voltage": -48, "supply": "ac"},
				"voltage", "Voltage cannot be negative for AC supply"},
			{"zero voltage", "POST", feedPath, map[string]any{"name": "F2", "power_panel": panelA, "voltage": 0, "supply": "dc"},
				"voltage", "This value may not be [0]."},
			{"utilisation above 100", "POST", feedPath, map[string]any{"name": "F2", "power_panel": panelA, "max_utilization": 101},
				"max_utilization", "Ensure this value is less than or equal to 100."},
			{"amperage 0", "POST", feedPath, map[string]any{"name": "F2", "power_panel": panelA, "amperage": 0},
				"amperage", "Ensure this value is greater than or equal to 1."},
			{"feed name taken on the panel", "POST", feedPath, map[string]any{"name": "F1", "power_panel": panelA},
				"__all__", "Power feed with this Power panel and Name already exists."},
			{"panel name taken at the site", "POST", panelPath, map[string]any{"name": "PA", "site": w.siteA},
				"__all__", "Power panel with this Site and Name already exists."},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				before := a.Must(http.StatusOK, "GET", "/api/core/object-changes/?limit=1", nil).Object()["count"]
				r := a.Must(http.StatusBadRequest, c.method, c.path, c.body)
				got, _ := r.Object()[c.field].([]any)
				if len(got) != 1 || got[0] != c.message {
					t.Errorf("body %s, want %s: [%q]", r.Body, c.field, c.message)
				}
				if after := a.Must(http.StatusOK, "GET", "/api/core/object-changes/?limit=1", nil).Object()["count"]; after != before {
					t.Errorf("a refused write left change records: %v → %v", before, after)
				}
			})
		}
		// Nothing of the refused writes stuck.
		got := a.Must(http.StatusOK, "GET", f1, nil).Object()
		if got["rack"].(map[string]any)["id"] != float64(rackA) || got["power_panel"].(map[string]any)["id"] != float64(panelA) ||
			got["voltage"] != 120.0 {
			t.Errorf("feed after refused writes: rack %v, panel %v, voltage %v", got["rack"], got["power_panel"], got["voltage"])
		}
		if n := len(a.Must(http.StatusOK, "GET", feedPath, nil).Results()); n != 1 {
			t.Errorf("%d feeds after refused creates", n)
		}

		// NetBox's defaults, and an uncabled feed's cable fields.
		for k, want := range map[string]any{"voltage": 120.0, "amperage": 15.0, "max_utilization": 80.0, "mark_connected": false,
			"cable": nil, "cable_end": nil, "link_peers_type": nil, "connected_endpoints": nil, "connected_endpoints_type": nil,
			"connected_endpoints_reachable": false, "_occupied": false} {
			if feed[k] != want {
				t.Errorf("new feed %s = %v, want %v", k, feed[k], want)
			}
		}
		if peers, ok := feed["link_peers"].([]any); !ok || len(peers) != 0 {
			t.Errorf("new feed link_peers = %v", feed["link_peers"])
		}
		if _, ok := feed["available_power"]; ok {
			t.Error("available_power is rendered; NetBox only filters by it")
		}

		// available_power as PowerFeed.save() computes it, kept on every
		// write; _occupied follows mark_connected.
		powerIs := func(t *testing.T, want int) {
			t.Helper()
			q := fmt.Sprintf("%s?id=%d&available_power=%d", feedPath, idOf(feed), want)
			if n := len(a.Must(http.StatusOK, "GET", q, nil).Results()); n != 1 {
				t.Errorf("available_power is not %d", want)
			}
		}
		powerIs(t, 1440) // 120 V × 15 A × 80 %
		a.Must(http.StatusOK, "PATCH", f1, map[string]any{"phase": "three-phase", "voltage": 208, "amperage": 30})
		powerIs(t, 8646) // 208 × 30 × 0.8 × 1.732
		a.Must(http.StatusOK, "PATCH", f1, map[string]any{"max_utilization": 100, "mark_connected": true})
		powerIs(t, 10808) // 208 × 30 × 1.732, rounded
		dc := a.Must(http.StatusCreated, "POST", feedPath, map[string]any{"name": "F2", "power_panel": panelA, "supply": "dc",
			"voltage": -48, "amperage": 20}).Object()
		if n := len(a.Must(http.StatusOK, "GET", feedPath+"?available_power=768&supply=dc", nil).Results()); n != 1 {
			t.Errorf("a -48 V DC feed's available power is not 768 VA")
		}
		got = a.Must(http.StatusOK, "GET", f1, nil).Object()
		if got["_occupied"] != true {
			t.Errorf("a feed marked connected: _occupied %v", got["_occupied"])
		}
		if ids := a.Must(http.StatusOK, "GET", feedPath+"?occupied=true", nil).Results(); len(ids) != 1 || idOf(ids[0]) != idOf(feed) {
			t.Errorf("occupied=true: %v", ids)
		}

		// Bulk update: each row's own available power.
		a.Must(http.StatusOK, "PATCH", feedPath, []any{
			map[string]any{"id": idOf(feed), "amperage": 10},
			map[string]any{"id": idOf(dc), "amperage": 10}})
		powerIs(t, 3603) // 208 × 10 × 1.732
		if n := len(a.Must(http.StatusOK, "GET", feedPath+"?available_power=384", nil).Results()); n != 1 {
			t.Errorf("bulk update: the DC feed's available power is not 384")
		}

		// q finds a feed by its panel's name, also after a rename.
		if n := len(a.Must(http.StatusOK, "GET", feedPath+"?q=pa", nil).Results()); n != 2 {
			t.Errorf("q=pa found %d feeds", n)
		}
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", panelPath, panelA), map[string]any{"name": "Main"})
		if n := len(a.Must(http.StatusOK, "GET", feedPath+"?q=main", nil).Results()); n != 2 {
			t.Errorf("q=main found %d feeds after the panel's rename", n)
		}

		// Counts on the panel and the rack.
		panel := a.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", panelPath, panelA), nil).Object()
		rack := a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/racks/%d/", rackA), nil).Object()
		if panel["powerfeed_count"] != 2.0 || rack["powerfeed_count"] != 1.0 {
			t.Errorf("powerfeed_count: panel %v, rack %v", panel["powerfeed_count"], rack["powerfeed_count"])
		}
		brief := a.Must(http.StatusOK, "GET", fmt.Sprintf("%s?id=%d&brief=1", panelPath, panelA), nil).Results()
		if len(brief) != 1 || brief[0]["powerfeed_count"] != 2.0 {
			t.Errorf("brief panel: %v", brief)
		}

		// Deletes follow NetBox's on_delete: everything a feed or a panel
		// points at is PROTECT.
		siteC := idOf(a.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "Site C", "slug": "site-c"}).Object())
		a.Must(http.StatusCreated, "POST", panelPath, map[string]any{"name": "PC", "site": siteC})
		for _, p := range []string{
			fmt.Sprintf("%s%d/", panelPath, panelA),
			fmt.Sprintf("/api/dcim/racks/%d/", rackA),
			fmt.Sprintf("/api/dcim/locations/%d/", w.locA),
			fmt.Sprintf("/api/dcim/sites/%d/", siteC),
		} {
			a.Must(http.StatusConflict, "DELETE", p, nil)
		}
		a.Must(http.StatusNoContent, "DELETE", f1, nil)
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/dcim/racks/%d/", rackA), nil)
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", feedPath, idOf(dc)), nil)
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", panelPath, panelA), nil)
	})
}
