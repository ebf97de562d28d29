package dcim

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// Rack heights (NetBox's RACK_U_HEIGHT_DEFAULT and RACK_U_HEIGHT_MAX).
const (
	RackUHeightDefault = 42
	RackUHeightMax     = 100
)

// rackTypeColumns are the physical attributes a rack takes from its rack
// type (NetBox's Rack.RACKTYPE_FIELDS), columns of both tables.
var rackTypeColumns = []string{"form_factor", "width", "u_height", "starting_unit", "desc_units", "outer_width",
	"outer_height", "outer_depth", "outer_unit", "mounting_depth", "weight", "weight_unit", "max_weight"}

// RackDisplay is a rack's display: "name (facility_id)" when a facility ID
// is set, else the name (NetBox's Rack.__str__).
func RackDisplay(get api.Getter) string {
	name := str(get("name"))
	if f := str(get("facility_id")); f != "" {
		return name + " (" + f + ")"
	}
	return name
}

// RackReservationDisplay is "Reservation for rack <rack>" (NetBox's
// RackReservation.__str__); the rack's display is cached on the
// reservation by the hooks of both models.
func RackReservationDisplay(get api.Getter) string {
	return "Reservation for rack " + str(get("_rack_display"))
}

// rackDisplaySQL renders a rack's display in SQL (alias r), the same on
// SQLite and PostgreSQL.
const rackDisplaySQL = `CASE WHEN r.facility_id IS NOT NULL AND r.facility_id <> '' ` +
	`THEN r.name || ' (' || r.facility_id || ')' ELSE r.name END`

// RackTypeHooks are the hooks of dcim.RackType: its units and weights are
// checked as RackType.clean() does, and an update passes the physical
// attributes on to the racks of the type (RackType.save()).
func RackTypeHooks() []ent.Hook {
	return []ent.Hook{func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if m.Op().Is(ent.OpDelete | ent.OpDeleteOne) {
				return next.Mutate(ctx, m)
			}
			sm, err := rawsql.As("rack type hook", m)
			if err != nil {
				return nil, err
			}
			rows, err := states(ctx, sm, "dcim_racktype", append([]string{"id"}, rackTypeColumns...))
			if err != nil {
				return nil, err
			}
			for _, st := range rows {
				if err := st.checkWeight(); err != nil {
					return nil, err
				}
				if err := st.checkDimensions(); err != nil {
					return nil, err
				}
				if err := st.checkTypeInstalled(ctx, sm); err != nil {
					return nil, err
				}
			}
			if len(rows) > 0 {
				if err := rows[0].clearOuterUnit(); err != nil {
					return nil, err
				}
			}
			v, err := next.Mutate(ctx, m)
			if err != nil || m.Op().Is(ent.OpCreate) || !rawsql.Touched(m, rackTypeColumns...) {
				return v, err
			}
			ids, err := rawsql.TargetIDs(ctx, sm)
			if err != nil {
				return nil, err
			}
			return v, copyRackTypeToRacks(ctx, sm, ids)
		})
	}}
}

// copyRackTypeToRacks sets the physical attributes of the racks of the
// given rack types to their type's.
func copyRackTypeToRacks(ctx context.Context, m rawsql.Mutation, typeIDs []int) error {
	sets := make([]string, len(rackTypeColumns))
	for i, c := range rackTypeColumns {
		sets[i] = fmt.Sprintf(`%q = (SELECT t.%q FROM "dcim_racktype" t WHERE t.id = "dcim_rack".rack_type_id)`, c, c)
	}
	return rawsql.Chunks(typeIDs, func(ids []int) error {
		a := &rawsql.Args{PG: rawsql.Postgres(m)}
		q := `UPDATE "dcim_rack" SET ` + strings.Join(sets, ", ") + ` WHERE rack_type_id IN (` + rawsql.In(a, ids) + `)`
		if err := rawsql.Exec(ctx, m, q, a); err != nil {
			return fmt.Errorf("rack type hook: %w", err)
		}
		return nil
	})
}

