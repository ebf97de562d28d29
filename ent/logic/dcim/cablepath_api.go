package dcim

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// What the API shows of stored paths: an endpoint's connected_endpoints
// (computed per page, one read of the page's paths and one nested render
// per far-end model), trace/ of an endpoint and paths/ of a pass-through
// port (one nested render per model on the paths, whatever their length).

// pagePaths reads the paths of a page of endpoints, by endpoint id: once
// for the three connected_endpoints fields of a page (the read cache
// keeps it until the next write; inside a write it reads each time).
func pagePaths(ctx context.Context, q api.PageQuery) (map[int]*StoredPath, error) {
	if q.Cached == nil {
		return readPagePaths(ctx, q)
	}
	key := make([]byte, 0, 16+8*len(q.IDs))
	key = append(key, "cablepaths:"+q.ContentType...)
	for _, id := range q.IDs {
		key = append(key, ',')
		key = strconv.AppendInt(key, int64(id), 10)
	}
	v, err := q.Cached(string(key), func() (any, error) { return readPagePaths(ctx, q) })
	if err != nil {
		return nil, err
	}
	return v.(map[int]*StoredPath), nil
}

func readPagePaths(ctx context.Context, q api.PageQuery) (map[int]*StoredPath, error) {
	out := map[int]*StoredPath{}
	// One statement for the whole page, whatever its size: the change log
	// reads the 10 000 interfaces a device was just given in one page.
	a := &rawsql.Args{PG: q.Postgres}
	rows, err := rawsql.Rows(ctx, q.Q, `SELECT e.id AS endpoint, p.id, p.path, p.is_active, p.is_complete, p.is_split
		FROM `+tableOf(q.ContentType)+` e JOIN dcim_cablepath p ON p.id = e._path_id
		WHERE `+rawsql.AnyID(a, "e.id", q.IDs), a)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		p, err := storedPathOf(r)
		if err != nil {
			return nil, err
		}
		id, _ := rawsql.IntOf(r["endpoint"])
		out[id] = p
	}
	return out, nil
}

// ConnectedEndpoints computes connected_endpoints: the far-end objects of
// a complete path, nested, or null (NetBox's ConnectedEndpointsSerializer).
func ConnectedEndpoints(ctx context.Context, q api.PageQuery) (map[int]json.RawMessage, error) {
	paths, err := pagePaths(ctx, q)
	if err != nil {
		return nil, err
	}
	var dests []Node
	for _, p := range paths {
		dests = append(dests, p.Destinations()...)
	}
	rendered, err := renderNodes(func(ct string, ids []int) (map[int]json.RawMessage, error) {
		return q.Nested(ctx, ct, ids)
	}, dests)
	if err != nil {
		return nil, err
	}
	out := map[int]json.RawMessage{}
	for id, p := range paths {
		if list := renderList(rendered, p.Destinations()); len(list) > 0 {
			out[id] = list
		}
	}
	return out, nil
}

// ConnectedEndpointsType computes connected_endpoints_type: the far end's
// model ("dcim.interface"), or null.
func ConnectedEndpointsType(ctx context.Context, q api.PageQuery) (map[int]json.RawMessage, error) {
	paths, err := pagePaths(ctx, q)
	if err != nil {
		return nil, err
	}
	out := map[int]json.RawMessage{}
	for id, p := range paths {
		if d := p.Destinations(); len(d) > 0 {
			out[id] = json.RawMessage(strconv.Quote(d[0].Type))
		}
	}
	return out, nil
}

// ConnectedEndpointsReachable computes connected_endpoints_reachable: the
// path is complete and every cable on it connected (false without path).
func ConnectedEndpointsReachable(ctx context.Context, q api.PageQuery) (map[int]json.RawMessage, error) {
	paths, err := pagePaths(ctx, q)
	if err != nil {
		return nil, err
	}
	out := make(map[int]json.RawMessage, len(q.IDs))
	for _, id := range q.IDs {
		p := paths[id]
		out[id] = json.RawMessage(strconv.FormatBool(p != nil && p.IsComplete && p.IsActive))
	}
	return out, nil
}

