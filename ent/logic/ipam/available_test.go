package ipam

import (
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"testing"
)

func sp(lo, hi uint64) Span { return Span{NumOf(lo), NumOf(hi)} }

func collect(t *testing.T, s Items) []Span {
	t.Helper()
	var out []Span
	for x, err := range s {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, x)
	}
	return out
}

func fmtSpans(s []Span) string {
	var b []string
	for _, x := range s {
		b = append(b, fmt.Sprintf("%d-%d", x.Lo.Lo, x.Hi.Lo))
	}
	return strings.Join(b, " ")
}

func TestGaps(t *testing.T) {
	for _, c := range []struct {
		name   string
		lo, hi uint64
		used   []Span
		want   string
	}{
		{"nothing used", 10, 20, nil, "10-20"},
		{"all used", 10, 20, []Span{sp(0, 100)}, ""},
		{"used at both ends", 10, 20, []Span{sp(5, 11), sp(19, 30)}, "12-18"},
		{"points", 1, 6, []Span{sp(1, 1), sp(3, 3), sp(4, 4)}, "2-2 5-6"},
		{"duplicates", 1, 6, []Span{sp(2, 2), sp(2, 2), sp(2, 2)}, "1-1 3-6"},
		{"nested", 0, 15, []Span{sp(0, 7), sp(0, 3), sp(4, 5), sp(12, 12)}, "8-11 13-15"},
		{"overlapping", 0, 15, []Span{sp(1, 5), sp(3, 9)}, "0-0 10-15"},
		{"beyond the end", 0, 9, []Span{sp(3, 3), sp(12, 14)}, "0-2 4-9"},
		{"empty parent", 9, 3, nil, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := fmtSpans(collect(t, Gaps(NumOf(c.lo), NumOf(c.hi), Spans(c.used))))
			if got != c.want {
				t.Errorf("gaps %q, want %q", got, c.want)
			}
		})
	}
}

// TestGapsLazy: stopping after the first gap reads no more used spans
// than needed to find it.
func TestGapsLazy(t *testing.T) {
	read := 0
	used := func(yield func(Span, error) bool) {
		for i := uint64(0); ; i += 2 {
			read++
			if !yield(sp(i, i), nil) {
				return
			}
		}
	}
	for g := range Gaps(NumOf(0), Max, used) {
		if g.Lo.Lo != 1 || g.Hi.Lo != 1 {
			t.Fatalf("first gap %v", g)
		}
		break
	}
	if read != 2 {
		t.Fatalf("read %d used spans for the first gap", read)
	}
}

func TestGapsError(t *testing.T) {
	boom := errors.New("boom")
	used := func(yield func(Span, error) bool) { yield(Span{}, boom) }
	for _, err := range Gaps(NumOf(0), NumOf(9), used) {
		if !errors.Is(err, boom) {
			t.Fatalf("error %v", err)
		}
	}
}

func TestMerge(t *testing.T) {
	got := fmtSpans(collect(t, Merge(Spans([]Span{sp(1, 1), sp(5, 9)}), Spans([]Span{sp(0, 2), sp(6, 6), sp(20, 20)}), Spans(nil))))
	if want := "0-2 1-1 5-9 6-6 20-20"; got != want {
		t.Fatalf("merge %q, want %q", got, want)
	}
	// Stopping early stops every source.
	for range Merge(Spans([]Span{sp(1, 1)}), Spans([]Span{sp(0, 0)})) {
		break
	}
}

// TestPaged: batches resume past the highest end seen, skipping nested
// spans, and grow.
func TestPaged(t *testing.T) {
	var rows []Span // /28 blocks of 16 with a nested /30 each, by Lo
	for i := uint64(0); i < 2000; i++ {
		rows = append(rows, sp(i*16, i*16+15), sp(i*16, i*16+3))
	}
	var limits []int
	fetch := func(from Num, limit int) ([]Span, error) {
		limits = append(limits, limit)
		var out []Span
		for _, r := range rows {
			if !r.Lo.Less(from) && len(out) < limit {
				out = append(out, r)
			}
		}
		return out, nil
	}
	got := collect(t, Paged(NumOf(0), fetch))
	gaps := collect(t, Gaps(NumOf(0), NumOf(2000*16+5), Spans(got)))
	if fmtSpans(gaps) != "32000-32005" {
		t.Fatalf("gaps %s", fmtSpans(gaps))
	}
	if len(limits) < 3 || limits[0] != firstBatch || limits[1] != 2*firstBatch {
		t.Fatalf("batches %v", limits)
	}
}

func TestTakeBlock(t *testing.T) {
	// 10.0.0.0/24 with 10.0.0.0/26 and 10.0.0.128/28 used.
	base := NumFromAddr(netip.MustParseAddr("10.0.0.0"))
	at := func(n uint64) Num { x, _ := base.Add(NumOf(n)); return x }
	gaps := Gaps(at(0), at(255), Spans([]Span{{at(0), at(63)}, {at(128), at(143)}}))
	f := NewFree(gaps)
	defer f.Close()
	for _, c := range []struct {
		length int
		want   string
	}{
		{30, "10.0.0.64/30"},
		{26, "10.0.0.192/26"},
		{32, "10.0.0.68/32"},
		{27, "10.0.0.96/27"},
		{28, "10.0.0.80/28"},
		{28, "10.0.0.144/28"},
		{26, ""}, // no /26 left
		{29, "10.0.0.72/29"},
	} {
		b, ok, err := f.TakeBlock(hostBits(4, c.length))
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if ok {
			got = netip.PrefixFrom(b.Lo.Addr(4), c.length).String()
		}
		if got != c.want {
			t.Fatalf("/%d: %q, want %q", c.length, got, c.want)
		}
	}
}

