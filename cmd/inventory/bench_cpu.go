package main

import (
	"errors"
	"os"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/google/pprof/profile"
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
// those labelled bench=client, read with pprof's own profile package.
func labelledCPU(gz []byte) (client, all time.Duration, err error) {
	p, err := profile.ParseData(gz)
	if err != nil {
		return 0, 0, err
	}
	// The CPU profile's sample types are samples/count and cpu/nanoseconds.
	ns := -1
	for i, st := range p.SampleType {
		if st.Type == "cpu" && st.Unit == "nanoseconds" {
			ns = i
		}
	}
	if ns < 0 {
		return 0, 0, errors.New("bench: a profile without cpu/nanoseconds samples")
	}
	for _, s := range p.Sample {
		d := time.Duration(s.Value[ns])
		all += d
		if slices.Contains(s.Label["bench"], clientLabel) {
			client += d
		}
	}
	return client, all, nil
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

// resetPeakRSS sets the process's resident set high-water mark (VmHWM)
// to its current resident set (Linux's clear_refs), so that peakRSS then
// gives the peak since; false where that is not possible.
func resetPeakRSS() bool {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
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
