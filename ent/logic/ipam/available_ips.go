package ipam

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/netip"
	"slices"
	"strings"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/ent/schema/ipnet"
)

// GET and POST /api/ipam/prefixes/{id}/available-ips/ and
// /api/ipam/ip-ranges/{id}/available-ips/ (NetBox's
// AvailableIPAddressesView): the free addresses of a prefix are its usable
// span (Prefix.usable_ip_bounds) minus the hosts of its IP addresses and
// the IP ranges marked populated in it; those of an IP range are its span
// minus its addresses' hosts, none when it is marked populated. Hosts are
// read in host order from the index (vrf_key, family, host) of
// ipam_ipaddress, a batch at a time, so the first page of an IPv6 /64
// reads a few rows; a run of used hosts is stepped over inside the
// database in one statement (available_run.go).

// AvailableIP is NetBox's AvailableIPSerializer.
type AvailableIP struct {
	Family  int             `json:"family"`
	Address string          `json:"address"`
	VRF     json.RawMessage `json:"vrf"`
}

// ipParent is a prefix or an IP range as the allocator reads it.
type ipParent struct {
	family    int
	first     Num // the usable span
	last      Num
	mask      int  // NetBox's mask_length: the length given to addresses made
	vrf       int  // 0: global
	anyVRF    bool // a global container: addresses of every VRF count
	populated bool // a range marked populated: nothing is free
	// ranges: the prefix's populated IP ranges count as used.
	ranges bool
	span   Span // the prefix's whole span (for its IP ranges)
}

func prefixIPParent(r api.Request) (ipParent, error) {
	p, err := prefixOf(r)
	if err != nil {
		return ipParent{}, err
	}
	fam, bits := p.key.Family, p.prefix.Bits()
	sp := p.span()
	first, last := sp.Lo, sp.Hi
	// usable_ip_bounds: pools and point-to-point prefixes use every
	// address; otherwise IPv4 leaves out the network and broadcast
	// addresses, IPv6 the subnet-router anycast address.
	if !p.isPool && !(fam == 4 && bits >= 31) && !(fam == 6 && bits >= 127) {
		first, _ = first.Next()
		if fam == 4 {
			last = last.Prev()
		}
	}
	return ipParent{family: fam, first: first, last: last, mask: bits, vrf: p.vrf,
		anyVRF: p.vrf == 0 && p.status == "container", ranges: true, span: sp}, nil
}

func rangeIPParent(r api.Request) (ipParent, error) {
	obj := r.Object()
	s, _ := obj("start_address").(string)
	e, _ := obj("end_address").(string)
	start, ok1 := ipnet.ParseLoose(s)
	end, ok2 := ipnet.ParseLoose(e)
	if !ok1 || !ok2 {
		return ipParent{}, fmt.Errorf("stored IP range %q-%q", s, e)
	}
	populated, _ := obj("mark_populated").(bool)
	return ipParent{family: ipnet.Family(start.Addr()), first: NumFromAddr(start.Addr()), last: NumFromAddr(end.Addr()),
		mask: start.Bits(), vrf: fieldInt(obj("vrf")), populated: populated}, nil
}

// hosts yields the hosts of the IP addresses in [p.first, p.last]: of
// p's VRF, or of every VRF (the index (family, host)).
func (p ipParent) hosts(r api.Request) Items {
	// where selects the hosts from `from` to the end of the span.
	where := func(a *rawsql.Args, from Num) string {
		w := " FROM ipam_ipaddress WHERE "
		if !p.anyVRF {
			w += "vrf_key = " + a.P(p.vrf) + " AND "
		}
		return w + "family = " + a.P(p.family) + " AND host >= " + a.P(from.Bytes()) + " AND host <= " + a.P(p.last.Bytes())
	}
	fetch := func(from Num, limit int) ([]Span, error) {
		a := &rawsql.Args{PG: r.Postgres()}
		q := "SELECT host" + where(a, from) + " ORDER BY host LIMIT " + a.P(limit)
		var out []Span
		err := query(r, q, a, func(rows *sql.Rows) error {
			var h []byte
			if err := rows.Scan(&h); err != nil {
				return err
			}
			n := NumFromBytes(h)
			out = append(out, Span{n, n})
			return nil
		})
		return out, err
	}
	run := func(from Num) (Num, error) {
		if p.last.Less(from) {
			return from, nil
		}
		filter := func(P func(any) string) string {
			w := "FROM ipam_ipaddress WHERE "
			if !p.anyVRF {
				w += "vrf_key = " + P(p.vrf) + " AND "
			}
			return w + "family = " + P(p.family) + " AND "
		}
		q, a := hostRun(r.Postgres(), filter, from, p.last)
		return runEnd(r, q, a, from)
	}
	return Points(p.first, fetch, run)
}

// populatedRanges are the IP ranges marked populated that lie in the
// prefix, in its VRF (Prefix.get_child_ranges(mark_populated=True)),
// clipped to the usable span and sorted.
func (p ipParent) populatedRanges(r api.Request) ([]Span, error) {
	a := &rawsql.Args{PG: r.Postgres()}
	lo, hi := p.span.Lo.Bytes(), p.span.Hi.Bytes()
	q := "SELECT start_host, end_host FROM ipam_iprange WHERE vrf_key = " + a.P(p.vrf) + " AND family = " + a.P(p.family) +
		" AND start_host >= " + a.P(lo) + " AND start_host <= " + a.P(hi) + " AND end_host >= " + a.P(lo) + " AND end_host <= " + a.P(hi) +
		" AND mark_populated = " + a.P(true)
	var out []Span
	err := query(r, q, a, func(rows *sql.Rows) error {
		var s, e []byte
		if err := rows.Scan(&s, &e); err != nil {
			return err
		}
		sp := Span{NumFromBytes(s), NumFromBytes(e)}
		if sp.Lo.Less(p.first) {
			sp.Lo = p.first
		}
		if p.last.Less(sp.Hi) {
			sp.Hi = p.last
		}
		if !sp.Hi.Less(sp.Lo) {
			out = append(out, sp)
		}
		return nil
	})
	slices.SortFunc(out, func(a, b Span) int { return a.Lo.Cmp(b.Lo) })
	return out, err
}

