package dcim

import (
	"context"
	"fmt"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// CableDisplay is NetBox's Cable.__str__: the label, else "#<id>".
func CableDisplay(get api.Getter) string {
	if l, _ := get("label").(string); l != "" {
		return l
	}
	return fmt.Sprintf("#%v", get("id"))
}

// CableTerminationDisplay is NetBox's CableTermination.__str__, "Cable
// <cable> to <object>", cached on the row by the cable hooks (it names two
// other objects).
func CableTerminationDisplay(get api.Getter) string {
	s, _ := get("_display").(string)
	return s
}

// LinkPeers are NetBox's link_peers of a page of cabled objects: for each
// cabled row, the objects at the other end of its cable, in the order of
// their termination rows (one query for the page); for an interface on a
// wireless link and no cable, the interface at the link's other end (one
// more query, for a page that holds such interfaces), with a null
// link_peers_type as NetBox shows it.
func LinkPeers(ctx context.Context, q api.PageQuery) (map[int][]api.Ref, error) {
	type end struct {
		cable int
		side  string
	}
	own := map[int]end{}
	var cables []int
	wireless := map[int]int{} // interface → its wireless link
	for i, id := range q.IDs {
		c, ok := rawsql.IntOf(q.Rows[i]("cable"))
		if !ok {
			if q.ContentType == CTInterface {
				if w, ok := rawsql.IntOf(q.Rows[i]("wireless_link")); ok {
					wireless[id] = w
				}
			}
			continue
		}
		own[id] = end{c, rawsql.StringOf(q.Rows[i]("cable_end"))}
		cables = append(cables, c)
	}
	out, err := wirelessPeers(ctx, q, wireless)
	if err != nil || len(cables) == 0 {
		return out, err
	}
	terms := map[end][]api.Ref{}
	err = rawsql.Chunks(dedupeInts(cables), func(ids []int) error {
		a := &rawsql.Args{PG: q.Postgres}
		rows, err := rawsql.Rows(ctx, q.Q, `SELECT cable_id, cable_end, termination_type, termination_id FROM dcim_cabletermination `+
			`WHERE cable_id IN (`+rawsql.In(a, ids)+`) ORDER BY cable_id, cable_end, connector, id`, a)
		if err != nil {
			return err
		}
		for _, r := range rows {
			c, _ := rawsql.IntOf(r["cable_id"])
			oid, _ := rawsql.IntOf(r["termination_id"])
			k := end{c, rawsql.StringOf(r["cable_end"])}
			terms[k] = append(terms[k], api.Ref{Type: rawsql.StringOf(r["termination_type"]), ID: oid})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("link peers: %w", err)
	}
	for id, e := range own {
		far := "B"
		if e.side == "B" {
			far = "A"
		}
		out[id] = terms[end{e.cable, far}]
	}
	return out, nil
}

// wirelessPeers are the link peers of interfaces on wireless links (by
// interface, its link): the interface at the other end of each
// (Interface.link_peers).
func wirelessPeers(ctx context.Context, q api.PageQuery, links map[int]int) (map[int][]api.Ref, error) {
	out := map[int][]api.Ref{}
	if len(links) == 0 {
		return out, nil
	}
	ids := make([]int, 0, len(links))
	for _, w := range links {
		ids = append(ids, w)
	}
	ends := map[int][2]int{}
	err := rawsql.Chunks(dedupeInts(ids), func(ids []int) error {
		a := &rawsql.Args{PG: q.Postgres}
		rows, err := rawsql.Rows(ctx, q.Q, `SELECT id, interface_a_id, interface_b_id FROM wireless_wirelesslink WHERE id IN (`+
			rawsql.In(a, ids)+`)`, a)
		if err != nil {
			return err
		}
		for _, r := range rows {
			id, _ := rawsql.IntOf(r["id"])
			ia, _ := rawsql.IntOf(r["interface_a_id"])
			ib, _ := rawsql.IntOf(r["interface_b_id"])
			ends[id] = [2]int{ia, ib}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("wireless link peers: %w", err)
	}
	for iface, w := range links {
		e, ok := ends[w]
		if !ok {
			continue
		}
		peer := e[0]
		if e[0] == iface {
			peer = e[1]
		}
		// link_peers_type stays null, as NetBox's serializer has it
		// (get_link_peers_type returns None without a cable).
		out[iface] = []api.Ref{{Type: CTInterface, ID: peer, Untyped: true}}
	}
	return out, nil
}
