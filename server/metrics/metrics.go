package metrics

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"errors"
	"net/http"
	"net/netip"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/inventory/inventory/server/auth"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Sources are what the metrics read besides the requests they observe.
type Sources struct {
	// Read and Write are the database pools (their stats are exported as
	// go_sql_* with db="read"/"write"; SQLite's writer is one connection).
	Read, Write *sql.DB
	// ChangesWritten counts the change records this process wrote.
	ChangesWritten func() float64
	// Cache reads the read cache's counters (optional).
	Cache func() CacheStats
	// ListsShared counts list requests answered with an identical
	// request's build (server/coalesce.go; optional).
	ListsShared func() float64
	// Build is exported as inventory_build_info.
	Build Build
	// Reads, set when hot standbys serve reads, exports their routing
	// (standbys.go).
	Reads func() ReadRouting
}

// CacheStats are the read cache's counters since the process started.
type CacheStats struct{ Hits, Misses, Invalidations uint64 }

// Build identifies the running binary: its release ("devel" for a build
// from a work tree), the commit it was built from (with "-dirty" for
// uncommitted changes; "unknown" without version control information),
// and the Go version.
type Build struct{ Version, Commit, GoVersion string }

// ReadBuild reads the running binary's Build from its build information:
// release if given (set at link time), else the module version go install
// records ("devel" for a build from a work tree).
func ReadBuild(release string) Build {
	b := Build{Version: release, Commit: "unknown", GoVersion: runtime.Version()}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		if b.Version == "" {
			b.Version = "devel"
		}
		return b
	}
	if b.Version == "" {
		b.Version = info.Main.Version
		if b.Version == "" || b.Version == "(devel)" {
			b.Version = "devel"
		}
	}
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Commit = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if dirty && b.Commit != "unknown" {
		b.Commit += "-dirty"
	}
	return b
}

// Metrics is one server's registry and its request instruments.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
}

// New builds the registry over src.
func New(src Sources) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "inventory_http_requests_total",
			Help: "HTTP requests by method, route pattern and status code.",
		}, []string{"method", "route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "inventory_http_request_duration_seconds",
			Help:    "HTTP request latency by method and route pattern.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"method", "route"}),
	}
	m.reg.MustRegister(m.requests, m.latency,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if src.Read != nil {
		m.reg.MustRegister(collectors.NewDBStatsCollector(src.Read, "read"))
	}
	if src.Write != nil && src.Write != src.Read {
		m.reg.MustRegister(collectors.NewDBStatsCollector(src.Write, "write"))
	}
	if src.ChangesWritten != nil {
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "inventory_changelog_records_written_total",
			Help: "Change records written by this process.",
		}, src.ChangesWritten))
	}
	if src.ListsShared != nil {
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "inventory_list_requests_shared_total",
			Help: "List requests answered with the page an identical request in progress was building.",
		}, src.ListsShared))
	}
	if src.Read != nil {
		m.reg.MustRegister(&queueCollector{db: src.Read})
	}
	if src.Cache != nil {
		for _, c := range []struct {
			name, help string
			of         func(CacheStats) uint64
		}{
			{"inventory_cache_hits_total", "Reads answered from the read cache (tokens, permissions, counts, custom field definitions).", func(s CacheStats) uint64 { return s.Hits }},
			{"inventory_cache_misses_total", "Reads the read cache could not answer.", func(s CacheStats) uint64 { return s.Misses }},
			{"inventory_cache_invalidations_total", "Times the read cache was emptied by a write (of this or another replica).", func(s CacheStats) uint64 { return s.Invalidations }},
		} {
			m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: c.name, Help: c.help},
				func() float64 { return float64(c.of(src.Cache())) }))
		}
	}
	if src.Reads != nil {
		m.reg.MustRegister(routingCollector{src.Reads})
	}
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name:        "inventory_build_info",
		Help:        "The running binary: release, commit and Go version (always 1).",
		ConstLabels: prometheus.Labels{"version": src.Build.Version, "commit": src.Build.Commit, "goversion": src.Build.GoVersion},
	}, func() float64 { return 1 }))
	return m
}

