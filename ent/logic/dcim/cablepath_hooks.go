package dcim

import (
	"context"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// Retrace keeps the stored paths correct after a write, in its
// transaction: every path through cables or nodes is traced again, and
// the paths from the endpoints on cables' ends (RetracePaths). The cable
// hooks call it after the terminations or the status of cables changed,
// and after cabled objects went; the port mapping hooks after mappings
// changed; the wireless link hooks (ent/logic/wireless) after a link was
// created, changed or deleted, naming it among nodes. Each endpoint whose connection changed gets an update record
// and event, as the connection is part of what it shows.
//
// Within a write that postpones work (api.Postpone) the tracing waits for
// the end of the write, and then runs once for everything the write's
// hooks named: a bulk request's cables are traced in one batch. What it
// reads is the write's final state, which is what the traces of each
// change in turn would have left.
//
// An import (api.Importing) traces nothing here: the importer traces
// every path once when every cable is written (RetraceAll), as NetBox's
// trace_paths does.
func Retrace(ctx context.Context, m rawsql.Mutation, cables []int, nodes []Node) error {
	if api.Importing(ctx) {
		return nil
	}
	// The write's pending cable ends (cable_ends.go) are written before
	// anything is traced: their work is postponed first.
	postponedEnds(ctx)
	if r, ok := api.Postpone(ctx, retraceKey{}, func() *retrace { return &retrace{m: m, seen: map[Node]bool{}} }); ok {
		r.add(cables, nodes)
		return nil
	}
	return retraceNow(ctx, m, cables, nodes)
}

type retraceKey struct{}

// retrace is a write's postponed Retrace: the cables and nodes its hooks
// named, each once.
type retrace struct {
	m      rawsql.Mutation
	cables []int
	nodes  []Node
	seen   map[Node]bool
}

func (r *retrace) add(cables []int, nodes []Node) {
	for _, id := range cables {
		if n := (Node{CTCable, id}); !r.seen[n] {
			r.seen[n] = true
			r.cables = append(r.cables, id)
		}
	}
	for _, n := range nodes {
		if !r.seen[n] {
			r.seen[n] = true
			r.nodes = append(r.nodes, n)
		}
	}
}

func (r *retrace) Run(ctx context.Context) error { return retraceNow(ctx, r.m, r.cables, r.nodes) }

func retraceNow(ctx context.Context, m rawsql.Mutation, cables []int, nodes []Node) error {
	changed, err := RetracePaths(ctx, m, rawsql.Postgres(m), cables, nodes)
	if err != nil {
		return err
	}
	_, byType := groupByType(changed)
	for _, ct := range PathEndpoints {
		if ids := byType[ct]; len(ids) > 0 {
			if err := api.Touching(ctx, m, ct, ids); err != nil {
				return err
			}
		}
	}
	return nil
}

// retraceMappingsHook retraces the paths through front or rear ports
// (table) whose mappings a write changes, and through the ports they map
// to before and after (NetBox's update_passthrough_port_paths). It runs
// around the mirror hook, so the peers' lists are written when it traces.
func retraceMappingsHook(ct string) ent.Hook {
	table, peer := "dcim_frontport", "rear_port"
	peerType := CTRearPort
	if ct == CTRearPort {
		table, peer, peerType = "dcim_rearport", "front_port", CTFrontPort
	}
	peersOf := func(ctx context.Context, m rawsql.Mutation, ids []int, nodes []Node) ([]Node, error) {
		rows, err := rawsql.LoadRows(ctx, m, table, []string{"mappings"}, ids)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			nodes = append(nodes, Node{ct, id})
			list, _ := mappingList(rows[id]["mappings"])
			for _, e := range list {
				if pid, ok := rawsql.IntOf(e[peer]); ok {
					nodes = append(nodes, Node{peerType, pid})
				}
			}
		}
		return nodes, nil
	}
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			del := m.Op().Is(ent.OpDelete | ent.OpDeleteOne)
			if !del && !rawsql.Touched(m, "mappings") {
				return next.Mutate(ctx, m)
			}
			sm, err := rawsql.As("port mapping paths", m)
			if err != nil {
				return nil, err
			}
			var ids []int
			var nodes []Node
			if m.Op().Is(ent.OpCreate) {
				// A new port: only the ports it maps to may have paths.
				v, _ := m.Field("mappings")
				if list, _ := mappingList(v); len(list) == 0 {
					return next.Mutate(ctx, m)
				}
			} else {
				if ids, err = rawsql.TargetIDs(ctx, sm); err != nil {
					return nil, err
				}
				if nodes, err = peersOf(ctx, sm, ids, nil); err != nil {
					return nil, err
				}
			}
			v, err := next.Mutate(ctx, m)
			if err != nil {
				return nil, err
			}
			if m.Op().Is(ent.OpCreate) {
				id, _ := sm.ID()
				fv, _ := m.Field("mappings")
				list, _ := mappingList(fv)
				nodes = append(nodes, Node{ct, id})
				for _, e := range list {
					if pid, ok := rawsql.IntOf(e[peer]); ok {
						nodes = append(nodes, Node{peerType, pid})
					}
				}
			} else if !del {
				if nodes, err = peersOf(ctx, sm, ids, nodes); err != nil {
					return nil, err
				}
			}
			return v, Retrace(ctx, sm, nil, nodes)
		})
	}
}

