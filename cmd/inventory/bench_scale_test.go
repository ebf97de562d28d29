package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io"
	"os"
	"regexp"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestLabelledCPU: the CPU of work done under the bench=client label is
// told apart from unlabelled work by labelledCPU's reading of a real CPU
// profile (bench_cpu.go), the split `inventory bench` reports as the
// generator's share.
func TestLabelledCPU(t *testing.T) {
	burn := func() {
		// Hashing allocates nothing: no garbage collection to share.
		buf := make([]byte, 1<<20)
		for i := 0; i < 400; i++ {
			s := sha256.Sum256(buf)
			buf[i] = s[0]
		}
	}
	for _, c := range []struct {
		name     string
		labelled bool
	}{{"labelled", true}, {"unlabelled", false}} {
		t.Run(c.name, func(t *testing.T) {
			var prof bytes.Buffer
			if err := pprof.StartCPUProfile(&prof); err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			wg.Add(1)
			work := func(context.Context) {
				// A goroutine started under the label inherits it, as the
				// HTTP transport's loops do.
				go func() { defer wg.Done(); burn() }()
			}
			if c.labelled {
				pprof.Do(context.Background(), pprof.Labels("bench", clientLabel), work)
			} else {
				work(context.Background())
			}
			wg.Wait()
			pprof.StopCPUProfile()
			client, all, err := labelledCPU(prof.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if all == 0 {
				t.Fatal("no samples")
			}
			share := float64(client) / float64(all)
			if c.labelled && share < 0.8 || !c.labelled && share > 0.2 {
				t.Errorf("client share %.2f of %s", share, all)
			}
		})
	}
	if _, _, err := labelledCPU([]byte("not a profile")); err == nil {
		t.Error("a malformed profile: no error")
	}
}

// TestBenchScale: `inventory bench --scale 1` seeds the demo-shaped data
// set and every DCIM workload answers without a failed request, on SQLite
// and on PostgreSQL (INVENTORY_TEST_POSTGRES): the trace crosses the 10
// patch panels (11 cables), the 500-port device lists 500 interfaces.
func TestBenchScale(t *testing.T) {
	eachBenchDatabase(t, func(t *testing.T, database string) {
		out := captureStdout(t, func() error {
			return bench([]string{"--database", database, "--scale", "1", "--changes", "20000", "--duration", "1ms",
				"--warmup", "0", "--clients", "2", "--bulk-requests", "1", "--cable-requests", "1", "--delete-requests", "2"})
		})
		for _, want := range []struct{ row, rows string }{
			{"trace across 10 patch panels, 1 conn", "11"},
			{"interfaces?device_id=<500 ports>, 1 conn", "500"},
			{"interfaces?limit=1000, 1 conn", "1000"},
			{"create 100 devices (52 interfaces)", "100"},
			{"object-changes?limit=50, 90% deep, 1 conn", "50"},
			{"object-changes?limit=50, 90% deep, after a write", "50"},
		} {
			if !rowHas(out, want.row, want.rows) {
				t.Errorf("row %q: want %s objects in\n%s", want.row, want.rows, out)
			}
		}
		m := regexp.MustCompile(`seeded: +(\d+) change records`).FindStringSubmatch(out)
		if n := 0; m == nil || func() bool { n, _ = strconv.Atoi(m[1]); return n < 20000 }() {
			t.Errorf("change log not topped up to 20000:\n%s", out)
		}
	})
}

// eachBenchDatabase runs fn on SQLite and, when INVENTORY_TEST_POSTGRES
// names a server, on PostgreSQL, as "inventory bench --database" takes them.
func eachBenchDatabase(t *testing.T, fn func(t *testing.T, database string)) {
	dbs := []string{"sqlite"}
	if pg := os.Getenv("INVENTORY_TEST_POSTGRES"); pg != "" {
		dbs = append(dbs, pg)
	}
	for _, database := range dbs {
		t.Run(strings.SplitN(database, ":", 2)[0], func(t *testing.T) { fn(t, database) })
	}
}

// rowHas reports whether out has a result line starting with name whose
// rows column (after clients, requests, req/s, p50 and p99) is rows.
func rowHas(out, name, rows string) bool {
	for _, line := range strings.Split(out, "\n") {
		rest, ok := strings.CutPrefix(line, name+" ")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		return len(f) > 5 && f[5] == rows
	}
	return false
}

// captureStdout runs fn with os.Stdout going to a pipe, and returns what
// it wrote; fn's error fails the test.
func captureStdout(t *testing.T, fn func() error) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	var buf bytes.Buffer
	done := make(chan struct{})
	go func() { io.Copy(&buf, r); close(done) }()
	err = fn()
	os.Stdout = old
	w.Close()
	<-done
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	return buf.String()
}
