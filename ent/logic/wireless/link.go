package wireless

import (
	"context"
	"fmt"
	"strconv"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/circuits"
	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

const (
	tableLink      = "wireless_wirelesslink"
	tableInterface = "dcim_interface"
)

// LinkDisplay is WirelessLink.__str__: the SSID, or "#<pk>" without one.
func LinkDisplay(get api.Getter) string {
	if s := rawsql.StringOf(get("ssid")); s != "" {
		return s
	}
	return "#" + fmt.Sprint(get("id"))
}

// LinkHooks are the hooks of wireless.WirelessLink; typeLabels are the
// interface types' labels, for the messages.
func LinkHooks(typeLabels map[string]string) []ent.Hook {
	return []ent.Hook{
		rawsql.RowHook(tableLink, []string{"interface_a_id", "interface_b_id", "distance", "distance_unit"},
			func(ctx context.Context, m rawsql.Mutation, id int, row, _ map[string]any) error {
				for c, v := range row {
					row[c] = rawsql.Plain(v)
				}
				if err := circuits.CheckDistance(row); err != nil {
					return err
				}
				return checkEnds(ctx, m, id, row, typeLabels)
			}),
		afterWrite,
	}
}

// checkEnds is WirelessLink.clean() (wireless types only) and the rule
// that an interface is in one link at most.
func checkEnds(ctx context.Context, m rawsql.Mutation, id int, row map[string]any, typeLabels map[string]string) error {
	a, okA := rawsql.IntOf(row["interface_a_id"])
	b, okB := rawsql.IntOf(row["interface_b_id"])
	if !okA || !okB {
		return nil // required fields: the resource layer reports them
	}
	if a == b {
		return &api.FieldError{Field: "interface_b", Message: "Cannot link an interface to itself."}
	}
	rows, err := rawsql.LoadRows(ctx, m, tableInterface, []string{"name", "type", "wireless_link_id"}, []int{a, b})
	if err != nil {
		return err
	}
	for _, end := range []struct {
		field string
		id    int
	}{{"interface_a", a}, {"interface_b", b}} {
		r := rows[end.id]
		if r == nil {
			continue // the resource layer resolved it; a vanished row fails the FK
		}
		typ := rawsql.StringOf(r["type"])
		if !dcim.IsWirelessType(typ) {
			label := typeLabels[typ]
			if label == "" {
				label = typ
			}
			return &api.FieldError{Field: end.field, Message: label + " is not a wireless interface."}
		}
		q := &rawsql.Args{PG: rawsql.Postgres(m)}
		n, err := rawsql.Int(ctx, m, `SELECT COUNT(*) FROM "`+tableLink+`" WHERE id <> `+q.P(id)+
			` AND (interface_a_id = `+q.P(end.id)+` OR interface_b_id = `+q.P(end.id)+`)`, q)
		if err != nil {
			return err
		}
		if n > 0 {
			return &api.FieldError{Field: end.field, Message: "Interface " + rawsql.StringOf(r["name"]) +
				" (id " + strconv.Itoa(end.id) + ") already has a wireless link."}
		}
	}
	return nil
}

// afterWrite is WirelessLink.save() and NetBox's interface cascades: after
// a create, or an update that moves an end, the link caches its ends'
// devices and the interfaces point at the link (those it left no longer).
// Then, as for a cable, the paths of the link's ends are traced again
// (dcim.Retrace: the paths through the link, from the interfaces it
// joined, and from those it joins now): after a create (NetBox's
// update_connected_interfaces), a delete (nullify_connected_interfaces,
// which deletes the paths through the link) and, beyond NetBox, which
// leaves its paths as they were, an update of the ends or the status.
func afterWrite(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		op := m.Op()
		create, del := op.Is(ent.OpCreate), op.Is(ent.OpDelete|ent.OpDeleteOne)
		moved := !create && !del && rawsql.Touched(m, "interface_a_id", "interface_b_id")
		if !create && !del && !moved && !rawsql.Touched(m, "status") {
			return next.Mutate(ctx, m)
		}
		sm, err := rawsql.As("wireless link hook", m)
		if err != nil {
			return nil, err
		}
		v, ids, err := rawsql.Written(ctx, sm, next, nil)
		if err != nil {
			return nil, err
		}
		if create || moved {
			if err := rawsql.Chunks(ids, func(ids []int) error { return syncEnds(ctx, sm, ids) }); err != nil {
				return nil, err
			}
		}
		nodes := make([]dcim.Node, len(ids))
		for i, id := range ids {
			nodes[i] = dcim.Node{Type: dcim.CTWirelessLink, ID: id}
		}
		return v, dcim.Retrace(ctx, sm, nil, nodes)
	})
}

