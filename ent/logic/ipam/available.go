package ipam

import (
	"encoding/binary"
	"iter"
	"math/bits"
	"net/netip"
)

// The allocator behind the available-* endpoints (available_*.go): what
// is free in a parent (a prefix, an IP range, a VLAN group, an ASN range)
// is the parent's span minus the spans its children use, walked in order.
// Children come from indexed range queries in batches (Paged), merged when
// they come from several sources (Merge), and the walk (Gaps) yields the
// free spans lazily: the first page of available IPs of an IPv6 /64 reads
// the first children only, never the space.
//
// Every number is a Num: an address in its 16-byte stored form (IPv4
// v4-mapped, ent/schema/ipnet), a VLAN ID or an ASN.

// Num is an unsigned 128-bit number.
type Num struct{ Hi, Lo uint64 }

// NumOf is a small number.
func NumOf(v uint64) Num { return Num{Lo: v} }

// NumFromBytes reads a 16-byte stored address (big endian); other lengths
// read as 0.
func NumFromBytes(b []byte) Num {
	if len(b) != 16 {
		return Num{}
	}
	return Num{Hi: binary.BigEndian.Uint64(b[:8]), Lo: binary.BigEndian.Uint64(b[8:])}
}

// NumFromAddr is an address's stored form as a number.
func NumFromAddr(a netip.Addr) Num {
	b := a.As16()
	return NumFromBytes(b[:])
}

// Bytes is the 16-byte stored form.
func (n Num) Bytes() []byte {
	b := make([]byte, 16)
	binary.BigEndian.PutUint64(b[:8], n.Hi)
	binary.BigEndian.PutUint64(b[8:], n.Lo)
	return b
}

// Addr is the number as an address of family 4 (unmapped) or 6.
func (n Num) Addr(family int) netip.Addr {
	a := netip.AddrFrom16([16]byte(n.Bytes()))
	if family == 4 {
		return a.Unmap()
	}
	return a
}

// Uint64 is the low half (VLAN IDs and ASNs).
func (n Num) Uint64() uint64 { return n.Lo }

// Cmp compares numerically.
func (n Num) Cmp(m Num) int {
	switch {
	case n.Hi < m.Hi || n.Hi == m.Hi && n.Lo < m.Lo:
		return -1
	case n == m:
		return 0
	}
	return 1
}

// Less is n < m.
func (n Num) Less(m Num) bool { return n.Cmp(m) < 0 }

// Max is the largest Num.
var Max = Num{Hi: ^uint64(0), Lo: ^uint64(0)}

// Add is n + m and whether it overflowed.
func (n Num) Add(m Num) (Num, bool) {
	lo, c := bits.Add64(n.Lo, m.Lo, 0)
	hi, c := bits.Add64(n.Hi, m.Hi, c)
	return Num{hi, lo}, c != 0
}

// Sub is n - m (m <= n).
func (n Num) Sub(m Num) Num {
	lo, b := bits.Sub64(n.Lo, m.Lo, 0)
	hi, _ := bits.Sub64(n.Hi, m.Hi, b)
	return Num{hi, lo}
}

// Next is n + 1 and whether it overflowed.
func (n Num) Next() (Num, bool) { return n.Add(NumOf(1)) }

// Prev is n - 1 (n > 0).
func (n Num) Prev() Num { return n.Sub(NumOf(1)) }

// mask is 2^h - 1: the host part of a block of 2^h numbers.
func mask(h int) Num {
	switch {
	case h <= 0:
		return Num{}
	case h >= 128:
		return Max
	case h >= 64:
		return Num{Hi: 1<<(h-64) - 1, Lo: ^uint64(0)}
	}
	return Num{Lo: 1<<h - 1}
}

func (n Num) or(m Num) Num     { return Num{n.Hi | m.Hi, n.Lo | m.Lo} }
func (n Num) andNot(m Num) Num { return Num{n.Hi &^ m.Hi, n.Lo &^ m.Lo} }

// trailingZeros counts the low zero bits (128 for 0).
func (n Num) trailingZeros() int {
	if n.Lo != 0 {
		return bits.TrailingZeros64(n.Lo)
	}
	return 64 + bits.TrailingZeros64(n.Hi)
}

