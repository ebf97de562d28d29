package dcim

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// A new cable's ends (its termination rows and the terminated objects'
// cable columns, with their records) are written at the end of the write
// (api.Postpone), for all the write's cables at once: a bulk request of
// 1000 cables inserts its 2000 terminations in one batch, snapshots the
// 2000 interfaces for their update records in one read, and sets their
// cable columns in one batched UPDATE, where each cable took 14
// statements of its own (the terminations' INSERT, the snapshot's five
// reads and the UPDATE, per end). What stays per cable is its own INSERT
// and the read of its ends' objects for the checks (Cable.clean()).
//
// What the write leaves is what writing each cable's ends at once left:
// the rows and their ids (inserted in the same order), the change records
// in the same order (each cable's terminations and objects at its place,
// api.Mark), and the checks see the ends still pending (an object given
// to an earlier cable of the request is refused as taken by it). The
// paths are traced after the ends are written (Retrace postpones too,
// after them). Any other cable hook of the same write writes the pending
// ends first (settleEnds), so that it reads them from the database. An
// import (api.Importing) and a write that postpones nothing write each
// cable's ends at once, as before.

type cableEndsKey struct{}

// pendingEnds are the ends of a write's new cables, not written yet.
type pendingEnds struct {
	m      rawsql.Mutation
	cables []pendingCable
	// taken are the objects of the pending ends, by the cable they go to.
	taken map[ref]int
	// cache holds the objects of every cable of a bulk request
	// (api.BulkItems), read at its first cable: they change in the write
	// only by the pending ends (taken), and it goes when those are
	// written.
	cache      map[ref]*cabled
	prefetched bool
}

// pendingCable is one new cable's ends, as syncEnds would have written
// them when the cable was created.
type pendingCable struct {
	id    int
	label string
	ends  cableEnds
	objs  map[ref]*cabled
	t     time.Time // its terminations' created, its objects' last_updated
	mark  any       // its place in the change records (api.Mark)
}

func newPendingEnds() *pendingEnds { return &pendingEnds{taken: map[ref]int{}} }

// postponedEnds are the write's pending ends; false when the write
// postpones nothing (then ends are written at once) or is an import.
func postponedEnds(ctx context.Context) (*pendingEnds, bool) {
	if api.Importing(ctx) {
		return nil, false
	}
	return api.Postpone(ctx, cableEndsKey{}, newPendingEnds)
}

// settleEnds writes the write's pending ends now: for a hook that reads
// cable columns or terminations.
func settleEnds(ctx context.Context) error {
	if p, ok := postponedEnds(ctx); ok {
		return p.Run(ctx)
	}
	return nil
}

func (p *pendingEnds) add(m rawsql.Mutation, c pendingCable) {
	if p.m == nil {
		p.m = m
	}
	p.cables = append(p.cables, c)
	for _, end := range c.ends {
		for _, r := range end {
			p.taken[r] = c.id
		}
	}
}

