package ipam

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"net/netip"
	"strings"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/ent/schema/ipnet"
)

// IPRangeHooks are the hooks of ipam.IPRange: NetBox's IPRange.clean()
// and save() (rangeHook).
func IPRangeHooks() []ent.Hook { return []ent.Hook{rangeHook} }

// MaxRangeSize is NetBox's largest range (a PositiveIntegerField).
const MaxRangeSize = 1<<32 - 1

const rangeTable = `"ipam_iprange"`

// rangeRow is what the hook knows of a range, stored or about to be.
type rangeRow struct {
	Start, End string // API text, "10.0.0.1/24"
	VRF        *int
}

// rangeHook validates a range's addresses as NetBox's IPRange.clean() does
// (same family, same mask, end not below start, no overlap with another
// range of the same VRF, at most MaxRangeSize addresses) and derives the
// hidden columns from them: family, start_host and end_host (16 bytes,
// IPv4 v4-mapped, as ent/schema/ipnet stores every address),
// prefix_length, vrf_key (0 for the global table) and size. On PostgreSQL
// a transaction-scoped advisory lock per VRF makes the overlap check and
// the write one step, so that two concurrent writes cannot both pass it
// (SQLite serialises writers already).
func rangeHook(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		if !m.Op().Is(ent.OpCreate|ent.OpUpdate|ent.OpUpdateOne) ||
			!m.Op().Is(ent.OpCreate) && !rawsql.Touched(m, "start_address", "end_address", "vrf_id") {
			return next.Mutate(ctx, m)
		}
		rm, err := rawsql.As("ip range hook", m)
		if err != nil {
			return nil, err
		}
		h := &rangeSQL{m: rm, pg: rawsql.Postgres(rm)}
		if m.Op().Is(ent.OpCreate) {
			if err := h.check(ctx, h.apply(rangeRow{}), 0); err != nil {
				return nil, err
			}
			return next.Mutate(ctx, m)
		}
		ids, err := rawsql.TargetIDs(ctx, rm)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			old, err := h.load(ctx, id)
			if err != nil {
				return nil, err
			}
			if old == nil {
				continue // not found: ent answers
			}
			if err := h.check(ctx, h.apply(*old), id); err != nil {
				return nil, err
			}
		}
		return next.Mutate(ctx, m)
	})
}

type rangeSQL struct {
	m  rawsql.Mutation
	pg bool
}

func (h *rangeSQL) args() *rawsql.Args { return &rawsql.Args{PG: h.pg} }

// apply returns old with the mutation's values.
func (h *rangeSQL) apply(old rangeRow) rangeRow {
	r := old
	if v, ok := h.m.Field("start_address"); ok {
		r.Start, _ = v.(string)
	}
	if v, ok := h.m.Field("end_address"); ok {
		r.End, _ = v.(string)
	}
	if h.m.FieldCleared("vrf_id") {
		r.VRF = nil
	} else if v, ok := h.m.Field("vrf_id"); ok {
		id, _ := v.(int)
		r.VRF = &id
	}
	return r
}

