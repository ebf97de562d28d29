package ipam

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/netip"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/ent/schema/ipnet"
)

// GET and POST /api/ipam/prefixes/{id}/available-prefixes/ (NetBox's
// AvailablePrefixesView): the free space of a prefix is its span minus
// the prefixes strictly inside it in its VRF (Prefix.get_available_prefixes).

// AvailablePrefix is NetBox's AvailablePrefixSerializer.
type AvailablePrefix struct {
	Family int             `json:"family"`
	Prefix string          `json:"prefix"`
	VRF    json.RawMessage `json:"vrf"`
}

// parentPrefix is a prefix as the allocator reads it from the request.
type parentPrefix struct {
	prefix netip.Prefix
	key    ipnet.Key
	vrf    int // 0: global
	status string
	isPool bool
}

func prefixOf(r api.Request) (parentPrefix, error) {
	obj := r.Object()
	s, _ := obj("prefix").(string)
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return parentPrefix{}, fmt.Errorf("stored prefix %q: %w", s, err)
	}
	status, _ := obj("status").(string)
	pool, _ := obj("is_pool").(bool)
	return parentPrefix{prefix: p, key: ipnet.KeyOf(p), vrf: fieldInt(obj("vrf")), status: status, isPool: pool}, nil
}

// span is the prefix's whole span in the stored space.
func (p parentPrefix) span() Span {
	return Span{NumFromBytes(p.key.Network), NumFromBytes(p.key.Broadcast)}
}

// childPrefixes yields the prefixes strictly inside p in its VRF, by
// network then length (the index (vrf_key, family, network,
// prefix_length)); a nested one is skipped with its container (Paged).
func childPrefixes(r api.Request, p parentPrefix) Items {
	sp := p.span()
	return Paged(sp.Lo, func(from Num, limit int) ([]Span, error) {
		a := &rawsql.Args{PG: r.Postgres()}
		q := "SELECT network, broadcast FROM ipam_prefix WHERE vrf_key = " + a.P(p.vrf) + " AND family = " + a.P(p.key.Family) +
			" AND network >= " + a.P(from.Bytes()) + " AND network <= " + a.P(sp.Hi.Bytes()) +
			" AND prefix_length > " + a.P(p.key.Length) + " ORDER BY network, prefix_length LIMIT " + a.P(limit)
		var out []Span
		err := query(r, q, a, func(rows *sql.Rows) error {
			var n, b []byte
			if err := rows.Scan(&n, &b); err != nil {
				return err
			}
			out = append(out, Span{NumFromBytes(n), NumFromBytes(b)})
			return nil
		})
		return out, err
	})
}

// freePrefixSpace is the free space of p, walked lazily.
func freePrefixSpace(r api.Request, p parentPrefix) Items {
	sp := p.span()
	return Gaps(sp.Lo, sp.Hi, childPrefixes(r, p))
}

// hostBits converts a prefix length of the family into the host bits of
// its block in the stored (128-bit) space.
func hostBits(family, length int) int { return ipnet.Bits(family) - length }

// AvailablePrefixes serves GET: every free CIDR of the prefix, largest
// aligned blocks in address order (netaddr's iter_cidrs), unpaginated as
// in NetBox.
func AvailablePrefixes(r api.Request) (any, error) {
	p, err := prefixOf(r)
	if err != nil {
		return nil, err
	}
	vrf, err := related(r, "ipam.vrf", p.vrf)
	if err != nil {
		return nil, err
	}
	fam := p.key.Family
	out := []AvailablePrefix{}
	for gap, err := range freePrefixSpace(r, p) {
		if err != nil {
			return nil, err
		}
		for lo, h := range CIDRs(gap) {
			pfx := netip.PrefixFrom(lo.Addr(fam), ipnet.Bits(fam)-h)
			out = append(out, AvailablePrefix{Family: fam, Prefix: pfx.String(), VRF: vrf})
		}
	}
	return out, nil
}

// AllocatePrefixes serves POST: for each requested object, in order, the
// first free block of its prefix_length (the lowest aligned one, as
// get_next_available_prefix picks it) becomes a prefix in the parent's
// VRF with the object's other fields. All or nothing: 409 when one does
// not fit, 400 per object for a bad prefix_length.
func AllocatePrefixes(r api.Request) (any, error) {
	objs, list, err := requested(r.Body())
	if err != nil {
		return nil, err
	}
	p, err := prefixOf(r)
	if err != nil {
		return nil, err
	}
	lengths, err := prefixLengths(objs, p.key.Family)
	if err != nil {
		return nil, err
	}
	if err := r.Lock(lockPrefixes, int32(p.vrf), false); err != nil {
		return nil, err
	}
	free := NewFree(freePrefixSpace(r, p))
	defer free.Close()
	fam := p.key.Family
	for i, obj := range objs {
		block, ok, err := free.TakeBlock(hostBits(fam, lengths[i]))
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, errInsufficient
		}
		pfx := netip.PrefixFrom(block.Lo.Addr(fam), lengths[i])
		if objs[i], err = with(obj, map[string]any{"prefix": pfx.String(), "vrf": nullable(p.vrf)}, "prefix_length"); err != nil {
			return nil, err
		}
	}
	return created(r, "ipam.prefix", objs, list)
}

// prefixLengths validates the prefix_length of each object as NetBox's
// PrefixLengthSerializer does (an integer, at most the family's bits; a
// negative one is refused too, where NetBox would answer 409).
func prefixLengths(objs []map[string]json.RawMessage, family int) ([]int, error) {
	out := make([]int, len(objs))
	errs := make(api.ItemErrors, len(objs))
	bad := false
	for i, obj := range objs {
		errs[i] = map[string][]string{}
		raw, ok := obj["prefix_length"]
		if !ok || string(raw) == "null" {
			errs[i]["prefix_length"], bad = []string{"this field can not be missing"}, true
			continue
		}
		var n int
		if json.Unmarshal(raw, &n) != nil {
			errs[i]["prefix_length"], bad = []string{"this field must be int type"}, true
			continue
		}
		if n < 0 || n > ipnet.Bits(family) {
			errs[i]["prefix_length"], bad = []string{fmt.Sprintf("Invalid prefix length (%d) for IPv%d", n, family)}, true
			continue
		}
		out[i] = n
	}
	if bad {
		return nil, errs
	}
	return out, nil
}
