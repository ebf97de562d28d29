package vpn

import (
	"context"
	"fmt"
	"slices"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// L2VPNDisplay is NetBox's L2VPN.__str__: "<name> (<identifier>)", or the
// name alone when the identifier is unset or 0.
func L2VPNDisplay(get api.Getter) string {
	name := rawsql.StringOf(get("name"))
	if id, ok := rawsql.IntOf(rawsql.Deref(get("identifier"))); ok && id != 0 {
		return fmt.Sprintf("%s (%d)", name, id)
	}
	return name
}

// L2VPNTerminationDisplay is NetBox's L2VPNTermination.__str__,
// "<object> <> <l2vpn>", read from the copy the hooks cache.
func L2VPNTerminationDisplay(get api.Getter) string { return rawsql.StringOf(get("_display")) }

// L2VPNHooks: a point-to-point type may not be given to an L2VPN that
// already has more than two terminations (NetBox checks only on the
// termination; the L2VPN's own type change would otherwise break the
// rule), and a renamed L2VPN renews its terminations' displays.
func L2VPNHooks() []ent.Hook {
	return []ent.Hook{
		rawsql.RowHook(tableL2VPN, []string{"type"}, func(ctx context.Context, m rawsql.Mutation, id int, row, _ map[string]any) error {
			t := rawsql.StringOf(rawsql.Plain(row["type"]))
			if id == 0 || !slices.Contains(p2pTypes, t) {
				return nil
			}
			n, err := othersWith(ctx, m, tableL2VPNTerm, "l2vpn_id", id, 0)
			if err != nil || n <= 2 {
				return err
			}
			return &api.FieldError{Field: "type", Message: fmt.Sprintf("%s L2VPNs cannot have more than two terminations; found %d already defined.", typeLabel(t), n)}
		}),
		rawsql.AfterUpdate(func(ctx context.Context, m rawsql.Mutation, ids []int) error {
			return refreshTerminations(ctx, m, "l2vpn_id", ids)
		}, "name", "identifier"),
	}
}

// L2VPNTerminationHooks: L2VPNTermination.clean() (the object terminates
// no other L2VPN; a point-to-point L2VPN has two terminations at most)
// and the cached display.
func L2VPNTerminationHooks() []ent.Hook {
	return []ent.Hook{
		rawsql.RowHook(tableL2VPNTerm, []string{"l2vpn_id", "assigned_object_type", "assigned_object_id"},
			func(ctx context.Context, m rawsql.Mutation, id int, row, _ map[string]any) error {
				ct := rawsql.StringOf(rawsql.Plain(row["assigned_object_type"]))
				obj, ok := rawsql.IntOf(rawsql.Plain(row["assigned_object_id"]))
				vpnID, ok2 := rawsql.IntOf(rawsql.Plain(row["l2vpn_id"]))
				if !ok || !ok2 {
					return nil
				}
				objName, err := objectDisplay(ctx, m, ct, obj)
				if err != nil {
					return err
				}
				a := &rawsql.Args{PG: rawsql.Postgres(m)}
				n, err := rawsql.Int(ctx, m, `SELECT COUNT(*) FROM "`+tableL2VPNTerm+`" WHERE assigned_object_type = `+a.P(ct)+
					` AND assigned_object_id = `+a.P(obj)+` AND id <> `+a.P(id), a)
				if err != nil {
					return err
				}
				if n > 0 {
					return &api.FieldError{Field: "non_field_errors", Message: fmt.Sprintf("L2VPN Termination already assigned (%s)", objName)}
				}
				l, err := lookup(ctx, m, tableL2VPN, vpnID, "name", "identifier", "type")
				if err != nil || l == nil {
					return err
				}
				if t := rawsql.StringOf(l["type"]); slices.Contains(p2pTypes, t) {
					n, err := othersWith(ctx, m, tableL2VPNTerm, "l2vpn_id", vpnID, id)
					if err != nil {
						return err
					}
					if n >= 2 {
						return &api.FieldError{Field: "non_field_errors", Message: fmt.Sprintf("%s L2VPNs cannot have more than two terminations; found %d already defined.", typeLabel(t), n)}
					}
				}
				if m.Op().Is(ent.OpCreate | ent.OpUpdateOne) {
					return m.SetField("_display", objName+" <> "+l2vpnDisplay(l))
				}
				return nil
			}),
	}
}

// InterfaceHooks renew the displays of the L2VPN terminations of renamed
// interfaces, VM interfaces or VLANs of type ct (wired into their schemas).
func InterfaceHooks(ct string, fields ...string) []ent.Hook {
	return []ent.Hook{rawsql.AfterUpdate(func(ctx context.Context, m rawsql.Mutation, ids []int) error {
		a := &rawsql.Args{PG: rawsql.Postgres(m)}
		rows, err := rawsql.Rows(ctx, m, `SELECT id FROM "`+tableL2VPNTerm+`" WHERE assigned_object_type = `+a.P(ct)+
			` AND assigned_object_id IN (`+rawsql.In(a, ids)+`)`, a)
		if err != nil || len(rows) == 0 {
			return err
		}
		var terms []int
		for _, r := range rows {
			id, _ := rawsql.IntOf(r["id"])
			terms = append(terms, id)
		}
		return refreshTerminations(ctx, m, "id", terms)
	}, fields...)}
}

// refreshTerminations recomputes the cached display of the L2VPN
// terminations whose column is among ids.
func refreshTerminations(ctx context.Context, m rawsql.Mutation, column string, ids []int) error {
	return rawsql.Chunks(ids, func(ids []int) error {
		a := &rawsql.Args{PG: rawsql.Postgres(m)}
		rows, err := rawsql.Rows(ctx, m, `SELECT t.id, t._display, t.assigned_object_type, t.assigned_object_id, l.name, l.identifier `+
			`FROM "`+tableL2VPNTerm+`" t JOIN "`+tableL2VPN+`" l ON l.id = t.l2vpn_id WHERE t.`+column+` IN (`+rawsql.In(a, ids)+`)`, a)
		if err != nil {
			return err
		}
		for _, r := range rows {
			obj, _ := rawsql.IntOf(r["assigned_object_id"])
			name, err := objectDisplay(ctx, m, rawsql.StringOf(r["assigned_object_type"]), obj)
			if err != nil {
				return err
			}
			disp := name + " <> " + l2vpnDisplay(r)
			if disp == rawsql.StringOf(r["_display"]) {
				continue
			}
			id, _ := rawsql.IntOf(r["id"])
			a := &rawsql.Args{PG: rawsql.Postgres(m)}
			if err := rawsql.Exec(ctx, m, `UPDATE "`+tableL2VPNTerm+`" SET "_display" = `+a.P(disp)+` WHERE id = `+a.P(id), a); err != nil {
				return err
			}
		}
		return nil
	})
}

// l2vpnDisplay is L2VPNDisplay of a row read with name and identifier.
func l2vpnDisplay(r map[string]any) string {
	return L2VPNDisplay(func(k string) any { return r[k] })
}

// typeLabel is the label of an L2VPN type (get_type_display()).
func typeLabel(t string) string {
	for _, c := range L2VPNTypes {
		if c.Value == t {
			return c.Label
		}
	}
	return t
}
