package dcim

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// Devices: NetBox's Device.clean() and save(), VirtualChassis.clean() and
// the signals that keep both in step, and the display of an unnamed
// device.

// DeviceDisplay is a device's display (NetBox's Device.__str__): its label
// (the name, else "<chassis>:<vc_position>" for a virtual chassis member)
// followed by the asset tag in parentheses when set; without a label,
// "<manufacturer> <model>" followed by the asset tag or the id. The
// manufacturer and model and the chassis name are cached on the device
// (_type_display, _vc_name) by the hooks.
func DeviceDisplay(get api.Getter) string {
	label := str(get("name"))
	if label == "" && get("virtual_chassis") != nil {
		pos := "None"
		if n, ok := rawsql.IntOf(get("vc_position")); ok {
			pos = strconv.Itoa(n)
		}
		label = str(get("_vc_name")) + ":" + pos
	}
	asset := str(get("asset_tag"))
	switch {
	case label != "" && asset != "":
		return label + " (" + asset + ")"
	case label != "":
		return label
	case asset != "":
		return str(get("_type_display")) + " (" + asset + ")"
	}
	id, _ := rawsql.IntOf(get("id"))
	return str(get("_type_display")) + " (" + strconv.Itoa(id) + ")"
}

// typeDisplaySQL is "<manufacturer> <model>" of the device type t.
const typeDisplaySQL = `(SELECT m.name || ' ' || t.model FROM "dcim_devicetype" t, "dcim_manufacturer" m ` +
	`WHERE m.id = t.manufacturer_id AND t.id = "dcim_device".device_type_id)`

// deviceColumns are what the device hook reads of a stored device.
var deviceColumns = []string{"id", "name", "site_id", "location_id", "rack_id", "position", "face", "device_type_id",
	"platform_id", "virtual_chassis_id", "vc_position", "airflow", "local_context_data", "cluster_id"}

// DeviceHooks are the hooks of dcim.Device: its placement and chassis
// membership are checked as Device.clean() does, then save()'s defaults
// apply (airflow and platform from the device type on create, the
// location of the rack), and the display parts and config context are
// cached.
func DeviceHooks() []ent.Hook {
	return []ent.Hook{rawsql.AfterUpdate(deviceMoved, "site_id", "location_id", "rack_id"), func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if m.Op().Is(ent.OpDelete | ent.OpDeleteOne) {
				return next.Mutate(ctx, m)
			}
			sm, err := rawsql.As("device hook", m)
			if err != nil {
				return nil, err
			}
			rows, err := states(ctx, sm, "dcim_device", deviceColumns)
			if err != nil {
				return nil, err
			}
			if err := checkChassisLAGs(ctx, sm, rows); err != nil {
				return nil, err
			}
			for _, st := range rows {
				if err := st.checkDevice(ctx, sm); err != nil {
					return nil, err
				}
			}
			return next.Mutate(ctx, m)
		})
	}}
}

// row reads one row of a query as normalised values by column name
// (textRows); nil when there is none.
func row(ctx context.Context, q rawsql.Querier, query string, a *rawsql.Args) (map[string]any, error) {
	rs, err := textRows(ctx, q, query, a)
	if err != nil || len(rs) == 0 {
		return nil, err
	}
	return rs[0], nil
}

// textRows reads rows as rawsql.Rows does, with text as string: the DCIM
// rules compare text and read no binary column.
func textRows(ctx context.Context, q rawsql.Querier, query string, a *rawsql.Args) ([]map[string]any, error) {
	rs, err := rawsql.Rows(ctx, q, query, a)
	for _, r := range rs {
		for k, v := range r {
			if b, ok := v.([]byte); ok {
				r[k] = string(b)
			}
		}
	}
	return rs, err
}

// deviceType is what the rules need of a device type.
type deviceType struct {
	model, manufacturer string
	manufacturerID      int
	uHeight             float64
	fullDepth, child    bool
	airflow             any // nil or string
	defaultPlatform     any // nil or int
}