// Observe records one finished request. route is the pattern that served
// it ("/api/dcim/sites/:id/"), never the raw path, so that the label set
// stays bounded; unmatched requests share one label.
func (m *Metrics) Observe(method, route string, status int, d time.Duration) {
	if route == "" {
		route = "unmatched"
	}
	m.requests.WithLabelValues(method, route, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(method, route).Observe(d.Seconds())
}

// Handler serves the registry in Prometheus' text format behind g.
func (m *Metrics) Handler(g Guard) http.Handler {
	h := promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.Allows(r) {
			http.Error(w, "Forbidden", http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// Guard decides who may read the metrics: a request bearing Token
// ("Authorization: Bearer <token>") when one is set, else a peer address
// in Allow. The peer is the connection's address; forwarded-for headers
// are not trusted here.
type Guard struct {
	Token string
	Allow []netip.Prefix
}

// DefaultAllow is the allow-list when none is configured: this host only.
var DefaultAllow = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

// Allows reports whether r may read the metrics.
func (g Guard) Allows(r *http.Request) bool {
	if g.Token != "" {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		return ok && subtle.ConstantTimeCompare([]byte(got), []byte(g.Token)) == 1
	}
	// The peer only: forwarded-for headers are not trusted here. An empty
	// list refuses everyone (auth.Allowed would admit everyone).
	a, err := auth.ClientIP(r, nil)
	return err == nil && len(g.Allow) > 0 && auth.Allowed(a, g.Allow)
}

// queueCollector reads the webhook queue from the database at scrape time:
// deliveries and their attempts by state, and the age of the oldest event
// not yet dispatched (0 when none waits).
type queueCollector struct{ db *sql.DB }

var (
	deliveriesDesc = prometheus.NewDesc("inventory_webhook_deliveries",
		"Webhook deliveries in the database by state.", []string{"state"}, nil)
	attemptsDesc = prometheus.NewDesc("inventory_webhook_delivery_attempts",
		"Delivery attempts made, summed over the deliveries in each state.", []string{"state"}, nil)
	lagDesc = prometheus.NewDesc("inventory_outbox_lag_seconds",
		"Age of the oldest change event not yet dispatched to event rules.", nil, nil)
	scrapeErrDesc = prometheus.NewDesc("inventory_metrics_query_errors",
		"1 when reading the webhook queue for this scrape failed.", nil, nil)
)

func (q *queueCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- deliveriesDesc
	ch <- attemptsDesc
	ch <- lagDesc
	ch <- scrapeErrDesc
}

func (q *queueCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	failed := 0.0
	if err := q.deliveries(ctx, ch); err != nil {
		failed = 1
	}
	// The first pending event by id (the index on dispatched, id), not
	// MIN(created): SQLite's driver reads a time only from a column
	// declared as one.
	var oldest time.Time
	err := q.db.QueryRowContext(ctx, `SELECT created FROM core_outboxevent WHERE dispatched IS NULL ORDER BY id LIMIT 1`).Scan(&oldest)
	switch {
	case err == nil:
		ch <- prometheus.MustNewConstMetric(lagDesc, prometheus.GaugeValue, max(time.Since(oldest).Seconds(), 0))
	case errors.Is(err, sql.ErrNoRows):
		ch <- prometheus.MustNewConstMetric(lagDesc, prometheus.GaugeValue, 0)
	default:
		failed = 1
	}
	ch <- prometheus.MustNewConstMetric(scrapeErrDesc, prometheus.GaugeValue, failed)
}

// deliveryStates are always reported, 0 when empty, so that alerts on a
// state see a series before its first delivery.
var deliveryStates = []string{"queued", "scheduled", "started", "finished", "failed"}

func (q *queueCollector) deliveries(ctx context.Context, ch chan<- prometheus.Metric) error {
	rows, err := q.db.QueryContext(ctx, `SELECT status, COUNT(*), COALESCE(SUM(attempts), 0) FROM core_delivery GROUP BY status`)
	if err != nil {
		return err
	}
	defer rows.Close()
	counts, attempts := map[string]float64{}, map[string]float64{}
	for rows.Next() {
		var state string
		var n, a int64
		if err := rows.Scan(&state, &n, &a); err != nil {
			return err
		}
		counts[state], attempts[state] = float64(n), float64(a)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, s := range deliveryStates {
		ch <- prometheus.MustNewConstMetric(deliveriesDesc, prometheus.GaugeValue, counts[s], s)
		ch <- prometheus.MustNewConstMetric(attemptsDesc, prometheus.GaugeValue, attempts[s], s)
	}
	return nil
}
