package server_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/inventory/inventory/server/servertest"
)

// workloadCountsFile holds the stored statement counts of the benchmark's
// workloads, per database: `make test-update` (INVENTORY_UPDATE_GOLDEN=1)
// rewrites it.
var workloadCountsFile = filepath.Join("..", "testdata", "querycounts_workloads.json")

// wlPrefixes is the seeded data set's size: enough for full pages of 10
// and 100 and for offsets and cursors at 10% and 90% depth.
const wlPrefixes = 120

// maxWarmDetail is issue 15's bound on a detail GET on a warm server: the
// object and (for a model with them) one more read; the token, the
// permissions and the custom field definitions come from the cache.
const maxWarmDetail = 2

// TestWorkloadStatements measures the SQL statements of each workload
// `make bench` runs (the same requests, on a small seeded data set of
// prefixes with a tenant, tags and a custom field), counted at the
// database driver (db.CountingStatements), on a warm server (the request
// made once before: the benchmark's steady state) and, for reads, cold
// (the cache emptied first, as after any write). It fails when a count
// grows above its stored baseline (testdata/querycounts_workloads.json),
// printing the statements; when a page's count depends on its size or
// depth (a page of 10 vs 100 objects, an offset or a cursor at 10% vs 90%);
// and when a warm detail GET takes more than maxWarmDetail statements.
// Bulk writes of 10 and 100 prefixes are pinned by their baselines only:
// the prefix hooks still cost statements per object.
func TestWorkloadStatements(t *testing.T) {
	var mu sync.Mutex
	measured := map[string]map[string]int64{}
	t.Cleanup(func() {
		if servertest.Updating() && len(measured) > 0 {
			saveWorkloadCounts(t, measured)
		}
	})
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		dbName := t.Name()[strings.LastIndex(t.Name(), "/")+1:]
		w := seedWorkloads(t, e)
		got := map[string]int64{}
		shown := map[string][]string{}
		measure := func(name string, warm bool, method, path string, body any, status int) {
			t.Helper()
			if warm {
				e.Must(status, method, path, body)
			} else {
				e.DB.Cache.Bump()
			}
			// The driver's total too: every statement of the request must
			// run under its context (none lost to a detached one); a
			// token's background last_used write is the one exception,
			// written once a minute.
			e.Server.Settle()
			total := e.DB.Statements.Load()
			var stmts []string
			start := time.Now()
			stmts = e.Record(func() { e.Must(status, method, path, body) })
			e.Server.Settle()
			if all := e.DB.Statements.Load() - total; all != int64(len(stmts)) && time.Since(w.tokenUsed) < 50*time.Second-time.Since(start) {
				t.Errorf("%s: %d statements under the request's context, %d at the driver: some ran detached from the request", name, len(stmts), all)
			}
			got[name] = int64(len(stmts))
			shown[name] = stmts
		}
		for _, wl := range w.reads {
			measure(wl.name+" warm", true, "GET", wl.path, nil, http.StatusOK)
			measure(wl.name+" cold", false, "GET", wl.path, nil, http.StatusOK)
		}
		measure("OPTIONS warm", true, "OPTIONS", "/api/ipam/prefixes/", nil, http.StatusOK)
		for _, wl := range w.writes(t) {
			measure(wl.name, false, wl.method, wl.path, wl.body, wl.status)
		}

		same := [][2]string{
			{"list 10 warm", "list 100 warm"}, {"list 10 cold", "list 100 cold"},
			{"list 10 brief warm", "list 100 brief warm"}, {"list 10 brief cold", "list 100 brief cold"},
			{"offset shallow warm", "offset deep warm"}, {"offset shallow cold", "offset deep cold"},
			{"cursor shallow warm", "cursor deep warm"}, {"cursor shallow cold", "cursor deep cold"},
		}
		for _, p := range same {
			if got[p[0]] != got[p[1]] {
				t.Errorf("%s: %d statements, %s: %d; a page must cost the same whatever its size or depth\n%s\n%s",
					p[0], got[p[0]], p[1], got[p[1]], listing(p[0], shown[p[0]]), listing(p[1], shown[p[1]]))
			}
		}
		if n := got["detail warm"]; n > maxWarmDetail {
			t.Errorf("a detail GET on a warm server: %d statements, at most %d\n%s", n, maxWarmDetail, listing("detail warm", shown["detail warm"]))
		}
		t.Logf("statements: %v", got)
		if servertest.Updating() {
			mu.Lock()
			measured[dbName] = got
			mu.Unlock()
			return
		}
		base := loadWorkloadCounts(t)[dbName]
		if base == nil {
			t.Fatalf("no statement baselines for %s in %s: run INVENTORY_UPDATE_GOLDEN=1 go test ./server/ -run TestWorkloadStatements and commit it", dbName, workloadCountsFile)
		}
		for _, k := range slices.Sorted(maps.Keys(got)) {
			b, ok := base[k]
			switch {
			case !ok:
				t.Errorf("%s: no baseline for %q on %s: run INVENTORY_UPDATE_GOLDEN=1 go test ./server/ -run TestWorkloadStatements", workloadCountsFile, k, dbName)
			case got[k] > b:
				t.Errorf("%s on %s: %d statements, baseline %d (%s); if the new statements are wanted, update it with INVENTORY_UPDATE_GOLDEN=1 go test ./server/ -run TestWorkloadStatements\n%s",
					k, dbName, got[k], b, workloadCountsFile, listing(k, shown[k]))
			case got[k] < b:
				t.Logf("%s: %d statements, below the baseline %d: INVENTORY_UPDATE_GOLDEN=1 lowers it", k, got[k], b)
			}
		}
		for k := range base {
			if _, ok := got[k]; !ok {
				t.Errorf("%s: baseline %q is no longer measured: update the file", workloadCountsFile, k)
			}
		}
	})
}