// load reads the stored range id (nil when it does not exist).
func (h *rangeSQL) load(ctx context.Context, id int) (*rangeRow, error) {
	a := h.args()
	rows, err := h.m.QueryContext(ctx, `SELECT start_address, end_address, vrf_id FROM `+rangeTable+` WHERE id = `+a.P(id), a.List...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	if !rows.Next() {
		return nil, rows.Err()
	}
	r := &rangeRow{}
	var vrf *int64
	if err := rows.Scan(&r.Start, &r.End, &vrf); err != nil {
		return nil, err
	}
	if vrf != nil {
		n := int(*vrf)
		r.VRF = &n
	}
	return r, rows.Err()
}

// check validates row r (self is its id, 0 on create) and sets the derived
// columns on the mutation.
func (h *rangeSQL) check(ctx context.Context, r rangeRow, self int) error {
	start, ok1 := ipnet.ParseLoose(r.Start)
	end, ok2 := ipnet.ParseLoose(r.End)
	if !ok1 || !ok2 {
		return errors.New("ip range: missing or invalid start_address or end_address")
	}
	if ipnet.Family(start.Addr()) != ipnet.Family(end.Addr()) {
		return &api.FieldError{Field: "end_address", Message: "Starting and ending IP address versions must match"}
	}
	if start.Bits() != end.Bits() {
		return &api.FieldError{Field: "end_address", Message: "Starting and ending IP address masks must match"}
	}
	if end.Addr().Less(start.Addr()) {
		return &api.FieldError{Field: "end_address", Message: fmt.Sprintf(
			"Ending address must be greater than or equal to the starting address (%s)", start)}
	}
	vrfKey := 0
	if r.VRF != nil {
		vrfKey = *r.VRF
	}
	fam := ipnet.Family(start.Addr())
	lo, hi := ipnet.Bytes16(start.Addr()), ipnet.Bytes16(end.Addr())
	if h.pg {
		a := h.args()
		q := `SELECT pg_advisory_xact_lock(` + a.P(rangeLockSpace) + `, ` + a.P(vrfKey) + `)`
		if err := rawsql.Exec(ctx, h.m, q, a); err != nil {
			return err
		}
	}
	// The first overlapping range in NetBox's order (start address, id).
	a := h.args()
	q := `SELECT start_address, end_address FROM ` + rangeTable + ` WHERE vrf_key = ` + a.P(vrfKey) +
		` AND family = ` + a.P(fam) + ` AND start_host <= ` + a.P(hi) + ` AND end_host >= ` + a.P(lo) +
		` AND id <> ` + a.P(self) + ` ORDER BY start_host, id LIMIT 1`
	rows, err := h.m.QueryContext(ctx, q, a.List...)
	if err != nil {
		return err
	}
	var oStart, oEnd string
	found := rows.Next()
	if found {
		err = rows.Scan(&oStart, &oEnd)
	}
	rows.Close()
	if err != nil {
		return err
	}
	if found {
		vrf, err := VRFName(ctx, h.m, h.pg, r.VRF)
		if err != nil {
			return err
		}
		return &api.FieldError{Field: "__all__", Message: fmt.Sprintf(
			"Defined addresses overlap with range %s in VRF %s", IPRangeName(oStart, oEnd), vrf)}
	}
	size := RangeSize(start.Addr(), end.Addr())
	if !size.IsInt64() || size.Int64() > MaxRangeSize {
		return &api.FieldError{Field: "__all__", Message: fmt.Sprintf(
			"Defined range exceeds maximum supported size (%d)", MaxRangeSize)}
	}
	for name, v := range map[string]any{"start_address": start.String(), "end_address": end.String(), "family": fam,
		"start_host": lo, "end_host": hi, "prefix_length": start.Bits(), "vrf_key": vrfKey, "size": int(size.Int64())} {
		if err := h.m.SetField(name, v); err != nil {
			return err
		}
	}
	return nil
}

// rangeLockSpace is the first key of the ranges' advisory locks (the
// second is the VRF key): an arbitrary constant, "iprg".
const rangeLockSpace = 0x69707267

// RangeSize is the number of addresses from start to end, inclusive.
func RangeSize(start, end netip.Addr) *big.Int {
	s, e := new(big.Int).SetBytes(start.AsSlice()), new(big.Int).SetBytes(end.AsSlice())
	return e.Sub(e, s).Add(e, big.NewInt(1))
}

// VRFName is a VRF's display as NetBox's messages show it ("None" for the
// global table).
func VRFName(ctx context.Context, q rawsql.Querier, pg bool, id *int) (string, error) {
	if id == nil {
		return "None", nil
	}
	a := &rawsql.Args{PG: pg}
	rows, err := q.QueryContext(ctx, `SELECT name, rd FROM "ipam_vrf" WHERE id = `+a.P(*id), a.List...)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	if !rows.Next() {
		return "None", rows.Err()
	}
	var name string
	var rd *string
	if err := rows.Scan(&name, &rd); err != nil {
		return "", err
	}
	return VRFDisplay(func(f string) any {
		switch {
		case f == "name":
			return name
		case f == "rd" && rd != nil:
			return *rd
		}
		return nil
	}), rows.Err()
}

// IPRangeName is NetBox's IPRange.name: the addresses' common leading
// groups once, then the rest of each ("192.0.2.10-20/24"); a one-address
// range shows both addresses. Like NetBox it keeps every equal group,
// even after a differing one.
func IPRangeName(start, end string) string {
	s, ok1 := ipnet.ParseLoose(start)
	e, ok2 := ipnet.ParseLoose(end)
	if !ok1 || !ok2 {
		return start + "-" + end
	}
	if s.Addr() == e.Addr() {
		return fmt.Sprintf("%s-%s/%d", s.Addr(), e.Addr(), s.Bits())
	}
	sep := "."
	if ipnet.Family(s.Addr()) == 6 {
		sep = ":"
	}
	sc, ec := strings.Split(s.Addr().String(), sep), strings.Split(e.Addr().String(), sep)
	var base []string
	for i := 0; i < len(sc) && i < len(ec); i++ {
		if sc[i] == ec[i] {
			base = append(base, sc[i])
		}
	}
	rest := func(c []string) string {
		if len(base) > len(c) {
			return ""
		}
		return strings.Join(c[len(base):], sep)
	}
	return fmt.Sprintf("%s%s%s-%s/%d", strings.Join(base, sep), sep, rest(sc), rest(ec), s.Bits())
}
