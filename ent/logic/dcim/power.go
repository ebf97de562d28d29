package dcim

import (
	"context"
	"fmt"
	"math"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// Power panels and power feeds: NetBox's PowerPanel.clean(),
// PowerFeed.clean() and PowerFeed.save().

// A power feed's defaults: NetBox's POWERFEED_DEFAULT_VOLTAGE,
// POWERFEED_DEFAULT_AMPERAGE and POWERFEED_DEFAULT_MAX_UTILIZATION.
const (
	PowerFeedDefaultVoltage        = 120
	PowerFeedDefaultAmperage       = 15
	PowerFeedDefaultMaxUtilization = 80
)

// AvailablePower is the available power (VA) that PowerFeed.save()
// caches: |voltage| × amperage × max_utilization %, × 1.732 on three
// phases, rounded as Python's round() does (half to even). The operations
// run in Python's order so that the floats, and so the results, agree.
func AvailablePower(voltage, amperage, maxUtilization int, phase string) int {
	if voltage < 0 {
		voltage = -voltage
	}
	kva := float64(voltage*amperage) * (float64(maxUtilization) / 100)
	if phase == "three-phase" {
		kva *= 1.732
	}
	return int(math.RoundToEven(kva))
}

// ValidateVoltage refuses a voltage of 0: the field's
// ExclusionValidator([0]), with its message as Python prints the list.
func ValidateVoltage(voltage int) error {
	if voltage == 0 {
		return &api.FieldError{Field: "voltage", Message: "This value may not be [0]."}
	}
	return nil
}

// CheckACVoltage refuses a negative voltage on an AC supply
// (PowerFeed.clean(); DC feeds may be negative, -48 V).
func CheckACVoltage(voltage int, supply string) error {
	if voltage < 0 && supply == "ac" {
		return &api.FieldError{Field: "voltage", Message: "Voltage cannot be negative for AC supply"}
	}
	return nil
}

// powerFeedColumns are what a feed's rules and cached values depend on.
var powerFeedColumns = []string{"power_panel_id", "rack_id", "supply", "voltage", "amperage", "max_utilization",
	"phase", "mark_connected", "cable_id"}

// PowerFeedHooks are the hooks of dcim.PowerFeed: the voltage rules, a
// rack at the power panel's site (PowerFeed.clean()), and the values the
// feed caches: available_power (PowerFeed.save()), _occupied and the
// panel's name for q.
func PowerFeedHooks() []ent.Hook {
	return []ent.Hook{
		rawsql.RowHook("dcim_powerfeed", powerFeedColumns, func(ctx context.Context, m rawsql.Mutation, id int, row, old map[string]any) error {
			voltage, _ := rawsql.IntOf(row["voltage"])
			if err := ValidateVoltage(voltage); err != nil {
				return err
			}
			panel, _ := rawsql.IntOf(row["power_panel_id"])
			f, err := loadFeedPlace(ctx, m, panel, row["rack_id"])
			if err != nil {
				return err
			}
			if f.rack != "" && f.rackSite != f.panelSite {
				return &api.FieldError{Field: "__all__", Message: fmt.Sprintf("Rack %s (%s) and power panel %s (%s) are in different sites",
					f.rack, f.rackSiteName, f.panel, f.panelSiteName)}
			}
			if err := CheckACVoltage(voltage, rawsql.StringOf(row["supply"])); err != nil {
				return err
			}
			if m.Op().Is(ent.OpUpdate) {
				return nil // many rows: powerFeedCacheRows sets each after the write
			}
			return setFeedCache(m, row, f.panel)
		}),
		powerFeedCacheRows(),
		CabledHook,
	}
}

// feedPlace is what the rack rule reads: the panel's and the rack's sites
// and names ("" rack: none).
type feedPlace struct {
	panel, panelSiteName, rack, rackSiteName string
	panelSite, rackSite                      int
}

// loadFeedPlace reads the power panel and the rack (when set) with their
// sites. A missing panel or rack was refused by the resource layer.
func loadFeedPlace(ctx context.Context, m rawsql.Mutation, panel int, rackID any) (feedPlace, error) {
	var f feedPlace
	a := &rawsql.Args{PG: rawsql.Postgres(m)}
	rows, err := m.QueryContext(ctx, `SELECT p.name, p.site_id, s.name FROM dcim_powerpanel p JOIN dcim_site s ON s.id = p.site_id WHERE p.id = `+a.P(panel), a.List...)
	if err != nil {
		return f, err
	}
	if rows.Next() {
		err = rows.Scan(&f.panel, &f.panelSite, &f.panelSiteName)
	}
	rows.Close()
	if err != nil {
		return f, err
	}
	rack, ok := rawsql.IntOf(rackID)
	if !ok {
		return f, nil
	}
	a = &rawsql.Args{PG: rawsql.Postgres(m)}
	rows, err = m.QueryContext(ctx, `SELECT `+rackDisplaySQL+`, r.site_id, s.name FROM dcim_rack r JOIN dcim_site s ON s.id = r.site_id WHERE r.id = `+a.P(rack), a.List...)
	if err != nil {
		return f, err
	}
	defer rows.Close()
	if rows.Next() {
		if err := rows.Scan(&f.rack, &f.rackSite, &f.rackSiteName); err != nil {
			return f, err
		}
	}
	return f, rows.Err()
}

// feedCache are a feed's cached values for its row after the write.
func feedCache(row map[string]any) (power int, occupied bool) {
	voltage, _ := rawsql.IntOf(row["voltage"])
	amperage, _ := rawsql.IntOf(row["amperage"])
	util, _ := rawsql.IntOf(row["max_utilization"])
	return AvailablePower(voltage, amperage, util, rawsql.StringOf(row["phase"])),
		asBool(rawsql.Deref(row["mark_connected"])) || rawsql.Deref(row["cable_id"]) != nil
}

// setFeedCache sets the cached values on a create or one-row update.
func setFeedCache(m rawsql.Mutation, row map[string]any, panelName string) error {
	power, occupied := feedCache(row)
	if err := m.SetField("available_power", power); err != nil {
		return err
	}
	if err := m.SetField("_occupied", occupied); err != nil {
		return err
	}
	return m.SetField("_power_panel_name", panelName)
}

// powerFeedCacheRows sets the cached values of each row of a many-row
// update after it, since they differ from row to row.
func powerFeedCacheRows() ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if !m.Op().Is(ent.OpUpdate) {
				return next.Mutate(ctx, m)
			}
			sm, err := rawsql.As("power feed hook", m)
			if err != nil {
				return nil, err
			}
			ids, err := rawsql.TargetIDs(ctx, sm)
			if err != nil {
				return nil, err
			}
			v, err := next.Mutate(ctx, m)
			if err != nil || len(ids) == 0 {
				return v, err
			}
			rows, err := rawsql.LoadRows(ctx, sm, "dcim_powerfeed", powerFeedColumns, ids)
			if err != nil {
				return nil, err
			}
			for id, row := range rows {
				power, occupied := feedCache(row)
				a := &rawsql.Args{PG: rawsql.Postgres(sm)}
				q := `UPDATE dcim_powerfeed SET available_power = ` + a.P(power) + `, "_occupied" = ` + a.P(occupied) +
					`, "_power_panel_name" = (SELECT p.name FROM dcim_powerpanel p WHERE p.id = dcim_powerfeed.power_panel_id) WHERE id = ` + a.P(id)
				if err := rawsql.Exec(ctx, sm, q, a); err != nil {
					return nil, fmt.Errorf("power feed hook: %w", err)
				}
			}
			return v, nil
		})
	}
}