// listing shows a workload's statements, one a line.
func listing(name string, stmts []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  %s:", name)
	for i, s := range stmts {
		if len(s) > 300 {
			s = s[:300] + "..."
		}
		fmt.Fprintf(&b, "\n    %2d. %s", i+1, s)
	}
	return b.String()
}

type workload struct {
	name, method, path string
	body               any
	status             int
}

type workloadSeed struct {
	e         *servertest.Env
	ids       []int
	tenant    string
	tag       string
	tokenUsed time.Time
	reads     []workload
}

// seedWorkloads makes the data set: a site, a tenant, three tags, a text
// custom field on prefixes and wlPrefixes /24s carrying them in turn.
func seedWorkloads(t *testing.T, e *servertest.Env) *workloadSeed {
	t.Helper()
	tokenUsed := time.Now() // the admin token's last_used is written by its first request
	e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "Bench site", "slug": "bench-site"})
	e.Must(http.StatusCreated, "POST", "/api/tenancy/tenants/", map[string]any{"name": "Bench tenant", "slug": "bench-tenant"})
	var tags []any
	for i := range 3 {
		tags = append(tags, map[string]any{"name": fmt.Sprintf("Tag %d", i), "slug": fmt.Sprintf("tag-%d", i)})
	}
	e.Must(http.StatusCreated, "POST", "/api/extras/tags/", tags)
	e.Must(http.StatusCreated, "POST", "/api/extras/custom-fields/", map[string]any{
		"name": "bench_text", "type": "text", "object_types": []string{"ipam.prefix"}})
	var prefixes []any
	for i := range wlPrefixes {
		p := map[string]any{"prefix": fmt.Sprintf("10.%d.%d.0/24", i/256, i%256), "status": []string{"active", "container", "reserved"}[i%3],
			"description": fmt.Sprintf("Benchmark prefix %d", i), "tags": []any{map[string]any{"slug": fmt.Sprintf("tag-%d", i%3)}},
			"custom_fields": map[string]any{"bench_text": fmt.Sprintf("value-%d", i%10)}}
		if i%2 == 0 {
			p["tenant"] = map[string]any{"slug": "bench-tenant"}
		}
		prefixes = append(prefixes, p)
	}
	var ids []int
	for _, o := range e.Must(http.StatusCreated, "POST", "/api/ipam/prefixes/", prefixes).JSON().([]any) {
		ids = append(ids, int(o.(map[string]any)["id"].(float64)))
	}
	slices.Sort(ids)
	w := &workloadSeed{e: e, ids: ids, tenant: "bench-tenant", tag: "tag-1", tokenUsed: tokenUsed}
	const list = "/api/ipam/prefixes/"
	get := func(name, path string) { w.reads = append(w.reads, workload{name: name, path: path}) }
	get("detail", fmt.Sprintf("%s%d/", list, ids[len(ids)/2]))
	get("list 10", list+"?limit=10")
	get("list 100", list+"?limit=100")
	get("list 10 brief", list+"?limit=10&brief=1")
	get("list 100 brief", list+"?limit=100&brief=1")
	get("q", list+"?limit=10&q="+url.QueryEscape("benchmark prefix 1"))
	get("filter cf", list+"?limit=10&cf_bench_text=value-4")
	get("filter tag", list+"?limit=10&tag="+w.tag)
	get("filter status", list+"?limit=10&status=container")
	get("filter tenant", list+"?limit=10&tenant="+w.tenant)
	get("filter description__ic", list+"?limit=10&description__ic="+url.QueryEscape("PREFIX 7"))
	get("offset shallow", fmt.Sprintf("%s?limit=10&offset=%d", list, wlPrefixes/10))
	get("offset deep", fmt.Sprintf("%s?limit=10&offset=%d", list, wlPrefixes*8/10))
	get("cursor shallow", fmt.Sprintf("%s?start=%d&limit=10", list, ids[len(ids)/10]))
	get("cursor deep", fmt.Sprintf("%s?start=%d&limit=10", list, ids[len(ids)*8/10]))
	return w
}

