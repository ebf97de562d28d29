package dcim

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// Modules, module bays, device bays and inventory items: the rules of
// NetBox's Module.clean, DeviceBay.clean and InventoryItem.clean. The
// components a device or module gets from its templates are written by
// the resource layer (api.Instantiate); their rows satisfy these rules by
// construction, so the per-row checks skip them (api.Instantiating) and an
// instantiation costs no query per component.

// ModuleDisplay is NetBox's Module.__str__: "<bay name>: <module type> (<id>)";
// the hook caches the first part in _display.
func ModuleDisplay(get api.Getter) string {
	s, _ := get("_display").(string)
	id, _ := get("id").(int)
	return fmt.Sprintf("%s (%d)", s, id)
}

// ModuleHooks check that a module sits in a bay of its own device and not
// inside itself, and keep its cached display.
func ModuleHooks() []ent.Hook {
	cols := []string{"device_id", "module_bay_id", "module_type_id"}
	return []ent.Hook{func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if !m.Op().Is(ent.OpCreate|ent.OpUpdateOne) || !rawsql.Touched(m, cols...) {
				return next.Mutate(ctx, m)
			}
			sm, err := rawsql.As("module", m)
			if err != nil {
				return nil, err
			}
			var old map[string]any
			id, _ := sm.ID()
			if !m.Op().Is(ent.OpCreate) {
				rows, err := rawsql.LoadRows(ctx, sm, "dcim_module", cols, []int{id})
				if err != nil {
					return nil, err
				}
				old = rows[id]
			}
			row := rawsql.Overlay(m, cols, old)
			bayID, _ := rawsql.IntOf(row["module_bay_id"])
			bays, err := rawsql.LoadRows(ctx, sm, "dcim_modulebay", []string{"device_id", "name", "module_id"}, []int{bayID})
			if err != nil {
				return nil, err
			}
			bay, ok := bays[bayID]
			if !ok {
				return next.Mutate(ctx, m) // the FK answers
			}
			if norm(bay["device_id"]) != norm(row["device_id"]) {
				devID, _ := rawsql.IntOf(row["device_id"])
				devs, err := rawsql.LoadRows(ctx, sm, "dcim_device", []string{"name"}, []int{devID})
				if err != nil {
					return nil, err
				}
				return nil, &api.FieldError{Field: "__all__", Message: fmt.Sprintf(
					"Module must be installed within a module bay belonging to the assigned device (%s).", rawsql.StringOf(devs[devID]["name"]))}
			}
			if id != 0 {
				if err := checkModuleNesting(ctx, sm, id, bayID, bay); err != nil {
					return nil, err
				}
			}
			mtID, _ := rawsql.IntOf(row["module_type_id"])
			mts, err := rawsql.LoadRows(ctx, sm, "dcim_moduletype", []string{"model"}, []int{mtID})
			if err != nil {
				return nil, err
			}
			if err := m.SetField("_display", rawsql.StringOf(bay["name"])+": "+rawsql.StringOf(mts[mtID]["model"])); err != nil {
				return nil, err
			}
			return next.Mutate(ctx, m)
		})
	}}
}

// errNesting is NetBox's recursion error of Module.clean and
// ModuleBay.clean, raised without a field.
var errNesting = &api.FieldError{Field: "__all__", Message: "A module bay cannot belong to a module installed within it."}

// checkModuleNesting refuses to move module id into a bay of itself or of
// a module installed within it.
func checkModuleNesting(ctx context.Context, m rawsql.Mutation, id, bayID int, bay map[string]any) error {
	cur, _ := rawsql.IntOf(bay["module_id"])
	return checkNesting(ctx, m, cur, map[int]bool{id: true}, map[int]bool{bayID: true})
}

// checkNesting walks up from module cur through the bays the modules sit
// in, to the device, and fails when it meets a module of mods or a bay of
// bays (what the write would put below itself). It is NetBox's walk in
// Module.clean and ModuleBay.clean; both sets grow as it goes, so a loop
// already in the data ends it too.
func checkNesting(ctx context.Context, m rawsql.Mutation, cur int, mods, bays map[int]bool) error {
	for cur != 0 {
		if mods[cur] {
			return errNesting
		}
		mods[cur] = true
		rows, err := rawsql.LoadRows(ctx, m, "dcim_module", []string{"module_bay_id"}, []int{cur})
		if err != nil {
			return err
		}
		bid, ok := rawsql.IntOf(rows[cur]["module_bay_id"])
		if !ok {
			return nil
		}
		if bays[bid] {
			return errNesting
		}
		bays[bid] = true
		if rows, err = rawsql.LoadRows(ctx, m, "dcim_modulebay", []string{"module_id"}, []int{bid}); err != nil {
			return err
		}
		cur, _ = rawsql.IntOf(rows[bid]["module_id"])
	}
	return nil
}