func loadDeviceType(ctx context.Context, m rawsql.Mutation, id int) (*deviceType, error) {
	a := &rawsql.Args{PG: rawsql.Postgres(m)}
	r, err := row(ctx, m, `SELECT t.model, m.name AS manufacturer, t.manufacturer_id, t.u_height, t.is_full_depth, `+
		`t.subdevice_role, t.airflow, t.default_platform_id FROM "dcim_devicetype" t, "dcim_manufacturer" m `+
		`WHERE m.id = t.manufacturer_id AND t.id = `+a.P(id), a)
	if err != nil || r == nil {
		return nil, err // a missing type was refused by the resource layer
	}
	mid, _ := rawsql.IntOf(r["manufacturer_id"])
	return &deviceType{model: str(r["model"]), manufacturer: str(r["manufacturer"]), manufacturerID: mid,
		uHeight: asFloat(r["u_height"]), fullDepth: truthy(r["is_full_depth"]), child: str(r["subdevice_role"]) == "child",
		airflow: r["airflow"], defaultPlatform: r["default_platform_id"]}, nil
}

// fail is a refusal naming the field, as NetBox's ValidationError({field: msg}).
func fail(field, format string, args ...any) error {
	return &api.FieldError{Field: field, Message: fmt.Sprintf(format, args...)}
}

