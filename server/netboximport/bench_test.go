package netboximport

import (
	"context"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// BenchmarkImportDemo imports the demo data set (5 861 objects) into a
// fresh database of each kind, without verification, and reports
// objects/s:
//
//	go test -run '^$' -bench ImportDemo -benchtime 3x ./server/netboximport/
func BenchmarkImportDemo(b *testing.B) {
	for _, kind := range servertest.Databases(b) {
		b.Run(kind, func(b *testing.B) {
			var objects int
			var secs float64
			for b.Loop() {
				b.StopTimer()
				e := servertest.New(b, kind)
				for _, q := range []string{`DELETE FROM users_token`, `DELETE FROM users_user`} {
					if _, err := e.DB.Write.ExecContext(context.Background(), q); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
				rep, err := Import(context.Background(), Options{Source: DirSource{Dir: demoDir}, From: demoDir, DB: e.DB})
				if err != nil {
					b.Fatal(err)
				}
				objects += rep.Written
				secs += rep.Elapsed.Seconds()
			}
			b.ReportMetric(float64(objects)/secs, "objects/s")
		})
	}
}
