package dcim

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/inventory/inventory/ent/logic/rawsql"
)

// The stored paths (dcim_cablepath, its nodes in dcim_cablepath_node, and
// each origin's _path_id) are kept correct in the write's transaction:
// the cable hooks, the port mapping hooks and the deletes of cabled
// objects call RetracePaths with what they changed, and every path through
// it, and every path from an endpoint now on a changed cable, is traced
// again (NetBox's update_connected_endpoints, retrace_cable_paths,
// update_passthrough_port_paths and nullify_connected_endpoints signals,
// which end up doing the same).

// DB is what the store needs of a transaction: a generated mutation
// (rawsql.Mutation) satisfies it.
type DB interface {
	rawsql.Querier
	rawsql.Execer
}

// tableOf is the table of a cabled object's model.
func tableOf(contentType string) string { return strings.Replace(contentType, ".", "_", 1) }

// sqlGraph answers a trace's questions from the database.
type sqlGraph struct {
	q  DB
	pg bool
}

// NewGraph is the Graph of the database q reads (PostgreSQL when pg).
func NewGraph(q DB, pg bool) Graph { return &sqlGraph{q: q, pg: pg} }

// groupByType splits nodes by content type, in first-seen order.
func groupByType(nodes []Node) ([]string, map[string][]int) {
	var types []string
	byType := map[string][]int{}
	for _, n := range nodes {
		if _, ok := byType[n.Type]; !ok {
			types = append(types, n.Type)
		}
		byType[n.Type] = append(byType[n.Type], n.ID)
	}
	return types, byType
}

// termColumns are the columns a Term is read from, by model.
func termColumns(ct string) (parent string, extra []string) {
	switch ct {
	case CTPowerFeed:
		return "power_panel_id", nil
	case CTCircuitTermination:
		return "circuit_id", []string{"term_side", "_provider_network_id", "termination_type", "termination_id"}
	case CTFrontPort, CTRearPort:
		return "device_id", []string{"positions"}
	}
	return "device_id", nil
}

func parentType(ct string) string {
	switch ct {
	case CTPowerFeed:
		return "dcim.powerpanel"
	case CTCircuitTermination:
		return "circuits.circuit"
	}
	return "dcim.device"
}