// syncEnds sets the cached devices of links ids and the wireless_link of
// their interfaces. The interfaces it rewrites (the links' ends and those
// an end left) are saved as NetBox's update_connected_interfaces saves
// them: an update record each, with wireless_link before and after.
func syncEnds(ctx context.Context, m rawsql.Mutation, ids []int) error {
	const link, iface = `"` + tableLink + `"`, `"` + tableInterface + `"`
	a := &rawsql.Args{PG: rawsql.Postgres(m)}
	rows, err := rawsql.Rows(ctx, m, `SELECT id FROM `+iface+` WHERE wireless_link_id IN (`+rawsql.In(a, ids)+`) UNION `+
		`SELECT interface_a_id FROM `+link+` WHERE id IN (`+rawsql.In(a, ids)+`) UNION `+
		`SELECT interface_b_id FROM `+link+` WHERE id IN (`+rawsql.In(a, ids)+`)`, a)
	if err != nil {
		return fmt.Errorf("wireless link ends: %w", err)
	}
	ends := make([]int, 0, len(rows))
	for _, r := range rows {
		if id, ok := rawsql.IntOf(r["id"]); ok {
			ends = append(ends, id)
		}
	}
	if err := api.Saving(ctx, m, dcim.CTInterface, ends); err != nil {
		return err
	}
	stmts := []func(in func() string) string{
		func(in func() string) string {
			return `UPDATE ` + link + ` SET "_interface_a_device_id" = (SELECT device_id FROM ` + iface +
				` i WHERE i.id = ` + link + `.interface_a_id), "_interface_b_device_id" = (SELECT device_id FROM ` +
				iface + ` i WHERE i.id = ` + link + `.interface_b_id) WHERE id IN (` + in() + `)`
		},
		// Interfaces an end left.
		func(in func() string) string {
			return `UPDATE ` + iface + ` SET wireless_link_id = NULL WHERE wireless_link_id IN (` + in() + `) AND id NOT IN (` +
				`SELECT interface_a_id FROM ` + link + ` WHERE id IN (` + in() + `) UNION ` +
				`SELECT interface_b_id FROM ` + link + ` WHERE id IN (` + in() + `))`
		},
		func(in func() string) string {
			return `UPDATE ` + iface + ` SET wireless_link_id = (SELECT l.id FROM ` + link + ` l WHERE l.id IN (` + in() +
				`) AND (l.interface_a_id = ` + iface + `.id OR l.interface_b_id = ` + iface + `.id)) ` +
				`WHERE id IN (SELECT interface_a_id FROM ` + link + ` WHERE id IN (` + in() + `) UNION ` +
				`SELECT interface_b_id FROM ` + link + ` WHERE id IN (` + in() + `))`
		},
	}
	for _, stmt := range stmts {
		a := &rawsql.Args{PG: rawsql.Postgres(m)}
		if err := rawsql.Exec(ctx, m, stmt(func() string { return rawsql.In(a, ids) }), a); err != nil {
			return fmt.Errorf("wireless link ends: %w", err)
		}
	}
	return nil
}
