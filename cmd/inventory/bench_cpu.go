package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The server and the load generator share this process, so the
// generator's own CPU is separated by profiler labels (issue 37: the
// generator must never be the bottleneck, and must be seen not to be).
// The loader runs under the pprof label bench=client (loader.run), which
// every goroutine it starts inherits: the clients, and the HTTP
// transport's dial, read and write loops of their connections. The
// server's goroutines come from its accept loop, started before and
// unlabelled. During each measured phase a CPU profile is taken (100 Hz)
// and its samples are split by that label; the process's CPU time
// (getrusage) is split in the same proportion. The runtime's background
// garbage collection is unlabelled and so counts as the server's (the
// allocations' assists count for whoever allocated).

const clientLabel = "client"

// processCPU is the user and system CPU time of the process so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// labelledCPU sums the CPU nanoseconds of a CPU profile's samples, all and
// those labelled bench=client. It reads the profile's protocol buffer
// (profile.proto: Profile.sample = 2, Profile.string_table = 6;
// Sample.value = 2, Sample.label = 3; Label.key = 1, Label.str = 2) with
// no dependency.
func labelledCPU(gz []byte) (client, all time.Duration, err error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return 0, 0, err
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return 0, 0, err
	}
	type sample struct {
		ns     int64
		labels [][2]int64
	}
	var samples []sample
	var strs []string
	top := pb{b: raw}
	for top.more() {
		f, wt := top.key()
		if wt != 2 {
			top.skip(wt)
			continue
		}
		msg := top.bytes()
		switch f {
		case 2:
			var s sample
			var vals []int64
			m := pb{b: msg}
			for m.more() {
				g, wt := m.key()
				switch {
				case g == 2 && wt == 2:
					p := pb{b: m.bytes()}
					for p.more() {
						vals = append(vals, int64(p.varint()))
					}
				case g == 2 && wt == 0:
					vals = append(vals, int64(m.varint()))
				case g == 3 && wt == 2:
					var kv [2]int64
					l := pb{b: m.bytes()}
					for l.more() {
						h, wt := l.key()
						if (h == 1 || h == 2) && wt == 0 {
							kv[h-1] = int64(l.varint())
						} else {
							l.skip(wt)
						}
					}
					s.labels = append(s.labels, kv)
				default:
					m.skip(wt)
				}
				if m.err != nil {
					return 0, 0, m.err
				}
			}
			if len(vals) >= 2 {
				s.ns = vals[1] // sample types: samples/count, cpu/nanoseconds
			}
			samples = append(samples, s)
		case 6:
			strs = append(strs, string(msg))
		}
	}
	if top.err != nil {
		return 0, 0, top.err
	}
	str := func(i int64) string {
		if i < 0 || int(i) >= len(strs) {
			return ""
		}
		return strs[i]
	}
	for _, s := range samples {
		all += time.Duration(s.ns)
		for _, kv := range s.labels {
			if str(kv[0]) == "bench" && str(kv[1]) == clientLabel {
				client += time.Duration(s.ns)
				break
			}
		}
	}
	return client, all, nil
}

// pb reads protocol buffer wire format.
type pb struct {
	b   []byte
	err error
}

var errPB = errors.New("bench: malformed CPU profile")

func (p *pb) more() bool { return p.err == nil && len(p.b) > 0 }

func (p *pb) varint() uint64 {
	var v uint64
	for i := 0; i < 10; i++ {
		if len(p.b) == 0 {
			break
		}
		c := p.b[0]
		p.b = p.b[1:]
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return v
		}
	}
	p.err = errPB
	return 0
}

func (p *pb) key() (field, wireType int) {
	k := p.varint()
	return int(k >> 3), int(k & 7)
}

func (p *pb) bytes() []byte {
	n := p.varint()
	if p.err != nil || n > uint64(len(p.b)) {
		p.err = errPB
		return nil
	}
	out := p.b[:n]
	p.b = p.b[n:]
	return out
}

func (p *pb) skip(wt int) {
	switch wt {
	case 0:
		p.varint()
	case 1, 5:
		n := 8
		if wt == 5 {
			n = 4
		}
		if len(p.b) < n {
			p.err = errPB
			return
		}
		p.b = p.b[n:]
	case 2:
		p.bytes()
	default:
		p.err = errPB
	}
}

// memPeak samples the Go runtime's memory (mapped minus returned to the
// OS: what the process holds, heap, stacks and runtime) every 10 ms until
// stopped, and keeps the peak. It is the process's, so it includes the
// generator's buffers: an upper bound of the server's.
type memPeak struct {
	stop chan struct{}
	done sync.WaitGroup
	peak uint64
}

func startMemPeak() *memPeak {
	m := &memPeak{stop: make(chan struct{})}
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	read := func() {
		metrics.Read(s)
		if s[0].Value.Kind() == metrics.KindUint64 && s[1].Value.Kind() == metrics.KindUint64 {
			m.peak = max(m.peak, s[0].Value.Uint64()-s[1].Value.Uint64())
		}
	}
	read()
	m.done.Add(1)
	go func() {
		defer m.done.Done()
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-m.stop:
				read()
				return
			case <-t.C:
				read()
			}
		}
	}()
	return m
}

// end stops the sampling and returns the peak in bytes.
func (m *memPeak) end() uint64 {
	close(m.stop)
	m.done.Wait()
	return m.peak
}

// liveHeap is the heap marked live by the last collection, in bytes.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// peakRSS is the process's resident set high-water mark (VmHWM), in
// bytes, or 0 where /proc does not say.
func peakRSS() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err == nil {
				return kb * 1024
			}
		}
	}
	return 0
}
