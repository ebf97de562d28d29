package vpn

import (
	"context"
	"fmt"
	"strconv"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// TunnelHooks keep the tunnel's name in its terminations' displays.
func TunnelHooks() []ent.Hook {
	return []ent.Hook{rawsql.CopyOnRename("name", tableTunnelTerm, "tunnel_id", "_tunnel_name")}
}

// TunnelTerminationDisplay is NetBox's TunnelTermination.__str__,
// "<tunnel>: Termination <id>".
func TunnelTerminationDisplay(get api.Getter) string {
	id, _ := rawsql.IntOf(get("id"))
	return rawsql.StringOf(get("_tunnel_name")) + ": Termination " + strconv.Itoa(id)
}

// TunnelTerminationHooks: TunnelTermination.clean() (the object is not
// already attached to another tunnel: NetBox's message on termination)
// and the tunnel's name copied for the display.
func TunnelTerminationHooks() []ent.Hook {
	return []ent.Hook{
		rawsql.RowHook(tableTunnelTerm, []string{"tunnel_id", "termination_type", "termination_id"},
			func(ctx context.Context, m rawsql.Mutation, id int, row, _ map[string]any) error {
				ct := rawsql.StringOf(rawsql.Plain(row["termination_type"]))
				obj, ok := rawsql.IntOf(rawsql.Plain(row["termination_id"]))
				if !ok {
					return nil
				}
				if tid, ok := rawsql.IntOf(rawsql.Plain(row["tunnel_id"])); ok && m.Op().Is(ent.OpCreate|ent.OpUpdateOne) {
					t, err := lookup(ctx, m, tableTunnel, tid, "name")
					if err != nil {
						return err
					}
					if t != nil {
						if err := m.SetField("_tunnel_name", rawsql.StringOf(t["name"])); err != nil {
							return err
						}
					}
				}
				return attachedOnce(ctx, m, id, ct, obj)
			}),
	}
}

// attachedOnce refuses a second termination of the object ct #obj, with
// NetBox's message naming the object and the tunnel it already ends.
func attachedOnce(ctx context.Context, m rawsql.Mutation, id int, ct string, obj int) error {
	a := &rawsql.Args{PG: rawsql.Postgres(m)}
	rows, err := rawsql.Rows(ctx, m, `SELECT t._tunnel_name FROM "`+tableTunnelTerm+`" t WHERE t.termination_type = `+
		a.P(ct)+` AND t.termination_id = `+a.P(obj)+` AND t.id <> `+a.P(id), a)
	if err != nil || len(rows) == 0 {
		return err
	}
	name, err := objectDisplay(ctx, m, ct, obj)
	if err != nil {
		return err
	}
	return &api.FieldError{Field: "termination", Message: fmt.Sprintf("%s is already attached to a tunnel (%s).",
		name, rawsql.StringOf(rows[0]["_tunnel_name"]))}
}
