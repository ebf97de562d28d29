// Package progress shows how `inventory import netbox` (issue 35) goes on
// a terminal: Bars is a netboximport.Progress drawing a bar per model being
// copied and the totals (objects read and written, and each per second).
//
// On a terminal the bars are redrawn in place, at most once per Interval
// (events come by the thousand a second; the screen need not); an endpoint
// done leaves one line above them, and empty endpoints none. Elsewhere (a
// log file, a pipe, CI) it writes plain lines: one per endpoint done and
// the totals at most once per PlainInterval. Safe for concurrent use. It
// draws only when told something (no goroutine, no timer), so a test
// drives it with a fake clock.
package progress
