package ipam

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// GET and POST /api/ipam/vlan-groups/{id}/available-vlans/ (NetBox's
// AvailableVLANsView): the free VLAN IDs of a group are those of its
// vid_ranges that no VLAN of the group has (VLANGroup.get_available_vids).

// AvailableVLAN is NetBox's AvailableVLANSerializer.
type AvailableVLAN struct {
	VID   int             `json:"vid"`
	Group json.RawMessage `json:"group"`
}

// freeVIDs walks the free VLAN IDs of the request's group. The used IDs
// of a group are at most 4094, read at once in vid order (the unique
// index (group_id, vid)).
func freeVIDs(r api.Request) (Items, int, error) {
	obj := r.Object()
	group := fieldInt(obj("id"))
	var ranges [][]int
	raw, err := json.Marshal(obj("vid_ranges"))
	if err != nil {
		return nil, 0, err
	}
	if err := json.Unmarshal(raw, &ranges); err != nil {
		return nil, 0, fmt.Errorf("vid_ranges of VLAN group %d: %w", group, err)
	}
	var spans []Span
	for _, rg := range ranges {
		if len(rg) == 2 && rg[0] <= rg[1] {
			spans = append(spans, Span{NumOf(uint64(max(rg[0], 0))), NumOf(uint64(max(rg[1], 0)))})
		}
	}
	slices.SortFunc(spans, func(a, b Span) int { return a.Lo.Cmp(b.Lo) })
	a := &rawsql.Args{PG: r.Postgres()}
	var used []Span
	err = query(r, "SELECT vid FROM ipam_vlan WHERE group_id = "+a.P(group)+" ORDER BY vid", a, func(rows *sql.Rows) error {
		var v int64
		if err := rows.Scan(&v); err != nil {
			return err
		}
		used = append(used, Span{NumOf(uint64(v)), NumOf(uint64(v))})
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	free := func(yield func(Span, error) bool) {
		last := Num{} // ranges may overlap: yield each ID once
		first := true
		for _, rg := range spans {
			if !first && !last.Less(rg.Lo) {
				if !last.Less(rg.Hi) {
					continue
				}
				rg.Lo, _ = last.Next()
			}
			for g, err := range Gaps(rg.Lo, rg.Hi, Spans(used)) {
				if !yield(g, err) || err != nil {
					return
				}
			}
			last, first = rg.Hi, false
		}
	}
	return free, group, nil
}

// AvailableVLANs serves GET: the first ?limit free IDs of the group.
func AvailableVLANs(r api.Request) (any, error) {
	free, group, err := freeVIDs(r)
	if err != nil {
		return nil, err
	}
	nested, err := related(r, "ipam.vlangroup", group)
	if err != nil {
		return nil, err
	}
	limit := r.Limit()
	out := []AvailableVLAN{}
	for g, err := range free {
		if err != nil {
			return nil, err
		}
		for v := g.Lo.Uint64(); v <= g.Hi.Uint64() && len(out) < limit; v++ {
			out = append(out, AvailableVLAN{VID: int(v), Group: nested})
		}
		if len(out) >= limit {
			break
		}
	}
	return out, nil
}

// AllocateVLANs serves POST: each requested object, in order, becomes a
// VLAN of the group with the next free ID. NetBox's
// CreateAvailableVLANSerializer wants a name first (400 per object); the
// VLAN's own validation follows in the create path; 409 when the group
// has fewer free IDs than objects.
func AllocateVLANs(r api.Request) (any, error) {
	objs, list, err := requested(r.Body())
	if err != nil {
		return nil, err
	}
	errs := make(api.ItemErrors, len(objs))
	bad := false
	for i, obj := range objs {
		errs[i] = map[string][]string{}
		if raw, ok := obj["name"]; !ok {
			errs[i]["name"], bad = []string{"This field is required."}, true
		} else if string(raw) == "null" {
			errs[i]["name"], bad = []string{"This field may not be null."}, true
		}
	}
	if bad {
		return nil, errs
	}
	group := fieldInt(r.Object()("id"))
	if err := r.Lock(lockVLANs, int32(group), false); err != nil {
		return nil, err
	}
	free, _, err := freeVIDs(r)
	if err != nil {
		return nil, err
	}
	f := NewFree(free)
	defer f.Close()
	for i, obj := range objs {
		vid, ok, err := f.TakeOne()
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, errInsufficient
		}
		if objs[i], err = with(obj, map[string]any{"vid": vid.Uint64(), "group": group}); err != nil {
			return nil, err
		}
	}
	return created(r, "ipam.vlan", objs, list)
}
