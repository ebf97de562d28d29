package resource

import (
	"testing"
	"time"
)

// TestParseStoredTime: the fast reading of go-sqlite3's layout agrees with
// time.Parse, and whatever it does not take falls back to the layouts.
func TestParseStoredTime(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // RFC 3339 in UTC; "" for nil
		fast bool   // read by parseDriverTime
	}{
		{"2026-11-28 17:50:57.123456789+00:00", "2026-11-28T17:50:57.123456789Z", true},
		{"2026-11-28 17:50:57.5+00:00", "2026-11-28T17:50:57.5Z", true},
		{"2026-11-28 17:50:57+00:00", "2026-11-28T17:50:57Z", true},
		{"2026-11-28 17:50:57.000001-07:30", "2026-11-29T01:20:57.000001Z", true},
		{"2026-01-01 00:10:00+01:00", "2025-12-31T23:10:00Z", true},
		{"2026-11-28T17:50:57.25Z", "2026-11-28T17:50:57.25Z", true},
		{"2024-02-29 12:00:00+00:00", "2024-02-29T12:00:00Z", true},
		// Not the driver's layout: the other layouts read them, or nothing.
		{"2026-11-28 17:50:57.123456789", "2026-11-28T17:50:57.123456789Z", false},
		{"2026-11-28", "2026-11-28T00:00:00Z", false},
		{"2026-11-28T17:50:57.1234567891Z", "2026-11-28T17:50:57.123456789Z", false},
		{"2026-02-30 12:00:00+00:00", "", false},
		{"2026-13-01 12:00:00+00:00", "", false},
		{"2026-11-28 24:00:00+00:00", "", false},
		{"2026-11-28 17:50:57.+00:00", "", false},
		{"2026-11-28 17:50:57+0000", "", false},
		{"2026-1a-28 17:50:57+00:00", "", false},
		{"not a time at all", "", false},
		{"", "", false},
	} {
		_, fast := parseDriverTime(tc.in)
		if fast != tc.fast {
			t.Errorf("parseDriverTime(%q) ok = %v, want %v", tc.in, fast, tc.fast)
		}
		got := parseStoredTime(tc.in)
		if tc.want == "" {
			if got != nil {
				t.Errorf("parseStoredTime(%q) = %v, want nil", tc.in, got)
			}
			continue
		}
		tm, ok := got.(time.Time)
		if !ok || tm.Location() != time.UTC || tm.Format(time.RFC3339Nano) != tc.want {
			t.Errorf("parseStoredTime(%q) = %v, want %s", tc.in, got, tc.want)
		}
	}
}