// checkDevice is Device.clean() and the defaults of Device.save() for the
// row a write leaves behind.
func (s *state) checkDevice(ctx context.Context, m rawsql.Mutation) error {
	creating := s.old == nil
	self, _ := rawsql.IntOf(s.old["id"])
	pg := rawsql.Postgres(m)
	dtID, _ := rawsql.IntOf(s.get("device_type_id"))
	dt, err := loadDeviceType(ctx, m, dtID)
	if err != nil || dt == nil {
		return err
	}
	site, _ := rawsql.IntOf(s.get("site_id"))
	a := &rawsql.Args{PG: pg}
	siteRow, err := row(ctx, m, `SELECT name FROM "dcim_site" WHERE id = `+a.P(site), a)
	if err != nil || siteRow == nil {
		return err
	}
	siteName := str(siteRow["name"])

	// Site, location and rack agree.
	var rack map[string]any
	rackID, hasRack := rawsql.IntOf(s.get("rack_id"))
	if hasRack {
		a := &rawsql.Args{PG: pg}
		rack, err = row(ctx, m, `SELECT r.site_id, r.location_id, r.u_height, r.starting_unit, r.desc_units, `+rackDisplaySQL+
			` AS display FROM "dcim_rack" r WHERE r.id = `+a.P(rackID), a)
		if err != nil || rack == nil {
			return err
		}
		if rs, _ := rawsql.IntOf(rack["site_id"]); rs != site {
			return fail("rack", "Rack %s does not belong to site %s.", str(rack["display"]), siteName)
		}
	}
	locID, hasLoc := rawsql.IntOf(s.get("location_id"))
	if hasLoc {
		a := &rawsql.Args{PG: pg}
		loc, err := row(ctx, m, `SELECT site_id, name FROM "dcim_location" WHERE id = `+a.P(locID), a)
		if err != nil || loc == nil {
			return err
		}
		if ls, _ := rawsql.IntOf(loc["site_id"]); ls != site {
			return fail("location", "Location %s does not belong to site %s.", str(loc["name"]), siteName)
		}
		if hasRack {
			if rl, ok := rawsql.IntOf(rack["location_id"]); !ok || rl != locID {
				return fail("rack", "Rack %s does not belong to location %s.", str(rack["display"]), str(loc["name"]))
			}
		}
	}

	// The cluster's scope, if any, is the device's site and location.
	if cl, ok := rawsql.IntOf(s.get("cluster_id")); ok {
		a := &rawsql.Args{PG: pg}
		c, err := row(ctx, m, `SELECT c."_site_id", c."_location_id", s.name AS site_name, l.name AS loc_name FROM "virtualization_cluster" c `+
			`LEFT JOIN "dcim_site" s ON s.id = c."_site_id" LEFT JOIN "dcim_location" l ON l.id = c."_location_id" WHERE c.id = `+a.P(cl), a)
		if err != nil {
			return err
		}
		if cs, ok := rawsql.IntOf(c["_site_id"]); ok && cs != site {
			return fail("cluster", "The assigned cluster belongs to a different site (%s)", str(c["site_name"]))
		}
		if cloc, ok := rawsql.IntOf(c["_location_id"]); ok && (!hasLoc || cloc != locID) {
			return fail("cluster", "The assigned cluster belongs to a different location (%s)", str(c["loc_name"]))
		}
	}

	// Position and face.
	face := str(s.get("face"))
	pos, hasPos := s.get("position").(float64)
	if hasPos && pos == 0 {
		hasPos = false // NetBox tests "if self.position": 0 counts as none
	}
	if !hasRack {
		if face != "" {
			return fail("face", "Cannot select a rack face without assigning a rack.")
		}
		if hasPos {
			return fail("position", "Cannot select a rack position without assigning a rack.")
		}
	}
	if v, ok := s.get("position").(float64); ok {
		if err := checkPosition(v); err != nil {
			return err
		}
	}
	if hasPos && face == "" {
		return fail("face", "Must specify rack face when defining rack position.")
	}
	if hasPos && dt.uHeight == 0 {
		return fail("position", "A 0U device type (%s) cannot be assigned to a rack position.", dt.model)
	}
	if hasRack {
		if dt.child && face != "" {
			return fail("face", "Child device types cannot be assigned to a rack face. This is an attribute of the parent device.")
		}
		if dt.child && hasPos {
			return fail("position", "Child device types cannot be assigned to a rack position. This is an attribute of the parent device.")
		}
		if hasPos {
			others, err := rackOccupants(ctx, m, pg, rackID, self)
			if err != nil {
				return err
			}
			height, _ := rawsql.IntOf(rack["u_height"])
			start, _ := rawsql.IntOf(rack["starting_unit"])
			g := RackGeometry{Height: height, Start: start}
			if !Fits(g, Occupant{Position: pos, Height: dt.uHeight, Face: face, FullDepth: dt.fullDepth}, others) {
				return fail("position", "U%s is already occupied or does not have sufficient space to accommodate this device type: %s (%sU)",
					decimal(pos), dt.model, decimal(dt.uHeight))
			}
		}
	}

	// The platform, when limited to a manufacturer, matches the type's.
	platform, hasPlatform := rawsql.IntOf(s.get("platform_id"))
	if creating && !hasPlatform {
		platform, hasPlatform = rawsql.IntOf(dt.defaultPlatform)
	}
	if hasPlatform {
		a := &rawsql.Args{PG: pg}
		p, err := row(ctx, m, `SELECT p.manufacturer_id, (SELECT name FROM "dcim_manufacturer" WHERE id = p.manufacturer_id) AS manufacturer `+
			`FROM "dcim_platform" p WHERE p.id = `+a.P(platform), a)
		if err != nil {
			return err
		}
		if pm, ok := rawsql.IntOf(p["manufacturer_id"]); ok && pm != dt.manufacturerID {
			return fail("platform", "The assigned platform is limited to %s device types, but this device's type belongs to %s.",
				str(p["manufacturer"]), dt.manufacturer)
		}
	}

	// Virtual chassis membership. A chassis being deleted leaves its
	// members without position and priority (NetBox's
	// clear_virtualchassis_members), its master included.
	oldVC, wasInVC := rawsql.IntOf(s.old["virtual_chassis_id"])
	chassisGoes := wasInVC && api.Deleting(ctx, "dcim.virtualchassis", oldVC)
	if chassisGoes {
		for _, f := range []string{"virtual_chassis_id", "vc_position", "vc_priority"} {
			if err := m.ClearField(f); err != nil {
				return err
			}
		}
	}
	vc, inVC := rawsql.IntOf(s.get("virtual_chassis_id"))
	if inVC && s.get("vc_position") == nil {
		return fail("vc_position", "A device assigned to a virtual chassis must have its position defined.")
	}
	var vcName any
	if inVC {
		a := &rawsql.Args{PG: pg}
		r, err := row(ctx, m, `SELECT name FROM "dcim_virtualchassis" WHERE id = `+a.P(vc), a)
		if err != nil {
			return err
		}
		vcName = r["name"]
	}
	if !creating {
		a := &rawsql.Args{PG: pg}
		master, err := row(ctx, m, `SELECT id, name FROM "dcim_virtualchassis" WHERE master_id = `+a.P(self), a)
		if err != nil {
			return err
		}
		if id, ok := rawsql.IntOf(master["id"]); ok && (!inVC || id != vc) && !chassisGoes {
			return fail("virtual_chassis", "Device cannot be removed from virtual chassis %s because it is currently designated as its master.",
				str(master["name"]))
		}
	}

	// save(): the type's defaults on create, the rack's location.
	if creating && s.get("airflow") == nil && dt.airflow != nil {
		if err := m.SetField("airflow", str(dt.airflow)); err != nil {
			return err
		}
	}
	if creating && s.get("platform_id") == nil && hasPlatform {
		if err := m.SetField("platform_id", platform); err != nil {
			return err
		}
	}
	if hasRack {
		if rl, ok := rawsql.IntOf(rack["location_id"]); ok && (!hasLoc || rl != locID) {
			if err := m.SetField("location_id", rl); err != nil {
				return err
			}
		}
	}

	// Cached display parts and config context.
	if creating || rawsql.Touched(m, "device_type_id") {
		if err := m.SetField("_type_display", dt.manufacturer+" "+dt.model); err != nil {
			return err
		}
	}
	if creating || rawsql.Touched(m, "virtual_chassis_id") {
		if vcName == nil {
			if !creating {
				if err := m.ClearField("_vc_name"); err != nil {
					return err
				}
			}
		} else if err := m.SetField("_vc_name", str(vcName)); err != nil {
			return err
		}
	}
	return nil
}

