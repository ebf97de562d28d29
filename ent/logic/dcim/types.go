package dcim

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"entgo.io/ent"
	"github.com/santhosh-tekuri/jsonschema/v6"

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

// DeviceTypeHooks are the hooks of dcim.DeviceType: a child device type
// must be 0U, a type that stops being a parent must have no device bay
// templates left, and a weight needs its unit.
func DeviceTypeHooks() []ent.Hook {
	return []ent.Hook{rawsql.RowHook("dcim_devicetype", []string{"u_height", "subdevice_role", "weight", "weight_unit"},
		func(ctx context.Context, m rawsql.Mutation, id int, row, old map[string]any) error {
			if role, _ := row["subdevice_role"].(string); role == "child" && asFloat(row["u_height"]) != 0 {
				return &api.FieldError{Field: "u_height", Message: "Child device types must be 0U."}
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
			return checkWeightUnit(row)
		}), DeviceTypeDisplayHook()}
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
	if err != nil {
		return err
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
	if _, err := compileSchema(doc); err != nil {
		return &api.FieldError{Field: "schema", Message: "Invalid JSON schema definition: " + schemaMessage(err)}
	}
	return nil
}

// compileSchema compiles a JSON Schema document. Remote references are
// not fetched (the compiler has no network loader): a schema must be
// self-contained.
func compileSchema(doc []byte) (*jsonschema.Schema, error) {
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
// validators, so a hook checks what a create or update writes).
func ModuleTypeProfileHooks() []ent.Hook {
	return []ent.Hook{func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if v, ok := m.Field("schema"); ok && m.Op().Is(ent.OpCreate|ent.OpUpdate|ent.OpUpdateOne) {
				s, _ := v.(map[string]any)
				if err := ValidateJSONSchema(s); err != nil {
					return nil, err
				}
			}
			return next.Mutate(ctx, m)
		})
	}}
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
	if err != nil {
		return "", err
	}
	if err := sch.Validate(inst); err != nil {
		return schemaMessage(err), nil
	}
	return "", nil
}