// CablePathHook retraces the paths of cables a write creates, changes
// (ends or status) or deletes, after the cable hooks have written the
// terminations (NetBox's trace_paths signal: update_connected_endpoints,
// and retrace_cable_paths on delete). It goes first in dcim.Cable's hooks
// so that it runs around them.
func CablePathHook(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		create := m.Op().Is(ent.OpCreate)
		del := m.Op().Is(ent.OpDelete | ent.OpDeleteOne)
		if !create && !del && !rawsql.Touched(m, "a_terminations", "b_terminations", "status") {
			return next.Mutate(ctx, m)
		}
		sm, err := rawsql.As("cable paths", m)
		if err != nil {
			return nil, err
		}
		v, ids, err := rawsql.Written(ctx, sm, next, nil)
		if err != nil {
			return nil, err
		}
		return v, Retrace(ctx, sm, ids, nil)
	})
}

// TerminationPathHook retraces the paths through a cable termination that
// goes with the object it terminates (a port, or its device or module),
// after the termination hooks cleared the object's cable (NetBox's
// nullify_connected_endpoints). A termination going with its cable is
// left to CablePathHook, which retraces once the cable is gone.
func TerminationPathHook(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		if !m.Op().Is(ent.OpDelete | ent.OpDeleteOne) {
			return next.Mutate(ctx, m)
		}
		sm, err := rawsql.As("cable termination paths", m)
		if err != nil {
			return nil, err
		}
		if err := settleEnds(ctx); err != nil {
			return nil, err
		}
		ids, err := rawsql.TargetIDs(ctx, sm)
		if err != nil {
			return nil, err
		}
		var cables []int
		var nodes []Node
		err = rawsql.Chunks(ids, func(ids []int) error {
			a := &rawsql.Args{PG: rawsql.Postgres(sm)}
			rows, err := rawsql.Rows(ctx, sm, `SELECT cable_id, termination_type, termination_id FROM dcim_cabletermination WHERE id IN (`+
				rawsql.In(a, ids)+`)`, a)
			if err != nil {
				return err
			}
			for _, r := range rows {
				cid, _ := rawsql.IntOf(r["cable_id"])
				if api.Deleting(ctx, CTCable, cid) {
					continue
				}
				if !containsInt(cables, cid) {
					cables = append(cables, cid)
				}
				tid, _ := rawsql.IntOf(r["termination_id"])
				nodes = append(nodes, Node{rawsql.StringOf(r["termination_type"]), tid})
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		v, err := next.Mutate(ctx, m)
		if err != nil || len(cables) == 0 {
			return v, err
		}
		return v, Retrace(ctx, sm, cables, nodes)
	})
}

// RetraceAll traces every connection path again, in q's transaction: what
// an import does once its cables and wireless links are written (their
// hooks traced nothing, see Retrace), as NetBox's trace_paths command
// does. The cables go in batches, so that a large import does not hold
// every path in memory at once; a path through cables of two batches is
// traced twice, to the same result.
func RetraceAll(ctx context.Context, q DB, pg bool) error {
	ids := func(table string) ([]int, error) {
		rows, err := q.QueryContext(ctx, `SELECT id FROM `+table+` ORDER BY id`)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []int
		for rows.Next() {
			var id int
			if err := rows.Scan(&id); err != nil {
				return nil, err
			}
			out = append(out, id)
		}
		return out, rows.Err()
	}
	cables, err := ids("dcim_cable")
	if err != nil {
		return err
	}
	links, err := ids("wireless_wirelesslink")
	if err != nil {
		return err
	}
	const batch = 2000
	for lo := 0; lo < len(cables); lo += batch {
		if _, err := RetracePaths(ctx, q, pg, cables[lo:min(lo+batch, len(cables))], nil); err != nil {
			return err
		}
	}
	for lo := 0; lo < len(links); lo += batch {
		var nodes []Node
		for _, id := range links[lo:min(lo+batch, len(links))] {
			nodes = append(nodes, Node{CTWirelessLink, id})
		}
		if _, err := RetracePaths(ctx, q, pg, nil, nodes); err != nil {
			return err
		}
	}
	return nil
}
