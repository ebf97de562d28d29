package ipam

import (
	"database/sql"
	"encoding/json"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// GET and POST /api/ipam/asn-ranges/{id}/available-asns/ (NetBox's
// AvailableASNsView): the free ASNs of a range are its numbers that no
// ASN has (ASNRange.get_available_asns), walked in order over the unique
// index of ipam_asn; NetBox builds the set of the whole range, which for
// a 32-bit range is billions of numbers.

// AvailableASN is NetBox's AvailableASNSerializer.
type AvailableASN struct {
	RIR json.RawMessage `json:"rir"`
	ASN int64           `json:"asn"`
}

// asnRange is the request's range: its bounds and RIR.
func asnRange(r api.Request) (lo, hi Num, rir int) {
	obj := r.Object()
	return NumOf(uint64(max(fieldInt(obj("start")), 0))), NumOf(uint64(max(fieldInt(obj("end")), 0))), fieldInt(obj("rir"))
}

// freeASNs walks the free numbers of [lo, hi].
func freeASNs(r api.Request, lo, hi Num) Items {
	where := func(a *rawsql.Args, from Num) string {
		return " FROM ipam_asn WHERE asn >= " + a.P(int64(from.Uint64())) + " AND asn <= " + a.P(int64(hi.Uint64()))
	}
	fetch := func(from Num, limit int) ([]Span, error) {
		a := &rawsql.Args{PG: r.Postgres()}
		var out []Span
		err := query(r, "SELECT asn"+where(a, from)+" ORDER BY asn LIMIT "+a.P(limit), a, func(rows *sql.Rows) error {
			var n int64
			if err := rows.Scan(&n); err != nil {
				return err
			}
			out = append(out, Span{NumOf(uint64(n)), NumOf(uint64(n))})
			return nil
		})
		return out, err
	}
	run := func(from Num) (Num, error) {
		if hi.Less(from) {
			return from, nil
		}
		filter := func(func(any) string) string { return "FROM ipam_asn WHERE " }
		q, a := intRun(r.Postgres(), filter, "asn", from.Uint64(), hi.Uint64())
		return runEnd(r, q, a, from)
	}
	return Gaps(lo, hi, Points(lo, fetch, run))
}

// AvailableASNs serves GET: the first ?limit free ASNs of the range.
func AvailableASNs(r api.Request) (any, error) {
	lo, hi, rir := asnRange(r)
	nested, err := related(r, "ipam.rir", rir)
	if err != nil {
		return nil, err
	}
	limit := r.Limit()
	out := []AvailableASN{}
	for g, err := range freeASNs(r, lo, hi) {
		if err != nil {
			return nil, err
		}
		for n := g.Lo.Uint64(); n <= g.Hi.Uint64() && len(out) < limit; n++ {
			out = append(out, AvailableASN{RIR: nested, ASN: int64(n)})
		}
		if len(out) >= limit {
			break
		}
	}
	return out, nil
}

// AllocateASNs serves POST: each requested object, in order, becomes an
// ASN of the range's RIR with the next free number. ASNs are unique
// across ranges, so allocations take one lock whatever the range.
func AllocateASNs(r api.Request) (any, error) {
	objs, list, err := requested(r.Body())
	if err != nil {
		return nil, err
	}
	if err := r.Lock(lockASNs, 0, false); err != nil {
		return nil, err
	}
	lo, hi, rir := asnRange(r)
	free := NewFree(freeASNs(r, lo, hi))
	defer free.Close()
	for i, obj := range objs {
		n, ok, err := free.TakeOne()
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, errInsufficient
		}
		if objs[i], err = with(obj, map[string]any{"asn": n.Uint64(), "rir": rir}); err != nil {
			return nil, err
		}
	}
	return created(r, "ipam.asn", objs, list)
}
