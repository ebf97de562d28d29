package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/auth"
	"github.com/inventory/inventory/server/metrics"
	"github.com/inventory/inventory/server/servertest"
)

// lockedBuffer is an access log sink safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Split(strings.TrimSpace(l.b.String()), "\n")
}

// metricValue reads one sample of a Prometheus text exposition (-1 when
// absent).
func metricValue(text, series string) float64 {
	for _, line := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(line, series+" "); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			if err == nil {
				return v
			}
		}
	}
	return -1
}

// TestMetrics: GET /metrics serves Prometheus text to a holder of the
// metrics token (no API token needed, an API token is not enough);
// request counts by route pattern, change records written, the webhook
// queue by state, the outbox lag and the Go runtime move as requests and
// writes happen; every request writes one access-log line.
func TestMetrics(t *testing.T) {
	var log *lockedBuffer
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		scrape := func() string {
			t.Helper()
			r := e.Anonymous().Must(http.StatusOK, "GET", "/metrics", nil, "Authorization: Bearer scrape-me")
			if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
				t.Errorf("content type %q", ct)
			}
			return string(r.Body)
		}
		a := e.Admin()
		sites := `inventory_http_requests_total{method="GET",route="/api/dcim/sites/",status="200"}`
		detail := `inventory_http_requests_total{method="GET",route="/api/dcim/sites/:id/",status="404"}`
		before := scrape()
		a.Must(http.StatusOK, "GET", "/api/dcim/sites/", nil)
		a.Must(http.StatusOK, "GET", "/api/dcim/sites/?limit=1", nil)
		a.Must(http.StatusNotFound, "GET", "/api/dcim/sites/999/", nil)
		a.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "S", "slug": "s"})
		after := scrape()
		if got := metricValue(after, sites) - max(metricValue(before, sites), 0); got != 2 {
			t.Errorf("%s grew by %v, want 2", sites, got)
		}
		if got := metricValue(after, detail); got != 1 {
			t.Errorf("%s = %v, want 1 (the route pattern, not the path)", detail, got)
		}
		written := "inventory_changelog_records_written_total"
		if metricValue(after, written) < metricValue(before, written)+1 {
			t.Errorf("%s: %v → %v", written, metricValue(before, written), metricValue(after, written))
		}
		for _, series := range []string{
			`inventory_webhook_deliveries{state="queued"}`, `inventory_webhook_deliveries{state="failed"}`,
			`inventory_webhook_delivery_attempts{state="finished"}`, "inventory_metrics_query_errors",
		} {
			if v := metricValue(after, series); v != 0 {
				t.Errorf("%s = %v, want 0", series, v)
			}
		}
		// The site's create event waits for dispatch: the lag is its age.
		if v := metricValue(after, "inventory_outbox_lag_seconds"); v < 0 {
			t.Errorf("outbox lag missing")
		}
		for _, series := range []string{"go_goroutines", `go_sql_max_open_connections{db_name="read"}`} {
			if metricValue(after, series) <= 0 {
				t.Errorf("%s missing", series)
			}
		}
		// The binary's identity, and the read cache: the requests above
		// read the token and its permissions through it, and the create
		// emptied it (issue 36).
		if !regexp.MustCompile(`inventory_build_info\{commit="[^"]+",goversion="go[^"]+",version="[^"]+"\} 1`).MatchString(after) {
			t.Errorf("no inventory_build_info with version, commit and Go version")
		}
		for _, series := range []string{"inventory_cache_hits_total", "inventory_cache_misses_total", "inventory_cache_invalidations_total"} {
			if metricValue(after, series) <= max(metricValue(before, series), 0) {
				t.Errorf("%s did not grow: %v → %v", series, metricValue(before, series), metricValue(after, series))
			}
		}
		if !regexp.MustCompile(`inventory_http_request_duration_seconds_bucket\{method="GET",route="/api/dcim/sites/",le="\+Inf"\} [1-9]`).MatchString(after) {
			t.Errorf("no latency histogram for the sites list")
		}

		// A webhook on site creation: dispatching the next site's event
		// queues a delivery and the lag falls back to 0.
		hook := a.Must(http.StatusCreated, "POST", "/api/extras/webhooks/", map[string]any{"name": "W", "payload_url": "https://hooks.example.com/w"}).Object()["id"]
		a.Must(http.StatusCreated, "POST", "/api/extras/event-rules/", map[string]any{"name": "E", "object_types": []string{"dcim.site"},
			"event_types": []string{"object_created"}, "action_type": "webhook", "action_object_type": "extras.webhook", "action_object_id": hook})
		a.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "S2", "slug": "s2"})
		if _, err := e.Server.Webhooks().Dispatch(context.Background()); err != nil {
			t.Fatal(err)
		}
		dispatched := scrape()
		if v := metricValue(dispatched, `inventory_webhook_deliveries{state="queued"}`); v != 1 {
			t.Errorf("queued deliveries after dispatch: %v, want 1", v)
		}
		if v := metricValue(dispatched, "inventory_outbox_lag_seconds"); v != 0 {
			t.Errorf("outbox lag after dispatch: %v, want 0", v)
		}

		// Who may scrape: the token, not an API token, not anonymous.
		for _, c := range []struct {
			auth string
			want int
		}{
			{"", http.StatusForbidden},
			{"Token " + servertest.Token, http.StatusForbidden},
			{"Bearer wrong", http.StatusForbidden},
			{"Bearer scrape-me", http.StatusOK},
		} {
			h := []string{}
			if c.auth != "" {
				h = append(h, "Authorization: "+c.auth)
			}
			e.Anonymous().Must(c.want, "GET", "/metrics", nil, h...)
		}

		// The access log: one JSON line per request, with its route,
		// status, request id and user.
		var found bool
		for _, line := range log.lines() {
			var rec map[string]any
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatalf("access log line %q: %v", line, err)
			}
			if rec["route"] == "/api/dcim/sites/:id/" {
				found = true
				if rec["status"] != 404.0 || rec["user"] != "admin" || rec["path"] != "/api/dcim/sites/999/" ||
					rec["method"] != "GET" || rec["request_id"] == "" || rec["duration_ms"] == nil {
					t.Errorf("access log line: %s", line)
				}
			}
		}
		if !found {
			t.Errorf("no access log line for the detail request")
		}
	}, func(c *server.Config) {
		c.Metrics.Guard.Token = "scrape-me"
		log = &lockedBuffer{}
		c.AccessLog = slog.New(slog.NewJSONHandler(log, nil))
	})
}

