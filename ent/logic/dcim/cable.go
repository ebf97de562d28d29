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
// their termination rows (one query for the page).
func LinkPeers(ctx context.Context, q api.PageQuery) (map[int][]api.Ref, error) {
	type end struct {
		cable int
		side  string
	}
	own := map[int]end{}
	var cables []int
	for i, id := range q.IDs {
		c, ok := rawsql.IntOf(q.Rows[i]("cable"))
		if !ok {
			continue
		}
		own[id] = end{c, rawsql.StringOf(q.Rows[i]("cable_end"))}
		cables = append(cables, c)
	}
	out := map[int][]api.Ref{}
	if len(cables) == 0 {
		return out, nil
	}
	terms := map[end][]api.Ref{}
	err := rawsql.Chunks(dedupeInts(cables), func(ids []int) error {
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
