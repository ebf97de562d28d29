package dcim

import (
	"context"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// cabledTypeTables are the tables of the cabled models by ent type name.
var cabledTypeTables = map[string]string{
	"CircuitTermination": "circuits_circuittermination", "ConsolePort": "dcim_consoleport",
	"ConsoleServerPort": "dcim_consoleserverport", "FrontPort": "dcim_frontport", "DeviceInterface": "dcim_interface",
	"PowerFeed": "dcim_powerfeed", "PowerOutlet": "dcim_poweroutlet", "PowerPort": "dcim_powerport", "RearPort": "dcim_rearport",
}

// CabledHook keeps a cabled object's _occupied equal to NetBox's property
// (mark_connected or a cable) when mark_connected is written, and refuses
// to mark a cabled object connected (CabledObjectModel.clean()). The
// cable columns themselves are the cable hooks' to write.
func CabledHook(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		v, set := m.Field("mark_connected")
		table := cabledTypeTables[m.Type()]
		if !set || table == "" || m.Op().Is(ent.OpDelete|ent.OpDeleteOne) {
			return next.Mutate(ctx, m)
		}
		marked := asBool(v)
		if m.Op().Is(ent.OpCreate) {
			if err := m.SetField("_occupied", marked); err != nil {
				return nil, err
			}
			return next.Mutate(ctx, m)
		}
		sm, err := rawsql.As("cabled hook", m)
		if err != nil {
			return nil, err
		}
		if err := settleEnds(ctx); err != nil {
			return nil, err
		}
		ids, err := rawsql.TargetIDs(ctx, sm)
		if err != nil {
			return nil, err
		}
		rows, err := rawsql.LoadRows(ctx, sm, table, []string{"cable_id"}, ids)
		if err != nil {
			return nil, err
		}
		anyCabled := false
		for _, row := range rows {
			if row["cable_id"] != nil {
				anyCabled = true
			}
		}
		if marked && anyCabled {
			return nil, &api.FieldError{Field: "mark_connected", Message: "Cannot mark as connected with a cable attached."}
		}
		// Unmarked, a cabled row stays occupied: only rows without a cable
		// follow mark_connected.
		if !anyCabled {
			if err := m.SetField("_occupied", marked); err != nil {
				return nil, err
			}
		}
		return next.Mutate(ctx, m)
	})
}