// load reads the objects of refs for a new cable's checks (loadCabled):
// at the first cable of a bulk request, the objects of all its cables at
// once (one query per type for the request, not one per cable).
func (p *pendingEnds) load(ctx context.Context, m rawsql.Mutation, refs []ref) (map[ref]*cabled, error) {
	if !p.prefetched {
		p.prefetched = true
		if items := api.BulkItems(ctx, CTCable); len(items) > 1 {
			var all []ref
			for _, raw := range items {
				var item struct {
					A any `json:"a_terminations"`
					B any `json:"b_terminations"`
				}
				if json.Unmarshal(raw, &item) == nil {
					all = append(append(all, parseRefs(item.A)...), parseRefs(item.B)...)
				}
			}
			objs, err := loadCabled(ctx, m, all)
			if err != nil {
				return nil, err
			}
			p.cache = objs
		}
	}
	out := make(map[ref]*cabled, len(refs))
	var missing []ref
	for _, r := range refs {
		if c, ok := p.cache[r]; ok {
			cp := *c // the checks mark a copy (taken), not the cache
			out[r] = &cp
		} else {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		objs, err := loadCabled(ctx, m, missing)
		if err != nil {
			return nil, err
		}
		for r, c := range objs {
			out[r] = c
		}
	}
	return out, nil
}

func (p *pendingEnds) Run(ctx context.Context) error {
	cables := p.cables
	p.cables, p.taken, p.cache = nil, map[ref]int{}, nil
	if len(cables) == 0 {
		return nil
	}
	return writeEnds(ctx, p.m, cables)
}

// cabledSet is one object's new cable columns.
type cabledSet struct {
	id, cable int
	end       string
	t         time.Time
}

// writeEnds writes the ends of new cables: addTerminations for all of
// them, in batches.
func writeEnds(ctx context.Context, m rawsql.Mutation, cables []pendingCable) error {
	// piece is a run of one cable end's terminations of one type, cut as
	// addTerminations cut them (rawsql.Chunks), whose records go together.
	type piece struct {
		cable  int // index in cables
		ct     string
		ids    []int
		lo, hi int // its rows
	}
	var rows [][]any
	var pieces []piece
	for ci, c := range cables {
		for e := range c.ends {
			types, ids := byType(c.ends[e])
			for _, ct := range types {
				err := rawsql.Chunks(ids[ct], func(chunk []int) error {
					lo := len(rows)
					for _, oid := range chunk {
						o := c.objs[ref{ct, oid}]
						rows = append(rows, []any{c.id, endNames[e], ct, oid, "Cable " + c.label + " to " + o.name, deref(o.device),
							deref(o.rack), deref(o.location), deref(o.site), c.t, c.t})
					}
					pieces = append(pieces, piece{ci, ct, chunk, lo, len(rows)})
					return nil
				})
				if err != nil {
					return err
				}
			}
		}
	}
	tids, err := rawsql.InsertRowsReturning(ctx, m, m.DriverDialect(), "dcim_cabletermination", terminationColumns, rows)
	if err != nil {
		return fmt.Errorf("cable terminations: %w", err)
	}
	if len(tids) != len(rows) {
		return fmt.Errorf("cable terminations: inserted %d rows, got %d ids", len(rows), len(tids))
	}
	// The records at each cable's place, in the order addTerminations
	// named them: a piece's terminations, then its objects.
	var types []string
	sets := map[string][]cabledSet{}
	for _, p := range pieces {
		c := cables[p.cable]
		at := api.At(ctx, c.mark)
		if err := api.Created(at, m, "dcim.cabletermination", tids[p.lo:p.hi]); err != nil {
			return err
		}
		if err := api.Placing(at, m, p.ct, p.ids); err != nil {
			return err
		}
		if sets[p.ct] == nil {
			types = append(types, p.ct)
		}
		for i, oid := range p.ids {
			sets[p.ct] = append(sets[p.ct], cabledSet{oid, c.id, rawsql.StringOf(rows[p.lo+i][1]), c.t})
		}
	}
	for _, ct := range types {
		ids := make([]int, len(sets[ct]))
		for i, s := range sets[ct] {
			ids[i] = s.id
		}
		// One snapshot for all the type's objects, before they change.
		if err := api.Saving(ctx, m, ct, ids); err != nil {
			return err
		}
		if err := setCabled(ctx, m, cabledTable[ct], sets[ct]); err != nil {
			return fmt.Errorf("cable terminations: %w", err)
		}
	}
	return nil
}

// setCabled sets objects' cable columns, each its own cable, end and
// last_updated, in batches (updateByID).
func setCabled(ctx context.Context, m rawsql.Mutation, table string, sets []cabledSet) error {
	rows := make([][]any, len(sets))
	for i, s := range sets {
		rows[i] = []any{s.id, s.cable, s.end, s.t}
	}
	return updateByID(ctx, m, rawsql.Postgres(m), table, []string{"cable_id", "cable_end", "last_updated"},
		[]string{"bigint", "text", "timestamptz"}, `"_occupied" = TRUE`, rows)
}
