package dcim

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"entgo.io/ent"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/inventory/inventory/ent/logic/jsonlimit"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// Device types, module types and module type profiles: NetBox's clean()
// rules of DeviceType, ModuleType, ModuleTypeProfile and WeightMixin.

// ValidateUHeight checks a device type's u_height as NetBox's
// DecimalField(max_digits=4, decimal_places=1) with MinValueValidator(0)
// and DeviceType.clean() do: at most one decimal place, in 0.5 steps.
func ValidateUHeight(v float64) error {
	if err := checkDecimal("u_height", v, 4, 1); err != nil {
		return err
	}
	if math.Mod(v*2, 1) != 0 {
		return &api.FieldError{Field: "u_height", Message: "U height must be in increments of 0.5 rack units."}
	}
	return nil
}

// ValidateWeight checks a weight as NetBox's WeightMixin declares it:
// DecimalField(max_digits=8, decimal_places=2), not negative.
func ValidateWeight(v float64) error { return checkDecimal("weight", v, 8, 2) }

// checkDecimal answers DRF's DecimalField messages for a value that has
// more digits than the column holds, and MinValueValidator(0)'s.
func checkDecimal(field string, v float64, digits, places int) error {
	if v < 0 {
		return &api.FieldError{Field: field, Message: "Ensure this value is greater than or equal to 0."}
	}
	s := fmt.Sprintf("%.*f", places+6, v)
	s = strings.TrimRight(s, "0")
	intPart, frac, _ := strings.Cut(s, ".")
	if len(frac) > places {
		return &api.FieldError{Field: field, Message: fmt.Sprintf("Ensure that there are no more than %d decimal places.", places)}
	}
	if intPart == "0" {
		intPart = ""
	}
	if len(intPart) > digits-places {
		return &api.FieldError{Field: field, Message: fmt.Sprintf("Ensure that there are no more than %d digits before the decimal point.", digits-places)}
	}
	return nil
}

// DeviceTypeHooks are the hooks of dcim.DeviceType, DeviceType.clean() in
// its order: a weight needs its unit (WeightMixin), a type whose height
// grows must leave room for its racked devices and one racked anywhere
// cannot become 0U, a type that stops being a parent must have no device
// bay templates left, and a child device type must be 0U.
func DeviceTypeHooks() []ent.Hook {
	return []ent.Hook{rawsql.RowHook("dcim_devicetype", []string{"u_height", "is_full_depth", "subdevice_role", "weight", "weight_unit"},
		func(ctx context.Context, m rawsql.Mutation, id int, row, old map[string]any) error {
			if err := checkWeightUnit(row); err != nil {
				return err
			}
			if id != 0 {
				if err := checkRackedDevices(ctx, m, id, row, old); err != nil {
					return err
				}
			}
			if role, _ := row["subdevice_role"].(string); id != 0 && role != "parent" && rawsql.Touched(m, "subdevice_role") {
				a := &rawsql.Args{PG: rawsql.Postgres(m)}
				n, err := rawsql.Int(ctx, m, `SELECT COUNT(*) FROM dcim_devicebaytemplate WHERE device_type_id = `+a.P(id), a)
				if err != nil {
					return err
				}
				if n > 0 {
					return &api.FieldError{Field: "subdevice_role", Message: "Must delete all device bay templates associated with this device before declassifying it as a parent device."}
				}
			}
			if role, _ := row["subdevice_role"].(string); role == "child" && asFloat(row["u_height"]) != 0 {
				return &api.FieldError{Field: "u_height", Message: "Child device types must be 0U."}
			}
			return nil
		}), DeviceTypeDisplayHook()}
}

// checkRackedDevices is what DeviceType.clean() asks of the devices of a
// stored type that are mounted in a rack when the type's height changes:
// a taller type must still fit at each device's position beside the
// rack's other devices (on the device's face, or both when full depth),
// and a type may not become 0U while devices of it hold a position.
// Beyond NetBox, a type that becomes full depth is checked the same way
// (NetBox lets it overlap the devices on the other face).
func checkRackedDevices(ctx context.Context, m rawsql.Mutation, id int, row, old map[string]any) error {
	newH, oldH := asFloat(row["u_height"]), asFloat(old["u_height"])
	full, wasFull := truthy(rawsql.Normal(rawsql.Deref(row["is_full_depth"]))), truthy(rawsql.Normal(old["is_full_depth"]))
	pg := rawsql.Postgres(m)
	switch {
	case newH > oldH || (full && !wasFull && newH > 0):
		field := "u_height"
		if newH <= oldH {
			field = "is_full_depth"
		}
		return checkTypeFits(ctx, m, pg, id, newH, full, field)
	case oldH > 0 && newH == 0:
		a := &rawsql.Args{PG: pg}
		n, err := rawsql.Int(ctx, m, `SELECT COUNT(*) FROM "dcim_device" WHERE device_type_id = `+a.P(id)+` AND position IS NOT NULL`, a)
		if err != nil || n == 0 {
			return err
		}
		// NetBox's text links "N instances" to its web UI's device list,
		// which this service does not serve: the same words without the
		// link.
		return fail("u_height", "Unable to set 0U height: Found %d instances already mounted within racks.", n)
	}
	return nil
}

