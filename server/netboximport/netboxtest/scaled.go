package netboxtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/netip"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Scaled is base replicated factor times: a synthetic NetBox for
// benchmarks at scale (issue 35: "a synthetic set 100 times larger").
//
// Copy k (0 ≤ k < factor) of the object of id i has id (i-1)·factor+k+1,
// so the copies of an object follow it in id order and a page of base makes
// factor pages of Scaled, streamed: memory stays that of a page whatever the
// factor. Every reference within an object (a nested object's id, url and
// display_url, a generic <x>_type/<x>_id pair, a cable termination's
// object_id, cable-terminations' cable, port mappings' rear_port/front_port,
// tags) goes to the same copy. Copy 0 keeps base's values; copies 1.. get
// unique ones where NetBox wants them unique: slug, username, asset_tag
// and (except on components, named per parent) name get "-k"; route
// distinguishers and route targets of the form A:N get N+k·10⁶; ASNs move
// by a power of two above base's span; IP prefixes, ranges and addresses
// move with their enclosing top-level block (an aggregate, a prefix or
// address in none) to a free aligned block of the same size, so containment
// and depth are kept and blocks do not overlap. A display made of changed
// values, the object's own or its nested objects' (a name, an address,
// "#<id>", "(<id>)"), follows them.
//
// Scaled reads base page by page; a page after an id (the fake NetBox's
// paging) starts there directly when base is a Seeker (Memory: Load the
// demo set once), else reads base from its start.
//
// The address space bounds the factor (the demo set's IPv4 blocks have room
// for about 180 copies, its ASNs for thousands): a copy past it fails with
// an error naming the value, when one is met.
//
// Object types, custom fields and custom field choice sets are not
// replicated (they are per model, not per object): references to them keep
// their ids and those endpoints keep base's count.
func Scaled(base Source, factor int) Source {
	return &scaled{base: base, f: max(factor, 1), PageSize: 1000}
}

// sharedEndpoints are read from base as they are (see Scaled).
var sharedEndpoints = map[string]bool{
	"core/object-types":               true,
	"extras/custom-fields":            true,
	"extras/custom-field-choice-sets": true,
}

var sharedTypes = map[string]bool{
	"core.objecttype": true, "contenttypes.contenttype": true,
	"extras.customfield": true, "extras.customfieldchoiceset": true,
}

// perParent are endpoints whose names are unique only per parent (a
// device, a type), which copies with it: their names are kept.
func perParent(endpoint string) bool {
	switch endpoint {
	case "dcim/interfaces", "dcim/console-ports", "dcim/console-server-ports", "dcim/power-ports",
		"dcim/power-outlets", "dcim/front-ports", "dcim/rear-ports", "dcim/device-bays", "dcim/module-bays",
		"dcim/inventory-items", "virtualization/interfaces", "virtualization/virtual-disks":
		return true
	}
	return strings.HasPrefix(endpoint, "dcim/") && strings.HasSuffix(endpoint, "-templates")
}

// bareRefs are keys whose integer value is an object's id.
var bareRefs = map[string]bool{"cable": true, "rear_port": true, "front_port": true}

var ipKeys = map[string]bool{"address": true, "prefix": true, "start_address": true, "end_address": true}

var asnPair = regexp.MustCompile(`^(\d+):(\d+)$`)

type scaled struct {
	base     Source
	f        int
	PageSize int

	mu    sync.Mutex
	ready bool
	ips   *ipMapper
	asn0  int64 // ASN step
	asnHi int64
}

func (s *scaled) Status(ctx context.Context) (map[string]any, error) { return s.base.Status(ctx) }

func (s *scaled) Endpoints(ctx context.Context) ([]string, error) {
	if l, ok := s.base.(Lister); ok {
		return l.Endpoints(ctx)
	}
	return nil, fmt.Errorf("netboxtest.Scaled: %T does not list its endpoints", s.base)
}

func (s *scaled) Count(ctx context.Context, endpoint string) (int, error) {
	n, err := s.base.Count(ctx, endpoint)
	if sharedEndpoints[endpoint] {
		return n, err
	}
	return n * s.f, err
}

func (s *scaled) Pages(ctx context.Context, endpoint string, fn func([]json.RawMessage) error) error {
	return s.PagesAfter(ctx, endpoint, 0, fn)
}

