package resource

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestFormatTime: NetBox's rendering (UTC, "Z", six digits of
// microseconds only when there are any), and appendTime's digits agree
// with time's own formatting of the same layout.
func TestFormatTime(t *testing.T) {
	paris := time.FixedZone("CET", 3600)
	for _, tc := range []struct {
		t    time.Time
		want string
	}{
		{time.Date(2026, 11, 28, 23, 48, 59, 0, time.UTC), "2026-11-28T23:48:59Z"},
		{time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC), "2026-01-02T03:04:05.000006Z"},
		{time.Date(2026, 1, 2, 3, 4, 5, 999, time.UTC), "2026-01-02T03:04:05Z"}, // below a microsecond
		{time.Date(2026, 1, 1, 0, 30, 0, 120000000, paris), "2025-12-31T23:30:00.120000Z"},
		{time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), "0001-01-01T00:00:00Z"},
		{time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC), "9999-12-31T23:59:59.999999Z"},
		{time.Date(12345, 6, 7, 8, 9, 10, 0, time.UTC), "12345-06-07T08:09:10Z"},
	} {
		if got := FormatTime(tc.t); got != tc.want {
			t.Errorf("FormatTime(%v) = %q, want %q", tc.t, got, tc.want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		tm := time.Unix(r.Int64N(253402300800), r.Int64N(1e9)).UTC()
		want := tm.Format("2006-01-02T15:04:05Z")
		if tm.Nanosecond()/1000 != 0 {
			want = tm.Format("2006-01-02T15:04:05.000000Z")
		}
		if got := FormatTime(tm); got != want {
			t.Fatalf("FormatTime(%v) = %q, want %q", tm, got, want)
		}
	}
}