// checkPosition is the position field's own validation:
// DecimalField(max_digits=4, decimal_places=1) between 1 and
// RACK_U_HEIGHT_MAX + 0.5, in 0.5 steps (Device.clean()).
func checkPosition(v float64) error {
	if err := checkDecimal("position", v, 4, 1); err != nil {
		return err
	}
	if v < 1 {
		return fail("position", "Ensure this value is greater than or equal to 1.")
	}
	if v > RackUHeightMax+0.5 {
		return fail("position", "Ensure this value is less than or equal to %s.", decimal(RackUHeightMax+0.5))
	}
	if math.Mod(v*2, 1) != 0 {
		return fail("position", "Position must be in increments of 0.5 rack units.")
	}
	return nil
}

// decimal renders a unit count as NetBox's Decimal does ("10.0", "1.5").
func decimal(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// rackOccupants are the devices with a position in the rack other than
// self, with their type's height and depth.
func rackOccupants(ctx context.Context, q rawsql.Querier, pg bool, rack, self int) ([]Occupant, error) {
	a := &rawsql.Args{PG: pg}
	rows, err := q.QueryContext(ctx, `SELECT d.id, d.position, d.face, t.u_height, t.is_full_depth FROM "dcim_device" d, "dcim_devicetype" t `+
		`WHERE t.id = d.device_type_id AND d.rack_id = `+a.P(rack)+` AND d.position >= 1 AND d.id <> `+a.P(self)+` ORDER BY d.id`, a.List...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Occupant
	for rows.Next() {
		var id int
		var pos, height float64
		var face string
		var full any
		if err := rows.Scan(&id, &pos, &face, &height, &full); err != nil {
			return nil, err
		}
		out = append(out, Occupant{ID: id, Position: pos, Height: height, Face: face, FullDepth: truthy(rawsql.Normal(full))})
	}
	return out, rows.Err()
}

// DeviceTypeDisplayHook renews the cached "<manufacturer> <model>" of the
// devices of device types whose model or manufacturer changes.
func DeviceTypeDisplayHook() ent.Hook {
	return rawsql.AfterUpdate(func(ctx context.Context, m rawsql.Mutation, ids []int) error {
		a := &rawsql.Args{PG: rawsql.Postgres(m)}
		return rawsql.Exec(ctx, m, `UPDATE "dcim_device" SET "_type_display" = `+typeDisplaySQL+
			` WHERE device_type_id IN (`+rawsql.In(a, ids)+`)`, a)
	}, "model", "manufacturer_id")
}

// ManufacturerHooks are the hooks of dcim.Manufacturer: a renamed
// manufacturer renews the cached display of the devices of its types.
func ManufacturerHooks() []ent.Hook {
	return []ent.Hook{rawsql.AfterUpdate(func(ctx context.Context, m rawsql.Mutation, ids []int) error {
		a := &rawsql.Args{PG: rawsql.Postgres(m)}
		return rawsql.Exec(ctx, m, `UPDATE "dcim_device" SET "_type_display" = `+typeDisplaySQL+
			` WHERE device_type_id IN (SELECT id FROM "dcim_devicetype" WHERE manufacturer_id IN (`+rawsql.In(a, ids)+`))`, a)
	}, "name")}
}

// VirtualChassisHooks are the hooks of dcim.VirtualChassis: on update the
// master must be one of its members (VirtualChassis.clean()); a new
// chassis takes its master in at position 1 (NetBox's
// assign_virtualchassis_master signal); a rename renews the display of
// its members. A delete clears its members' positions and priorities in
// the members' own hook (checkDevice), as the delete clears their key;
// that hook also refuses the delete of a chassis with a cross-chassis LAG
// (checkChassisLAGs), as VirtualChassis.delete() does.
func VirtualChassisHooks() []ent.Hook {
	return []ent.Hook{func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			sm, err := rawsql.As("virtual chassis hook", m)
			if err != nil {
				return nil, err
			}
			pg := rawsql.Postgres(sm)
			switch {
			case m.Op().Is(ent.OpDelete | ent.OpDeleteOne):
				// The members' keys were cleared before (SET_NULL, with
				// their positions: checkDevice).
				return next.Mutate(ctx, m)
			case m.Op().Is(ent.OpCreate):
				v, err := next.Mutate(ctx, m)
				if err != nil {
					return nil, err
				}
				id, _ := sm.ID()
				master, ok := sm.Field("master_id")
				if !ok {
					return v, nil
				}
				// assign_virtualchassis_master: the master is saved as
				// the chassis' first member.
				if mid, ok := rawsql.IntOf(rawsql.Deref(master)); ok {
					if err := api.Saving(ctx, m, "dcim.device", []int{mid}); err != nil {
						return nil, err
					}
				}
				a := &rawsql.Args{PG: pg}
				err = rawsql.Exec(ctx, sm, `UPDATE "dcim_device" SET virtual_chassis_id = `+a.P(id)+`, vc_position = 1, "_vc_name" = `+
					`(SELECT name FROM "dcim_virtualchassis" WHERE id = `+a.P(id)+`) WHERE id = `+a.P(rawsql.Deref(master)), a)
				return v, err
			}
			ids, err := rawsql.TargetIDs(ctx, sm)
			if err != nil {
				return nil, err
			}
			if master, ok := sm.Field("master_id"); ok {
				a := &rawsql.Args{PG: pg}
				r, err := row(ctx, sm, `SELECT virtual_chassis_id, `+deviceNameSQL+` AS display FROM "dcim_device" WHERE id = `+a.P(rawsql.Deref(master)), a)
				if err != nil {
					return nil, err
				}
				for _, id := range ids {
					if r != nil {
						if in, ok := rawsql.IntOf(r["virtual_chassis_id"]); !ok || in != id {
							return nil, fail("master", "The selected master (%s) is not assigned to this virtual chassis.", str(r["display"]))
						}
					}
				}
			}
			v, err := next.Mutate(ctx, m)
			if err != nil || !rawsql.Touched(m, "name") {
				return v, err
			}
			return v, rawsql.Chunks(ids, func(ids []int) error {
				a := &rawsql.Args{PG: pg}
				return rawsql.Exec(ctx, sm, `UPDATE "dcim_device" SET "_vc_name" = (SELECT c.name FROM "dcim_virtualchassis" c `+
					`WHERE c.id = "dcim_device".virtual_chassis_id) WHERE virtual_chassis_id IN (`+rawsql.In(a, ids)+`)`, a)
			})
		})
	}}
}

