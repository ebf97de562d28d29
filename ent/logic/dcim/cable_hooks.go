package dcim

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// Cables: NetBox's Cable.clean() and save() and CableTermination.clean(),
// save() and delete(), in the write's transaction. The ends a client
// writes (a_terminations, b_terminations) are checked, then mirrored into
// dcim_cabletermination rows (a create record each, with the terminated
// object's device, rack, location and site cached on it) and into the
// terminated objects' cable columns (an update record each, as
// termination.save() gives them). Statements are per type and end, not
// per termination.

// CableHooks are the hooks of dcim.Cable.
func CableHooks() []ent.Hook { return []ent.Hook{CablePathHook, cableHook} }

// CableTerminationHooks are the hooks of dcim.CableTermination: a row
// deleted with the object it terminates or its cable (the generic delete
// passes each through its own mutation) clears the object's cable
// columns and the cable's end.
func CableTerminationHooks() []ent.Hook {
	return []ent.Hook{TerminationPathHook, terminationDeleteHook}
}

// cableColumns are what the cable rules read of a stored cable.
var cableColumns = []string{"a_terminations", "b_terminations", "length", "length_unit", "label"}

// Messages of NetBox's Cable.clean() and CableTermination.clean().
const (
	msgLengthUnit     = "Must specify a unit when setting a cable length"
	msgBothEnds       = "Must define A and B terminations when creating a new cable."
	msgMixedTypes     = "Cannot connect different termination types to same end of cable."
	msgSameObject     = "A and B terminations cannot connect to the same object."
	msgProviderNet    = "Circuit terminations attached to a provider network may not be cabled."
	msgNotFound       = "Related object not found using the provided value: %d."
	msgIncompatible   = "Incompatible termination types: %s and %s"
	msgMarked         = "Cannot connect a cable to %s > %s because it is marked as connected."
	msgDuplicate      = "Duplicate termination found for %s %d: cable %d"
	msgNonConnectable = "Cables cannot be terminated to %s interfaces"
	// NetBox's cable form picks one parent per end and its tracer refuses
	// mid-span ends on several parents; the API refuses any such end.
	msgParents = "All terminations of one end must belong to the same parent object (device, power panel or circuit)."
)

// meters converts a length to meters (NetBox's to_meters).
var meters = map[string]float64{"km": 1000, "m": 1, "cm": 0.01, "mi": 1609.344, "ft": 0.3048, "in": 0.0254}

func cableHook(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		sm, err := rawsql.As("cable hook", m)
		if err != nil {
			return nil, err
		}
		switch {
		case m.Op().Is(ent.OpCreate):
			return cableCreate(ctx, sm, next)
		case m.Op().Is(ent.OpUpdate | ent.OpUpdateOne):
			return cableUpdate(ctx, sm, next)
		}
		return cableDelete(ctx, sm, next)
	})
}

// cableEnds are a cable's two ends.
type cableEnds [2][]ref

var endNames = [2]string{"A", "B"}
var endFields = [2]string{"a_terminations", "b_terminations"}

func cableCreate(ctx context.Context, m rawsql.Mutation, next ent.Mutator) (ent.Value, error) {
	row := rawsql.Overlay(m, cableColumns, nil)
	if err := cableLength(m, row); err != nil {
		return nil, err
	}
	ends := cableEnds{parseRefs(row["a_terminations"]), parseRefs(row["b_terminations"])}
	if len(ends[0]) == 0 || len(ends[1]) == 0 {
		return nil, &api.FieldError{Field: "__all__", Message: msgBothEnds}
	}
	// Within a write the ends wait for its end (cable_ends.go); the
	// checks see those of the write's earlier cables as taken.
	pending, postponed := postponedEnds(ctx)
	load := loadCabled
	var taken map[ref]int
	if postponed {
		load, taken = pending.load, pending.taken
	}
	objs, err := checkEnds(ctx, m, 0, ends, load, taken)
	if err != nil {
		return nil, err
	}
	v, err := next.Mutate(ctx, m)
	if err != nil {
		return v, err
	}
	id, ok := m.ID()
	if !ok {
		return nil, fmt.Errorf("cable hook: created cable has no id")
	}
	// The cable's create record comes before its terminations', as
	// NetBox saves the cable first.
	if err := api.Created(ctx, m, "dcim.cable", []int{id}); err != nil {
		return nil, err
	}
	label := cableStr(id, rawsql.StringOf(row["label"]))
	if postponed {
		pending.add(m, pendingCable{id: id, label: label, ends: ends, objs: objs, t: now(), mark: api.Mark(ctx)})
		return v, nil
	}
	return v, syncEnds(ctx, m, id, label, cableEnds{}, ends, objs)
}