func TestTakeBlockWholeSpace(t *testing.T) {
	f := NewFree(Gaps(Num{}, Max, Spans(nil)))
	defer f.Close()
	b, ok, _ := f.TakeBlock(128)
	if !ok || b.Lo != (Num{}) || b.Hi != Max {
		t.Fatalf("::/0: %v %v", b, ok)
	}
	if _, ok, _ := f.TakeOne(); ok {
		t.Fatal("space left after ::/0")
	}
}

func TestCIDRs(t *testing.T) {
	for _, c := range []struct {
		lo, hi string
		want   []string
	}{
		{"10.0.0.1", "10.0.0.6", []string{"10.0.0.1/32", "10.0.0.2/31", "10.0.0.4/31", "10.0.0.6/32"}},
		{"10.0.0.0", "10.0.0.255", []string{"10.0.0.0/24"}},
		{"10.0.0.64", "10.0.0.127", []string{"10.0.0.64/26"}},
		{"2001:db8::", "2001:db8::ffff:ffff:ffff:ffff", []string{"2001:db8::/64"}},
		{"::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", []string{"::/0"}},
		{"ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", []string{"ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe/127"}},
	} {
		lo, hi := netip.MustParseAddr(c.lo), netip.MustParseAddr(c.hi)
		fam := 6
		if lo.Is4() {
			fam = 4
		}
		var got []string
		for n, h := range CIDRs(Span{NumFromAddr(lo), NumFromAddr(hi)}) {
			bits := 128 - h
			if fam == 4 {
				bits = 32 - h
			}
			got = append(got, netip.PrefixFrom(n.Addr(fam), bits).String())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s-%s: %v, want %v", c.lo, c.hi, got, c.want)
		}
	}
}

func TestRequested(t *testing.T) {
	for _, c := range []struct {
		body    string
		n       int
		list    bool
		invalid bool
	}{
		{"", 1, false, false},
		{`{"prefix_length": 24}`, 1, false, false},
		{`[{"a": 1}, {}]`, 2, true, false},
		{`[]`, 0, true, false},
		{`"x"`, 0, false, true},
		{`[{}, 3]`, 0, true, true},
	} {
		objs, list, err := requested([]byte(c.body))
		if (err != nil) != c.invalid || list != c.list || len(objs) != c.n {
			t.Errorf("%q: %d objects, list %v, error %v", c.body, len(objs), list, err)
		}
	}
}

// TestPoints: dense runs are skipped with one run call each, not read,
// and the gaps are those of reading every row; duplicates count once.
func TestPoints(t *testing.T) {
	mkUsed := func(runs ...[2]uint64) []uint64 {
		var out []uint64
		for _, r := range runs {
			for v := r[0]; v <= r[1]; v++ {
				out = append(out, v)
			}
		}
		return out
	}
	for _, c := range []struct {
		name    string
		used    []uint64
		lo, hi  uint64
		maxRows int // rows fetch may return in all
		maxRuns int // run statements
	}{
		{"dense from the start", mkUsed([2]uint64{1, 50000}, [2]uint64{50005, 50010}), 1, 70000, 2 * firstBatch, 1},
		{"sparse", mkUsed([2]uint64{1, 1}, [2]uint64{3, 3}, [2]uint64{900, 905}), 1, 1000, 100, 0},
		{"dense to the end", mkUsed([2]uint64{10, 9000}), 10, 9000, 2 * firstBatch, 1},
		{"duplicates inside a run", append(mkUsed([2]uint64{1, 3000}), 7, 7, 8), 1, 4000, 4 * firstBatch, 1},
		{"a gap inside the first batch", mkUsed([2]uint64{1, 100}, [2]uint64{102, 5000}), 1, 6000, 6000, 1},
		{"two runs", mkUsed([2]uint64{1, 3000}, [2]uint64{3002, 9000}), 1, 9500, 4 * firstBatch, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			used := slices.Clone(c.used)
			slices.Sort(used)
			rows := 0
			fetch := func(from Num, limit int) ([]Span, error) {
				var out []Span
				for _, v := range used {
					if v >= from.Lo && v <= c.hi && len(out) < limit {
						out = append(out, sp(v, v))
					}
				}
				rows += len(out)
				return out, nil
			}
			// run: the first free number at or after from, in one call.
			runs := 0
			run := func(from Num) (Num, error) {
				runs++
				n := from.Lo
				for slices.Contains(used, n) && n <= c.hi {
					n++
				}
				return NumOf(n), nil
			}
			var naive []Span
			for _, v := range used {
				naive = append(naive, sp(v, v))
			}
			want := fmtSpans(collect(t, Gaps(NumOf(c.lo), NumOf(c.hi), Spans(naive))))
			got := fmtSpans(collect(t, Gaps(NumOf(c.lo), NumOf(c.hi), Points(NumOf(c.lo), fetch, run))))
			if got != want {
				t.Fatalf("gaps %q, want %q", got, want)
			}
			if rows > c.maxRows {
				t.Fatalf("read %d rows", rows)
			}
			if runs > c.maxRuns {
				t.Fatalf("%d runs", runs)
			}
		})
	}
}