// split is a scaled id's base id and copy.
func (s *scaled) split(id int) (int, int) { return (id-1)/s.f + 1, (id - 1) % s.f }

func (s *scaled) id(baseID, k int) int { return (baseID-1)*s.f + k + 1 }

// CountAfter counts base's objects up to the one after's copies come from.
func (s *scaled) CountAfter(ctx context.Context, endpoint string, after int) (int, error) {
	if sharedEndpoints[endpoint] || s.f == 1 {
		n := 0
		err := pagesAfter(ctx, s.base, endpoint, after, func(objs []json.RawMessage) error { n += len(objs); return nil })
		return n, err
	}
	total, err := s.Count(ctx, endpoint)
	if err != nil || after <= 0 {
		return total, err
	}
	b, k := s.split(after)
	before := 0 // scaled objects of ids up to after
	err = s.base.Pages(ctx, endpoint, func(objs []json.RawMessage) error {
		for _, o := range objs {
			id, err := ObjectID(o)
			if err != nil {
				return err
			}
			switch {
			case id < b:
				before += s.f
			case id == b:
				before += k + 1
				return errStop
			default:
				return errStop
			}
		}
		return nil
	})
	if err != nil && err != errStop {
		return 0, err
	}
	return total - before, nil
}

func (s *scaled) PagesAfter(ctx context.Context, endpoint string, after int, fn func([]json.RawMessage) error) error {
	if sharedEndpoints[endpoint] || s.f == 1 {
		return pagesAfter(ctx, s.base, endpoint, after, fn)
	}
	if err := s.prepare(ctx); err != nil {
		return err
	}
	size := s.PageSize
	firstBase, firstK := 0, 0
	if after > 0 {
		firstBase, firstK = s.split(after)
		firstK++
	}
	page := make([]json.RawMessage, 0, size)
	err := pagesAfter(ctx, s.base, endpoint, max(firstBase-1, 0), func(objs []json.RawMessage) error {
		for _, o := range objs {
			id, err := ObjectID(o)
			if err != nil {
				return err
			}
			k0 := 0
			if id == firstBase {
				k0 = firstK
			}
			if k0 >= s.f {
				continue
			}
			v, err := parseJSON(o)
			if err != nil {
				return fmt.Errorf("netboxtest.Scaled: %s %d: %w", endpoint, id, err)
			}
			for k := k0; k < s.f; k++ {
				c, err := s.copyValue(v, k, endpoint, nil)
				if err != nil {
					return fmt.Errorf("netboxtest.Scaled: %s %d copy %d: %w", endpoint, id, k, err)
				}
				b, err := appendJSON(make([]byte, 0, len(o)+64), c)
				if err != nil {
					return err
				}
				page = append(page, b)
				if len(page) == size {
					if err := fn(page); err != nil {
						return err
					}
					page = make([]json.RawMessage, 0, size)
				}
			}
		}
		return nil
	})
	if err == nil && len(page) > 0 {
		err = fn(page)
	}
	return err
}

