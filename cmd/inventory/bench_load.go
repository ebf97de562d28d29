package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// searchBase is the scenario issue 15's searches are measured against.
const searchBase = "filter tenant_id (indexed equality, a full page)"

// benchReq is one request of a scenario.
type benchReq struct {
	method, path string
	body         []byte
}

// benchTarget is a goal from the issue, checked against a result.
type benchTarget struct {
	text  string
	check func(r *benchResult) bool
	note  func() string // what was measured, printed after the verdict (optional)
}

type benchScenario struct {
	name    string
	clients int
	maxReqs int // 0: bounded by duration only
	warm    bool
	next    func(rng *rand.Rand, n int64) benchReq
	target  *benchTarget
	// seen receives the body of every successful answer (optional; called
	// from the clients' goroutines).
	seen func(body []byte)
	// ceiling: the scenario shows the generator's ceiling (its req/s per
	// core of generator CPU is printed).
	ceiling bool
	// sharedPages: the server shares list pages among identical requests
	// (its default, server/coalesce.go); off for the other scenarios, whose
	// figures are each request's own cost.
	sharedPages bool
	// prepare (optional) makes an untimed request before each timed one
	// (a write, so that the timed one finds no cached result); its
	// statements are not counted.
	prepare func(n int64) benchReq
	// ownSequence: next's n counts each client's own requests (from 1), so
	// that every client walks the same sequence (a client paging through
	// a list), instead of all clients sharing one count.
	ownSequence bool
}

type benchResult struct {
	name             string
	clients          int
	requests, errors int
	elapsed          time.Duration
	lat              []time.Duration // sorted
	rows             int             // objects in the first response
	stmts            float64         // SQL statements per measured request
	firstErr         string
	// cpu is the process's CPU time over the measured phase, gen the
	// generator's share of it (bench_cpu.go; -1: not measured, when
	// --cpuprofile holds the profiler), peak the process's peak memory.
	cpu  time.Duration
	gen  time.Duration
	peak uint64
	// rss is the process's resident set high-water mark over the
	// measured phase (0: /proc cannot reset it).
	rss uint64
	// live is the heap the process holds when the scenario starts, after
	// a collection (caches, the server's state): the floor under peak.
	live uint64
}

// cores is CPU time per wall time (1 = one core busy throughout).
func (r *benchResult) cores(d time.Duration) float64 {
	if r.elapsed <= 0 || d < 0 {
		return -1
	}
	return d.Seconds() / r.elapsed.Seconds()
}

func (r *benchResult) rps() float64 {
	if r.elapsed <= 0 {
		return 0
	}
	return float64(r.requests) / r.elapsed.Seconds()
}

func (r *benchResult) pct(p float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	i := int(float64(len(r.lat))*p+0.999999) - 1
	return r.lat[max(0, min(i, len(r.lat)-1))]
}

type loader struct {
	base, auth string
	// statements is the number of SQL statements the server has sent so
	// far (db.DB.Statements, counted at the database driver: every
	// statement of every pool, background writes such as a token's
	// last_used included); "stmts" is its growth per request of a
	// scenario.
	statements func() int64
	// untimed counts the statements of scenarios' prepare requests.
	untimed atomic.Int64
	// sharePages switches the server's list page sharing (nil: not ours).
	sharePages func(bool)
	o          *benchOptions
	client     *http.Client
	bulkSeq    atomic.Int64
	deviceSeq  atomic.Int64
	cableSeq   atomic.Int64
}

func newLoader(base, auth string, o *benchOptions) *loader {
	// Enough idle connections for the widest scenario (100 clients):
	// a connection closed after each request would measure dialling.
	idle := max(4*o.clients, 128)
	tr := &http.Transport{
		MaxIdleConns:        idle,
		MaxIdleConnsPerHost: idle,
		IdleConnTimeout:     time.Minute,
		DisableCompression:  true,
	}
	return &loader{base: base, auth: auth, o: o, client: &http.Client{Transport: tr, Timeout: time.Minute}}
}

func (l *loader) do(ctx context.Context, q benchReq) (int, []byte, error) {
	return l.doBody(ctx, q, true)
}

