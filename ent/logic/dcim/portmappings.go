package dcim

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// NetBox 4.6 keeps port mappings in one table (PortTemplateMapping) that
// both sides show: a front port template's rear_ports and a rear port
// template's front_ports. We store each side's list on its own row
// (column mappings) and keep the two sides mirrored: a write of one
// side's list rewrites the peer rows' lists, and a deleted port leaves
// its peers' lists. The peer rows are rewritten with SQL: a mapping is no
// object of its own here, so it makes no change record.

// portSide names one side of the mapping.
type portSide struct {
	table, field string // "dcim_frontporttemplate", "rear_ports" (this side's API field)
	self, peer   string // "front_port", "rear_port": the keys in the list entries
	peerTable    string
}

var (
	frontSide = portSide{table: "dcim_frontporttemplate", field: "rear_ports", self: "front_port", peer: "rear_port", peerTable: "dcim_rearporttemplate"}
	rearSide  = portSide{table: "dcim_rearporttemplate", field: "front_ports", self: "rear_port", peer: "front_port", peerTable: "dcim_frontporttemplate"}
)

// mirrorHook keeps the peers' lists in step with writes and deletes of
// side's rows.
func mirrorHook(side portSide) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			del := m.Op().Is(ent.OpDelete | ent.OpDeleteOne)
			if !del && !rawsql.Touched(m, "mappings") {
				return next.Mutate(ctx, m)
			}
			sm, err := rawsql.As("port mappings", m)
			if err != nil {
				return nil, err
			}
			var ids []int
			old := map[int]map[string]any{}
			if !m.Op().Is(ent.OpCreate) {
				if ids, err = rawsql.TargetIDs(ctx, sm); err != nil {
					return nil, err
				}
				if old, err = rawsql.LoadRows(ctx, sm, side.table, []string{"mappings"}, ids); err != nil {
					return nil, err
				}
			}
			var newList []map[string]any
			if !del {
				v, _ := m.Field("mappings")
				if newList, err = mappingList(v); err != nil {
					return nil, &api.FieldError{Field: side.field, Message: err.Error()}
				}
			}
			if !del {
				// The peers' positions must be free (of other ports).
				if err := side.checkFree(ctx, sm, ids, newList); err != nil {
					return nil, err
				}
			}
			v, err := next.Mutate(ctx, m)
			if err != nil {
				return nil, err
			}
			if m.Op().Is(ent.OpCreate) {
				id, _ := sm.ID()
				ids = []int{id}
			}
			for _, id := range ids {
				oldList, _ := mappingList(old[id]["mappings"])
				if err := side.mirror(ctx, sm, id, oldList, newList); err != nil {
					return nil, err
				}
			}
			return v, nil
		})
	}
}

// checkFree refuses a mapping onto a peer position another port holds.
func (side portSide) checkFree(ctx context.Context, m rawsql.Mutation, self []int, list []map[string]any) error {
	mine := map[int]bool{}
	for _, id := range self {
		mine[id] = true
	}
	for i, e := range list {
		pid, _ := rawsql.IntOf(e[side.peer])
		ppos, _ := rawsql.IntOf(e[side.peer+"_position"])
		rows, err := rawsql.LoadRows(ctx, m, side.peerTable, []string{"name", "mappings"}, []int{pid})
		if err != nil {
			return err
		}
		peerList, _ := mappingList(rows[pid]["mappings"])
		for _, pe := range peerList {
			other, _ := rawsql.IntOf(pe[side.self])
			pos, _ := rawsql.IntOf(pe["position"])
			if pos == ppos && !mine[other] {
				return &api.FieldError{Field: side.field, Index: fmt.Sprint(i), Message: fmt.Sprintf(
					"Position %d of %s %s is already mapped.", ppos, side.peerName(), rawsql.StringOf(rows[pid]["name"]))}
			}
		}
	}
	return nil
}

func (side portSide) peerName() string {
	if side.peer == "rear_port" {
		return "rear port"
	}
	return "front port"
}

// mirror rewrites the lists of the peers of row id (those in oldList and
// newList): entries naming id go, entries mirroring newList come.
func (side portSide) mirror(ctx context.Context, m rawsql.Mutation, id int, oldList, newList []map[string]any) error {
	peers := map[int][]map[string]any{}
	for _, e := range oldList {
		if pid, ok := rawsql.IntOf(e[side.peer]); ok {
			peers[pid] = nil
		}
	}
	for _, e := range newList {
		pid, _ := rawsql.IntOf(e[side.peer])
		pos, _ := rawsql.IntOf(e["position"])
		ppos, _ := rawsql.IntOf(e[side.peer+"_position"])
		peers[pid] = append(peers[pid], map[string]any{"position": ppos, side.self: id, side.self + "_position": pos})
	}
	if len(peers) == 0 {
		return nil
	}
	ids := make([]int, 0, len(peers))
	for pid := range peers {
		ids = append(ids, pid)
	}
	sort.Ints(ids)
	rows, err := rawsql.LoadRows(ctx, m, side.peerTable, []string{"mappings"}, ids)
	if err != nil {
		return err
	}
	for _, pid := range ids {
		if _, ok := rows[pid]; !ok {
			continue // deleted in the same request
		}
		list, _ := mappingList(rows[pid]["mappings"])
		kept := []map[string]any{}
		for _, e := range list {
			if other, _ := rawsql.IntOf(e[side.self]); other != id {
				kept = append(kept, e)
			}
		}
		kept = append(kept, peers[pid]...)
		sort.SliceStable(kept, func(i, j int) bool {
			a, _ := rawsql.IntOf(kept[i]["position"])
			b, _ := rawsql.IntOf(kept[j]["position"])
			return a < b
		})
		raw, err := json.Marshal(kept)
		if err != nil {
			return err
		}
		a := &rawsql.Args{PG: rawsql.Postgres(m)}
		val := a.P(string(raw))
		if a.PG {
			val += "::jsonb"
		}
		if err := rawsql.Exec(ctx, m, `UPDATE `+side.peerTable+` SET mappings = `+val+` WHERE id = `+a.P(pid), a); err != nil {
			return err
		}
	}
	return nil
}