func cableUpdate(ctx context.Context, m rawsql.Mutation, next ent.Mutator) (ent.Value, error) {
	if err := settleEnds(ctx); err != nil {
		return nil, err
	}
	ids, err := rawsql.TargetIDs(ctx, m)
	if err != nil {
		return nil, err
	}
	old, err := rawsql.LoadRows(ctx, m, "dcim_cable", cableColumns, ids)
	if err != nil {
		return nil, err
	}
	type plan struct {
		id         int
		was, now   cableEnds
		objs       map[ref]*cabled
		label      string
		relabelled bool
	}
	var plans []plan
	for _, id := range ids {
		row := rawsql.Overlay(m, cableColumns, old[id])
		if err := cableLength(m, row); err != nil {
			return nil, err
		}
		p := plan{id: id, label: cableStr(id, rawsql.StringOf(row["label"])),
			relabelled: rawsql.StringOf(row["label"]) != rawsql.StringOf(old[id]["label"])}
		p.was = cableEnds{parseRefs(old[id]["a_terminations"]), parseRefs(old[id]["b_terminations"])}
		p.now = cableEnds{parseRefs(row["a_terminations"]), parseRefs(row["b_terminations"])}
		if !slices.Equal(p.was[0], p.now[0]) || !slices.Equal(p.was[1], p.now[1]) {
			if p.objs, err = checkEnds(ctx, m, id, p.now, loadCabled, nil); err != nil {
				return nil, err
			}
		}
		plans = append(plans, p)
	}
	v, err := next.Mutate(ctx, m)
	if err != nil {
		return v, err
	}
	for _, p := range plans {
		if p.objs != nil {
			if err := syncEnds(ctx, m, p.id, p.label, p.was, p.now, p.objs); err != nil {
				return nil, err
			}
		}
		if p.relabelled {
			if err := relabelTerminations(ctx, m, p.id, p.label); err != nil {
				return nil, err
			}
		}
	}
	return v, nil
}

// cableDelete clears the cable's ends on the objects it terminates
// (NetBox's nullify_connected_endpoints), after the change capture has
// seen the cable with them (the generic delete leaves the cabled objects'
// key to this hook: api.Field.ClearedByHooks). Each object gets an update
// record and event, as when a cable is created or an end moved: NetBox's
// signal writes them with update() and records none, but the issue asks
// for an event for every endpoint whose connection changed, and a front
// or rear port whose cable went changed as much.
func cableDelete(ctx context.Context, m rawsql.Mutation, next ent.Mutator) (ent.Value, error) {
	if err := settleEnds(ctx); err != nil {
		return nil, err
	}
	ids, err := rawsql.TargetIDs(ctx, m)
	if err != nil {
		return nil, err
	}
	rows, err := rawsql.LoadRows(ctx, m, "dcim_cable", []string{"a_terminations", "b_terminations"}, ids)
	if err != nil {
		return nil, err
	}
	v, err := next.Mutate(ctx, m)
	if err != nil {
		return v, err
	}
	var refs []ref
	for _, row := range rows {
		refs = append(append(refs, parseRefs(row["a_terminations"])...), parseRefs(row["b_terminations"])...)
	}
	types, byID := byType(refs)
	for _, ct := range types {
		var keep []int
		for _, id := range byID[ct] {
			if !api.Deleting(ctx, ct, id) {
				keep = append(keep, id)
			}
		}
		if err := clearCabled(ctx, m, ct, keep); err != nil {
			return nil, fmt.Errorf("cable hook: %w", err)
		}
	}
	return v, nil
}