// doBody sends q; keep false discards a successful answer's body as it
// is read instead of holding it (the measured requests of a scenario
// without a seen hook): the generator's memory then stays out of the
// process's peak, and a page of 1000 costs it no garbage.
func (l *loader) doBody(ctx context.Context, q benchReq, keep bool) (int, []byte, error) {
	var body io.Reader
	if q.body != nil {
		body = bytes.NewReader(q.body)
	}
	req, err := http.NewRequestWithContext(ctx, q.method, l.base+q.path, body)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", l.auth)
	req.Header.Set("Accept", "application/json")
	if q.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := l.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	if !keep && resp.StatusCode < 300 {
		return resp.StatusCode, nil, discard(resp.Body)
	}
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// discardBuffers are the generator's read buffers: large, so that a page
// of a megabyte is read in a few system calls (io.Discard reads 8 KB at a
// time: over a hundred calls a page, which made the generator spend more
// CPU on the 100-client paging than the server did).
var discardBuffers = sync.Pool{New: func() any { return new([256 << 10]byte) }}

// discard reads r to its end, keeping nothing.
func discard(r io.Reader) error {
	buf := discardBuffers.Get().(*[256 << 10]byte)
	defer discardBuffers.Put(buf)
	for {
		if _, err := r.Read(buf[:]); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// runScenario drives one scenario with its clients until the duration (or
// the request bound) is reached.
func (l *loader) runScenario(ctx context.Context, sc *benchScenario) *benchResult {
	res := &benchResult{name: sc.name, clients: sc.clients, rows: -1}
	if l.sharePages != nil {
		l.sharePages(sc.sharedPages)
	}
	// The first request is checked (and its objects counted) unmeasured.
	if st, b, err := l.do(ctx, sc.next(rand.New(rand.NewPCG(0, 0)), 0)); err != nil || st >= 300 {
		res.firstErr = describeFailure(st, b, err)
	} else {
		res.rows = countObjects(b)
		if sc.seen != nil {
			sc.seen(b)
		}
	}
	if sc.warm && l.o.warmup > 0 {
		l.drive(ctx, sc, l.o.warmup, nil)
	}
	var mu sync.Mutex
	// Garbage of the seeding or the previous scenario is not this one's.
	// Two collections: the first only moves sync.Pools' contents (the
	// server's list buffers) to their victim caches, the second frees them.
	runtime.GC()
	debug.FreeOSMemory()
	res.live = liveHeap()
	rssReset := resetPeakRSS()
	mem := startMemPeak()
	var prof bytes.Buffer
	profiling := l.o.cpuProfile == "" && pprof.StartCPUProfile(&prof) == nil
	before := l.statements() - l.untimed.Load()
	cpu0 := processCPU()
	t0 := time.Now()
	l.drive(ctx, sc, l.o.duration, func(lat []time.Duration, errs int, firstErr string) {
		mu.Lock()
		defer mu.Unlock()
		res.lat = append(res.lat, lat...)
		res.errors += errs
		if res.firstErr == "" {
			res.firstErr = firstErr
		}
	})
	res.elapsed = time.Since(t0)
	res.cpu = processCPU() - cpu0
	res.gen = -1
	if profiling {
		pprof.StopCPUProfile()
		if client, all, err := labelledCPU(prof.Bytes()); err == nil && all > 0 {
			res.gen = time.Duration(float64(res.cpu) * float64(client) / float64(all))
		}
	}
	res.peak = mem.end()
	if rssReset {
		res.rss = peakRSS()
	}
	res.requests = len(res.lat)
	res.stmts = float64(l.statements()-l.untimed.Load()-before) / float64(max(1, res.requests+res.errors))
	sort.Slice(res.lat, func(i, j int) bool { return res.lat[i] < res.lat[j] })
	return res
}

// drive runs the clients for d; report (when non-nil) receives each
// client's latencies of successful requests.
func (l *loader) drive(ctx context.Context, sc *benchScenario, d time.Duration, report func([]time.Duration, int, string)) {
	// Requests in flight at the deadline finish (and count): cutting
	// them off would only make the server log cancelled requests.
	deadline := time.Now().Add(d)
	var issued atomic.Int64
	var wg sync.WaitGroup
	for c := 0; c < sc.clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(c)+1, uint64(time.Now().UnixNano())))
			var lat []time.Duration
			errs, firstErr := 0, ""
			for own := int64(1); time.Now().Before(deadline); own++ {
				n := issued.Add(1)
				if sc.maxReqs > 0 && n > int64(sc.maxReqs) {
					break
				}
				if sc.ownSequence {
					n = own
				}
				if sc.prepare != nil {
					s0 := l.statements()
					if st, b, err := l.do(ctx, sc.prepare(n)); err != nil || st >= 300 {
						errs++
						if firstErr == "" {
							firstErr = "before the request: " + describeFailure(st, b, err)
						}
						continue
					}
					l.untimed.Add(l.statements() - s0)
				}
				q := sc.next(rng, n)
				t := time.Now()
				st, b, err := l.doBody(ctx, q, sc.seen != nil)
				el := time.Since(t)
				if ctx.Err() != nil {
					return // interrupted
				}
				if err != nil || st >= 300 {
					errs++
					if firstErr == "" {
						firstErr = describeFailure(st, b, err)
					}
					continue
				}
				lat = append(lat, el)
				if sc.seen != nil {
					sc.seen(b)
				}
			}
			if report != nil {
				report(lat, errs, firstErr)
			}
		}(c)
	}
	wg.Wait()
}