// checkTypeFits checks that every racked device of device type id fits at
// its position once the type is height units tall (and full depth when
// full), as DeviceType.clean() asks Rack.get_available_units for each,
// the other devices keeping their stored heights. Three statements
// whatever the number of devices: the devices, their racks, and what the
// racks hold.
func checkTypeFits(ctx context.Context, m rawsql.Mutation, pg bool, id int, height float64, full bool, field string) error {
	// racked is the condition on dcim_device d that d is a racked device
	// of the type.
	racked := func(a *rawsql.Args) string {
		return `d.device_type_id = ` + a.P(id) + ` AND d.position IS NOT NULL AND d.rack_id IS NOT NULL`
	}
	a := &rawsql.Args{PG: pg}
	devices, err := textRows(ctx, m, `SELECT d.id, d.rack_id, d.position, d.face, `+deviceNameSQL+` AS display `+
		`FROM "dcim_device" d WHERE `+racked(a)+` ORDER BY d.id`, a)
	if err != nil || len(devices) == 0 {
		return err
	}
	a = &rawsql.Args{PG: pg}
	racks, err := textRows(ctx, m, `SELECT r.id, r.u_height, r.starting_unit, `+rackDisplaySQL+` AS display FROM "dcim_rack" r `+
		`WHERE r.id IN (SELECT d.rack_id FROM "dcim_device" d WHERE `+racked(a)+`)`, a)
	if err != nil {
		return err
	}
	a = &rawsql.Args{PG: pg}
	held, err := textRows(ctx, m, `SELECT o.id, o.rack_id, o.position, o.face, t.u_height, t.is_full_depth `+
		`FROM "dcim_device" o JOIN "dcim_devicetype" t ON t.id = o.device_type_id WHERE o.position >= 1 AND `+
		`o.rack_id IN (SELECT d.rack_id FROM "dcim_device" d WHERE `+racked(a)+`)`, a)
	if err != nil {
		return err
	}
	geometry := map[int]RackGeometry{}
	rackName := map[int]string{}
	for _, r := range racks {
		rid, _ := rawsql.IntOf(r["id"])
		h, _ := rawsql.IntOf(r["u_height"])
		st, _ := rawsql.IntOf(r["starting_unit"])
		geometry[rid] = RackGeometry{Height: h, Start: st}
		rackName[rid] = str(r["display"])
	}
	occupants := map[int][]Occupant{}
	for _, o := range held {
		oid, _ := rawsql.IntOf(o["id"])
		rid, _ := rawsql.IntOf(o["rack_id"])
		occupants[rid] = append(occupants[rid], Occupant{ID: oid, Position: asFloat(o["position"]), Height: asFloat(o["u_height"]),
			Face: str(o["face"]), FullDepth: truthy(o["is_full_depth"])})
	}
	for _, d := range devices {
		did, _ := rawsql.IntOf(d["id"])
		rid, _ := rawsql.IntOf(d["rack_id"])
		var others []Occupant
		for _, o := range occupants[rid] {
			if o.ID != did {
				others = append(others, o)
			}
		}
		if !Fits(geometry[rid], Occupant{Position: asFloat(d["position"]), Height: height, Face: str(d["face"]), FullDepth: full}, others) {
			if field == "is_full_depth" {
				return fail(field, "Device %s in rack %s does not have sufficient space to become full depth: "+
					"a device on the other face shares its units.", str(d["display"]), rackName[rid])
			}
			return fail(field, "Device %s in rack %s does not have sufficient space to accommodate a height of %sU",
				str(d["display"]), rackName[rid], decimal(height))
		}
	}
	return nil
}