// bitLen is the number of bits needed to write n.
func (n Num) bitLen() int {
	if n.Hi != 0 {
		return 64 + bits.Len64(n.Hi)
	}
	return bits.Len64(n.Lo)
}

// Span is an inclusive interval of numbers.
type Span struct{ Lo, Hi Num }

// Items is a sequence of spans with the error that ended it.
type Items = iter.Seq2[Span, error]

// Spans yields fixed spans (sorted by the caller).
func Spans(s []Span) Items {
	return func(yield func(Span, error) bool) {
		for _, x := range s {
			if !yield(x, nil) {
				return
			}
		}
	}
}

// Gaps yields the spans of [lo, hi] that no used span covers, in order.
// used yields spans sorted by Lo; they may overlap, nest and reach beyond
// [lo, hi]. It is read only as far as the caller consumes gaps.
func Gaps(lo, hi Num, used Items) Items {
	return func(yield func(Span, error) bool) {
		if hi.Less(lo) {
			return
		}
		cand := lo // the first number not known to be used
		for u, err := range used {
			if err != nil {
				yield(Span{}, err)
				return
			}
			if u.Hi.Less(cand) {
				continue
			}
			if hi.Less(u.Lo) {
				break
			}
			if cand.Less(u.Lo) && !yield(Span{cand, u.Lo.Prev()}, nil) {
				return
			}
			if !u.Hi.Less(hi) {
				return // used up to the end
			}
			cand, _ = u.Hi.Next()
		}
		yield(Span{cand, hi}, nil)
	}
}

// Merge yields the spans of several sequences sorted by Lo, each already
// sorted by Lo, reading each only as far as needed.
func Merge(seqs ...Items) Items {
	if len(seqs) == 1 {
		return seqs[0]
	}
	return func(yield func(Span, error) bool) {
		type head struct {
			next func() (Span, error, bool)
			stop func()
			cur  Span
			ok   bool
		}
		heads := make([]*head, len(seqs))
		for i, s := range seqs {
			next, stop := iter.Pull2(s)
			defer stop()
			heads[i] = &head{next: next, stop: stop}
			h := heads[i]
			var err error
			h.cur, err, h.ok = next()
			if err != nil {
				yield(Span{}, err)
				return
			}
		}
		for {
			var min *head
			for _, h := range heads {
				if h.ok && (min == nil || h.cur.Lo.Less(min.cur.Lo)) {
					min = h
				}
			}
			if min == nil {
				return
			}
			if !yield(min.cur, nil) {
				return
			}
			var err error
			min.cur, err, min.ok = min.next()
			if err != nil {
				yield(Span{}, err)
				return
			}
		}
	}
}

// Paged yields spans fetched in batches: fetch(from, limit) returns up to
// limit spans whose Lo is at least from, sorted by Lo. The next batch
// starts past the highest Hi seen, which skips the spans nested in one
// already seen: the spans must nest or be disjoint (CIDRs; single
// addresses). Batches start at firstBatch rows and double up to maxBatch.
func Paged(from Num, fetch func(from Num, limit int) ([]Span, error)) Items {
	return func(yield func(Span, error) bool) {
		for batch := firstBatch; ; batch = min(2*batch, maxBatch) {
			got, err := fetch(from, batch)
			if err != nil {
				yield(Span{}, err)
				return
			}
			top := from
			for _, s := range got {
				if !yield(s, nil) {
					return
				}
				if !s.Hi.Less(top) {
					top = s.Hi
				}
			}
			if len(got) < batch {
				return
			}
			next, over := top.Next()
			if over {
				return
			}
			from = next
		}
	}
}