func describeFailure(status int, body []byte, err error) string {
	if err != nil {
		return err.Error()
	}
	s := string(body)
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return fmt.Sprintf("HTTP %d: %s", status, s)
}

// countObjects counts the objects of a list or bulk response (1 for a
// single object).
func countObjects(b []byte) int {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return -1
	}
	switch x := v.(type) {
	case []any:
		return len(x)
	case map[string]any:
		if r, ok := x["results"].([]any); ok {
			return len(r)
		}
		return 1
	}
	return -1
}

func pick(rng *rand.Rand, ids []int) int { return ids[rng.IntN(len(ids))] }

// scenarios are the measurements the issue asks for, on the biggest
// seeded table (prefixes; sites when the build has no prefix model).
func (l *loader) scenarios(s *benchSeed) []*benchScenario {
	C := l.o.clients
	model, ids := "/api/dcim/sites/", s.sites
	if s.hasPrefix && len(s.prefixes) > 0 {
		model, ids = "/api/ipam/prefixes/", s.prefixes
	}
	get := func(path string) func(*rand.Rand, int64) benchReq {
		return func(*rand.Rand, int64) benchReq { return benchReq{method: "GET", path: path} }
	}
	rps := func(min float64) *benchTarget {
		return &benchTarget{text: fmt.Sprintf(">= %.0f req/s", min), check: func(r *benchResult) bool { return r.rps() >= min }}
	}
	p50 := func(max time.Duration) *benchTarget {
		return &benchTarget{text: fmt.Sprintf("p50 <= %s", max), check: func(r *benchResult) bool { return r.pct(0.5) <= max }}
	}
	tag := s.tagSlugs[len(s.tagSlugs)/2]
	deep := ids[len(ids)*9/10]
	out := []*benchScenario{
		{name: "detail GET", clients: C, warm: true, target: rps(8000), next: func(rng *rand.Rand, _ int64) benchReq {
			return benchReq{method: "GET", path: fmt.Sprintf("%s%d/", model, pick(rng, ids))}
		}},
		{name: "list 50 complete", clients: C, warm: true, target: rps(1500), next: get(model + "?limit=50")},
		{name: "list 50 brief", clients: C, warm: true, next: get(model + "?limit=50&brief=1")},
		{name: "list 1000 complete", clients: C, warm: true, next: get(model + "?limit=1000")},
		{name: "list 1000 complete, 1 client", clients: 1, warm: true, target: p50(40 * time.Millisecond), next: get(model + "?limit=1000")},
		// Issue 15: searches and string lookups against an equality filter
		// on an indexed column (the prefixes' cached site), and an offset
		// page at 90% against the first.
		{name: "filter site_id (indexed equality)", clients: C, warm: true, next: get(fmt.Sprintf("%s?limit=50&site_id=%d", model, s.sites[min(4, len(s.sites)-1)]))},
	}
	// The searches' measure: an indexed equality filter whose answer is a
	// full page, as theirs are (a site holds a few prefixes; a tenant,
	// about 1,000).
	if len(s.tenants) > 0 && s.hasPrefix {
		out = append(out, &benchScenario{name: searchBase, clients: C, warm: true,
			next: get(fmt.Sprintf("%s?limit=50&tenant_id=%d", model, s.tenants[7]))})
	}
	out = append(out, []*benchScenario{
		{name: "filter name__ic (VLANs)", clients: C, warm: true, next: get("/api/ipam/vlans/?limit=50&name__ic=n-0012")},
		{name: "filter tag", clients: C, warm: true, next: get(model + "?limit=50&tag=" + tag)},
		{name: "filter cf_" + benchCF, clients: C, warm: true, next: get(model + "?limit=50&cf_" + benchCF + "=value-42")},
		{name: "filter cf_" + benchCFInt, clients: C, warm: true, next: get(model + "?limit=50&cf_" + benchCFInt + "=42")},
		{name: "filter name__ic+tag+cf_ (sites)", clients: C, warm: true, next: get("/api/dcim/sites/?limit=50&name__ic=site%200&tag=" + tag + "&cf_" + benchCF + "=value-4")},
		{name: "q", clients: C, warm: true, next: get(model + "?limit=50&q=" + url.QueryEscape("benchmark prefix 1234"))},
		{name: "filter description__ic", clients: C, warm: true, next: get(model + "?limit=50&description__ic=" + url.QueryEscape("PREFIX 777"))},
		{name: "filter description__isw", clients: C, warm: true, next: get(model + "?limit=50&description__isw=" + url.QueryEscape("Benchmark prefix 4321"))},
		{name: "filter description__iew", clients: C, warm: true, next: get(model + "?limit=50&description__iew=" + url.QueryEscape("PREFIX 4321"))},
		{name: "filter description__ie", clients: C, warm: true, next: get(model + "?limit=50&description__ie=" + url.QueryEscape("Benchmark PREFIX 4321"))},
		{name: "filter description__nic (a negation: no index)", clients: C, warm: true, next: get(model + "?limit=50&description__nic=" + url.QueryEscape("prefix 1"))},
		{name: "filter status", clients: C, warm: true, next: get(model + "?limit=50&status=container")},
		{name: "offset first page", clients: C, warm: true, next: get(model + "?limit=50")},
		{name: "offset deep page (90%)", clients: C, warm: true, next: get(fmt.Sprintf("%s?limit=50&offset=%d", model, len(ids)*9/10))},
		{name: "OPTIONS", clients: C, warm: true, next: func(*rand.Rand, int64) benchReq { return benchReq{method: "OPTIONS", path: model} }},
		{name: "single PATCH", clients: 1, next: func(rng *rand.Rand, n int64) benchReq {
			return benchReq{method: "PATCH", path: fmt.Sprintf("%s%d/", model, pick(rng, ids)), body: fmt.Appendf(nil, `{"description":"patched %d"}`, n)}
		}},
		{name: "cursor first page", clients: C, warm: true, next: get(model + "?start=0&limit=50")},
		{name: "cursor deep page (90%)", clients: C, warm: true, next: get(fmt.Sprintf("%s?start=%d&limit=50", model, deep))},
	}...)
	if len(s.devices) > 0 {
		out = append(out,
			&benchScenario{name: "list 50 devices with config contexts", clients: C, warm: true, next: get("/api/dcim/devices/?limit=50")},
			&benchScenario{name: "list 50 devices, exclude=config_context", clients: C, warm: true, next: get("/api/dcim/devices/?limit=50&exclude=config_context")},
			&benchScenario{name: "list 1000 devices with config contexts, 1 client", clients: 1, warm: true, next: get("/api/dcim/devices/?limit=1000")})
	}
	if len(s.vms) > 0 {
		out = append(out, &benchScenario{name: "list 50 VMs complete", clients: C, warm: true, next: get("/api/virtualization/virtual-machines/?limit=50")})
	}
	if s.interfaces >= 1000 {
		out = append(out, &benchScenario{name: "list 1000 interfaces complete", clients: C, warm: true, next: get("/api/dcim/interfaces/?limit=1000")})
	}
	if s.hasPrefix && len(s.prefixes) > 0 {
		out = append(out,
			&benchScenario{name: "bulk create 1000 prefixes", clients: 1, maxReqs: l.o.bulkMax, target: p50(time.Second), next: l.bulkCreate},
			&benchScenario{name: "bulk PATCH 1000 prefixes", clients: 1, maxReqs: l.o.bulkMax, next: func(rng *rand.Rand, n int64) benchReq {
				return bulkPatch(rng, n, model, s.prefixes)
			}},
		)
	} else {
		out = append(out, &benchScenario{name: "bulk PATCH 1000 sites", clients: 1, maxReqs: l.o.bulkMax, next: func(rng *rand.Rand, n int64) benchReq {
			return bulkPatch(rng, n, model, s.sites)
		}})
	}
	out = append(out, l.ipScenarios(s)...)
	out = append(out, l.allocScenarios(s.alloc)...)
	out = append(out, l.cableScenarios(s.cables)...)
	if s.deviceType != 0 {
		out = append(out, &benchScenario{name: fmt.Sprintf("create 100 devices (%d+2 templates)", benchTemplates), clients: 1,
			maxReqs: l.o.bulkMax, next: func(_ *rand.Rand, _ int64) benchReq { return l.deviceCreate(s) }})
	}
	return out
}