// free walks the free addresses of p.
func (p ipParent) free(r api.Request) (Items, error) {
	if p.populated || p.last.Less(p.first) {
		return Spans(nil), nil
	}
	used := p.hosts(r)
	if p.ranges {
		rs, err := p.populatedRanges(r)
		if err != nil {
			return nil, err
		}
		used = Merge(Spans(rs), used)
	}
	return Gaps(p.first, p.last, used), nil
}

// PrefixAvailableIPs serves GET on a prefix.
func PrefixAvailableIPs(r api.Request) (any, error) {
	p, err := prefixIPParent(r)
	if err != nil {
		return nil, err
	}
	return availableIPs(r, p)
}

// RangeAvailableIPs serves GET on an IP range.
func RangeAvailableIPs(r api.Request) (any, error) {
	p, err := rangeIPParent(r)
	if err != nil {
		return nil, err
	}
	return availableIPs(r, p)
}

// availableIPs lists the first ?limit free addresses, each with the
// parent's mask length and VRF.
func availableIPs(r api.Request, p ipParent) (any, error) {
	vrf, err := related(r, "ipam.vrf", p.vrf)
	if err != nil {
		return nil, err
	}
	free, err := p.free(r)
	if err != nil {
		return nil, err
	}
	limit := r.Limit()
	out := []AvailableIP{}
	for g, err := range free {
		if err != nil {
			return nil, err
		}
		for n := g.Lo; len(out) < limit; {
			out = append(out, AvailableIP{Family: p.family, Address: netip.PrefixFrom(n.Addr(p.family), p.mask).String(), VRF: vrf})
			if n == g.Hi {
				break
			}
			n, _ = n.Next()
		}
		if len(out) >= limit {
			break
		}
	}
	return out, nil
}

// AllocatePrefixIPs serves POST on a prefix.
func AllocatePrefixIPs(r api.Request) (any, error) {
	p, err := prefixIPParent(r)
	if err != nil {
		return nil, err
	}
	return allocateIPs(r, p)
}

// AllocateRangeIPs serves POST on an IP range.
func AllocateRangeIPs(r api.Request) (any, error) {
	p, err := rangeIPParent(r)
	if err != nil {
		return nil, err
	}
	return allocateIPs(r, p)
}

// allocateIPs makes each requested object, in order, an IP address at the
// next free address of the parent, in its VRF, with the object's
// prefix_length (NetBox's AvailableIPRequestSerializer: at least the
// parent's mask length) or the parent's mask length.
func allocateIPs(r api.Request, p ipParent) (any, error) {
	objs, list, err := requested(r.Body())
	if err != nil {
		return nil, err
	}
	lengths, err := ipLengths(objs, p)
	if err != nil {
		return nil, err
	}
	// A global container reads the addresses of every VRF: it excludes
	// every other IP allocation; the others exclude those of their VRF
	// and share the key of all VRFs.
	if p.anyVRF {
		err = r.Lock(lockIPs, lockAllVRFs, false)
	} else if err = r.Lock(lockIPs, lockAllVRFs, true); err == nil {
		err = r.Lock(lockIPs, int32(p.vrf), false)
	}
	if err != nil {
		return nil, err
	}
	gaps, err := p.free(r)
	if err != nil {
		return nil, err
	}
	free := NewFree(gaps)
	defer free.Close()
	for i, obj := range objs {
		n, ok, err := free.TakeOne()
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, errInsufficient
		}
		addr := netip.PrefixFrom(n.Addr(p.family), lengths[i]).String()
		if objs[i], err = with(obj, map[string]any{"address": addr, "vrf": nullable(p.vrf)}, "prefix_length"); err != nil {
			return nil, err
		}
	}
	return created(r, "ipam.ipaddress", objs, list)
}

// ipLengths reads the optional prefix_length of each object.
func ipLengths(objs []map[string]json.RawMessage, p ipParent) ([]int, error) {
	out := make([]int, len(objs))
	errs := make(api.ItemErrors, len(objs))
	bad := false
	for i, obj := range objs {
		errs[i] = map[string][]string{}
		out[i] = p.mask
		raw, ok := obj["prefix_length"]
		if !ok {
			continue
		}
		// DRF's IntegerField takes a number or a string of one.
		var n int
		var str string
		quoted := json.Unmarshal(raw, &str) == nil
		if quoted {
			raw = []byte(strings.TrimSpace(str))
		}
		switch {
		case string(raw) == "null" && !quoted:
			errs[i]["prefix_length"], bad = []string{"This field may not be null."}, true
		case json.Unmarshal(raw, &n) != nil:
			errs[i]["prefix_length"], bad = []string{"A valid integer is required."}, true
		case n < p.mask:
			errs[i]["prefix_length"], bad = []string{fmt.Sprintf("Prefix length must be greater than or equal to the parent mask length (%d)", p.mask)}, true
		case n > ipnet.Bits(p.family):
			errs[i]["prefix_length"], bad = []string{fmt.Sprintf("Invalid prefix length (%d) for IPv%d", n, p.family)}, true
		default:
			out[i] = n
		}
	}
	if bad {
		return nil, errs
	}
	return out, nil
}