// prepare reads what replication must know of base beforehand: the IP
// blocks to move and the ASNs' span.
func (s *scaled) prepare(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ready {
		return nil
	}
	var prefixes []netip.Prefix
	var asnLo, asnHi int64 = -1, -1
	scan := func(endpoint string, each func(m map[string]any) error) error {
		return s.base.Pages(ctx, endpoint, func(objs []json.RawMessage) error {
			for _, o := range objs {
				dec := json.NewDecoder(bytes.NewReader(o))
				dec.UseNumber()
				var m map[string]any
				if err := dec.Decode(&m); err != nil {
					return err
				}
				if err := each(m); err != nil {
					return err
				}
			}
			return nil
		})
	}
	for _, ep := range []string{"ipam/aggregates", "ipam/prefixes", "ipam/ip-ranges", "ipam/ip-addresses"} {
		err := scan(ep, func(m map[string]any) error {
			for k := range ipKeys {
				if v, ok := m[k].(string); ok {
					if p, ok := parseIP(v); ok {
						prefixes = append(prefixes, p.Masked())
					}
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	for _, ep := range []string{"ipam/asns", "ipam/asn-ranges"} {
		err := scan(ep, func(m map[string]any) error {
			for _, key := range []string{"asn", "start", "end"} {
				if n, ok := m[key].(json.Number); ok {
					v, _ := n.Int64()
					if asnLo < 0 || v < asnLo {
						asnLo = v
					}
					asnHi = max(asnHi, v)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	s.ips = newIPMapper(prefixes, s.f)
	if asnHi >= 0 {
		step := int64(1)
		for step <= asnHi-asnLo {
			step <<= 1
		}
		s.asn0, s.asnHi = step, asnHi // a copy past 2³²-1 fails when met
	}
	s.ready = true
	return nil
}

func parseIP(v string) (netip.Prefix, bool) {
	if strings.Contains(v, "/") {
		p, err := netip.ParsePrefix(v)
		return p, err == nil
	}
	a, err := netip.ParseAddr(v)
	if err != nil {
		return netip.Prefix{}, false
	}
	return netip.PrefixFrom(a, a.BitLen()), true
}

// endpointOf is the endpoint a NetBox object URL names ("dcim/devices"
// of http://h/api/dcim/devices/3/), and the id's place in it.
func endpointOf(u string) (string, int, int) {
	i := strings.Index(u, "/api/")
	if i < 0 {
		return "", 0, 0
	}
	rest := strings.TrimSuffix(u[i+5:], "/")
	j := strings.LastIndex(rest, "/")
	if j < 0 {
		return "", 0, 0
	}
	if _, err := strconv.Atoi(rest[j+1:]); err != nil {
		return "", 0, 0
	}
	return rest[:j], i + 5 + j + 1, i + 5 + len(rest)
}

// remapURL puts id in the place of the id of u (an API or a UI URL).
func remapURL(u string, id int) string {
	t := strings.TrimSuffix(u, "/")
	j := strings.LastIndex(t, "/")
	if j < 0 {
		return u
	}
	if _, err := strconv.Atoi(t[j+1:]); err != nil {
		return u
	}
	return t[:j+1] + strconv.Itoa(id) + u[len(t):]
}

func (s *scaled) remapNumber(n json.Number, k int) (json.Number, error) {
	id, err := strconv.Atoi(string(n))
	if err != nil {
		return n, fmt.Errorf("id %q is not an integer", n)
	}
	return json.Number(strconv.Itoa(s.id(id, k))), nil
}

// copyValue is v (an object of endpoint, or a value in one) as copy k.
// The values changed in it, old and new, are added to changed: a display
// made of them (a tagged object's "<object> tagged with <tag>") follows.
func (s *scaled) copyValue(v any, k int, endpoint string, changed *[]string) (any, error) {
	switch v := v.(type) {
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			c, err := s.copyValue(x, k, "", changed)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case object:
		return s.copyObject(v, k, endpoint, changed)
	}
	return v, nil
}

func (s *scaled) copyObject(m object, k int, endpoint string, changed *[]string) (object, error) {
	if endpoint == "" {
		if u, ok := m.get("url").(string); ok {
			endpoint, _, _ = endpointOf(u)
		}
	}
	isObject := endpoint != "" && !sharedEndpoints[endpoint]
	out := make(object, 0, len(m))
	var replace []string // old, new pairs for display
	var newID int
	for _, f := range m {
		key, val := f.k, f.v
		var err error
		switch x := val.(type) {
		case json.Number:
			switch {
			case key == "id" && isObject, bareRefs[key]:
				val, err = s.remapNumber(x, k)
				if err == nil {
					replace = append(replace, "#"+string(x), "#"+string(val.(json.Number)))
				}
				if key == "id" {
					newID, _ = strconv.Atoi(string(val.(json.Number)))
					// A module shows "<bay>: <type> (<id>)".
					replace = append(replace, "("+string(x)+")", "("+string(val.(json.Number))+")")
				}
			case strings.HasSuffix(key, "_id") && isGenericType(m.get(strings.TrimSuffix(key, "_id")+"_type")):
				// A generic relation to a shared model (an object type)
				// keeps its id.
				if t := m.get(strings.TrimSuffix(key, "_id") + "_type").(string); !sharedTypes[t] {
					val, err = s.remapNumber(x, k)
				}
			case key == "asn" && s.asn0 > 0 && k > 0:
				a, _ := x.Int64()
				if a+int64(k)*s.asn0 > 4294967295 {
					return nil, fmt.Errorf("ASN %d has no room for copy %d (ASNs end at 4294967295)", a, k)
				}
				val = json.Number(strconv.FormatInt(a+int64(k)*s.asn0, 10))
				replace = append(replace, string(x), string(val.(json.Number)))
			}
		case string:
			if k == 0 || !isObject {
				break // copy 0 keeps base's values; url and display_url follow the id below
			}
			switch {
			case key == "slug" || key == "username" || key == "asset_tag" || key == "name" && !perParent(endpoint):
				val = x + "-" + strconv.Itoa(k)
				if key != "slug" {
					replace = append(replace, x, val.(string))
				}
			case (key == "rd" || key == "name" && endpoint == "ipam/route-targets") && asnPair.MatchString(x):
				p := asnPair.FindStringSubmatch(x)
				n, _ := strconv.ParseInt(p[2], 10, 64)
				val = p[1] + ":" + strconv.FormatInt(n+int64(k)*1000000, 10)
				replace = append(replace, x, val.(string))
			case key == "rd":
				val = x + "-" + strconv.Itoa(k)
			case ipKeys[key]:
				nv, ok, err := s.ips.mapValue(x, k)
				if err != nil {
					return nil, err
				}
				if ok {
					val = nv
					replace = append(replace, x, nv)
					// An IP range shows "<start ip>-<last byte>/<bits>".
					if a, _, ok := strings.Cut(x, "/"); ok {
						na, _, _ := strings.Cut(nv, "/")
						replace = append(replace, a, na)
					}
				}
			}
		case nil, bool:
		default:
			val, err = s.copyValue(val, k, "", &replace)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, field{key, val})
	}
	if isObject {
		for _, key := range []string{"url", "display_url"} {
			if u, ok := out.get(key).(string); ok && newID != 0 {
				out.set(key, remapURL(u, newID))
			}
		}
	}
	if d, ok := out.get("display").(string); ok && len(replace) > 0 {
		// Every changed value the display shows, longest first.
		pairs := make([][2]string, 0, len(replace)/2)
		for i := 0; i < len(replace); i += 2 {
			pairs = append(pairs, [2]string{replace[i], replace[i+1]})
		}
		slices.SortFunc(pairs, func(a, b [2]string) int {
			if len(a[0]) != len(b[0]) {
				return len(b[0]) - len(a[0])
			}
			return strings.Compare(a[0], b[0])
		})
		var b strings.Builder
		for len(d) > 0 {
			matched := false
			for _, p := range pairs {
				// "#7" not in "#71".
				if p[0] != "" && strings.HasPrefix(d, p[0]) && (p[0][0] != '#' || len(d) == len(p[0]) || d[len(p[0])] < '0' || d[len(p[0])] > '9') {
					b.WriteString(p[1])
					d = d[len(p[0]):]
					matched = true
					break
				}
			}
			if !matched {
				b.WriteByte(d[0])
				d = d[1:]
			}
		}
		out.set("display", b.String())
	}
	if changed != nil {
		*changed = append(*changed, replace...)
	}
	return out, nil
}

// isGenericType is a generic relation's type ("dcim.interface").
func isGenericType(v any) bool {
	t, ok := v.(string)
	return ok && strings.Count(t, ".") == 1 && !strings.ContainsAny(t, " /")
}

// ipMapper moves IP blocks: each top-level block of base (one containing
// every other value it overlaps) has, for each copy 1.., a free aligned
// block of the same size.
type ipMapper struct {
	blocks []ipBlock
}

type ipBlock struct {
	p      netip.Prefix
	copies []netip.Addr // copies[k-1]: where copy k's block starts
}

func newIPMapper(prefixes []netip.Prefix, f int) *ipMapper {
	// Top-level blocks: the shortest prefixes first, each kept unless a
	// kept one holds it.
	slices.SortFunc(prefixes, func(a, b netip.Prefix) int {
		if a.Bits() != b.Bits() {
			return a.Bits() - b.Bits()
		}
		return a.Addr().Compare(b.Addr())
	})
	m := &ipMapper{}
	for _, p := range prefixes {
		held := false
		for _, b := range m.blocks {
			if b.p.Contains(p.Addr()) && b.p.Addr().Is4() == p.Addr().Is4() {
				held = true
				break
			}
		}
		if !held {
			m.blocks = append(m.blocks, ipBlock{p: p})
		}
	}
	if f == 1 {
		return m
	}
	for _, v4 := range []bool{true, false} {
		width, start, limit := 128, "2000::", "3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"
		taken := []netip.Prefix{}
		if v4 {
			width, start, limit = 32, "1.0.0.0", "223.255.255.255"
			taken = append(taken, netip.MustParsePrefix("127.0.0.0/8"))
		}
		for _, b := range m.blocks {
			if b.p.Addr().Is4() == v4 {
				taken = append(taken, b.p)
			}
		}
		cursor := addrInt(netip.MustParseAddr(start))
		lim := addrInt(netip.MustParseAddr(limit))
		// Largest blocks first: aligned allocations then leave no holes.
	blocks:
		for i := range m.blocks {
			b := &m.blocks[i]
			if b.p.Addr().Is4() != v4 {
				continue
			}
			size := new(big.Int).Lsh(big.NewInt(1), uint(width-b.p.Bits()))
			mask := new(big.Int).Sub(size, big.NewInt(1))
			for k := 1; k < f; k++ {
				for {
					cursor.Add(cursor, mask).AndNot(cursor, mask) // align up
					end := new(big.Int).Add(cursor, mask)
					if end.Cmp(lim) > 0 {
						// Out of space: the copies past these fail when
						// one of their addresses is met.
						continue blocks
					}
					clash := false
					for _, t := range taken {
						ts, te := prefixRange(t, width)
						if cursor.Cmp(te) <= 0 && end.Cmp(ts) >= 0 {
							cursor.Add(te, big.NewInt(1))
							clash = true
							break
						}
					}
					if !clash {
						break
					}
				}
				a := intAddr(cursor, v4)
				b.copies = append(b.copies, a)
				taken = append(taken, netip.PrefixFrom(a, b.p.Bits()))
				cursor.Add(cursor, size)
			}
		}
	}
	return m
}

func addrInt(a netip.Addr) *big.Int {
	if a.Is4() {
		b := a.As4()
		return new(big.Int).SetBytes(b[:])
	}
	b := a.As16()
	return new(big.Int).SetBytes(b[:])
}

func intAddr(n *big.Int, v4 bool) netip.Addr {
	if v4 {
		var b [4]byte
		n.FillBytes(b[:])
		return netip.AddrFrom4(b)
	}
	var b [16]byte
	n.FillBytes(b[:])
	return netip.AddrFrom16(b)
}

func prefixRange(p netip.Prefix, width int) (*big.Int, *big.Int) {
	s := addrInt(p.Masked().Addr())
	size := new(big.Int).Lsh(big.NewInt(1), uint(width-p.Bits()))
	return s, new(big.Int).Sub(new(big.Int).Add(s, size), big.NewInt(1))
}

// mapValue is an address, prefix or address with mask length in copy k's
// block; false when it is no IP value or lies in no block, an error when
// the address space had no room for copy k of its block.
func (m *ipMapper) mapValue(v string, k int) (string, bool, error) {
	p, ok := parseIP(v)
	if !ok {
		return "", false, nil
	}
	for _, b := range m.blocks {
		if b.p.Addr().Is4() != p.Addr().Is4() || !b.p.Contains(p.Addr()) {
			continue
		}
		if k-1 >= len(b.copies) {
			return "", false, fmt.Errorf("the address space has room for %d copies of %s, not %d", len(b.copies)+1, b.p, k+1)
		}
		var a []byte
		var nb []byte
		if p.Addr().Is4() {
			x, y := p.Addr().As4(), b.copies[k-1].As4()
			a, nb = x[:], y[:]
		} else {
			x, y := p.Addr().As16(), b.copies[k-1].As16()
			a, nb = x[:], y[:]
		}
		// The block's bits from its new start, the rest from the value.
		for i := range a {
			hostBits := max(0, min(8, (i+1)*8-b.p.Bits()))
			hm := byte(1<<hostBits - 1)
			a[i] = nb[i]&^hm | a[i]&hm
		}
		na, _ := netip.AddrFromSlice(a)
		if !strings.Contains(v, "/") {
			return na.String(), true, nil
		}
		return netip.PrefixFrom(na, p.Bits()).String(), true, nil
	}
	return "", false, nil
}