// deviceCreate posts 100 new devices of the seeded device type in one
// bulk request: each gets benchTemplates components from the templates.
func (l *loader) deviceCreate(s *benchSeed) benchReq {
	k := int(l.deviceSeq.Add(1) - 1)
	var b bytes.Buffer
	b.WriteByte('[')
	for j := 0; j < 100; j++ {
		if j > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"bench-%d-%d","device_type":%d,"role":%d,"site":%d,"status":"active"}`,
			k, j, s.deviceType, s.deviceRole, s.sites[0])
	}
	b.WriteByte(']')
	return benchReq{method: "POST", path: "/api/dcim/devices/", body: b.Bytes()}
}

// bulkCreate posts 1000 new /24s from 100.0.0.0 upwards, fresh ones on
// every request (including the unmeasured check).
func (l *loader) bulkCreate(_ *rand.Rand, _ int64) benchReq {
	k := int(l.bulkSeq.Add(1) - 1)
	var b bytes.Buffer
	b.WriteByte('[')
	for j := 0; j < 1000; j++ {
		i := k*1000 + j
		if j > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"prefix":"%d.%d.%d.0/24","status":"active","description":"bulk %d","custom_fields":{"%s":"bulk"}}`,
			100+i/65536, (i/256)%256, i%256, i, benchCF)
	}
	b.WriteByte(']')
	return benchReq{method: "POST", path: "/api/ipam/prefixes/", body: b.Bytes()}
}

