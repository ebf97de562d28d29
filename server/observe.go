package server

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/server/metrics"
	"github.com/inventory/inventory/webhooks"
)

// newMetrics builds the server's Prometheus registry (server/metrics).
func (s *Server) newMetrics() *metrics.Metrics {
	var reads func() metrics.ReadRouting
	if s.db.HasStandbys() {
		reads = s.readRoutingStats
	}
	return metrics.New(metrics.Sources{Read: s.db.Read, Write: s.db.Write, Reads: reads,
		ChangesWritten: func() float64 { return float64(webhooks.ChangesWritten()) },
		ListsShared:    func() float64 { return float64(s.flights.shared.Load()) },
		Cache: func() metrics.CacheStats {
			h, m, i := s.db.Cache.Stats()
			return metrics.CacheStats{Hits: h, Misses: m, Invalidations: i}
		},
		Build: s.cfg.Build})
}

// MetricsHandler serves /metrics behind the configured guard; cmd mounts
// it on its own listener when --metrics-listen is set.
func (s *Server) MetricsHandler() http.Handler { return s.metrics.Handler(s.cfg.Metrics.Guard) }

// observe measures every request: the Prometheus request metrics by route
// pattern and one access-log line. A read retried after a dropped
// connection (retry.go) is counted once, by its second attempt.
func (s *Server) observe(c *gin.Context) {
	if c.Request.Context().Value(internalKey{}) != nil {
		c.Next() // the browse page's own OPTIONS: not a request of the client's
		return
	}
	start := time.Now()
	c.Next()
	if st, _ := c.Request.Context().Value(retryKey{}).(*retryState); st != nil && st.again && !st.retried {
		return
	}
	d := time.Since(start)
	route, status := c.FullPath(), c.Writer.Status()
	s.metrics.Observe(c.Request.Method, route, status, d)
	if s.cfg.AccessLog == nil {
		return
	}
	user := usernameOf(c.Request.Context())
	rid, _ := c.Get(ctxRequestID)
	attrs := []slog.Attr{
		slog.String("method", c.Request.Method), slog.String("path", c.Request.URL.Path),
		slog.String("route", route), slog.Int("status", status),
		slog.Float64("duration_ms", float64(d.Microseconds())/1000),
		slog.Any("request_id", rid), slog.String("user", user)}
	if s.db.HasStandbys() {
		// Which server the request's reads went to (standbys.go).
		attrs = append(attrs, slog.String("db", db.ServedBy(c.Request.Context())))
	}
	s.cfg.AccessLog.LogAttrs(c.Request.Context(), slog.LevelInfo, "request", attrs...)
}