// writes are the benchmark's writes on the seeded prefixes: a single
// PATCH, bulk PATCHes and bulk creates of 10 and 100 objects.
func (w *workloadSeed) writes(t *testing.T) []workload {
	const list = "/api/ipam/prefixes/"
	patch := func(n int) []any {
		var out []any
		for _, id := range w.ids[:n] {
			out = append(out, map[string]any{"id": id, "description": fmt.Sprintf("patched %d", n)})
		}
		return out
	}
	create := func(n, base int) []any {
		var out []any
		for i := range n {
			out = append(out, map[string]any{"prefix": fmt.Sprintf("100.%d.%d.0/24", (base+i)/256, (base+i)%256), "status": "active",
				"description": fmt.Sprintf("bulk %d", i), "custom_fields": map[string]any{"bench_text": "bulk"}})
		}
		return out
	}
	return []workload{
		{name: "PATCH", method: "PATCH", path: fmt.Sprintf("%s%d/", list, w.ids[1]), body: map[string]any{"description": "patched"}, status: http.StatusOK},
		{name: "bulk PATCH 10", method: "PATCH", path: list, body: patch(10), status: http.StatusOK},
		{name: "bulk PATCH 100", method: "PATCH", path: list, body: patch(100), status: http.StatusOK},
		{name: "bulk create 10", method: "POST", path: list, body: create(10, 0), status: http.StatusCreated},
		{name: "bulk create 100", method: "POST", path: list, body: create(100, 1000), status: http.StatusCreated},
	}
}

func loadWorkloadCounts(t *testing.T) map[string]map[string]int64 {
	t.Helper()
	out := map[string]map[string]int64{}
	raw, err := os.ReadFile(workloadCountsFile)
	if os.IsNotExist(err) {
		return out
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s: %v", workloadCountsFile, err)
	}
	return out
}

// saveWorkloadCounts writes this run's counts, keeping the databases not
// run.
func saveWorkloadCounts(t *testing.T, measured map[string]map[string]int64) {
	all := loadWorkloadCounts(t)
	maps.Copy(all, measured)
	raw, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(workloadCountsFile, append(raw, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("updated %s", workloadCountsFile)
}