// renderNodes renders nodes nested, one call of nested per model.
func renderNodes(nested func(ct string, ids []int) (map[int]json.RawMessage, error), nodes []Node) (map[Node]json.RawMessage, error) {
	out := map[Node]json.RawMessage{}
	types, byType := groupByType(nodes)
	for _, ct := range types {
		got, err := nested(ct, byType[ct])
		if err != nil {
			return nil, err
		}
		for id, raw := range got {
			out[Node{ct, id}] = raw
		}
	}
	return out, nil
}

// renderList is a JSON list of the rendered nodes (missing ones left out).
func renderList(rendered map[Node]json.RawMessage, nodes []Node) json.RawMessage {
	b := []byte{'['}
	n := 0
	for _, node := range nodes {
		raw, ok := rendered[node]
		if !ok {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		b = append(b, raw...)
		n++
	}
	if n == 0 {
		return nil
	}
	return append(b, ']')
}

// The trace/ handlers of the path endpoints, one per model (a handler
// sees its object, not its model).
func TraceInterface(r api.Request) (any, error)         { return trace(r, CTInterface) }
func TraceConsolePort(r api.Request) (any, error)       { return trace(r, CTConsolePort) }
func TraceConsoleServerPort(r api.Request) (any, error) { return trace(r, CTConsoleServerPort) }
func TracePowerPort(r api.Request) (any, error)         { return trace(r, CTPowerPort) }
func TracePowerOutlet(r api.Request) (any, error)       { return trace(r, CTPowerOutlet) }
func TracePowerFeed(r api.Request) (any, error)         { return trace(r, CTPowerFeed) }

// objectID is the id of a detail endpoint's object.
func objectID(r api.Request) (int, bool) {
	if r.Object() == nil {
		return 0, false
	}
	return rawsql.IntOf(r.Object()("id"))
}

// endpointPath reads the stored path of one endpoint.
func endpointPath(ctx context.Context, q rawsql.Querier, pg bool, ct string, id int) (*StoredPath, error) {
	a := &rawsql.Args{PG: pg}
	rows, err := rawsql.Rows(ctx, q, `SELECT p.id, p.path, p.is_active, p.is_complete, p.is_split
		FROM `+tableOf(ct)+` e JOIN dcim_cablepath p ON p.id = e._path_id WHERE e.id = `+a.P(id), a)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	return storedPathOf(rows[0])
}

// trace is PathEndpoint.trace() rendered as NetBox's trace view does: a
// list of [near ends, cable, far ends], continued over a bridged
// interface at the far end.
func trace(r api.Request, ct string) (any, error) {
	id, ok := objectID(r)
	if !ok {
		return nil, &api.StatusError{Status: 404, Detail: "Not found."}
	}
	ctx, q, pg := r.Context(), requestQuerier{r}, r.Postgres()
	var steps [][]Node
	seen := map[Node]bool{}
	origin := Node{ct, id}
	for origin.ID != 0 && !seen[origin] {
		seen[origin] = true
		p, err := endpointPath(ctx, q, pg, origin.Type, origin.ID)
		if err != nil {
			return nil, err
		}
		if p == nil {
			break
		}
		steps = append(steps, p.Path.Path...)
		switch len(steps) % 3 {
		case 1: // ends at a pass-through port: no cable, no far end
			steps = append(steps, nil, nil)
		case 2: // ends at a site or provider network: no cable between
			last := steps[len(steps)-1]
			steps = append(steps[:len(steps)-1], nil, last)
		}
		origin = Node{}
		if d := p.Destinations(); len(d) == 1 && d[0].Type == CTInterface {
			a := &rawsql.Args{PG: pg}
			bridge, err := rawsql.Rows(ctx, q, `SELECT bridge_id FROM dcim_interface WHERE id = `+a.P(d[0].ID), a)
			if err != nil {
				return nil, err
			}
			if len(bridge) > 0 {
				if b, ok := rawsql.IntOf(bridge[0]["bridge_id"]); ok {
					origin = Node{CTInterface, b}
				}
			}
		}
	}
	var objs, cables []Node
	for i, step := range steps {
		if i%3 == 1 {
			cables = append(cables, step...)
		} else {
			objs = append(objs, step...)
		}
	}
	rendered, err := renderNodes(r.Nested, objs)
	if err != nil {
		return nil, err
	}
	traced, err := tracedLinks(r, cables)
	if err != nil {
		return nil, err
	}
	out := []any{}
	for i := 0; i+2 < len(steps); i += 3 {
		near := renderList(rendered, steps[i])
		if near == nil {
			break // a split path: stop here
		}
		var cable any = []any{}
		if len(steps[i+1]) > 0 {
			if c, ok := traced[steps[i+1][0]]; ok {
				cable = c
			}
		}
		var far any = []any{}
		if l := renderList(rendered, steps[i+2]); l != nil {
			far = l
		}
		out = append(out, []any{near, cable, far})
	}
	return out, nil
}

// tracedLinks renders the links of a trace, cables and wireless links.
func tracedLinks(r api.Request, nodes []Node) (map[Node]json.RawMessage, error) {
	out := map[Node]json.RawMessage{}
	_, byType := groupByType(nodes)
	for _, k := range []struct {
		ct     string
		render func(api.Request, []int) (map[int]json.RawMessage, error)
	}{{CTCable, tracedCables}, {CTWirelessLink, tracedWirelessLinks}} {
		ct := k.ct
		if len(byType[ct]) == 0 {
			continue
		}
		got, err := k.render(r, byType[ct])
		if err != nil {
			return nil, err
		}
		for id, raw := range got {
			out[Node{ct, id}] = raw
		}
	}
	return out, nil
}

// tracedLink is NetBox's TracedCableSerializer: id, url, display_url,
// type, status, label, color, length, length_unit, description, the
// choices as bare values. Label and color are left out when nil (a
// wireless link's).
type tracedLink struct {
	ID          int      `json:"id"`
	URL         string   `json:"url"`
	DisplayURL  string   `json:"display_url"`
	Type        *string  `json:"type"`
	Status      string   `json:"status"`
	Label       *string  `json:"label,omitempty"`
	Color       *string  `json:"color,omitempty"`
	Length      *float64 `json:"length"`
	LengthUnit  *string  `json:"length_unit"`
	Description string   `json:"description"`
}

// tracedRows renders the links ids of model ct, read from table's
// columns cols, with fill: those the caller may see (their nested form
// gives the URL).
func tracedRows(r api.Request, ct, table, cols string, ids []int, fill func(v *tracedLink, row map[string]any)) (map[int]json.RawMessage, error) {
	out := map[int]json.RawMessage{}
	brief, err := r.Nested(ct, ids)
	if err != nil {
		return nil, err
	}
	pg := r.Postgres()
	err = rawsql.Chunks(ids, func(ids []int) error {
		a := &rawsql.Args{PG: pg}
		rows, err := rawsql.Rows(r.Context(), requestQuerier{r}, `SELECT id, `+cols+` FROM `+table+` WHERE id IN (`+
			rawsql.In(a, ids)+`)`, a)
		if err != nil {
			return err
		}
		for _, row := range rows {
			id, _ := rawsql.IntOf(row["id"])
			b, ok := brief[id]
			if !ok {
				continue // not visible to the caller
			}
			var nb struct {
				URL string `json:"url"`
			}
			if err := json.Unmarshal(b, &nb); err != nil {
				return err
			}
			v := tracedLink{ID: id, URL: nb.URL, DisplayURL: strings.Replace(nb.URL, "/api/", "/", 1),
				Status: rawsql.StringOf(row["status"]), Description: rawsql.StringOf(row["description"])}
			fill(&v, row)
			raw, err := json.Marshal(v)
			if err != nil {
				return err
			}
			out[id] = raw
		}
		return nil
	})
	return out, err
}

// tracedWirelessLinks renders wireless links as NetBox's trace view does:
// with TracedCableSerializer too, a Cable serializer given a WirelessLink.
// Of its fields the link has id, url, display_url (its own: wireless
// links'), status (a bare value) and description; those it lacks are
// null when the Cable field is nullable (type, length, length_unit) and
// left out when not (label, color), as DRF does with a missing attribute.
func tracedWirelessLinks(r api.Request, ids []int) (map[int]json.RawMessage, error) {
	return tracedRows(r, CTWirelessLink, "wireless_wirelesslink", "status, description", ids,
		func(*tracedLink, map[string]any) {})
}

// tracedCables renders cables as NetBox's TracedCableSerializer.
func tracedCables(r api.Request, ids []int) (map[int]json.RawMessage, error) {
	return tracedRows(r, CTCable, "dcim_cable", "type, status, label, color, length, length_unit, description", ids,
		func(v *tracedLink, row map[string]any) {
			label, color := rawsql.StringOf(row["label"]), rawsql.StringOf(row["color"])
			v.Type, v.Label, v.Color, v.LengthUnit = optString(row["type"]), &label, &color, optString(row["length_unit"])
			if f, ok := row["length"].(float64); ok {
				v.Length = &f
			} else if n, ok := rawsql.IntOf(row["length"]); ok {
				f := float64(n)
				v.Length = &f
			}
		})
}

func optString(v any) *string {
	if v == nil {
		return nil
	}
	s := rawsql.StringOf(v)
	return &s
}

// FrontPortPaths and RearPortPaths serve GET front-ports|rear-ports/<id>/paths/
// (NetBox's PassThroughPortMixin.paths): the paths through the port, as
// CablePathSerializer renders them.
func FrontPortPaths(r api.Request) (any, error) { return objectPaths(r, CTFrontPort) }
func RearPortPaths(r api.Request) (any, error)  { return objectPaths(r, CTRearPort) }

// CircuitTerminationPaths serves a circuit termination's paths/.
func CircuitTerminationPaths(r api.Request) (any, error) { return objectPaths(r, CTCircuitTermination) }

func objectPaths(r api.Request, ct string) (any, error) {
	id, ok := objectID(r)
	if !ok {
		return nil, &api.StatusError{Status: 404, Detail: "Not found."}
	}
	return PathsThrough(r, Node{ct, id})
}

// PathsThrough renders the stored paths through node (circuit
// terminations' paths/ too).
func PathsThrough(r api.Request, node Node) (any, error) {
	ctx, q, pg := r.Context(), requestQuerier{r}, r.Postgres()
	ids, err := pathsThrough(ctx, q, pg, []Node{node})
	if err != nil {
		return nil, err
	}
	paths, err := LoadPaths(ctx, q, pg, ids)
	if err != nil {
		return nil, err
	}
	var all []Node
	for _, id := range ids {
		all = append(all, paths[id].Nodes()...)
	}
	rendered, err := renderNodes(r.Nested, all)
	if err != nil {
		return nil, err
	}
	out := []any{}
	for _, id := range ids {
		p := paths[id]
		steps := []any{}
		for _, step := range p.Path.Path {
			l := renderList(rendered, step)
			if l == nil {
				// NetBox renders a path holding an invalid object as [].
				steps = []any{}
				break
			}
			steps = append(steps, l)
		}
		out = append(out, map[string]any{"id": p.ID, "path": steps, "is_active": p.IsActive,
			"is_complete": p.IsComplete, "is_split": p.IsSplit})
	}
	return out, nil
}