// cableLength applies Cable.clean()'s length rule and save()'s
// normalisation: no length, no unit; the length in meters for ordering.
func cableLength(m rawsql.Mutation, row map[string]any) error {
	length := rawsql.Deref(row["length"])
	unit := rawsql.StringOf(rawsql.Deref(row["length_unit"]))
	if length != nil && unit == "" {
		return &api.FieldError{Field: "__all__", Message: msgLengthUnit}
	}
	if length == nil {
		if unit != "" {
			m.ClearField("length_unit")
		}
		m.ClearField("_abs_length")
		return nil
	}
	if !rawsql.Touched(m, "length", "length_unit") {
		return nil
	}
	f, _ := toFloat(length)
	return m.SetField("_abs_length", math.Round(f*meters[unit]*10000)/10000)
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	case []byte:
		f, err := strconv.ParseFloat(string(x), 64)
		return f, err == nil
	}
	return 0, false
}

// cableStr is NetBox's Cable.__str__.
func cableStr(id int, label string) string {
	if label != "" {
		return label
	}
	return "#" + strconv.Itoa(id)
}

// parseRefs reads an end as the mutation holds it ([]any of objects) or as
// stored (JSON text), without duplicates.
func parseRefs(v any) []ref {
	var items []map[string]any
	switch x := rawsql.Deref(v).(type) {
	case string:
		_ = json.Unmarshal([]byte(x), &items)
	case []byte:
		_ = json.Unmarshal(x, &items)
	case []any:
		for _, it := range x {
			if o, ok := it.(map[string]any); ok {
				items = append(items, o)
			}
		}
	}
	var out []ref
	for _, it := range items {
		ct, _ := it["object_type"].(string)
		id, ok := rawsql.IntOf(it["object_id"])
		if !ok {
			if f, isF := it["object_id"].(float64); isF {
				id, ok = int(f), true
			}
		}
		if r := (ref{ct, id}); ct != "" && ok && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// checkEnds runs Cable.clean() and CableTermination.clean() on the ends
// of cable id (0 when new) and returns the objects read (by load); taken
// are objects given to cables whose ends are not written yet
// (pendingEnds).
func checkEnds(ctx context.Context, m rawsql.Mutation, id int, ends cableEnds,
	load func(context.Context, rawsql.Mutation, []ref) (map[ref]*cabled, error), taken map[ref]int) (map[ref]*cabled, error) {
	objs, err := load(ctx, m, append(append([]ref{}, ends[0]...), ends[1]...))
	if err != nil {
		return nil, err
	}
	for r, c := range objs {
		if cable := taken[r]; cable != 0 && c.exists && c.cable == 0 {
			c.cable = cable
		}
	}
	for e, end := range ends {
		field := endFields[e]
		for _, r := range end {
			if !objs[r].exists {
				return nil, &api.FieldError{Field: field, Message: fmt.Sprintf(msgNotFound, r.id)}
			}
		}
		for _, r := range end[min(1, len(end)):] {
			if r.ct != end[0].ct {
				return nil, &api.FieldError{Field: field, Message: msgMixedTypes}
			}
		}
		for _, r := range end[min(1, len(end)):] {
			if objs[r].parent != objs[end[0]].parent {
				return nil, &api.FieldError{Field: field, Message: msgParents}
			}
		}
	}
	if len(ends[0]) > 0 && len(ends[1]) > 0 {
		at, bt := model(ends[0][0].ct), model(ends[1][0].ct)
		if !slices.Contains(compatibleTypes[at], bt) {
			return nil, &api.FieldError{Field: "b_terminations", Message: fmt.Sprintf(msgIncompatible, at, bt)}
		}
		for _, r := range ends[1] {
			if slices.Contains(ends[0], r) {
				return nil, &api.FieldError{Field: "b_terminations", Message: msgSameObject}
			}
		}
	}
	for e, end := range ends {
		for _, r := range end {
			if err := checkTermination(endFields[e], id, objs[r]); err != nil {
				return nil, err
			}
		}
	}
	return objs, nil
}

// checkTermination is CableTermination.clean() for one object.
func checkTermination(field string, cable int, c *cabled) error {
	switch {
	case c.markConnected:
		return &api.FieldError{Field: field, Message: fmt.Sprintf(msgMarked, c.parentName, c.name)}
	case c.cable != 0 && c.cable != cable:
		return &api.FieldError{Field: field, Message: fmt.Sprintf(msgDuplicate, c.ct, c.id, c.cable)}
	case c.ct == "dcim.interface" && slices.Contains(virtualInterfaceTypes, c.ifaceType):
		return &api.FieldError{Field: field, Message: fmt.Sprintf(msgNonConnectable, virtualTypeLabels[c.ifaceType])}
	case c.ct == "dcim.interface" && slices.Contains(wirelessInterfaceTypes, c.ifaceType):
		return &api.FieldError{Field: field, Message: fmt.Sprintf(msgNonConnectable, wirelessTypeLabels[c.ifaceType])}
	case c.providerNet:
		return &api.FieldError{Field: field, Message: msgProviderNet}
	}
	return nil
}

// wirelessTypeLabels are the labels of the wireless interface types.
var wirelessTypeLabels = map[string]string{"ieee802.11a": "IEEE 802.11a", "ieee802.11g": "IEEE 802.11b/g",
	"ieee802.11n": "IEEE 802.11n (Wi-Fi 4)", "ieee802.11ac": "IEEE 802.11ac (Wi-Fi 5)", "ieee802.11ad": "IEEE 802.11ad (WiGig)",
	"ieee802.11ax": "IEEE 802.11ax (Wi-Fi 6)", "ieee802.11ay": "IEEE 802.11ay (WiGig)", "ieee802.11be": "IEEE 802.11be (Wi-Fi 7)",
	"ieee802.15.1": "IEEE 802.15.1 (Bluetooth)", "ieee802.15.4": "IEEE 802.15.4 (LR-WPAN)", "other-wireless": "Other (Wireless)",
	"gsm": "GSM", "cdma": "CDMA", "lte": "LTE", "4g": "4G", "5g": "5G"}

// syncEnds brings cable id's termination rows and the objects' cable
// columns from the ends was to now: rows of objects that left go (a
// delete record each, the object cleared with an update record), then
// the new ones come (a create record each, the object set with an update
// record).
func syncEnds(ctx context.Context, m rawsql.Mutation, id int, label string, was, now cableEnds, objs map[ref]*cabled) error {
	for e := range was {
		var gone []ref
		for _, r := range was[e] {
			if !slices.Contains(now[e], r) {
				gone = append(gone, r)
			}
		}
		if err := removeTerminations(ctx, m, id, endNames[e], gone); err != nil {
			return err
		}
	}
	for e := range now {
		var added []ref
		for _, r := range now[e] {
			if !slices.Contains(was[e], r) {
				added = append(added, r)
			}
		}
		if err := addTerminations(ctx, m, id, endNames[e], label, added, objs); err != nil {
			return err
		}
	}
	return nil
}

// byType groups refs by content type, in first-seen order.
func byType(refs []ref) ([]string, map[string][]int) {
	var types []string
	out := map[string][]int{}
	for _, r := range refs {
		if out[r.ct] == nil {
			types = append(types, r.ct)
		}
		out[r.ct] = append(out[r.ct], r.id)
	}
	return types, out
}

func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

func removeTerminations(ctx context.Context, m rawsql.Mutation, cable int, end string, gone []ref) error {
	types, ids := byType(gone)
	for _, ct := range types {
		a := &rawsql.Args{PG: rawsql.Postgres(m)}
		rows, err := rawsql.Rows(ctx, m, `SELECT id FROM dcim_cabletermination WHERE cable_id = `+a.P(cable)+
			` AND cable_end = `+a.P(end)+` AND termination_type = `+a.P(ct)+` AND termination_id IN (`+rawsql.In(a, ids[ct])+`)`, a)
		if err != nil {
			return err
		}
		var tids []int
		for _, r := range rows {
			n, _ := rawsql.IntOf(r["id"])
			tids = append(tids, n)
		}
		if err := api.Removing(ctx, m, "dcim.cabletermination", tids); err != nil {
			return err
		}
		if len(tids) > 0 {
			a = &rawsql.Args{PG: rawsql.Postgres(m)}
			if err := rawsql.Exec(ctx, m, `DELETE FROM dcim_cabletermination WHERE id IN (`+rawsql.In(a, tids)+`)`, a); err != nil {
				return err
			}
		}
		if err := clearCabled(ctx, m, ct, ids[ct]); err != nil {
			return err
		}
	}
	return nil
}

// clearCabled clears the cable columns of objects ids of type ct, each
// with an update record (termination.save()).
func clearCabled(ctx context.Context, m rawsql.Mutation, ct string, ids []int) error {
	table := cabledTable[ct]
	if table == "" || len(ids) == 0 {
		return nil
	}
	if err := api.Saving(ctx, m, ct, ids); err != nil {
		return err
	}
	return rawsql.Chunks(ids, func(ids []int) error {
		a := &rawsql.Args{PG: rawsql.Postgres(m)}
		return rawsql.Exec(ctx, m, `UPDATE `+table+` SET cable_id = NULL, cable_end = NULL, cable_connector = NULL, cable_positions = NULL, `+
			`"_occupied" = mark_connected, last_updated = `+a.P(now())+` WHERE id IN (`+rawsql.In(a, ids)+`)`, a)
	})
}

// terminationColumns are the columns addTerminations writes.
var terminationColumns = []string{"cable_id", "cable_end", "termination_type", "termination_id", "_display",
	"_device_id", "_rack_id", "_location_id", "_site_id", "created", "last_updated"}

func addTerminations(ctx context.Context, m rawsql.Mutation, cable int, end, label string, added []ref, objs map[ref]*cabled) error {
	types, ids := byType(added)
	t := now()
	// An import keeps the source's timestamps: the terminations are as
	// old as their cable, and the terminated objects' last_updated (which
	// in the source already counts their cabling) stays as imported.
	touch := true
	if api.Importing(ctx) {
		if c, ok := m.Field("created"); ok {
			if ct, ok := c.(time.Time); ok {
				t = ct
			}
		}
		touch = false
	}
	for _, ct := range types {
		err := rawsql.Chunks(ids[ct], func(chunk []int) error {
			rows := make([][]any, len(chunk))
			for i, oid := range chunk {
				c := objs[ref{ct, oid}]
				rows[i] = []any{cable, end, ct, oid, "Cable " + label + " to " + c.name, deref(c.device), deref(c.rack),
					deref(c.location), deref(c.site), t, t}
			}
			tids, err := rawsql.InsertRowsReturning(ctx, m, m.DriverDialect(), "dcim_cabletermination", terminationColumns, rows)
			if err != nil {
				return err
			}
			if err := api.Created(ctx, m, "dcim.cabletermination", tids); err != nil {
				return err
			}
			if err := api.Saving(ctx, m, ct, chunk); err != nil {
				return err
			}
			a := &rawsql.Args{PG: rawsql.Postgres(m)}
			q := `UPDATE ` + cabledTable[ct] + ` SET cable_id = ` + a.P(cable) + `, cable_end = ` + a.P(end) +
				`, "_occupied" = ` + a.P(true)
			if touch {
				q += `, last_updated = ` + a.P(t)
			}
			return rawsql.Exec(ctx, m, q+` WHERE id IN (`+rawsql.In(a, chunk)+`)`, a)
		})
		if err != nil {
			return fmt.Errorf("cable terminations: %w", err)
		}
	}
	return nil
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// relabelTerminations renews the display cached on a relabelled cable's
// terminations ("Cable <label> to <object>").
func relabelTerminations(ctx context.Context, m rawsql.Mutation, cable int, label string) error {
	a := &rawsql.Args{PG: rawsql.Postgres(m)}
	rows, err := rawsql.Rows(ctx, m, `SELECT id, termination_type, termination_id FROM dcim_cabletermination WHERE cable_id = `+a.P(cable), a)
	if err != nil {
		return err
	}
	var refs []ref
	tid := map[ref]int{}
	for _, r := range rows {
		oid, _ := rawsql.IntOf(r["termination_id"])
		id, _ := rawsql.IntOf(r["id"])
		rf := ref{rawsql.StringOf(r["termination_type"]), oid}
		refs = append(refs, rf)
		tid[rf] = id
	}
	objs, err := loadCabled(ctx, m, refs)
	if err != nil {
		return err
	}
	for _, rf := range refs {
		a := &rawsql.Args{PG: rawsql.Postgres(m)}
		if err := rawsql.Exec(ctx, m, `UPDATE dcim_cabletermination SET "_display" = `+a.P("Cable "+label+" to "+objs[rf].name)+
			` WHERE id = `+a.P(tid[rf]), a); err != nil {
			return err
		}
	}
	return nil
}

// terminationDeleteHook: a termination row deleted by the generic delete
// while its cable stays (its object goes, or the object's device or
// module) takes the object off the cable's end (an update record of the
// cable), and clears the object's cable columns when the object stays;
// when the cable goes, the cable's delete hook clears its ends.
func terminationDeleteHook(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		if !m.Op().Is(ent.OpDelete | ent.OpDeleteOne) {
			return next.Mutate(ctx, m)
		}
		sm, err := rawsql.As("cable termination hook", m)
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
		rows, err := rawsql.LoadRows(ctx, sm, "dcim_cabletermination", []string{"cable_id", "cable_end", "termination_type", "termination_id"}, ids)
		if err != nil {
			return nil, err
		}
		v, err := next.Mutate(ctx, m)
		if err != nil {
			return v, err
		}
		for _, id := range ids {
			row := rows[id]
			if row == nil {
				continue
			}
			cable, _ := rawsql.IntOf(row["cable_id"])
			ct := rawsql.StringOf(row["termination_type"])
			oid, _ := rawsql.IntOf(row["termination_id"])
			if api.Deleting(ctx, "dcim.cable", cable) {
				continue // the cable's delete hook clears its ends
			}
			if !api.Deleting(ctx, ct, oid) {
				if err := clearCabled(ctx, sm, ct, []int{oid}); err != nil {
					return nil, err
				}
			}
			if err := dropFromEnd(ctx, sm, cable, rawsql.StringOf(row["cable_end"]), ref{ct, oid}); err != nil {
				return nil, err
			}
		}
		return v, nil
	})
}

// dropFromEnd removes an object from the end of a cable that stays.
func dropFromEnd(ctx context.Context, m rawsql.Mutation, cable int, end string, r ref) error {
	col := "a_terminations"
	if end == "B" {
		col = "b_terminations"
	}
	rows, err := rawsql.LoadRows(ctx, m, "dcim_cable", []string{col}, []int{cable})
	if err != nil || rows[cable] == nil {
		return err
	}
	refs := parseRefs(rows[cable][col])
	kept := make([]map[string]any, 0, len(refs))
	for _, x := range refs {
		if x != r {
			kept = append(kept, map[string]any{"object_type": x.ct, "object_id": x.id})
		}
	}
	if len(kept) == len(refs) {
		return nil
	}
	b, err := json.Marshal(kept)
	if err != nil {
		return err
	}
	if err := api.Saving(ctx, m, "dcim.cable", []int{cable}); err != nil {
		return err
	}
	a := &rawsql.Args{PG: rawsql.Postgres(m)}
	return rawsql.Exec(ctx, m, `UPDATE dcim_cable SET `+col+` = `+a.P(string(b))+`, last_updated = `+a.P(now())+
		` WHERE id = `+a.P(cable), a)
}