// RackHooks are the hooks of dcim.Rack: a rack type's physical attributes
// replace the rack's own (Rack.copy_racktype_attrs), the location must be
// one of the rack's site, units and weights are checked as Rack.clean()
// does, and a rack whose name or facility ID changes renews the display
// cached on its reservations.
func RackHooks() []ent.Hook {
	return []ent.Hook{rawsql.AfterUpdate(rackMoved, "site_id", "location_id"), func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if m.Op().Is(ent.OpDelete | ent.OpDeleteOne) {
				return next.Mutate(ctx, m)
			}
			sm, err := rawsql.As("rack hook", m)
			if err != nil {
				return nil, err
			}
			cols := append([]string{"id", "site_id", "location_id", "rack_type_id"}, rackTypeColumns...)
			rows, err := states(ctx, sm, "dcim_rack", cols)
			if err != nil {
				return nil, err
			}
			if len(rows) > 0 {
				// A many-row update sets the same rack type on every row.
				if err := rows[0].copyRackType(ctx, sm); err != nil {
					return nil, err
				}
				for _, st := range rows[1:] {
					st.set = rows[0].set
				}
				if err := rows[0].clearOuterUnit(); err != nil {
					return nil, err
				}
			}
			// Rack.clean()'s order: WeightMixin's check (super().clean()),
			// the location's site, outer dimensions and maximum weight,
			// then the devices mounted in a stored rack.
			for _, st := range rows {
				if err := st.checkWeight(); err != nil {
					return nil, err
				}
				if err := st.checkLocation(ctx, sm); err != nil {
					return nil, err
				}
				if err := st.checkDimensions(); err != nil {
					return nil, err
				}
				if err := st.checkInstalled(ctx, sm); err != nil {
					return nil, err
				}
			}
			v, err := next.Mutate(ctx, m)
			if err != nil || m.Op().Is(ent.OpCreate) || !rawsql.Touched(m, "name", "facility_id") {
				return v, err
			}
			ids, err := rawsql.TargetIDs(ctx, sm)
			if err != nil {
				return nil, err
			}
			return v, rawsql.Chunks(ids, func(ids []int) error {
				a := &rawsql.Args{PG: rawsql.Postgres(sm)}
				return rawsql.Exec(ctx, sm, `UPDATE "dcim_rackreservation" SET "_rack_display" = (SELECT `+rackDisplaySQL+
					` FROM "dcim_rack" r WHERE r.id = "dcim_rackreservation".rack_id) WHERE rack_id IN (`+rawsql.In(a, ids)+`)`, a)
			})
		})
	}}
}

// state is one row as a write leaves it: the mutation's values over the
// stored ones.
type state struct {
	m   rawsql.Mutation
	old map[string]any // stored values (nil on create)
	// set are values the hook itself sets (a rack type's attributes).
	set map[string]any
}

// states are the rows a create or update writes, with the stored values
// of cols for updates. A one-row update of a missing row yields none (ent
// answers).
func states(ctx context.Context, m rawsql.Mutation, table string, cols []string) ([]*state, error) {
	if m.Op().Is(ent.OpCreate) {
		return []*state{{m: m}}, nil
	}
	ids, err := rawsql.TargetIDs(ctx, m)
	if err != nil {
		return nil, err
	}
	var out []*state
	err = rawsql.Chunks(ids, func(ids []int) error {
		rows, err := load(ctx, m, table, cols, ids)
		for _, r := range rows {
			out = append(out, &state{m: m, old: r})
		}
		return err
	})
	return out, err
}

// load reads cols of the rows ids of table (textRows).
func load(ctx context.Context, q rawsql.Querier, table string, cols []string, ids []int) ([]map[string]any, error) {
	a := &rawsql.Args{PG: false}
	if m, ok := q.(rawsql.Mutation); ok {
		a.PG = rawsql.Postgres(m)
	}
	quoted := make([]string, len(cols))
	for i, c := range cols {
		quoted[i] = strconv.Quote(c)
	}
	return textRows(ctx, q, `SELECT `+strings.Join(quoted, ", ")+` FROM "`+table+`" WHERE id IN (`+rawsql.In(a, ids)+`)`, a)
}

// get is the row's value of column c after the write.
func (s *state) get(c string) any {
	if v, ok := s.set[c]; ok {
		return v
	}
	if v, ok := s.m.Field(c); ok {
		return rawsql.Deref(v)
	}
	if s.m.FieldCleared(c) {
		return nil
	}
	return s.old[c]
}