// TestMetricsAllowList: without a token the client's address decides
// (the connection's, not a forwarded-for header); the default allows
// loopback only.
func TestMetricsAllowList(t *testing.T) {
	for _, c := range []struct {
		allow  string
		remote string
		header string
		want   bool
	}{
		{"", "127.0.0.1:5000", "", true},
		{"", "[::1]:5000", "", true},
		{"", "192.0.2.1:5000", "", false},
		{"", "192.0.2.1:5000", "X-Forwarded-For: 127.0.0.1", false},
		{"192.0.2.0/24", "192.0.2.1:5000", "", true},
		{"192.0.2.7", "192.0.2.1:5000", "", false},
		{"10.0.0.0/8, 192.0.2.1", "192.0.2.1:5000", "", true},
		{"192.0.2.0/24", "[::ffff:192.0.2.1]:5000", "", true},
	} {
		g := metrics.Guard{Allow: metrics.DefaultAllow}
		if c.allow != "" {
			var err error
			if g.Allow, err = auth.ParseAllowedIPs(strings.Split(c.allow, ",")); err != nil {
				t.Fatal(err)
			}
		}
		r, _ := http.NewRequest("GET", "/metrics", nil)
		r.RemoteAddr = c.remote
		if k, v, ok := strings.Cut(c.header, ":"); ok {
			r.Header.Set(k, strings.TrimSpace(v))
		}
		if got := g.Allows(r); got != c.want {
			t.Errorf("allow %q, peer %s %s: %v, want %v", c.allow, c.remote, c.header, got, c.want)
		}
	}
	if _, err := auth.ParseAllowedIPs([]string{"10.0.0.0/33"}); err == nil {
		t.Errorf("a bad network is accepted")
	}
}
