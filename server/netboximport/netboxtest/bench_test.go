package netboxtest_test

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"

	"github.com/inventory/inventory/server/netboximport/netbox"
	"github.com/inventory/inventory/server/netboximport/netboxtest"
)

// How fast a scaled demo set is made, and read back through the fake
// NetBox and the HTTP client (go test -bench Scaled -run ^$): objects per
// second, and the heap in use after reading, which stays that of a few
// pages whatever the factor.
func BenchmarkScaled(b *testing.B) {
	ctx := context.Background()
	const f = 10
	// The base in memory: a Seeker, so each page of a copy starts where
	// it should without reading the base from its start.
	base, err := netboxtest.Load(ctx, netboxtest.Dir{Path: demo})
	if err != nil {
		b.Fatal(err)
	}
	sc := netboxtest.Scaled(base, f)
	srv := netboxtest.NewServer(sc, "")
	defer srv.Close()
	c, err := netbox.New(srv.URL, "", netbox.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		src  netboxtest.Source
	}{{"direct", sc}, {"http", c}} {
		b.Run(tc.name, func(b *testing.B) {
			n := 0
			for b.Loop() {
				for _, ep := range []string{"dcim/interfaces", "dcim/devices", "ipam/ip-addresses", "dcim/cables"} {
					err := tc.src.Pages(ctx, ep, func(objs []json.RawMessage) error { n += len(objs); return nil })
					if err != nil {
						b.Fatal(err)
					}
				}
			}
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "objects/s")
			b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MiB")
		})
	}
}