// put sets column c on the mutation (nil clears it) and remembers it.
func (s *state) put(c string, v any) error {
	if s.set == nil {
		s.set = map[string]any{}
	}
	s.set[c] = v
	// The hook's value replaces what the request set or cleared.
	if err := s.m.ResetField(c); err != nil {
		return err
	}
	if v == nil {
		if s.old == nil || s.old[c] == nil {
			return nil // nothing stored to clear
		}
		return s.m.ClearField(c)
	}
	switch c {
	case "width", "u_height", "starting_unit", "outer_width", "outer_height", "outer_depth", "mounting_depth", "max_weight":
		n, _ := v.(int)
		return s.m.SetField(c, n)
	case "desc_units":
		return s.m.SetField(c, truthy(v))
	case "weight":
		f, _ := v.(float64)
		return s.m.SetField(c, f)
	}
	return s.m.SetField(c, str(v))
}

// copyRackType replaces the rack's physical attributes by its rack type's.
func (s *state) copyRackType(ctx context.Context, m rawsql.Mutation) error {
	id, ok := s.get("rack_type_id").(int)
	if !ok {
		return nil
	}
	rows, err := load(ctx, m, "dcim_racktype", rackTypeColumns, []int{id})
	if err != nil || len(rows) == 0 {
		return err // a missing rack type was refused by the resource layer
	}
	for _, c := range rackTypeColumns {
		if err := s.put(c, rows[0][c]); err != nil {
			return err
		}
	}
	return nil
}

// clearOuterUnit clears the unit of outer dimensions when none is set, as
// RackBase's save() does.
func (s *state) clearOuterUnit() error {
	if s.get("outer_width") == nil && s.get("outer_height") == nil && s.get("outer_depth") == nil && s.get("outer_unit") != nil {
		return s.put("outer_unit", nil)
	}
	return nil
}

// nonzero reports whether column c holds a number other than 0 (NetBox's
// truthiness of a dimension or weight).
func (s *state) nonzero(c string) bool {
	switch x := s.get(c).(type) {
	case int:
		return x != 0
	case float64:
		return x != 0
	}
	return false
}

// checkWeight is WeightMixin.clean(): a weight needs its unit. Racks and
// rack types raise it without a field, as NetBox does (__all__).
func (s *state) checkWeight() error {
	if s.nonzero("weight") && str(s.get("weight_unit")) == "" {
		return &api.FieldError{Field: "__all__", Message: "Must specify a unit when setting a weight"}
	}
	return nil
}

// checkDimensions is the rest of RackBase's clean() (RackType.clean() and
// Rack.clean() alike): units for outer dimensions and the maximum weight.
func (s *state) checkDimensions() error {
	fail := func(msg string) error { return &api.FieldError{Field: "__all__", Message: msg} }
	if (s.nonzero("outer_width") || s.nonzero("outer_height") || s.nonzero("outer_depth")) && str(s.get("outer_unit")) == "" {
		return fail("Must specify a unit when setting an outer dimension")
	}
	if s.nonzero("max_weight") && str(s.get("weight_unit")) == "" {
		return fail("Must specify a unit when setting a maximum weight")
	}
	return nil
}

// checkLocation refuses a location of another site than the rack's with
// Rack.clean()'s first check: a non-field error naming the rack's site.
// (Rack.clean() ends with a second check, keyed by location, "Location
// must be from the same site, {site}.", that the first one leaves
// unreachable.)
func (s *state) checkLocation(ctx context.Context, m rawsql.Mutation) error {
	loc, ok := s.get("location_id").(int)
	if !ok {
		return nil
	}
	site, _ := s.get("site_id").(int)
	a := &rawsql.Args{PG: rawsql.Postgres(m)}
	r, err := row(ctx, m, `SELECT l.site_id, s.name FROM "dcim_location" l, "dcim_site" s WHERE l.id = `+
		a.P(loc)+` AND s.id = `+a.P(site), a)
	if err != nil || r == nil {
		return err // a missing site or location was refused by the resource layer
	}
	if ls, _ := rawsql.IntOf(r["site_id"]); ls != site {
		return &api.FieldError{Field: "__all__", Message: fmt.Sprintf("Assigned location must belong to parent site (%s).", str(r["name"]))}
	}
	return nil
}

// mounted are the units the devices mounted in some racks take: per rack,
// the top of the highest device (position + height) and the lowest
// position.
type mounted struct {
	rack      int
	display   string
	top, base float64
}