func (g *sqlGraph) Terms(ctx context.Context, nodes []Node) (map[Node]Term, error) {
	out := map[Node]Term{}
	types, byType := groupByType(nodes)
	for _, ct := range types {
		if !IsCabled(ct) {
			continue // not a cabled model (a provider network, a site)
		}
		parent, extra := termColumns(ct)
		cols := append([]string{"id", "cable_id", "cable_end", parent}, extra...)
		err := rawsql.Chunks(byType[ct], func(ids []int) error {
			a := &rawsql.Args{PG: g.pg}
			rows, err := rawsql.Rows(ctx, g.q, `SELECT `+strings.Join(cols, ", ")+` FROM `+tableOf(ct)+
				` WHERE id IN (`+rawsql.In(a, ids)+`)`, a)
			if err != nil {
				return err
			}
			for _, r := range rows {
				t := termOf(ct, r, parent)
				out[t.Node] = t
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// termOf reads a Term from a row of ct's table.
func termOf(ct string, r map[string]any, parent string) Term {
	id, _ := rawsql.IntOf(r["id"])
	t := Term{Node: Node{ct, id}, CableEnd: rawsql.StringOf(r["cable_end"]), Positions: 1}
	t.Cable, _ = rawsql.IntOf(r["cable_id"])
	pid, _ := rawsql.IntOf(r[parent])
	t.Parent = Node{parentType(ct), pid}
	if n, ok := rawsql.IntOf(r["positions"]); ok {
		t.Positions = n
	}
	if ct == CTCircuitTermination {
		t.TermSide = rawsql.StringOf(r["term_side"])
		t.ProviderNetwork, _ = rawsql.IntOf(r["_provider_network_id"])
		if tt := rawsql.StringOf(r["termination_type"]); tt != "" {
			tid, _ := rawsql.IntOf(r["termination_id"])
			t.Attached = Node{tt, tid}
		}
	}
	return t
}

func (g *sqlGraph) Cables(ctx context.Context, ids []int) (map[int]Cable, error) {
	out := map[int]Cable{}
	err := rawsql.Chunks(ids, func(ids []int) error {
		a := &rawsql.Args{PG: g.pg}
		rows, err := rawsql.Rows(ctx, g.q, `SELECT id, status FROM dcim_cable WHERE id IN (`+rawsql.In(a, ids)+`)`, a)
		if err != nil {
			return err
		}
		for _, r := range rows {
			id, _ := rawsql.IntOf(r["id"])
			out[id] = Cable{ID: id, Status: rawsql.StringOf(r["status"])}
		}
		a = &rawsql.Args{PG: g.pg}
		rows, err = rawsql.Rows(ctx, g.q, `SELECT cable_id, cable_end, termination_type, termination_id FROM dcim_cabletermination
			WHERE cable_id IN (`+rawsql.In(a, ids)+`) ORDER BY cable_id, cable_end, id`, a)
		if err != nil {
			return err
		}
		for _, r := range rows {
			cid, _ := rawsql.IntOf(r["cable_id"])
			c, ok := out[cid]
			if !ok {
				continue
			}
			tid, _ := rawsql.IntOf(r["termination_id"])
			n := Node{rawsql.StringOf(r["termination_type"]), tid}
			if rawsql.StringOf(r["cable_end"]) == "A" {
				c.A = append(c.A, n)
			} else {
				c.B = append(c.B, n)
			}
			out[cid] = c
		}
		return nil
	})
	return out, err
}

func (g *sqlGraph) Mappings(ctx context.Context, rear bool, ports []int) ([]Mapping, error) {
	table, peer := "dcim_frontport", "rear_port"
	if rear {
		table, peer = "dcim_rearport", "front_port"
	}
	var out []Mapping
	err := rawsql.Chunks(ports, func(ids []int) error {
		a := &rawsql.Args{PG: g.pg}
		rows, err := rawsql.Rows(ctx, g.q, `SELECT id, mappings FROM `+table+` WHERE id IN (`+rawsql.In(a, ids)+`)`, a)
		if err != nil {
			return err
		}
		for _, r := range rows {
			id, _ := rawsql.IntOf(r["id"])
			list, err := mappingList(rawsql.StringOf(r["mappings"]))
			if err != nil {
				return err
			}
			for _, e := range list {
				pos, _ := rawsql.IntOf(e["position"])
				pid, _ := rawsql.IntOf(e[peer])
				ppos, _ := rawsql.IntOf(e[peer+"_position"])
				m := Mapping{Front: id, FrontPosition: pos, Rear: pid, RearPosition: ppos}
				if rear {
					m = Mapping{Front: pid, FrontPosition: ppos, Rear: id, RearPosition: pos}
				}
				out = append(out, m)
			}
		}
		return nil
	})
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Front != out[j].Front {
			return out[i].Front < out[j].Front
		}
		return out[i].FrontPosition < out[j].FrontPosition
	})
	return out, err
}

func (g *sqlGraph) CircuitPeers(ctx context.Context, terms []Term) ([]Term, error) {
	var conds []string
	a := &rawsql.Args{PG: g.pg}
	for _, t := range terms {
		side := "A"
		if t.TermSide == "A" {
			side = "Z"
		}
		conds = append(conds, `(circuit_id = `+a.P(t.Parent.ID)+` AND term_side = `+a.P(side)+`)`)
	}
	if len(conds) == 0 {
		return nil, nil
	}
	parent, extra := termColumns(CTCircuitTermination)
	cols := append([]string{"id", "cable_id", "cable_end", parent}, extra...)
	rows, err := rawsql.Rows(ctx, g.q, `SELECT `+strings.Join(cols, ", ")+` FROM circuits_circuittermination WHERE `+
		strings.Join(conds, " OR ")+` ORDER BY circuit_id, term_side`, a)
	if err != nil {
		return nil, err
	}
	out := make([]Term, len(rows))
	for i, r := range rows {
		out[i] = termOf(CTCircuitTermination, r, parent)
	}
	return out, nil
}

// CabledTypes are the models a cable may terminate on (NetBox's
// CabledObjectModel subclasses).
var cabledTypes = append(append([]string{}, PathEndpoints...), CTFrontPort, CTRearPort, CTCircuitTermination)

// IsCabled reports whether objects of contentType take cables.
func IsCabled(contentType string) bool {
	for _, ct := range cabledTypes {
		if ct == contentType {
			return true
		}
	}
	return false
}

// StoredPath is a path as stored, with its id.
type StoredPath struct {
	ID int
	Path
}

// pathsThrough are the ids of the stored paths holding any of nodes.
func pathsThrough(ctx context.Context, q rawsql.Querier, pg bool, nodes []Node) ([]int, error) {
	seen := map[int]bool{}
	var out []int
	types, byType := groupByType(nodes)
	for _, ct := range types {
		err := rawsql.Chunks(byType[ct], func(ids []int) error {
			a := &rawsql.Args{PG: pg}
			rows, err := rawsql.Rows(ctx, q, `SELECT DISTINCT path_id FROM dcim_cablepath_node WHERE node_type = `+
				a.P(ct)+` AND node_id IN (`+rawsql.In(a, ids)+`)`, a)
			if err != nil {
				return err
			}
			for _, r := range rows {
				id, _ := rawsql.IntOf(r["path_id"])
				if !seen[id] {
					seen[id] = true
					out = append(out, id)
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Ints(out)
	return out, nil
}

// LoadPaths reads stored paths by id.
func LoadPaths(ctx context.Context, q rawsql.Querier, pg bool, ids []int) (map[int]*StoredPath, error) {
	out := map[int]*StoredPath{}
	err := rawsql.Chunks(ids, func(ids []int) error {
		a := &rawsql.Args{PG: pg}
		rows, err := rawsql.Rows(ctx, q, `SELECT id, path, is_active, is_complete, is_split FROM dcim_cablepath WHERE id IN (`+
			rawsql.In(a, ids)+`)`, a)
		if err != nil {
			return err
		}
		for _, r := range rows {
			p, err := storedPathOf(r)
			if err != nil {
				return err
			}
			out[p.ID] = p
		}
		return nil
	})
	return out, err
}

// storedPathOf reads a dcim_cablepath row.
func storedPathOf(r map[string]any) (*StoredPath, error) {
	id, _ := rawsql.IntOf(r["id"])
	p := &StoredPath{ID: id}
	var steps [][]string
	if err := json.Unmarshal([]byte(rawsql.StringOf(r["path"])), &steps); err != nil {
		return nil, fmt.Errorf("cable path %d: %w", id, err)
	}
	for _, step := range steps {
		nodes := make([]Node, 0, len(step))
		for _, s := range step {
			n, err := ParseNode(s)
			if err != nil {
				return nil, err
			}
			nodes = append(nodes, n)
		}
		p.Path.Path = append(p.Path.Path, nodes)
	}
	p.IsActive, p.IsComplete, p.IsSplit = boolOf(r["is_active"]), boolOf(r["is_complete"]), boolOf(r["is_split"])
	return p, nil
}

func boolOf(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case int:
		return x != 0
	}
	return false
}

// RetracePaths traces again, in q's transaction, every stored path
// through one of cables or nodes and every path from an endpoint now on
// one of cables, and the endpoints of nodes: the old paths go, the new
// ones are stored and their origins point at them. It returns the
// endpoints whose connection changed (a path added, gone, or reaching
// other objects or with another reachability), for their change records.
func RetracePaths(ctx context.Context, q DB, pg bool, cables []int, nodes []Node) ([]Node, error) {
	all := append([]Node{}, nodes...)
	for _, id := range cables {
		all = append(all, Node{CTCable, id})
	}
	if len(all) == 0 {
		return nil, nil
	}
	g := NewGraph(q, pg)
	// The cables' ends now: paths through them (a path that ended at a
	// pass-through port just cabled) are traced again too.
	var ends []Node
	if len(cables) > 0 {
		cs, err := g.Cables(ctx, cables)
		if err != nil {
			return nil, err
		}
		for _, id := range cables {
			ends = append(append(ends, cs[id].A...), cs[id].B...)
		}
	}
	affected, err := pathsThrough(ctx, q, pg, append(all, ends...))
	if err != nil {
		return nil, err
	}
	old, err := LoadPaths(ctx, q, pg, affected)
	if err != nil {
		return nil, err
	}
	// The candidate origins: those of the affected paths, the endpoints
	// on the cables' ends now, and the endpoints among nodes.
	var cands []Node
	seen := map[Node]bool{}
	add := func(n Node) {
		if IsPathEndpoint(n.Type) && !seen[n] {
			seen[n] = true
			cands = append(cands, n)
		}
	}
	for _, id := range affected {
		for _, n := range old[id].Origins() {
			add(n)
		}
	}
	for _, n := range ends {
		add(n)
	}
	for _, n := range nodes {
		add(n)
	}
	if len(cands) == 0 {
		return nil, nil
	}
	// Their paths now (some may not be among the affected: an endpoint
	// just cabled whose old path, from an earlier cable, is stale).
	before, err := currentPaths(ctx, q, pg, cands)
	if err != nil {
		return nil, err
	}
	var stale []int
	for _, id := range affected {
		stale = append(stale, id)
	}
	for _, id := range before {
		if _, ok := old[id]; !ok && id != 0 {
			stale = append(stale, id)
		}
	}
	var extra []int
	for _, id := range stale {
		if _, ok := old[id]; !ok {
			extra = append(extra, id)
		}
	}
	more, err := LoadPaths(ctx, q, pg, extra)
	if err != nil {
		return nil, err
	}
	for id, p := range more {
		old[id] = p
	}
	if err := deletePaths(ctx, q, pg, stale, cands); err != nil {
		return nil, err
	}
	// The origins now, grouped by the cable end they are on.
	terms, err := g.Terms(ctx, cands)
	if err != nil {
		return nil, err
	}
	type endKey struct {
		ct    string
		cable int
		end   string
	}
	var keys []endKey
	groups := map[endKey][]Node{}
	for _, n := range cands {
		t, ok := terms[n]
		if !ok || t.Cable == 0 {
			continue
		}
		k := endKey{n.Type, t.Cable, t.CableEnd}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], n)
	}
	after := map[Node]*Path{}
	for _, k := range keys {
		// All the endpoints on that end, not only the candidates.
		origins := groups[k]
		p, err := Trace(ctx, g, origins)
		if err != nil {
			return nil, err
		}
		if p == nil {
			continue
		}
		if err := savePath(ctx, q, pg, p); err != nil {
			return nil, err
		}
		for _, n := range origins {
			after[n] = p
		}
	}
	var changed []Node
	for _, n := range cands {
		var was *Path
		if id := before[n]; id != 0 {
			if sp := old[id]; sp != nil {
				was = &sp.Path
			}
		}
		if !sameConnection(was, after[n]) {
			changed = append(changed, n)
		}
	}
	return changed, nil
}

// sameConnection reports whether two paths (nil: none) show an endpoint
// the same connected_endpoints and reachability.
func sameConnection(a, b *Path) bool {
	ends := func(p *Path) (string, bool) {
		if p == nil {
			return "", false
		}
		var s []string
		for _, n := range p.Destinations() {
			s = append(s, n.String())
		}
		return strings.Join(s, ","), p.IsComplete && p.IsActive
	}
	ae, ar := ends(a)
	be, br := ends(b)
	return ae == be && ar == br
}

// currentPaths reads the _path_id of endpoints.
func currentPaths(ctx context.Context, q DB, pg bool, nodes []Node) (map[Node]int, error) {
	out := map[Node]int{}
	types, byType := groupByType(nodes)
	for _, ct := range types {
		err := rawsql.Chunks(byType[ct], func(ids []int) error {
			a := &rawsql.Args{PG: pg}
			rows, err := rawsql.Rows(ctx, q, `SELECT id, _path_id FROM `+tableOf(ct)+` WHERE id IN (`+
				rawsql.In(a, ids)+`) AND _path_id IS NOT NULL`, a)
			if err != nil {
				return err
			}
			for _, r := range rows {
				id, _ := rawsql.IntOf(r["id"])
				pid, _ := rawsql.IntOf(r["_path_id"])
				out[Node{ct, id}] = pid
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// deletePaths deletes paths and clears the _path_id of the endpoints
// pointing at them (cands: the only endpoints that may).
func deletePaths(ctx context.Context, q DB, pg bool, ids []int, cands []Node) error {
	if len(ids) == 0 {
		return nil
	}
	types, _ := groupByType(cands)
	return rawsql.Chunks(ids, func(ids []int) error {
		for _, ct := range types {
			a := &rawsql.Args{PG: pg}
			if err := rawsql.Exec(ctx, q, `UPDATE `+tableOf(ct)+` SET _path_id = NULL WHERE _path_id IN (`+
				rawsql.In(a, ids)+`)`, a); err != nil {
				return err
			}
		}
		for _, table := range []string{"dcim_cablepath_node WHERE path_id", "dcim_cablepath WHERE id"} {
			a := &rawsql.Args{PG: pg}
			if err := rawsql.Exec(ctx, q, `DELETE FROM `+table+` IN (`+rawsql.In(a, ids)+`)`, a); err != nil {
				return err
			}
		}
		return nil
	})
}

// savePath stores a path, its nodes, and points its origins at it.
func savePath(ctx context.Context, q DB, pg bool, p *Path) error {
	steps := make([][]string, len(p.Path))
	for i, step := range p.Path {
		steps[i] = make([]string, len(step))
		for j, n := range step {
			steps[i][j] = n.String()
		}
	}
	raw, err := json.Marshal(steps)
	if err != nil {
		return err
	}
	a := &rawsql.Args{PG: pg}
	val := a.P(string(raw))
	if pg {
		val += "::jsonb"
	}
	id, err := rawsql.Int(ctx, q, `INSERT INTO dcim_cablepath (path, is_active, is_complete, is_split) VALUES (`+val+`, `+
		a.P(p.IsActive)+`, `+a.P(p.IsComplete)+`, `+a.P(p.IsSplit)+`) RETURNING id`, a)
	if err != nil {
		return err
	}
	nodes := p.Nodes()
	for len(nodes) > 0 {
		n := min(len(nodes), rawsql.ChunkSize/3)
		a := &rawsql.Args{PG: pg}
		vals := make([]string, n)
		for i, node := range nodes[:n] {
			vals[i] = `(` + a.P(id) + `, ` + a.P(node.Type) + `, ` + a.P(node.ID) + `)`
		}
		if err := rawsql.Exec(ctx, q, `INSERT INTO dcim_cablepath_node (path_id, node_type, node_id) VALUES `+
			strings.Join(vals, ", "), a); err != nil {
			return err
		}
		nodes = nodes[n:]
	}
	_, byType := groupByType(p.Origins())
	for ct, ids := range byType {
		a := &rawsql.Args{PG: pg}
		if err := rawsql.Exec(ctx, q, `UPDATE `+tableOf(ct)+` SET _path_id = `+a.P(id)+` WHERE id IN (`+
			rawsql.In(a, ids)+`)`, a); err != nil {
			return err
		}
	}
	return nil
}
