package dcim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"entgo.io/ent/dialect"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// The stored paths (dcim_cablepath, its nodes in dcim_cablepath_node, and
// each origin's _path_id) are kept correct in the write's transaction:
// the cable hooks, the port mapping hooks, the wireless link hooks and
// the deletes of cabled objects call RetracePaths with what they changed, and every path through
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
	case CTInterface:
		return "device_id", []string{"wireless_link_id"}
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
	t.WirelessLink, _ = rawsql.IntOf(r["wireless_link_id"])
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

func (g *sqlGraph) WirelessLinks(ctx context.Context, ids []int) (map[int]WirelessLink, error) {
	out := map[int]WirelessLink{}
	err := rawsql.Chunks(ids, func(ids []int) error {
		a := &rawsql.Args{PG: g.pg}
		rows, err := rawsql.Rows(ctx, g.q, `SELECT id, status, interface_a_id, interface_b_id FROM wireless_wirelesslink
			WHERE id IN (`+rawsql.In(a, ids)+`)`, a)
		if err != nil {
			return err
		}
		for _, r := range rows {
			w := WirelessLink{Status: rawsql.StringOf(r["status"])}
			w.ID, _ = rawsql.IntOf(r["id"])
			w.A, _ = rawsql.IntOf(r["interface_a_id"])
			w.B, _ = rawsql.IntOf(r["interface_b_id"])
			out[w.ID] = w
		}
		return nil
	})
	return out, err
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
// one of cables or on a wireless link among nodes, and the endpoints of
// nodes: the old paths go, the new ones are stored and their origins
// point at them. It returns the
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
	g := newMemoGraph(NewGraph(q, pg))
	// The cables' ends now: paths through them (a path that ended at a
	// pass-through port just cabled) are traced again too; and the
	// interfaces on the wireless links now.
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
	var wlinks []int
	for _, n := range nodes {
		if n.Type == CTWirelessLink {
			wlinks = append(wlinks, n.ID)
		}
	}
	if len(wlinks) > 0 {
		ws, err := g.WirelessLinks(ctx, wlinks)
		if err != nil {
			return nil, err
		}
		for _, id := range wlinks {
			if w, ok := ws[id]; ok {
				ends = append(ends, Node{CTInterface, w.A}, Node{CTInterface, w.B})
			}
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
	// The origins now, grouped by the cable end they are on (an end of a
	// wireless link is one interface); their links and the objects on
	// those links' other ends are read for all of them at once (the first
	// hop of every trace, and the whole of an endpoint-to-endpoint one).
	terms, err := g.prefetch(ctx, cands)
	if err != nil {
		return nil, err
	}
	type endKey struct {
		ct   string
		link Node
		end  string
	}
	var keys []endKey
	groups := map[endKey][]Node{}
	for _, n := range cands {
		t, ok := terms[n]
		if !ok || t.Link().ID == 0 {
			continue
		}
		k := endKey{n.Type, t.Link(), t.CableEnd}
		if t.Cable == 0 {
			k.end = n.String()
		}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], n)
	}
	after := map[Node]*Path{}
	var traced []*Path
	for _, k := range keys {
		// All the endpoints on that end, not only the candidates.
		origins := groups[k]
		p, err := Trace(ctx, g, origins)
		if err != nil {
			var le *PathLimitError
			if errors.As(err, &le) {
				return nil, limitError(ctx, g, cables, le)
			}
			return nil, err
		}
		if p == nil {
			continue
		}
		traced = append(traced, p)
		for _, n := range origins {
			after[n] = p
		}
	}
	if err := savePaths(ctx, q, pg, traced); err != nil {
		return nil, err
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

// limitError is the 400 of a trace past a limit: on the end of a written
// cable that the path goes on through (the first of cables on the path:
// the end opposite its near-end step), or on the whole object when the
// path crosses none of them (a port mapping's write).
func limitError(ctx context.Context, g Graph, cables []int, le *PathLimitError) error {
	field := "__all__"
	steps := le.Path.Path
	for i := 1; i < len(steps) && field == "__all__"; i += 3 {
		for _, n := range steps[i] {
			if n.Type != CTCable || !containsInt(cables, n.ID) {
				continue
			}
			cs, err := g.Cables(ctx, []int{n.ID})
			if err != nil {
				return err
			}
			field = "a_terminations"
			for _, near := range steps[i-1] {
				if containsNode(cs[n.ID].A, near) {
					field = "b_terminations"
				}
			}
			break
		}
	}
	return &api.FieldError{Field: field, Message: le.Error()}
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

// savePaths stores paths, their nodes, and points their origins at
// them, in a fixed number of statements per batch of paths
// (rawsql.Batches: thousands of paths a statement, so a bulk request of
// 1000 cables stores its 2000 paths in a few statements): one INSERT of
// the paths (their ids matched back by their first origin, which no two
// paths share, as RETURNING's order is not promised), the INSERTs of
// their nodes (rawsql.InsertRows), and one UPDATE per endpoint type.
func savePaths(ctx context.Context, q DB, pg bool, paths []*Path) error {
	dia := dialect.SQLite
	if pg {
		dia = dialect.Postgres
	}
	return rawsql.Batches(dia, paths, 4, 0, func(chunk []*Path) error {
		a := &rawsql.Args{PG: pg}
		vals := make([]string, len(chunk))
		byOrigin := make(map[Node]*Path, len(chunk))
		for i, p := range chunk {
			raw, err := json.Marshal(p.steps())
			if err != nil {
				return err
			}
			val := a.P(string(raw))
			if pg {
				val += "::jsonb"
			}
			vals[i] = `(` + val + `, ` + a.P(p.IsActive) + `, ` + a.P(p.IsComplete) + `, ` + a.P(p.IsSplit) + `)`
			byOrigin[p.Origins()[0]] = p
		}
		rows, err := rawsql.Rows(ctx, q, `INSERT INTO dcim_cablepath (path, is_active, is_complete, is_split) VALUES `+
			strings.Join(vals, ", ")+` RETURNING id, path`, a)
		if err != nil {
			return err
		}
		ids := make(map[*Path]int, len(chunk))
		for _, r := range rows {
			id, _ := rawsql.IntOf(r["id"])
			var steps [][]string
			if err := json.Unmarshal([]byte(rawsql.StringOf(r["path"])), &steps); err != nil {
				return fmt.Errorf("stored path %d: %w", id, err)
			}
			if len(steps) == 0 || len(steps[0]) == 0 {
				return fmt.Errorf("stored path %d has no origin", id)
			}
			origin, err := ParseNode(steps[0][0])
			if err != nil {
				return err
			}
			if p := byOrigin[origin]; p != nil {
				ids[p] = id
			}
		}
		if len(ids) != len(chunk) {
			return fmt.Errorf("stored %d paths, matched %d", len(chunk), len(ids))
		}
		var nodes [][]any
		origins := map[string][][]any{} // endpoint type → (endpoint, path)
		var types []string
		for _, p := range chunk {
			// Each node once: the rows say which paths hold a node, and a
			// path ended on a loop holds some twice.
			once := map[Node]bool{}
			for _, n := range p.Nodes() {
				if !once[n] {
					once[n] = true
					nodes = append(nodes, []any{ids[p], n.Type, n.ID})
				}
			}
			for _, n := range p.Origins() {
				if origins[n.Type] == nil {
					types = append(types, n.Type)
				}
				origins[n.Type] = append(origins[n.Type], []any{n.ID, ids[p]})
			}
		}
		if err := rawsql.InsertRows(ctx, q, dia, "dcim_cablepath_node", []string{"path_id", "node_type", "node_id"}, nodes); err != nil {
			return err
		}
		for _, ct := range types {
			if err := updateByID(ctx, q, pg, tableOf(ct), []string{"_path_id"}, []string{"bigint"}, "", origins[ct]); err != nil {
				return err
			}
		}
		return nil
	})
}

// updateByID sets columns cols of rows of table, each row its own values
// (rows: the id, then a value per column), with extra (SQL, "" for none)
// on every row: one UPDATE ... FROM a VALUES list joined by id (both
// databases name its columns column1, column2, ...) per batch of rows
// (rawsql.Batches), where an UPDATE ... CASE id took a comparison per row
// and value. PostgreSQL is told the values' types (casts: the id's is
// bigint, then one per column), which it cannot infer from parameters.
func updateByID(ctx context.Context, q rawsql.Execer, pg bool, table string, cols, casts []string, extra string, rows [][]any) error {
	dia := dialect.SQLite
	if pg {
		dia = dialect.Postgres
	}
	set := make([]string, len(cols))
	for i, c := range cols {
		set[i] = c + ` = v.column` + strconv.Itoa(i+2)
	}
	if extra != "" {
		set = append(set, extra)
	}
	head := `UPDATE ` + table + ` SET ` + strings.Join(set, ", ") + ` FROM (VALUES `
	var typed []string
	if pg {
		typed = append([]string{"bigint"}, casts...)
	}
	return rawsql.Batches(dia, rows, len(cols)+1, 0, func(rows [][]any) error {
		a := &rawsql.Args{PG: pg}
		var b strings.Builder
		b.WriteString(head)
		a.Tuples(&b, rows, typed)
		b.WriteString(`) AS v WHERE ` + table + `.id = v.column1`)
		return rawsql.Exec(ctx, q, b.String(), a)
	})
}

// steps is the path as stored: each step's nodes as strings.
func (p *Path) steps() [][]string {
	steps := make([][]string, len(p.Path))
	for i, step := range p.Path {
		steps[i] = make([]string, len(step))
		for j, n := range step {
			steps[i][j] = n.String()
		}
	}
	return steps
}

// memoGraph remembers the objects and cables a Graph read, for the
// traces of one retrace: a trace asks again for what an earlier one read
// (the far end of a cable is the origin of the path back), and prefetch
// reads the first hop of every trace at once.
type memoGraph struct {
	Graph
	terms  map[Node]Term
	read   map[Node]bool // asked for, found or not
	cables map[int]Cable
	gone   map[int]bool
	links  map[int]WirelessLink
	noLink map[int]bool
}

func newMemoGraph(g Graph) *memoGraph {
	return &memoGraph{Graph: g, terms: map[Node]Term{}, read: map[Node]bool{}, cables: map[int]Cable{}, gone: map[int]bool{},
		links: map[int]WirelessLink{}, noLink: map[int]bool{}}
}

func (m *memoGraph) WirelessLinks(ctx context.Context, ids []int) (map[int]WirelessLink, error) {
	return memoRead(ctx, m.links, m.noLink, ids, m.Graph.WirelessLinks)
}

// memoRead answers ids from cache, reading those never asked for with
// read; missing remembers the ids asked for and not found.
func memoRead[T any](ctx context.Context, cache map[int]T, missing map[int]bool, ids []int,
	read func(context.Context, []int) (map[int]T, error)) (map[int]T, error) {
	var unread []int
	for _, id := range ids {
		if _, ok := cache[id]; !ok && !missing[id] {
			missing[id] = true // until read
			unread = append(unread, id)
		}
	}
	if len(unread) > 0 {
		got, err := read(ctx, unread)
		if err != nil {
			return nil, err
		}
		for id, v := range got {
			cache[id] = v
			delete(missing, id)
		}
	}
	out := make(map[int]T, len(ids))
	for _, id := range ids {
		if v, ok := cache[id]; ok {
			out[id] = v
		}
	}
	return out, nil
}

func (m *memoGraph) Terms(ctx context.Context, nodes []Node) (map[Node]Term, error) {
	var missing []Node
	for _, n := range nodes {
		if !m.read[n] {
			m.read[n] = true
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		got, err := m.Graph.Terms(ctx, missing)
		if err != nil {
			return nil, err
		}
		for n, t := range got {
			m.terms[n] = t
		}
	}
	out := make(map[Node]Term, len(nodes))
	for _, n := range nodes {
		if t, ok := m.terms[n]; ok {
			out[n] = t
		}
	}
	return out, nil
}

func (m *memoGraph) Cables(ctx context.Context, ids []int) (map[int]Cable, error) {
	return memoRead(ctx, m.cables, m.gone, ids, m.Graph.Cables)
}

// prefetch reads nodes, their links and the objects on those links,
// and returns the nodes' Terms.
func (m *memoGraph) prefetch(ctx context.Context, nodes []Node) (map[Node]Term, error) {
	terms, err := m.Terms(ctx, nodes)
	if err != nil {
		return nil, err
	}
	var ids, wids []int
	seen := map[Node]bool{}
	for _, n := range nodes {
		t, ok := terms[n]
		if l := t.Link(); ok && l.ID != 0 && !seen[l] {
			seen[l] = true
			if l.Type == CTCable {
				ids = append(ids, l.ID)
			} else {
				wids = append(wids, l.ID)
			}
		}
	}
	cables, err := m.Cables(ctx, ids)
	if err != nil {
		return nil, err
	}
	var far []Node
	for _, id := range ids {
		far = append(append(far, cables[id].A...), cables[id].B...)
	}
	if len(wids) > 0 {
		ws, err := m.WirelessLinks(ctx, wids)
		if err != nil {
			return nil, err
		}
		for _, id := range wids {
			if w, ok := ws[id]; ok {
				far = append(far, Node{CTInterface, w.A}, Node{CTInterface, w.B})
			}
		}
	}
	if _, err := m.Terms(ctx, far); err != nil {
		return nil, err
	}
	return terms, nil
}