// mountedIn reads what is mounted in the racks matching where (a
// condition on dcim_rack r with a's parameters), by rack id.
func mountedIn(ctx context.Context, q rawsql.Querier, where string, a *rawsql.Args) ([]mounted, error) {
	rs, err := textRows(ctx, q, `SELECT r.id, MIN(`+rackDisplaySQL+`) AS display, MAX(d.position + t.u_height) AS top, `+
		`MIN(d.position) AS base FROM "dcim_rack" r JOIN "dcim_device" d ON d.rack_id = r.id `+
		`JOIN "dcim_devicetype" t ON t.id = d.device_type_id WHERE d.position IS NOT NULL AND `+where+
		` GROUP BY r.id ORDER BY r.id`, a)
	if err != nil {
		return nil, err
	}
	out := make([]mounted, len(rs))
	for i, r := range rs {
		id, _ := rawsql.IntOf(r["id"])
		out[i] = mounted{rack: id, display: str(r["display"]), top: asFloat(r["top"]), base: asFloat(r["base"])}
	}
	return out, nil
}

// houses says what a rack of height units numbered from start lacks to
// house what is mounted in it: "" when nothing, "height" when the highest
// device ends above the rack (need is the height it needs), "start" when
// the lowest device sits below its first unit.
func (x mounted) houses(height, start int) (lacks string, need float64) {
	if need := x.top - float64(start); float64(height) < need {
		return "height", need
	}
	if float64(start) > x.base {
		return "start", 0
	}
	return "", 0
}

// checkInstalled is the end of Rack.clean() for a stored rack: the rack,
// as the write leaves it (with its rack type's height and numbering when
// it has one), still houses every device mounted in it. NetBox asks on
// every save; here only a write that changes the height, the numbering or
// the rack type asks, as no other write can make a rack too small. The
// highest device is the one whose top is highest (NetBox takes the one
// with the highest position, which is the same device unless a taller
// device sits lower on the other face).
func (s *state) checkInstalled(ctx context.Context, m rawsql.Mutation) error {
	id, stored := s.old["id"].(int)
	// A rack type's attributes, copied in by the hook, count as touched.
	if !stored || !rawsql.Touched(s.m, "u_height", "starting_unit", "rack_type_id") {
		return nil
	}
	a := &rawsql.Args{PG: rawsql.Postgres(m)}
	ms, err := mountedIn(ctx, m, `r.id = `+a.P(id), a)
	if err != nil || len(ms) == 0 {
		return err
	}
	height, _ := rawsql.IntOf(s.get("u_height"))
	start, _ := rawsql.IntOf(s.get("starting_unit"))
	_, typed := rawsql.IntOf(s.get("rack_type_id"))
	field := func(own string) string {
		if typed {
			return "rack_type"
		}
		return own
	}
	switch lacks, need := ms[0].houses(height, start); lacks {
	case "height":
		return fail(field("u_height"), "Rack must be at least %sU tall to house currently installed devices.", decimal(need))
	case "start":
		return fail(field("starting_unit"), "Rack unit numbering must begin at %s or less to house currently installed devices.",
			decimal(ms[0].base))
	}
	return nil
}

// checkTypeInstalled refuses a change of a rack type's height or
// numbering that would leave a device of one of its racks outside the
// rack. NetBox makes no such check: RackType.save() copies the new
// attributes to the racks without cleaning them, leaving devices outside
// their rack, which Rack.clean() refuses when the rack itself changes.
// The message is Rack.clean()'s, naming the rack, keyed by the rack
// type's field.
func (s *state) checkTypeInstalled(ctx context.Context, m rawsql.Mutation) error {
	id, stored := s.old["id"].(int)
	if !stored || !rawsql.Touched(s.m, "u_height", "starting_unit") {
		return nil
	}
	a := &rawsql.Args{PG: rawsql.Postgres(m)}
	ms, err := mountedIn(ctx, m, `r.rack_type_id = `+a.P(id), a)
	if err != nil {
		return err
	}
	height, _ := rawsql.IntOf(s.get("u_height"))
	start, _ := rawsql.IntOf(s.get("starting_unit"))
	for _, x := range ms {
		switch lacks, need := x.houses(height, start); lacks {
		case "height":
			return fail("u_height", "Rack %s must be at least %sU tall to house currently installed devices.", x.display, decimal(need))
		case "start":
			return fail("starting_unit", "Rack %s unit numbering must begin at %s or less to house currently installed devices.",
				x.display, decimal(x.base))
		}
	}
	return nil
}