// DeviceBayHooks apply NetBox's DeviceBay.clean: the device's type must be
// a parent type; the installed device must be a child-type device, not
// the bay's own device, not installed in another bay, at the parent's site
// (and rack), and a disabled bay takes no new device. They keep _occupied.
func DeviceBayHooks() []ent.Hook {
	cols := []string{"device_id", "installed_device_id", "enabled"}
	return []ent.Hook{rawsql.RowHook("dcim_devicebay", cols, func(ctx context.Context, m rawsql.Mutation, id int, row, old map[string]any) error {
		enabled, _ := row["enabled"].(bool)
		if b, ok := row["enabled"].(int64); ok {
			enabled = b != 0
		}
		_, installed := rawsql.IntOf(row["installed_device_id"])
		if err := m.SetField("_occupied", !enabled || installed); err != nil {
			return err
		}
		if api.Instantiating(ctx) {
			return nil // a parent device's bays, made from its type's templates: empty
		}
		devID, _ := rawsql.IntOf(row["device_id"])
		instID, hasInst := rawsql.IntOf(row["installed_device_id"])
		ids := []int{devID}
		if hasInst {
			ids = append(ids, instID)
		}
		devs, err := rawsql.LoadRows(ctx, m, "dcim_device", []string{"device_type_id", "site_id", "rack_id", "name"}, ids)
		if err != nil {
			return err
		}
		dev := devs[devID]
		dtIDs := []int{}
		for _, d := range devs {
			if n, ok := rawsql.IntOf(d["device_type_id"]); ok {
				dtIDs = append(dtIDs, n)
			}
		}
		types, err := rawsql.LoadRows(ctx, m, "dcim_devicetype", []string{"model", "subdevice_role"}, dtIDs)
		if err != nil {
			return err
		}
		dt, _ := rawsql.IntOf(dev["device_type_id"])
		if rawsql.StringOf(types[dt]["subdevice_role"]) != "parent" {
			return &api.FieldError{Field: "__all__", Message: fmt.Sprintf(
				"This type of device (%s) does not support device bays.", rawsql.StringOf(types[dt]["model"]))}
		}
		if !hasInst {
			return nil
		}
		oldInst, _ := rawsql.IntOf(old["installed_device_id"])
		if !enabled && (id == 0 || oldInst != instID) {
			return &api.FieldError{Field: "installed_device", Message: "Cannot install a device in a disabled device bay."}
		}
		if instID == devID {
			return &api.FieldError{Field: "__all__", Message: "Cannot install a device into itself."}
		}
		inst := devs[instID]
		it, _ := rawsql.IntOf(inst["device_type_id"])
		if rawsql.StringOf(types[it]["subdevice_role"]) != "child" {
			return &api.FieldError{Field: "installed_device", Message: fmt.Sprintf(
				"Cannot install %s; its device type (%s) is not a child device type.", rawsql.StringOf(inst["name"]), rawsql.StringOf(types[it]["model"]))}
		}
		if norm(inst["site_id"]) != norm(dev["site_id"]) || norm(inst["rack_id"]) != norm(dev["rack_id"]) {
			return &api.FieldError{Field: "installed_device", Message: fmt.Sprintf(
				"Cannot install %s; it must be at the same site and rack as its parent device %s.", rawsql.StringOf(inst["name"]), rawsql.StringOf(dev["name"]))}
		}
		a := &rawsql.Args{PG: rawsql.Postgres(m)}
		q := `SELECT COUNT(*) FROM dcim_devicebay WHERE installed_device_id = ` + a.P(instID) + ` AND id <> ` + a.P(id)
		n, err := rawsql.Int(ctx, m, q, a)
		if err != nil {
			return err
		}
		if n > 0 {
			return &api.FieldError{Field: "installed_device", Message: "Cannot install the specified device; device is already installed in another bay."}
		}
		return nil
	})}
}

// InventoryItemHooks apply InventoryItem.clean: the parent belongs to the
// same device; a new item's component is on its device, and an item moved
// to another device leaves its component behind (and may not leave its
// children behind).
func InventoryItemHooks() []ent.Hook {
	cols := []string{"device_id", "parent_id", "component_type", "component_id"}
	return []ent.Hook{rawsql.RowHook("dcim_inventoryitem", cols, func(ctx context.Context, m rawsql.Mutation, id int, row, old map[string]any) error {
		if api.Instantiating(ctx) {
			return nil
		}
		device := norm(row["device_id"])
		if pid, ok := rawsql.IntOf(row["parent_id"]); ok {
			parents, err := rawsql.LoadRows(ctx, m, "dcim_inventoryitem", []string{"device_id"}, []int{pid})
			if err != nil {
				return err
			}
			if p, found := parents[pid]; found && norm(p["device_id"]) != device {
				return &api.FieldError{Field: "parent", Message: "Parent inventory item does not belong to the same device."}
			}
		}
		if id != 0 && device != norm(old["device_id"]) {
			a := &rawsql.Args{PG: rawsql.Postgres(m)}
			n, err := rawsql.Int(ctx, m, `SELECT COUNT(*) FROM "dcim_inventoryitem" WHERE parent_id = `+a.P(id)+
				` AND device_id <> `+a.P(device), a)
			if err != nil {
				return err
			}
			if n > 0 {
				return &api.FieldError{Field: "__all__", Message: "Cannot move an inventory item with dependent children"}
			}
		}
		ct := rawsql.StringOf(row["component_type"])
		cid, ok := rawsql.IntOf(row["component_id"])
		if ct == "" || !ok || !slices.Contains(inventoryComponentTables, strings.ReplaceAll(ct, ".", "_")) {
			return nil
		}
		comps, err := rawsql.LoadRows(ctx, m, strings.ReplaceAll(ct, ".", "_"), []string{"device_id"}, []int{cid})
		if err != nil {
			return err
		}
		if c, found := comps[cid]; !found || norm(c["device_id"]) == device {
			return nil
		}
		if id == 0 {
			return &api.FieldError{Field: "device", Message: "Cannot assign inventory item to component on another device"}
		}
		// A moved item drops its component, as NetBox's clean() does.
		m.ClearField("component_type")
		m.ClearField("component_id")
		return nil
	})}
}

