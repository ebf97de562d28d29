package netboximport

import (
	"context"
	"fmt"
	"os"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/inventory/inventory/server/netboximport/netboxtest"
	"github.com/inventory/inventory/server/servertest"
)

// BenchmarkImportDemo imports the demo data set (5 861 objects) into a
// fresh database of each kind, without verification, and reports
// objects/s:
//
//	go test -run '^$' -bench ImportDemo -benchtime 3x ./server/netboximport/
func BenchmarkImportDemo(b *testing.B) {
	benchImport(b, func(testing.TB) Source { return DirSource{Path: demoDir} })
}

// BenchmarkImportScaled imports the demo set replicated
// INVENTORY_BENCH_IMPORT_SCALE times (default 10; 100 is the issue's
// synthetic set of about 586 000 objects) with fresh ids and names
// (netboxtest.Scaled, streamed page by page), and reports objects/s and
// the peak of the Go heap during the import, which stays bounded whatever
// the scale:
//
//	INVENTORY_BENCH_IMPORT_SCALE=100 go test -run '^$' -bench ImportScaled -benchtime 1x -timeout 2h ./server/netboximport/
func BenchmarkImportScaled(b *testing.B) {
	scale := 10
	if v, err := strconv.Atoi(os.Getenv("INVENTORY_BENCH_IMPORT_SCALE")); err == nil && v > 0 {
		scale = v
	}
	base, err := netboxtest.Load(context.Background(), netboxtest.Dir{Path: demoDir})
	if err != nil {
		b.Fatal(err)
	}
	b.Run(fmt.Sprintf("x%d", scale), func(b *testing.B) {
		benchImport(b, func(testing.TB) Source { return netboxtest.Scaled(base, scale) })
	})
}

func benchImport(b *testing.B, source func(testing.TB) Source) {
	for _, kind := range servertest.Databases(b) {
		b.Run(kind, func(b *testing.B) {
			var objects int
			var secs float64
			var peak uint64
			for b.Loop() {
				b.StopTimer()
				e := servertest.New(b, kind)
				for _, q := range []string{`DELETE FROM users_token`, `DELETE FROM users_user`} {
					if _, err := e.DB.Write.ExecContext(context.Background(), q); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
				stop := heapPeak(&peak)
				rep, err := Import(context.Background(), Options{Source: source(b), From: demoDir, DB: e.DB, Batch: 2000})
				stop()
				if err != nil {
					b.Fatal(err)
				}
				objects += rep.Written
				secs += rep.Elapsed.Seconds()
			}
			b.ReportMetric(float64(objects)/secs, "objects/s")
			b.ReportMetric(float64(objects)/float64(b.N), "objects")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		})
	}
}

// heapPeak samples the live heap (runtime/metrics) every 20 ms into *peak
// until the returned stop is called.
func heapPeak(peak *uint64) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			*peak = max(*peak, s[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}
