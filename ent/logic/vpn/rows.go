package vpn

import (
	"context"
	"strconv"

	"github.com/inventory/inventory/ent/logic/rawsql"
)

// Tables the rules read.
const (
	tableTunnel      = "vpn_tunnel"
	tableTunnelTerm  = "vpn_tunneltermination"
	tableL2VPN       = "vpn_l2vpn"
	tableL2VPNTerm   = "vpn_l2vpntermination"
	tableInterface   = "dcim_interface"
	tableVMInterface = "virtualization_vminterface"
	tableVLAN        = "ipam_vlan"
)

// lookup reads one row's columns of table by id, values plain (nil when
// there is none).
func lookup(ctx context.Context, m rawsql.Mutation, table string, id int, columns ...string) (map[string]any, error) {
	rows, err := rawsql.LoadRows(ctx, m, table, columns, []int{id})
	if err != nil {
		return nil, err
	}
	row := rows[id]
	for c, v := range row {
		row[c] = rawsql.Plain(v)
	}
	return row, nil
}

// objectDisplay is the display of a termination's object: a device
// interface "<name>[ (<label>)]", a VM interface its name, a VLAN
// "<name> (<vid>)" ("" when the object is gone or of another type).
func objectDisplay(ctx context.Context, m rawsql.Mutation, ct string, id int) (string, error) {
	switch ct {
	case ctInterface:
		r, err := lookup(ctx, m, tableInterface, id, "name", "label")
		if err != nil || r == nil {
			return "", err
		}
		if l := rawsql.StringOf(r["label"]); l != "" {
			return rawsql.StringOf(r["name"]) + " (" + l + ")", nil
		}
		return rawsql.StringOf(r["name"]), nil
	case ctVMInterface:
		r, err := lookup(ctx, m, tableVMInterface, id, "name")
		if err != nil || r == nil {
			return "", err
		}
		return rawsql.StringOf(r["name"]), nil
	case ctVLAN:
		r, err := lookup(ctx, m, tableVLAN, id, "name", "vid")
		if err != nil || r == nil {
			return "", err
		}
		vid, _ := rawsql.IntOf(r["vid"])
		return rawsql.StringOf(r["name"]) + " (" + strconv.Itoa(vid) + ")", nil
	}
	return "", nil
}

// othersWith is the number of rows of table whose column holds value,
// the row except (0 on create) left out.
func othersWith(ctx context.Context, m rawsql.Mutation, table, column string, value any, except int) (int, error) {
	a := &rawsql.Args{PG: rawsql.Postgres(m)}
	q := `SELECT COUNT(*) FROM "` + table + `" WHERE "` + column + `" = ` + a.P(value) + ` AND id <> ` + a.P(except)
	return rawsql.Int(ctx, m, q, a)
}
