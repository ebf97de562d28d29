package metrics

import "github.com/prometheus/client_golang/prometheus"

// ReadRouting is where reads went when PostgreSQL hot standbys serve them
// (ent/db/standby.go): requests read from the primary, among them those
// that had no standby at the client's position (Behind) or no usable
// standby at all (Unavailable), and each standby's state.
type ReadRouting struct {
	Primary, Behind, Unavailable uint64
	Standbys                     []StandbyStats
}

// StandbyStats is one standby's share.
type StandbyStats struct {
	Name             string
	Usable           bool
	LagSeconds       float64
	Reads, Failovers uint64
}

var (
	readsDesc = prometheus.NewDesc("inventory_db_reads_total",
		"Requests whose reads a database server served: the primary, or a hot standby (host:port/database).", []string{"server"}, nil)
	fallbackDesc = prometheus.NewDesc("inventory_db_read_fallbacks_total",
		"Reads the primary served although standbys are configured: no usable standby had replayed the client's last write (behind), or none was usable (unavailable).", []string{"reason"}, nil)
	standbyLagDesc = prometheus.NewDesc("inventory_db_standby_lag_seconds",
		"How far each standby's replay is behind the primary, as the last background check saw it.", []string{"server"}, nil)
	usableDesc = prometheus.NewDesc("inventory_db_standby_usable",
		"1 while a standby serves reads: reachable, in recovery and within --read-max-lag.", []string{"server"}, nil)
	failoverDesc = prometheus.NewDesc("inventory_db_standby_failovers_total",
		"Reads that failed on a standby (stopped, restarted, a replay conflict) and were answered by the primary.", []string{"server"}, nil)
)

// routingCollector reads the routing counters at scrape time.
type routingCollector struct{ read func() ReadRouting }

func (r routingCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{readsDesc, fallbackDesc, standbyLagDesc, usableDesc, failoverDesc} {
		ch <- d
	}
}

func (r routingCollector) Collect(ch chan<- prometheus.Metric) {
	rr := r.read()
	ch <- prometheus.MustNewConstMetric(readsDesc, prometheus.CounterValue, float64(rr.Primary), "primary")
	ch <- prometheus.MustNewConstMetric(fallbackDesc, prometheus.CounterValue, float64(rr.Behind), "behind")
	ch <- prometheus.MustNewConstMetric(fallbackDesc, prometheus.CounterValue, float64(rr.Unavailable), "unavailable")
	for _, s := range rr.Standbys {
		usable := 0.0
		if s.Usable {
			usable = 1
		}
		ch <- prometheus.MustNewConstMetric(readsDesc, prometheus.CounterValue, float64(s.Reads), s.Name)
		ch <- prometheus.MustNewConstMetric(standbyLagDesc, prometheus.GaugeValue, s.LagSeconds, s.Name)
		ch <- prometheus.MustNewConstMetric(usableDesc, prometheus.GaugeValue, usable, s.Name)
		ch <- prometheus.MustNewConstMetric(failoverDesc, prometheus.CounterValue, float64(s.Failovers), s.Name)
	}
}