// RackReservationHooks are the hooks of dcim.RackReservation: its units
// must exist in the rack and be free of the rack's other reservations
// (RackReservation.clean()); unit_count and the rack's display are kept.
func RackReservationHooks() []ent.Hook {
	return []ent.Hook{func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if m.Op().Is(ent.OpDelete|ent.OpDeleteOne) || !m.Op().Is(ent.OpCreate) && !rawsql.Touched(m, "rack_id", "units") {
				return next.Mutate(ctx, m)
			}
			sm, err := rawsql.As("rack reservation hook", m)
			if err != nil {
				return nil, err
			}
			rows, err := states(ctx, sm, "dcim_rackreservation", []string{"id", "rack_id", "units"})
			if err != nil {
				return nil, err
			}
			for _, st := range rows {
				if err := st.checkUnits(ctx, sm); err != nil {
					return nil, err
				}
			}
			return next.Mutate(ctx, m)
		})
	}}
}

// checkUnits validates the reservation's units against its rack and sets
// unit_count and the cached rack display.
func (s *state) checkUnits(ctx context.Context, m rawsql.Mutation) error {
	rack, _ := s.get("rack_id").(int)
	units, err := intList(s.get("units"))
	if err != nil {
		return err
	}
	if len(units) == 0 {
		return &api.FieldError{Field: "units", Message: "This field cannot be blank."}
	}
	a := &rawsql.Args{PG: rawsql.Postgres(m)}
	rows, err := m.QueryContext(ctx, `SELECT r.u_height, r.starting_unit, `+rackDisplaySQL+` FROM "dcim_rack" r WHERE r.id = `+a.P(rack), a.List...)
	if err != nil {
		return err
	}
	var height, start int
	var display string
	found := rows.Next()
	if found {
		err = rows.Scan(&height, &start, &display)
	}
	rows.Close()
	if err != nil || !found {
		return err // a missing rack was refused by the resource layer
	}
	var invalid []int
	for _, u := range units {
		if u < start || u >= start+height {
			invalid = append(invalid, u)
		}
	}
	if len(invalid) > 0 {
		return &api.FieldError{Field: "units", Message: fmt.Sprintf("Invalid unit(s) for %dU rack: %s", height, joinInts(invalid))}
	}
	self, _ := s.old["id"].(int)
	a = &rawsql.Args{PG: rawsql.Postgres(m)}
	others, err := m.QueryContext(ctx, `SELECT units FROM "dcim_rackreservation" WHERE rack_id = `+a.P(rack)+` AND id <> `+a.P(self), a.List...)
	if err != nil {
		return err
	}
	reserved := map[int]bool{}
	for others.Next() {
		var raw any
		if err := others.Scan(&raw); err != nil {
			others.Close()
			return err
		}
		var us []int
		switch x := raw.(type) {
		case string:
			err = json.Unmarshal([]byte(x), &us)
		case []byte:
			err = json.Unmarshal(x, &us)
		}
		if err != nil {
			others.Close()
			return fmt.Errorf("rack reservation units: %w", err)
		}
		for _, u := range us {
			reserved[u] = true
		}
	}
	others.Close()
	if err := others.Err(); err != nil {
		return err
	}
	var taken []int
	for _, u := range units {
		if reserved[u] {
			taken = append(taken, u)
		}
	}
	if len(taken) > 0 {
		return &api.FieldError{Field: "units", Message: "The following units have already been reserved: " + joinInts(taken)}
	}
	if err := s.m.SetField("unit_count", len(units)); err != nil {
		return err
	}
	return s.m.SetField("_rack_display", display)
}

// intList reads a units value: the mutation's []int or a stored JSON text.
func intList(v any) ([]int, error) {
	switch x := v.(type) {
	case []int:
		return x, nil
	case string:
		var out []int
		if err := json.Unmarshal([]byte(x), &out); err != nil {
			return nil, fmt.Errorf("rack reservation units: %w", err)
		}
		return out, nil
	case nil:
		return nil, nil
	}
	return nil, fmt.Errorf("rack reservation units: unexpected %T", v)
}

func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ", ")
}

// str reads a text value (nil, string or *string) as a string.
func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case *string:
		if x != nil {
			return *x
		}
	case sql.NullString:
		return x.String
	}
	return ""
}

// truthy reads a boolean stored as bool or integer (SQLite).
func truthy(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case int:
		return x != 0
	}
	return false
}
