package server_test

import (
	"context"
	stdsql "database/sql"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/inventory/inventory/server/servertest"
)

// The machine the benchmarks run on is often shared, and a wall time
// then says little: cpuMeter reports, beside ns/op, the CPU time per
// operation of this process (getrusage: the handler, the garbage
// collector, the drivers; SQLite's work is in it) as go-cpu-ms/op and, on
// PostgreSQL when the server runs on this machine, the CPU time of the
// test database's backends (/proc/<pid>/schedstat) as pg-cpu-ms/op. Two
// CPU figures that do not move with the load are what a change of the
// write path is judged by (testdata/benchmarks.md).
type cpuMeter struct {
	b       *testing.B
	pg      *stdsql.DB // nil: not PostgreSQL, or its backends are not readable here
	goStart time.Duration
	pgStart time.Duration
	goSum   time.Duration
	pgSum   time.Duration
}

func newCPUMeter(b *testing.B, e *servertest.Env, kind string) *cpuMeter {
	m := &cpuMeter{b: b}
	if kind == "postgres" && e.DSN != "" {
		if conn, err := stdsql.Open("pgx", e.DSN); err == nil {
			b.Cleanup(func() { conn.Close() })
			m.pg = conn
			if _, ok := m.backends(); !ok {
				m.pg = nil
			}
		}
	}
	return m
}

// processCPU is this process's user and system CPU time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// backends is the CPU time so far of the test database's backends other
// than the meter's own; false when a backend's schedstat is unreadable
// (the server runs elsewhere).
func (m *cpuMeter) backends() (time.Duration, bool) {
	rows, err := m.pg.QueryContext(context.Background(),
		"SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()")
	if err != nil {
		return 0, false
	}
	defer rows.Close()
	var sum time.Duration
	for rows.Next() {
		var pid int
		if rows.Scan(&pid) != nil {
			return 0, false
		}
		raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/schedstat")
		if err != nil {
			return 0, false
		}
		f := strings.Fields(string(raw))
		if len(f) == 0 {
			return 0, false
		}
		ns, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, false
		}
		sum += time.Duration(ns)
	}
	return sum, rows.Err() == nil
}

// start and stop bracket one measured operation (the timer stopped around
// the meter's own queries).
func (m *cpuMeter) start() {
	m.b.StopTimer()
	if m.pg != nil {
		m.pgStart, _ = m.backends()
	}
	m.goStart = processCPU()
	m.b.StartTimer()
}

func (m *cpuMeter) stop() {
	m.b.StopTimer()
	m.goSum += processCPU() - m.goStart
	if m.pg != nil {
		now, _ := m.backends()
		m.pgSum += now - m.pgStart
	}
	m.b.StartTimer()
}

// report adds the per-operation figures to the benchmark's line.
func (m *cpuMeter) report() {
	if m.b.N == 0 {
		return
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(m.b.N) / 1e6 }
	m.b.ReportMetric(ms(m.goSum), "go-cpu-ms/op")
	if m.pg != nil {
		m.b.ReportMetric(ms(m.pgSum), "pg-cpu-ms/op")
	}
}
