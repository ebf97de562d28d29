package progress

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// Options tune Bars; the zero value writes plain lines.
type Options struct {
	TTY           bool             // redraw in place (IsTerminal of the output)
	Now           func() time.Time // time.Now when nil
	Interval      time.Duration    // least time between redraws on a TTY; 200 ms when zero
	PlainInterval time.Duration    // least time between totals lines otherwise; 10 s when zero
	Width         int              // a bar's width in characters; 30 when zero
}

// IsTerminal says whether f is a character device (a terminal), where
// redrawing in place makes sense.
func IsTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Bars draws an import's progress on w.
type Bars struct {
	w    io.Writer
	opts Options

	mu       sync.Mutex
	eps      map[string]*endpoint
	active   []*endpoint // started, not done, in start order
	finished []string    // lines of endpoints done, not drawn yet
	started  time.Time   // the first Start
	lastDraw time.Time
	drawn    int // live lines on screen (TTY)
	read     int
	wrote    int
	done     int
	failed   int
	nameW    int
}

type endpoint struct {
	name        string
	total       int
	read, wrote int
	start       time.Time
	done        bool
}

// New draws on w.
func New(w io.Writer, opts Options) *Bars {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Interval <= 0 {
		opts.Interval = 200 * time.Millisecond
	}
	if opts.PlainInterval <= 0 {
		opts.PlainInterval = 10 * time.Second
	}
	if opts.Width <= 0 {
		opts.Width = 30
	}
	return &Bars{w: w, opts: opts, eps: map[string]*endpoint{}}
}

func (b *Bars) get(name string) *endpoint {
	e := b.eps[name]
	if e == nil {
		e = &endpoint{name: name, start: b.opts.Now()}
		b.eps[name] = e
	}
	return e
}

// Start is told before the endpoint's first object is read.
func (b *Bars) Start(name string, total int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.opts.Now()
	if b.started.IsZero() {
		b.started = now
		if !b.opts.TTY {
			b.lastDraw = now // the first totals line after PlainInterval
		}
	}
	e := b.get(name)
	e.total = total
	if !slices.Contains(b.active, e) { // started again (a resumed endpoint): one bar
		e.start = now
		b.active = append(b.active, e)
	}
	b.nameW = min(max(b.nameW, len(name)), 40)
	b.maybeDraw(now)
}

// Read is told of n more objects read.
func (b *Bars) Read(name string, n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.get(name).read += n
	b.read += n
	b.maybeDraw(b.opts.Now())
}

// Wrote is told of n more objects written.
func (b *Bars) Wrote(name string, n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.get(name).wrote += n
	b.wrote += n
	b.maybeDraw(b.opts.Now())
}

// Done is told when the endpoint is written, or failed.
func (b *Bars) Done(name string, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.opts.Now()
	e := b.get(name)
	if e.done {
		return
	}
	e.done = true
	b.done++
	for i, a := range b.active {
		if a == e {
			b.active = append(b.active[:i], b.active[i+1:]...)
			break
		}
	}
	mark := "✓"
	line := fmt.Sprintf("%-*s %d read, %d written in %s", b.nameW, name, e.read, e.wrote, dur(now.Sub(e.start)))
	if err != nil {
		b.failed++
		mark = "✗"
		line += ": " + oneLine(err.Error())
	}
	if err != nil || e.read > 0 || e.wrote > 0 {
		if b.opts.TTY {
			line = mark + " " + line
		}
		b.finished = append(b.finished, line)
	}
	if b.opts.TTY {
		b.maybeDraw(now)
	} else {
		b.flushFinished()
	}
}

// Finish draws the final state: the endpoints done and the totals.
func (b *Bars) Finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.opts.Now()
	if b.opts.TTY {
		b.draw(now)
		return
	}
	b.flushFinished()
	fmt.Fprintln(b.w, "done: "+b.totals(now))
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func dur(d time.Duration) string {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// totals is "12/66 endpoints, 5000 read (1250/s), 4800 written
// (1200/s), 4s": the rates are averages since the first Start.
func (b *Bars) totals(now time.Time) string {
	el := now.Sub(b.started)
	rate := func(n int) string {
		if el <= 0 {
			return "-"
		}
		return fmt.Sprintf("%.0f/s", float64(n)/el.Seconds())
	}
	s := fmt.Sprintf("%d/%d endpoints, %d read (%s), %d written (%s), %s", b.done, len(b.eps), b.read, rate(b.read), b.wrote, rate(b.wrote), dur(el))
	if b.failed > 0 {
		s += fmt.Sprintf(", %d failed", b.failed)
	}
	return s
}

func (b *Bars) maybeDraw(now time.Time) {
	if b.opts.TTY {
		if now.Sub(b.lastDraw) >= b.opts.Interval {
			b.draw(now)
		}
		return
	}
	if now.Sub(b.lastDraw) >= b.opts.PlainInterval {
		b.lastDraw = now
		fmt.Fprintln(b.w, "progress: "+b.totals(now))
	}
}

func (b *Bars) flushFinished() {
	for _, l := range b.finished {
		fmt.Fprintln(b.w, l)
	}
	b.finished = b.finished[:0]
}

// draw replaces the live lines: the endpoints done since, then a bar per
// active endpoint, then the totals.
func (b *Bars) draw(now time.Time) {
	b.lastDraw = now
	var sb strings.Builder
	if b.drawn > 0 {
		fmt.Fprintf(&sb, "\r\x1b[%dA", b.drawn)
	}
	sb.WriteString("\x1b[J")
	for _, l := range b.finished {
		sb.WriteString(l + "\n")
	}
	b.finished = b.finished[:0]
	for _, e := range b.active {
		sb.WriteString(b.bar(e) + "\n")
	}
	sb.WriteString(b.totals(now) + "\n")
	b.drawn = len(b.active) + 1
	io.WriteString(b.w, sb.String())
}

// bar is "dcim/interfaces [=====-----     ]  800/1586 read, 700 written":
// '=' written, '-' read and not yet written.
func (b *Bars) bar(e *endpoint) string {
	total := max(e.total, e.read, e.wrote)
	w := b.opts.Width
	cw, cr := 0, 0
	if total > 0 {
		cw = e.wrote * w / total
		cr = e.read*w/total - cw
	}
	return fmt.Sprintf("  %-*s [%s%s%s] %d/%d read, %d written", b.nameW, e.name,
		strings.Repeat("=", cw), strings.Repeat("-", max(cr, 0)), strings.Repeat(" ", max(w-cw-max(cr, 0), 0)),
		e.read, e.total, e.wrote)
}