// inventoryComponentTables are the tables of the components an inventory
// item may stand for.
var inventoryComponentTables = []string{"dcim_consoleport", "dcim_consoleserverport", "dcim_frontport",
	"dcim_interface", "dcim_poweroutlet", "dcim_powerport", "dcim_rearport"}

// DeviceComponentHooks keep a component's cached scope (_site, _location,
// _rack: its device's) when its device is set. Components instantiated
// from templates get it from the owner (api.Source.Set).
func DeviceComponentHooks() []ent.Hook {
	return []ent.Hook{func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			v, ok := m.Field("device_id")
			if !ok || api.Instantiating(ctx) || !m.Op().Is(ent.OpCreate|ent.OpUpdateOne|ent.OpUpdate) {
				return next.Mutate(ctx, m)
			}
			sm, err := rawsql.As("component scope", m)
			if err != nil {
				return nil, err
			}
			id, _ := rawsql.IntOf(v)
			devs, err := rawsql.LoadRows(ctx, sm, "dcim_device", []string{"site_id", "location_id", "rack_id"}, []int{id})
			if err != nil {
				return nil, err
			}
			for _, c := range []string{"site_id", "location_id", "rack_id"} {
				if n, ok := rawsql.IntOf(devs[id][c]); ok {
					err = m.SetField("_"+c, n)
				} else if !m.Op().Is(ent.OpCreate) {
					err = m.ClearField("_" + c)
				}
				if err != nil {
					return nil, err
				}
			}
			return next.Mutate(ctx, m)
		})
	}}
}

// moduleDisplayFollows recomputes the cached display of the modules
// whose column (module_bay_id, module_type_id) holds one of the ids: a
// renamed bay or module type renames the modules in it or of it.
func moduleDisplayFollows(column string) func(ctx context.Context, m rawsql.Mutation, ids []int) error {
	return func(ctx context.Context, m rawsql.Mutation, ids []int) error {
		a := &rawsql.Args{PG: rawsql.Postgres(m)}
		return rawsql.Exec(ctx, m, `UPDATE "dcim_module" SET "_display" = `+
			`(SELECT b.name FROM "dcim_modulebay" b WHERE b.id = "dcim_module".module_bay_id) || ': ' || `+
			`(SELECT t.model FROM "dcim_moduletype" t WHERE t.id = "dcim_module".module_type_id) `+
			`WHERE `+column+` IN (`+rawsql.In(a, ids)+`)`, a)
	}
}

// ModuleBayHooks keep a module bay's parent: the bay of the module it
// belongs to (NetBox's ModuleBay.save), refusing a module installed,
// directly or through other modules, in the bay itself (ModuleBay.clean);
// a renamed bay renames the display of its module.
func ModuleBayHooks() []ent.Hook {
	return []ent.Hook{rawsql.AfterUpdate(moduleDisplayFollows("module_bay_id"), "name"), func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if api.Instantiating(ctx) || !m.Op().Is(ent.OpCreate|ent.OpUpdateOne|ent.OpUpdate) {
				return next.Mutate(ctx, m)
			}
			v, ok := m.Field("module_id")
			if !ok {
				if m.FieldCleared("module_id") {
					if err := m.ClearField("parent_id"); err != nil {
						return nil, err
					}
				}
				return next.Mutate(ctx, m)
			}
			sm, err := rawsql.As("module bay parent", m)
			if err != nil {
				return nil, err
			}
			id, _ := rawsql.IntOf(v)
			var targets []int
			if !m.Op().Is(ent.OpCreate) {
				if targets, err = rawsql.TargetIDs(ctx, sm); err != nil {
					return nil, err
				}
			}
			for _, bay := range targets {
				if err := checkNesting(ctx, sm, id, map[int]bool{}, map[int]bool{bay: true}); err != nil {
					return nil, err
				}
			}
			mods, err := rawsql.LoadRows(ctx, sm, "dcim_module", []string{"module_bay_id"}, []int{id})
			if err != nil {
				return nil, err
			}
			if bay, ok := rawsql.IntOf(mods[id]["module_bay_id"]); ok {
				if err := m.SetField("parent_id", bay); err != nil {
					return nil, err
				}
			}
			return next.Mutate(ctx, m)
		})
	}}
}