// checkChassisLAGs is VirtualChassis.delete()'s guard: a chassis one of
// whose members has an interface in a LAG of another device (a
// cross-chassis LAG, which Interface.clean() allows within a chassis) is
// not deleted. NetBox raises a ProtectedError naming those interfaces,
// which the API answers with 409 (api.Protected); nothing changes, as the
// delete's transaction goes back. The delete clears its members' key
// (SET_NULL) through their many-row update, whose hook this is: it runs
// before the first of them leaves the chassis (later batches of the same
// delete find the chassis checked already and its LAGs unchanged). The
// interfaces are listed in id order (NetBox's set of them).
func checkChassisLAGs(ctx context.Context, m rawsql.Mutation, rows []*state) error {
	var going []int
	seen := map[int]bool{}
	for _, s := range rows {
		vc, ok := rawsql.IntOf(s.old["virtual_chassis_id"])
		if ok && !seen[vc] && api.Deleting(ctx, "dcim.virtualchassis", vc) {
			seen[vc] = true
			going = append(going, vc)
		}
	}
	if len(going) == 0 {
		return nil
	}
	a := &rawsql.Args{PG: rawsql.Postgres(m)}
	rs, err := textRows(ctx, m, `SELECT i.id, i.name, i.label FROM "dcim_interface" i `+
		`JOIN "dcim_interface" l ON l.id = i.lag_id JOIN "dcim_device" d ON d.id = i.device_id `+
		`WHERE d.virtual_chassis_id IN (`+rawsql.In(a, going)+`) AND l.device_id <> i.device_id ORDER BY i.id`, a)
	if err != nil || len(rs) == 0 {
		return err
	}
	objs := make([]string, len(rs))
	for i, r := range rs {
		name := str(r["name"]) // ComponentModel.__str__
		if label := str(r["label"]); label != "" {
			name += " (" + label + ")"
		}
		id, _ := rawsql.IntOf(r["id"])
		objs[i] = fmt.Sprintf("%s (%d)", name, id)
	}
	return api.Protected(objs)
}