// Points is Paged for single numbers (addresses' hosts, ASNs), with runs
// where every number is used skipped instead of read: after a full batch
// of consecutive numbers, run(from) finds, in one statement
// (runStatement), the first number at or after from that is not used (or
// a point short of it, every number before it used, where the statement
// stopped at its window's end), and the run comes out as one span. A /16
// whose first 50,000 addresses are taken then costs a handful of
// statements, whatever the run's length, instead of 50,000 rows.
func Points(from Num, fetch func(from Num, limit int) ([]Span, error), run func(from Num) (Num, error)) Items {
	return func(yield func(Span, error) bool) {
		for batch := firstBatch; ; batch = min(2*batch, maxBatch) {
			got, err := fetch(from, batch)
			if err != nil {
				yield(Span{}, err)
				return
			}
			for _, s := range got {
				if !yield(s, nil) {
					return
				}
			}
			if len(got) < batch {
				return
			}
			top := got[len(got)-1].Hi
			next, over := top.Next()
			if over {
				return
			}
			from = next
			// A full batch of consecutive numbers: probably a dense run.
			if span, _ := top.Sub(got[0].Lo).Add(NumOf(1)); span != NumOf(uint64(len(got))) {
				continue
			}
			end, err := run(from)
			if err != nil {
				yield(Span{}, err)
				return
			}
			if end == from {
				continue
			}
			if !yield(Span{from, end.Prev()}, nil) {
				return
			}
			// The run's end is free (or where the statement stopped):
			// the gaps are in the next rows, start small again.
			from, batch = end, firstBatch/2
		}
	}
}

// Free is the free space of a parent as the allocator consumes it: gaps
// pulled from a Gaps sequence as far as a request needs, and carved as
// blocks are taken, so that the objects of one request get distinct
// numbers.
type Free struct {
	next  func() (Span, error, bool)
	stop  func()
	spans []Span // pulled and not yet taken, in order
	done  bool
}

// NewFree consumes gaps; Close releases them.
func NewFree(gaps Items) *Free {
	next, stop := iter.Pull2(gaps)
	return &Free{next: next, stop: stop}
}

// Close stops reading the gaps.
func (f *Free) Close() { f.stop() }

// pull reads one more gap; false when none is left.
func (f *Free) pull() (bool, error) {
	if f.done {
		return false, nil
	}
	s, err, ok := f.next()
	if err != nil {
		return false, err
	}
	if !ok {
		f.done = true
		return false, nil
	}
	f.spans = append(f.spans, s)
	return true, nil
}

// TakeBlock takes the lowest free block of 2^h numbers aligned on its
// size (a CIDR of 128-h bits in the stored space), as NetBox's
// get_next_available_prefix finds it; ok is false when none is left.
func (f *Free) TakeBlock(h int) (Span, bool, error) {
	m := mask(h)
	for i := 0; ; i++ {
		if i == len(f.spans) {
			more, err := f.pull()
			if err != nil || !more {
				return Span{}, false, err
			}
		}
		s := f.spans[i]
		up, over := s.Lo.Add(m)
		if over {
			continue
		}
		start := up.andNot(m)
		end := start.or(m)
		if s.Hi.Less(end) {
			continue
		}
		f.carve(i, start, end)
		return Span{start, end}, true, nil
	}
}

// TakeOne takes the lowest free number.
func (f *Free) TakeOne() (Num, bool, error) {
	b, ok, err := f.TakeBlock(0)
	return b.Lo, ok, err
}

// carve removes [start, end] from spans[i], which holds it.
func (f *Free) carve(i int, start, end Num) {
	s := f.spans[i]
	var keep []Span
	if s.Lo.Less(start) {
		keep = append(keep, Span{s.Lo, start.Prev()})
	}
	if end.Less(s.Hi) {
		n, _ := end.Next()
		keep = append(keep, Span{n, s.Hi})
	}
	f.spans = append(f.spans[:i], append(keep, f.spans[i+1:]...)...)
}

// CIDRs yields the largest aligned blocks that make up a span, in order
// (netaddr's iter_cidrs), as host bits h: the block is [lo, lo + 2^h - 1].
func CIDRs(s Span) iter.Seq2[Num, int] {
	return func(yield func(Num, int) bool) {
		lo := s.Lo
		for !s.Hi.Less(lo) {
			h := lo.trailingZeros()
			// The largest h with 2^h <= hi - lo + 1.
			count := s.Hi.Sub(lo)
			fit := 128
			if count != Max {
				c, _ := count.Next()
				fit = c.bitLen() - 1
			}
			h = min(h, fit)
			if !yield(lo, h) {
				return
			}
			end := lo.or(mask(h))
			next, over := end.Next()
			if over {
				return
			}
			lo = next
		}
	}
}
