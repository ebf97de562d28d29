package server_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/inventory/inventory/server/servertest"
)

// TestDCIMWorkloadStatements: the pages of issue 37's DCIM workloads cost
// the same number of statements whatever the size of their tables, with
// the data that makes them expensive in NetBox (interfaces cabled through
// patch panels, showing link peers and connected endpoints; cables;
// devices rendering config contexts), and a trace costs the same through 2
// patch panels as through 10 (`inventory bench --scale` measures them at
// size; this guards the shape). An interface or port page's count
// depends on the kinds of link peer and endpoint on it and on what the
// read cache already holds (12 to 14 statements here for pages of 1 to
// 1000 interfaces), not on its rows: so the full page is compared with
// itself once the tables have doubled. On SQLite and PostgreSQL.
func TestDCIMWorkloadStatements(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		mk := func(path string, body map[string]any) int {
			t.Helper()
			return id(e.Must(http.StatusCreated, "POST", path, body))
		}
		site := mk("/api/dcim/sites/", map[string]any{"name": "S", "slug": "s"})
		man := mk("/api/dcim/manufacturers/", map[string]any{"name": "M", "slug": "m"})
		role := mk("/api/dcim/device-roles/", map[string]any{"name": "R", "slug": "r"})
		dt := mk("/api/dcim/device-types/", map[string]any{"manufacturer": man, "model": "T", "slug": "t"})
		for i, w := range []int{100, 200, 300} {
			data := map[string]any{fmt.Sprintf("k%d", i): i}
			body := map[string]any{"name": fmt.Sprintf("cc%d", i), "weight": w, "data": data}
			if i == 1 {
				body["roles"] = []int{role}
			}
			if i == 2 {
				body["sites"] = []int{site}
			}
			mk("/api/extras/config-contexts/", body)
		}
		n := 0
		device := func() int {
			n++
			return mk("/api/dcim/devices/", map[string]any{"name": fmt.Sprintf("d%d", n), "device_type": dt, "role": role, "site": site})
		}
		iface := func(dev int) int {
			return mk("/api/dcim/interfaces/", map[string]any{"device": dev, "name": fmt.Sprintf("if%d", n), "type": "1000base-t"})
		}
		cable := func(at string, a int, bt string, b int) {
			mk("/api/dcim/cables/", map[string]any{
				"a_terminations": []any{map[string]any{"object_type": at, "object_id": a}},
				"b_terminations": []any{map[string]any{"object_type": bt, "object_id": b}}})
		}
		// chain cables an interface through k patch panels to another:
		// into a panel by its front port, out by its rear port, rear to
		// rear, front to front, as bench_dcim.go does.
		chain := func(k int) int {
			from := iface(device())
			prevT, prev := "dcim.interface", from
			for p := 0; p < k; p++ {
				pn := device()
				rp := mk("/api/dcim/rear-ports/", map[string]any{"device": pn, "name": "R1", "type": "8p8c", "positions": 1})
				fp := mk("/api/dcim/front-ports/", map[string]any{"device": pn, "name": "F1", "type": "8p8c",
					"rear_ports": []any{map[string]any{"position": 1, "rear_port": rp, "rear_port_position": 1}}})
				inT, in, outT, out := "dcim.frontport", fp, "dcim.rearport", rp
				if p%2 == 1 {
					inT, in, outT, out = outT, out, inT, in
				}
				cable(prevT, prev, inT, in)
				prevT, prev = outT, out
			}
			cable(prevT, prev, "dcim.interface", iface(device()))
			return from
		}
		build := func() (short, long int) {
			short, long = chain(2), chain(10)
			for range 3 {
				cable("dcim.interface", iface(device()), "dcim.interface", iface(device()))
			}
			return short, long
		}
		// Cached reads must not expire between the warm request and the
		// counted one however slow the machine (CI).
		e.DB.Cache.SetTTL(time.Hour)
		count := func(path string) int {
			t.Helper()
			// Warm: the caches are the steady state. A token's background
			// last_used write (at most once a minute: again when the test
			// has run that long) bumps the cache when it lands; so warm,
			// let it land, and warm again, which writes nothing more.
			for range 2 {
				e.Must(http.StatusOK, "GET", path, nil)
				e.Server.Settle()
			}
			return len(e.Record(func() { e.Must(http.StatusOK, "GET", path, nil) }))
		}
		short, long := build()
		if s, l := count(fmt.Sprintf("/api/dcim/interfaces/%d/trace/", short)), count(fmt.Sprintf("/api/dcim/interfaces/%d/trace/", long)); s != l {
			t.Errorf("trace: %d statements through 2 patch panels, %d through 10", s, l)
		}
		// A full page (all kinds of link peer and endpoint on it), then
		// the same page once the tables have doubled: the same statements.
		pages := []string{"/api/dcim/interfaces/?limit=1000", "/api/dcim/interfaces/?limit=1000&brief=1",
			"/api/dcim/cables/?limit=1000", "/api/dcim/front-ports/?limit=1000", "/api/dcim/rear-ports/?limit=1000",
			"/api/dcim/devices/?limit=1000", "/api/dcim/devices/?limit=1000&exclude=config_context"}
		before := map[string]int{}
		for _, p := range pages {
			before[p] = count(p)
		}
		build()
		for _, p := range pages {
			if got := count(p); got != before[p] {
				t.Errorf("%s: %d statements, %d once the tables doubled", p, before[p], got)
			}
		}
		// Pages of one row and of all: the same for these (one kind of
		// related object whatever the rows).
		for _, p := range []string{"/api/dcim/cables/?limit=", "/api/dcim/devices/?limit=", "/api/dcim/devices/?exclude=config_context&limit="} {
			if one, all := count(p+"1"), count(p+"1000"); one != all {
				t.Errorf("%s: %d statements for 1 row, %d for all", p, one, all)
			}
		}
	})
}