// bulkPatch changes the description of 1000 consecutive seeded objects.
func bulkPatch(rng *rand.Rand, n int64, model string, ids []int) benchReq {
	lo := 0
	if len(ids) > 1000 {
		lo = rng.IntN(len(ids) - 1000)
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for j, id := range ids[lo:min(lo+1000, len(ids))] {
		if j > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"description":"patched %d"}`, id, n)
	}
	b.WriteByte(']')
	return benchReq{method: "PATCH", path: model, body: b.Bytes()}
}

func (l *loader) run(ctx context.Context, s *benchSeed) error {
	_, err := l.runAll(ctx, s)
	return err
}

// benchRun is the results of a run, by scenario, and the scenarios'
// order.
type benchRun struct {
	results map[string]*benchResult
	order   []string
}

// runAll runs the chosen scenarios and prints a line for each. Everything
// the generator does carries the label its CPU is told apart by
// (bench_cpu.go).
func (l *loader) runAll(ctx context.Context, s *benchSeed) (run *benchRun, err error) {
	pprof.Do(ctx, pprof.Labels("bench", clientLabel), func(ctx context.Context) { run, err = l.runLabelled(ctx, s) })
	return run, err
}

func (l *loader) runLabelled(ctx context.Context, s *benchSeed) (*benchRun, error) {
	var only []string
	for _, w := range strings.Split(l.o.only, ",") {
		if w = strings.TrimSpace(w); w != "" {
			only = append(only, strings.ToLower(w))
		}
	}
	fmt.Printf("cpu:       process CPU per wall second over the measured phase (2 = two cores busy); gen: the load generator's share of it (profiler labels); liveMB: the live heap at the scenario's start (after a collection); peakMB: the process's peak Go memory, the generator's included; rssMB: the process's peak resident set over the measured phase\n")
	fmt.Printf("%-48s %7s %8s %9s %9s %9s %6s %6s %5s %5s %6s %6s %6s  %s\n", "scenario", "clients", "requests", "req/s", "p50", "p99", "rows", "stmts", "cpu", "gen", "liveMB", "peakMB", "rssMB", "target")
	seedRSS := peakRSS()
	var loadRSS uint64
	results := map[string]*benchResult{}
	run := &benchRun{results: results}
	failed := 0
	list := l.scenarios
	if s.dcim != nil {
		list = l.dcimScenarios
	}
	for _, sc := range list(s) {
		if len(only) > 0 && !containsAny(strings.ToLower(sc.name), only) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r := l.runScenario(ctx, sc)
		results[sc.name] = r
		run.order = append(run.order, sc.name)
		target := ""
		if sc.target != nil {
			target = sc.target.text + "  " + passMiss(sc.target.check(r))
			if sc.target.note != nil {
				target += " " + sc.target.note()
			}
		}
		if sc.name == "cursor deep page (90%)" {
			if first := results["cursor first page"]; first != nil && first.requests > 0 {
				ratio := float64(r.pct(0.5)) / float64(first.pct(0.5))
				target = fmt.Sprintf("p50 within 20%% of first page (%.2fx)  %s", ratio, passMiss(ratio <= 1.2))
			}
		}
		// Issue 15's bounds: an offset page at depth within 2x of the
		// first, searches within 3x of an equality filter on an index.
		ratioTo := func(base string, bound float64) {
			if b := results[base]; b != nil && b.requests > 0 && r.requests > 0 {
				ratio := float64(r.pct(0.5)) / float64(b.pct(0.5))
				target = fmt.Sprintf("p50 within %gx of %s (%.2fx)  %s", bound, base, ratio, passMiss(ratio <= bound))
			}
		}
		switch {
		case sc.name == "offset deep page (90%)":
			ratioTo("offset first page", 2)
		case sc.name == "q" || strings.HasPrefix(sc.name, "filter description__") || strings.HasPrefix(sc.name, "filter cf_"):
			if results[searchBase] != nil {
				ratioTo(searchBase, 3)
			} else {
				ratioTo("filter site_id (indexed equality)", 3)
			}
		}
		if sc.ceiling && r.gen > 0 {
			target = fmt.Sprintf("generator alone: %.0f req/s per core", float64(r.requests)/r.gen.Seconds())
		}
		loadRSS = max(loadRSS, r.rss)
		fmt.Printf("%-48s %7d %8d %9.1f %9s %9s %6s %6.1f %5s %5s %6.0f %6.0f %6.0f  %s\n", r.name, r.clients, r.requests, r.rps(),
			fmtDur(r.pct(0.5)), fmtDur(r.pct(0.99)), fmtRows(r.rows), r.stmts, fmtCores(r.cores(r.cpu)), fmtCores(r.cores(r.gen)),
			float64(r.live)/(1<<20), float64(r.peak)/(1<<20), float64(r.rss)/(1<<20), target)
		if r.errors > 0 || r.firstErr != "" {
			failed++
			fmt.Printf("  ! %d failed requests; first: %s\n", r.errors, r.firstErr)
		}
	}
	if loadRSS > 0 {
		fmt.Printf("\npeak RSS:  %.0f MB seeding, %.0f MB the workloads (the largest of the scenarios' measured phases)\n", float64(seedRSS)/(1<<20), float64(loadRSS)/(1<<20))
	} else if hwm := peakRSS(); hwm > 0 {
		fmt.Printf("\npeak RSS:  %.0f MB (the whole run, seeding included)\n", float64(hwm)/(1<<20))
	}
	if failed > 0 {
		return run, fmt.Errorf("bench: %d scenarios had failed requests", failed)
	}
	return run, nil
}

func fmtCores(c float64) string {
	if c < 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", c)
}

func containsAny(s string, subs []string) bool {
	for _, w := range subs {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

func passMiss(ok bool) string {
	if ok {
		return "PASS"
	}
	return "MISS"
}

func fmtRows(n int) string {
	if n < 0 {
		return "-"
	}
	return fmt.Sprint(n)
}

func fmtDur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2fs", d.Seconds())
	case d >= 10*time.Millisecond:
		return fmt.Sprintf("%.1fms", float64(d)/1e6)
	default:
		return fmt.Sprintf("%.2fms", float64(d)/1e6)
	}
}