// deviceNameSQL is a device's name, or its cached type display and id
// when unnamed: enough to name it in a message.
const deviceNameSQL = `COALESCE(name, "_type_display" || ' (' || CAST(id AS TEXT) || ')')`

// RackDevices lists the devices placed in a rack for its elevation: their
// position, height and depth, with their nested representation when the
// caller may view them (others occupy their units anonymously).
func RackDevices(r api.Request, rack, exclude int) ([]Occupant, error) {
	others, err := rackOccupants(r.Context(), requestQuerier{r}, r.Postgres(), rack, exclude)
	if err != nil {
		return nil, err
	}
	ids := make([]int, len(others))
	for i, o := range others {
		ids[i] = o.ID
	}
	nested, err := r.Nested("dcim.device", ids)
	if err != nil {
		return nil, err
	}
	for i := range others {
		if raw, ok := nested[others[i].ID]; ok {
			others[i].Device = raw
			var obj struct {
				Display string `json:"display"`
			}
			if json.Unmarshal(raw, &obj) == nil {
				others[i].Display = strings.TrimSpace(obj.Display)
			}
		}
	}
	return others, nil
}

// requestQuerier reads through a handler's request.
type requestQuerier struct{ r api.Request }

func (q requestQuerier) QueryContext(_ context.Context, query string, args ...any) (*sql.Rows, error) {
	return q.r.SQL(query, args...)
}
