package progress_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/inventory/inventory/server/netboximport/progress"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// step is one event, after the clock moved by advance.
type step struct {
	advance time.Duration
	do      func(b *progress.Bars)
}

func start(ep string, n int) func(*progress.Bars) { return func(b *progress.Bars) { b.Start(ep, n) } }
func read(ep string, n int) func(*progress.Bars)  { return func(b *progress.Bars) { b.Read(ep, n) } }
func wrote(ep string, n int) func(*progress.Bars) { return func(b *progress.Bars) { b.Wrote(ep, n) } }
func done(ep string, err error) func(*progress.Bars) {
	return func(b *progress.Bars) { b.Done(ep, err) }
}
func finish(b *progress.Bars) { b.Finish() }

const ms = time.Millisecond

func TestBars(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tty   bool
		steps []step
		want  string
	}{
		{name: "plain: a line per endpoint done, totals every 10 s and at the end", steps: []step{
			{0, start("dcim/sites", 24)},
			{0, start("dcim/interfaces", 1586)},
			{0, start("wireless/wireless-lans", 0)},
			{100 * ms, read("dcim/sites", 24)},
			{100 * ms, wrote("dcim/sites", 24)},
			{0, done("dcim/sites", nil)},
			{0, done("wireless/wireless-lans", nil)}, // empty: no line
			{time.Second, read("dcim/interfaces", 1000)},
			{9 * time.Second, wrote("dcim/interfaces", 1000)}, // 10.2 s: totals
			{time.Second, read("dcim/interfaces", 586)},       // not again before 20.2 s
			{0, done("dcim/interfaces", errors.New("interface 7: the device\nis missing"))},
			{800 * ms, finish},
		}, want: "" +
			"dcim/sites             24 read, 24 written in 200ms\n" +
			"progress: 2/3 endpoints, 1024 read (100/s), 1024 written (100/s), 10.2s\n" +
			"dcim/interfaces        1586 read, 1000 written in 11.2s: interface 7: the device is missing\n" +
			"done: 3/3 endpoints, 1610 read (134/s), 1024 written (85/s), 12s, 1 failed\n"},
		{name: "tty: redrawn in place at most every 200 ms", tty: true, steps: []step{
			{0, start("dcim/sites", 20)},         // first event: drawn
			{0, start("dcim/sites", 20)},         // again (resumed): still one bar
			{50 * ms, read("dcim/sites", 10)},    // too soon
			{50 * ms, start("dcim/devices", 40)}, // too soon
			{100 * ms, wrote("dcim/sites", 5)},   // 200 ms: drawn
			{100 * ms, read("dcim/devices", 40)},
			{100 * ms, done("dcim/sites", nil)}, // 400 ms: drawn, sites leaves its line
			{1600 * ms, finish},
		}, want: "" +
			"\x1b[J" +
			"  dcim/sites [          ] 0/20 read, 0 written\n" +
			"0/1 endpoints, 0 read (-), 0 written (-), 0s\n" +
			"\r\x1b[2A\x1b[J" +
			"  dcim/sites   [==---     ] 10/20 read, 5 written\n" +
			"  dcim/devices [          ] 0/40 read, 0 written\n" +
			"0/2 endpoints, 10 read (50/s), 5 written (25/s), 200ms\n" +
			"\r\x1b[3A\x1b[J" +
			"✓ dcim/sites   10 read, 5 written in 400ms\n" +
			"  dcim/devices [----------] 40/40 read, 0 written\n" +
			"1/2 endpoints, 50 read (125/s), 5 written (12/s), 400ms\n" +
			"\r\x1b[2A\x1b[J" +
			"  dcim/devices [----------] 40/40 read, 0 written\n" +
			"1/2 endpoints, 50 read (25/s), 5 written (2/s), 2s\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
			b := progress.New(&out, progress.Options{TTY: tc.tty, Now: c.now, Width: 10})
			for _, s := range tc.steps {
				c.t = c.t.Add(s.advance)
				s.do(b)
			}
			if got := out.String(); got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// Events from many goroutines add up (run with -race).
func TestBarsConcurrent(t *testing.T) {
	var out strings.Builder
	c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	b := progress.New(&out, progress.Options{Now: c.now})
	var wg sync.WaitGroup
	for _, ep := range []string{"a/x", "b/y", "c/z", "d/w"} {
		b.Start(ep, 1000)
		wg.Go(func() {
			for range 1000 {
				b.Read(ep, 1)
				b.Wrote(ep, 1)
			}
			b.Done(ep, nil)
		})
	}
	wg.Wait()
	c.t = c.t.Add(2 * time.Second)
	b.Finish()
	if !strings.HasSuffix(out.String(), "done: 4/4 endpoints, 4000 read (2000/s), 4000 written (2000/s), 2s\n") {
		t.Errorf("%s", out.String())
	}
}