// ModuleTypeHooks are the hooks of dcim.ModuleType: its attributes must
// satisfy the JSON schema of its profile (and are cleared without one,
// as NetBox's ModuleType.clean() does), and a weight needs its unit; a
// renamed model renames its modules' display.
func ModuleTypeHooks() []ent.Hook {
	return []ent.Hook{rawsql.AfterUpdate(moduleDisplayFollows("module_type_id"), "model"), rawsql.RowHook("dcim_moduletype", []string{"profile_id", "attribute_data", "weight", "weight_unit"},
		func(ctx context.Context, m rawsql.Mutation, id int, row, old map[string]any) error {
			if err := checkWeightUnit(row); err != nil {
				return err
			}
			profile, ok := rawsql.IntOf(row["profile_id"])
			if !ok {
				if row["attribute_data"] != nil {
					if id == 0 || rawsql.Touched(m, "attribute_data", "profile_id") {
						m.ClearField("attribute_data")
					}
				}
				return nil
			}
			if id != 0 && !rawsql.Touched(m, "attribute_data", "profile_id") {
				return nil
			}
			a := &rawsql.Args{PG: rawsql.Postgres(m)}
			rows, err := m.QueryContext(ctx, `SELECT schema FROM dcim_moduletypeprofile WHERE id = `+a.P(profile), a.List...)
			if err != nil {
				return err
			}
			var raw any
			if rows.Next() {
				err = rows.Scan(&raw)
			}
			rows.Close()
			if err != nil {
				return err
			}
			doc := jsonBytes(raw)
			if doc == nil || bytes.Equal(doc, []byte("null")) {
				return nil
			}
			attrs := row["attribute_data"]
			if s, ok := attrs.(string); ok { // as stored, JSON text
				attrs = nil
				if err := json.Unmarshal([]byte(s), &attrs); err != nil {
					return err
				}
			}
			return ValidateAttributes(doc, attrs)
		})}
}

// ValidateAttributes checks a module type's attributes against its
// profile's JSON schema (schemaDoc, JSON text); the error names
// attributes with NetBox's "Invalid schema: ..." text.
func ValidateAttributes(schemaDoc []byte, attributes any) error {
	sch, err := compileSchema(schemaDoc)
	if err != nil {
		return &api.FieldError{Field: "attributes", Message: "Invalid schema: " + err.Error()}
	}
	inst, err := toSchemaValue(attributes)
	if errors.Is(err, errInstanceTooDeep) {
		return &api.FieldError{Field: "attributes", Message: err.Error()}
	}
	if err != nil {
		return err
	}
	if _, ok := schemaSteps(sch, inst); !ok {
		return &api.FieldError{Field: "attributes", Message: "Invalid schema: " + errTooComplex.Error()}
	}
	if err := sch.Validate(inst); err != nil {
		return &api.FieldError{Field: "attributes", Message: "Invalid schema: " + schemaMessage(err)}
	}
	return nil
}

// ValidateJSONSchema checks a module type profile's schema as NetBox's
// validate_schema does: an object that is itself a valid JSON Schema
// (checked against its draft's meta-schema; Draft 7 when $schema is
// absent, as the profiles NetBox ships are).
func ValidateJSONSchema(s map[string]any) error {
	if s == nil {
		return nil
	}
	doc, err := json.Marshal(s)
	if err != nil {
		return &api.FieldError{Field: "schema", Message: "Invalid JSON schema definition"}
	}
	sch, err := compileSchema(doc)
	if err != nil {
		return &api.FieldError{Field: "schema", Message: "Invalid JSON schema definition: " + schemaMessage(err)}
	}
	// Counted for a scalar: the subschemas applied in place to any value.
	if _, ok := schemaSteps(sch, nil); !ok {
		return &api.FieldError{Field: "schema", Message: "Invalid JSON schema definition: " + errTooComplex.Error()}
	}
	return nil
}

// compileSchema compiles a JSON Schema document. Remote references are
// not fetched (the compiler has no network loader): a schema must be
// self-contained.
//
// Compiling recurses with the document's nesting (a schema a few thousand
// levels deep took minutes to compile), and validating with the
// instance's: both are bounded by jsonlimit.MaxDepth, which the API
// enforces on what it stores, and checked again here for what was stored
// before. Reference cycles that consume no input ({"$ref": "#"}) are the
// library's compile error.
func compileSchema(doc []byte) (*jsonschema.Schema, error) {
	if _, over := jsonlimit.Scan(doc, jsonlimit.MaxDepth); over {
		return nil, errors.New(jsonlimit.Message())
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, err
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, fmt.Errorf("a schema must be a JSON object")
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	c.AssertFormat()
	if err := c.AddResource(schemaURL, v); err != nil {
		return nil, err
	}
	return c.Compile(schemaURL)
}

// toSchemaValue converts a decoded JSON value into the library's own
// number representation.
func toSchemaValue(v any) (any, error) {
	if jsonlimit.Exceeds(v, jsonlimit.MaxDepth) {
		return nil, errInstanceTooDeep
	}
	doc, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(doc))
}