// PowerPanelHooks are the hooks of dcim.PowerPanel: the location must be
// at the panel's site (PowerPanel.clean()), and a renamed panel renames
// the name its feeds cache.
func PowerPanelHooks() []ent.Hook {
	check := rawsql.RowHook("dcim_powerpanel", []string{"site_id", "location_id"}, func(ctx context.Context, m rawsql.Mutation, id int, row, old map[string]any) error {
		loc, ok := rawsql.IntOf(row["location_id"])
		if !ok {
			return nil
		}
		site, _ := rawsql.IntOf(row["site_id"])
		a := &rawsql.Args{PG: rawsql.Postgres(m)}
		rows, err := m.QueryContext(ctx, `SELECT l.name, l.site_id, ls.name, s.name FROM dcim_location l JOIN dcim_site ls ON ls.id = l.site_id, dcim_site s WHERE l.id = `+
			a.P(loc)+` AND s.id = `+a.P(site), a.List...)
		if err != nil {
			return err
		}
		defer rows.Close()
		if !rows.Next() {
			return rows.Err() // a missing site or location was refused by the resource layer
		}
		var locName, locSiteName, siteName string
		var locSite int
		if err := rows.Scan(&locName, &locSite, &locSiteName, &siteName); err != nil {
			return err
		}
		if locSite != site {
			return &api.FieldError{Field: "__all__", Message: fmt.Sprintf("Location %s (%s) is in a different site than %s",
				locName, locSiteName, siteName)}
		}
		return rows.Err()
	})
	rename := rawsql.AfterUpdate(func(ctx context.Context, m rawsql.Mutation, ids []int) error {
		a := &rawsql.Args{PG: rawsql.Postgres(m)}
		return rawsql.Exec(ctx, m, `UPDATE dcim_powerfeed SET "_power_panel_name" = (SELECT p.name FROM dcim_powerpanel p `+
			`WHERE p.id = dcim_powerfeed.power_panel_id) WHERE power_panel_id IN (`+rawsql.In(a, ids)+`)`, a)
	}, "name")
	return []ent.Hook{check, rename}
}

// asBool reads a boolean column value of either driver (SQLite answers
// integers).
func asBool(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case *bool:
		return x != nil && *x
	}
	n, _ := rawsql.IntOf(v)
	return n != 0
}