// schemaMessage is the innermost cause of a validation or compilation
// error on one line, as jsonschema's Python error string leads with it.
func schemaMessage(err error) string {
	if ve, ok := err.(*jsonschema.ValidationError); ok {
		for len(ve.Causes) > 0 {
			ve = ve.Causes[0]
		}
		msg := ve.Error()
		if loc := "/" + strings.Join(ve.InstanceLocation, "/"); loc != "/" {
			msg = strings.TrimSpace(strings.TrimPrefix(msg, "at '"+loc+"':"))
			return msg + " (at " + loc + ")"
		}
		return strings.TrimSpace(strings.TrimPrefix(msg, "at '':"))
	}
	if se, ok := err.(*jsonschema.SchemaValidationError); ok {
		return schemaMessage(se.Err)
	}
	return strings.ReplaceAll(strings.ReplaceAll(err.Error(), "\n", " "), schemaURL, "")
}

// errInstanceTooDeep is a value to validate nested beyond
// jsonlimit.MaxDepth (stored before the API enforced it).
var errInstanceTooDeep = errors.New(jsonlimit.Message())

// schemaURL names the schema being compiled; messages drop it.
const schemaURL = "inventory:///profile.json"

// checkWeightUnit is WeightMixin.clean(): a weight needs its unit. NetBox
// raises it without a field; we name weight_unit, the field to fix.
func checkWeightUnit(row map[string]any) error {
	if w := asFloat(row["weight"]); w != 0 && row["weight_unit"] == nil {
		return &api.FieldError{Field: "weight_unit", Message: "Must specify a unit when setting a weight"}
	}
	return nil
}

func jsonBytes(v any) []byte {
	switch x := v.(type) {
	case nil:
		return nil
	case []byte:
		return x
	case string:
		return []byte(x)
	}
	b, _ := json.Marshal(v)
	return b
}

// ModuleTypeProfileHooks are the hooks of dcim.ModuleTypeProfile: its
// schema must be a valid JSON Schema (ent's JSON fields take no
// validators, so a hook checks what a create or update writes), and a new
// schema must accept the attributes of the module types of the profile.
func ModuleTypeProfileHooks() []ent.Hook {
	return []ent.Hook{func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			v, ok := m.Field("schema")
			if !ok || !m.Op().Is(ent.OpCreate|ent.OpUpdate|ent.OpUpdateOne) {
				return next.Mutate(ctx, m)
			}
			s, _ := v.(map[string]any)
			if err := ValidateJSONSchema(s); err != nil {
				return nil, err
			}
			if s != nil && !m.Op().Is(ent.OpCreate) {
				if err := checkProfileTypes(ctx, m, s); err != nil {
					return nil, err
				}
			}
			return next.Mutate(ctx, m)
		})
	}}
}

// checkProfileTypes refuses a schema that the attributes of a module type
// of the updated profiles do not satisfy. NetBox makes no such check: it
// lets the schema change, and the module type is refused at its next
// save (ModuleType.clean() validates its attributes against the profile's
// schema then), whatever that save changes.
func checkProfileTypes(ctx context.Context, m ent.Mutation, schema map[string]any) error {
	sm, err := rawsql.As("module type profile hook", m)
	if err != nil {
		return err
	}
	ids, err := rawsql.TargetIDs(ctx, sm)
	if err != nil || len(ids) == 0 {
		return err
	}
	doc, err := json.Marshal(schema)
	if err != nil {
		return err
	}
	return rawsql.Chunks(ids, func(ids []int) error {
		a := &rawsql.Args{PG: rawsql.Postgres(sm)}
		types, err := textRows(ctx, sm, `SELECT model, attribute_data FROM "dcim_moduletype" WHERE profile_id IN (`+
			rawsql.In(a, ids)+`) ORDER BY id`, a)
		if err != nil {
			return err
		}
		for _, t := range types {
			var attrs any
			if s, ok := t["attribute_data"].(string); ok {
				if err := json.Unmarshal([]byte(s), &attrs); err != nil {
					return err
				}
			}
			msg, err := SchemaViolation(doc, attrs)
			if err != nil {
				return err
			}
			if msg != "" {
				return &api.FieldError{Field: "schema", Message: fmt.Sprintf("The attributes of module type %s do not conform to this schema: %s",
					str(t["model"]), msg)}
			}
		}
		return nil
	})
}

// SchemaViolation checks v against the JSON schema schemaDoc (JSON text)
// and returns the one-line message of the first violation, "" when v
// conforms: what a config context's profile check reports (ent/logic/extras).
func SchemaViolation(schemaDoc []byte, v any) (string, error) {
	sch, err := compileSchema(schemaDoc)
	if err != nil {
		return "Invalid schema: " + schemaMessage(err), nil
	}
	inst, err := toSchemaValue(v)
	if errors.Is(err, errInstanceTooDeep) {
		return err.Error(), nil
	}
	if err != nil {
		return "", err
	}
	if _, ok := schemaSteps(sch, inst); !ok {
		return errTooComplex.Error(), nil
	}
	if err := sch.Validate(inst); err != nil {
		return schemaMessage(err), nil
	}
	return "", nil
}
