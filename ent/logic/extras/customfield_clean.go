package extras

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"time"

	"github.com/inventory/inventory/ent/logic/choicesets"
	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/logic/pyrepr"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// A custom field's definition is checked when it is saved, as NetBox's
// CustomFieldSerializer (the type is fixed once created), the field
// validators of validation_regex and validation_schema, and
// CustomField.clean() do, in that order: what the field later applies to
// every object's value (its regex, its schema, its default, its choice
// set) is refused at save rather than silently ignored.

// customFieldCleanColumns are what the check reads of a stored field.
var customFieldCleanColumns = []string{"type", "required", "unique", "default", "validation_minimum", "validation_maximum",
	"validation_regex", "validation_schema", "choice_set_id", "related_object_type", "related_object_filter"}

// customFieldTypeLabels are the labels of CustomFieldTypeChoices, for
// "<Type> fields may not define an object type." (the choices themselves
// are declared with the schema, which this package cannot import).
var customFieldTypeLabels = map[string]string{
	"text": "Text", "longtext": "Text (long)", "integer": "Integer", "decimal": "Decimal",
	"boolean": "Boolean (true/false)", "date": "Date", "datetime": "Date & time", "url": "URL", "json": "JSON",
	"select": "Selection", "multiselect": "Multiple selection", "object": "Object", "multiobject": "Multiple objects",
}

// cfRules are what a custom field's value is checked against.
type cfRules struct {
	typ, regex string
	required   bool
	min, max   *float64
	schema     []byte // JSON Schema, nil for none
	choiceSet  string // the set's name, for messages
	base       string // the set's base choices
	extra      map[string]bool
}

func checkCustomField(ctx context.Context, m rawsql.Mutation, id int, row, old map[string]any) error {
	fe := func(field, format string, args ...any) error {
		return &api.FieldError{Field: field, Message: fmt.Sprintf(format, args...)}
	}
	typ := rawsql.StringOf(row["type"])
	// CustomFieldSerializer.validate_type.
	if old != nil && rawsql.StringOf(old["type"]) != typ {
		return fe("type", "Changing the type of custom fields is not supported.")
	}
	// The field validators: validate_regex, validate_schema.
	regex := rawsql.StringOf(row["validation_regex"])
	if regex != "" {
		if _, err := CompileValidationRegex(regex); err != nil {
			return err
		}
	}
	schema, hasSchema, err := jsonOf(row["validation_schema"])
	if err != nil {
		return err
	}
	var schemaDoc []byte
	if s, ok := schema.(string); ok && s == "" {
		hasSchema = false // validate_schema passes an empty value
	}
	if hasSchema {
		obj, ok := schema.(map[string]any)
		if !ok {
			return fe("validation_schema", "Invalid JSON schema definition")
		}
		if err := dcim.ValidateJSONSchema(obj); err != nil {
			var f *api.FieldError
			if errors.As(err, &f) {
				return fe("validation_schema", "%s", f.Message)
			}
			return err
		}
		if len(obj) > 0 {
			schemaDoc, _ = json.Marshal(obj)
		}
	}

	// CustomField.clean(), in its order. The default first: it is
	// checked as an object's value would be.
	def, hasDefault, err := jsonOf(row["default"])
	if err != nil {
		return err
	}
	min, max := floatOf(row["validation_minimum"]), floatOf(row["validation_maximum"])
	choiceSet, hasChoiceSet := rawsql.IntOf(rawsql.Deref(row["choice_set_id"]))
	if hasDefault {
		rules := &cfRules{typ: typ, regex: regex, required: truth(row["required"]), min: min, max: max, schema: schemaDoc}
		if hasChoiceSet {
			if err := rules.loadChoiceSet(ctx, m, choiceSet); err != nil {
				return err
			}
		}
		v := def
		if typ == "text" || typ == "longtext" {
			v = pyrepr.Str(def) // NetBox validates str(default)
		}
		if msg := rules.check(v); msg != "" {
			return fe("default", "Invalid default value \"%s\": %s", pyrepr.Str(def), msg)
		}
	}
	if typ != "integer" && typ != "decimal" {
		if min != nil && *min != 0 {
			return fe("validation_minimum", "A minimum value may be set only for numeric fields")
		}
		if max != nil && *max != 0 {
			return fe("validation_maximum", "A maximum value may be set only for numeric fields")
		}
	}
	if regex != "" && typ != "text" && typ != "longtext" && typ != "url" {
		return fe("validation_regex", "Regular expression validation is supported only for text and URL fields")
	}
	if len(schemaDoc) > 0 && typ != "json" {
		return fe("validation_schema", "JSON schema validation is supported only for JSON fields")
	}
	if truth(row["unique"]) && typ == "boolean" {
		return fe("unique", "Uniqueness cannot be enforced for boolean fields")
	}
	selection := typ == "select" || typ == "multiselect"
	switch {
	case selection && !hasChoiceSet:
		return fe("choice_set", "Selection fields must specify a set of choices.")
	case !selection && hasChoiceSet:
		return fe("choice_set", "Choices may be set only on selection fields.")
	}
	objects := typ == "object" || typ == "multiobject"
	related := rawsql.StringOf(rawsql.Deref(row["related_object_type"]))
	switch {
	case objects && related == "":
		return fe("related_object_type", "Object fields must define an object type.")
	case !objects && related != "":
		return fe("type", "%s fields may not define an object type.", customFieldTypeLabels[typ])
	}
	filter, hasFilter, err := jsonOf(row["related_object_filter"])
	if err != nil {
		return err
	}
	if hasFilter {
		if !objects {
			return fe("related_object_filter", "A related object filter can be defined only for object fields.")
		}
		if _, ok := filter.(map[string]any); !ok {
			return fe("related_object_filter", "Filter must be defined as a dictionary mapping attributes to values.")
		}
	}
	return nil
}

// CompileValidationRegex compiles a custom field's validation_regex as its
// values are matched: from the start of the value only, as Python's
// re.match does (NetBox's CustomField.validate()). The error names
// validation_regex with NetBox's validate_regex message.
//
// NetBox compiles the pattern with Python's re; this service matches with
// Go's RE2, which runs in linear time and so has no lookarounds ((?=...),
// (?!...), (?<=...), (?<!...)), backreferences (\1, (?P=name)), atomic
// groups or possessive quantifiers, and spells some escapes differently
// (\Z is \z). A pattern RE2 cannot compile is refused at save, saying so,
// rather than stored and never applied. Patterns valid in both mean the
// same but for $, which in Python also matches before a final newline;
// RE2 accepts a few that Python refuses (\pL, \z, [[:alpha:]] as a class).
func CompileValidationRegex(pattern string) (*regexp.Regexp, error) {
	if _, err := regexp.Compile(pattern); err != nil {
		msg := fmt.Sprintf("%s is not a valid regular expression.", pattern)
		var se *syntax.Error
		if errors.As(err, &se) {
			// A lookbehind reads to RE2 as a named group whose name is
			// invalid.
			lookbehind := se.Code == syntax.ErrInvalidNamedCapture && (strings.HasPrefix(se.Expr, "(?<=") || strings.HasPrefix(se.Expr, "(?<!"))
			switch {
			case lookbehind, se.Code == syntax.ErrInvalidPerlOp, se.Code == syntax.ErrInvalidEscape, se.Code == syntax.ErrInvalidRepeatOp,
				se.Code == syntax.ErrInvalidRepeatSize, se.Code == syntax.ErrLarge, se.Code == syntax.ErrNestingDepth:
				// Python may accept these: say why this service does not.
				reason := fmt.Sprintf("%s: `%s`", se.Code, se.Expr)
				if lookbehind {
					reason = "lookbehind is not supported: `" + se.Expr[:4] + "`"
				}
				msg = fmt.Sprintf("%s is not a valid regular expression for this service, which uses RE2 syntax "+
					"(no lookarounds, backreferences, atomic groups or possessive quantifiers): %s.", pattern, reason)
			}
		}
		return nil, &api.FieldError{Field: "validation_regex", Message: msg}
	}
	return regexp.Compile(`\A(?:` + pattern + `)`)
}

// loadChoiceSet reads the choice set a selection field's values come from.
func (r *cfRules) loadChoiceSet(ctx context.Context, m rawsql.Mutation, id int) error {
	a := &rawsql.Args{PG: rawsql.Postgres(m)}
	rows, err := rawsql.Rows(ctx, m, `SELECT name, base_choices, extra_choices FROM extras_customfieldchoiceset WHERE id = `+a.P(id), a)
	if err != nil || len(rows) == 0 {
		return err // a missing set was refused by the resource layer
	}
	r.choiceSet = rawsql.StringOf(rows[0]["name"])
	r.base = rawsql.StringOf(rows[0]["base_choices"])
	pairs, err := pairsOf(rawsql.StringOf(rows[0]["extra_choices"]))
	if err != nil {
		return err
	}
	r.extra = map[string]bool{}
	for _, p := range pairs {
		r.extra[p[0]] = true
	}
	return nil
}

func (r *cfRules) hasChoice(v any) bool {
	s, ok := v.(string)
	return ok && (r.extra[s] || choicesets.Has(r.base, s))
}

// check is NetBox's CustomField.validate() of v (decoded with json.Number
// for numbers, so that 5 and 5.0 differ as Python's int and float do):
// the reason v is refused, or "".
func (r *cfRules) check(v any) string {
	if v == nil || v == "" {
		if r.required {
			return "Required field cannot be empty."
		}
		return ""
	}
	switch r.typ {
	case "text", "longtext", "url":
		s, ok := v.(string)
		if !ok {
			return "Value must be a string."
		}
		if r.regex != "" {
			if re, err := CompileValidationRegex(r.regex); err == nil && !re.MatchString(s) {
				return fmt.Sprintf("Value must match regex '%s'", r.regex)
			}
		}
	case "integer":
		n, ok := v.(json.Number)
		if !ok || strings.ContainsAny(string(n), ".eE") {
			return "Value must be an integer."
		}
		f, _ := n.Float64()
		return r.bounds(f)
	case "decimal":
		var f float64
		var err error
		switch x := v.(type) {
		case json.Number:
			f, err = x.Float64()
		case string:
			f, err = strconv.ParseFloat(strings.TrimSpace(x), 64)
		default:
			err = errors.New("not a number")
		}
		if err != nil || math.IsNaN(f) {
			return "Value must be a decimal."
		}
		return r.bounds(f)
	case "boolean":
		switch x := v.(type) {
		case bool:
		case json.Number:
			if f, _ := x.Float64(); f != 0 && f != 1 {
				return "Value must be true or false."
			}
		default:
			return "Value must be true or false."
		}
	case "date":
		s, _ := v.(string)
		if _, err := time.Parse("2006-01-02", s); err != nil {
			return "Date values must be in ISO 8601 format (YYYY-MM-DD)."
		}
	case "datetime":
		s, _ := v.(string)
		if !isoDateTime(s) {
			return "Date and time values must be in ISO 8601 format (YYYY-MM-DD HH:MM:SS)."
		}
	case "select":
		if !r.hasChoice(v) {
			return fmt.Sprintf("Invalid choice (%s) for choice set %s.", pyrepr.Str(v), r.choiceSet)
		}
	case "multiselect":
		list, ok := v.([]any)
		for _, e := range list {
			ok = ok && r.hasChoice(e)
		}
		if !ok {
			return fmt.Sprintf("Invalid choice(s) (%s) for choice set %s.", pyrepr.Str(v), r.choiceSet)
		}
	case "object":
		if n, ok := v.(json.Number); !ok || strings.ContainsAny(string(n), ".eE") {
			return fmt.Sprintf("Value must be an object ID, not %s", pyrepr.Type(v))
		}
	case "multiobject":
		list, ok := v.([]any)
		if !ok {
			return fmt.Sprintf("Value must be a list of object IDs, not %s", pyrepr.Type(v))
		}
		for _, e := range list {
			if n, ok := e.(json.Number); !ok || strings.ContainsAny(string(n), ".eE") {
				return fmt.Sprintf("Found invalid object ID: %s", pyrepr.Str(e))
			}
		}
	case "json":
		if len(r.schema) > 0 {
			msg, err := dcim.SchemaViolation(r.schema, plainJSON(v))
			if err != nil {
				return err.Error()
			}
			if msg != "" {
				return "Value does not conform to the assigned schema: " + msg
			}
		}
	}
	return ""
}

// bounds checks a number against the field's minimum and maximum, printed
// as NetBox's DecimalField(decimal_places=4) holds them.
func (r *cfRules) bounds(f float64) string {
	if r.min != nil && f < *r.min {
		return fmt.Sprintf("Value must be at least %.4f", *r.min)
	}
	if r.max != nil && f > *r.max {
		return fmt.Sprintf("Value must not exceed %.4f", *r.max)
	}
	return ""
}

// isoDateTime accepts the date-times of Python's datetime.fromisoformat
// that NetBox's datetime_from_timestamp takes: a date, "T" or a space, a
// time to the second or beyond, an optional offset or Z.
func isoDateTime(s string) bool {
	s = strings.Replace(s, " ", "T", 1)
	for _, layout := range []string{"2006-01-02T15:04:05.999999999Z07:00", "2006-01-02T15:04:05.999999999", "2006-01-02T15:04Z07:00", "2006-01-02T15:04", "2006-01-02"} {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}

// jsonOf decodes a JSON column as a mutation holds it (json.RawMessage)
// or a row does (text), numbers as json.Number; present is false for SQL
// NULL and JSON null.
func jsonOf(v any) (out any, present bool, err error) {
	var raw []byte
	switch x := v.(type) {
	case nil:
		return nil, false, nil
	case json.RawMessage:
		raw = x
	case []byte:
		raw = x
	case string:
		raw = []byte(x)
	default:
		raw, err = json.Marshal(x)
		if err != nil {
			return nil, false, err
		}
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, false, nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&out); err != nil {
		return nil, false, fmt.Errorf("custom field: stored JSON: %w", err)
	}
	return out, true, nil
}

// plainJSON turns json.Number back into float64 for the schema check.
func plainJSON(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, _ := x.Float64()
		return f
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plainJSON(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = plainJSON(e)
		}
		return out
	}
	return v
}

func floatOf(v any) *float64 {
	switch x := rawsql.Deref(v).(type) {
	case float64:
		return &x
	case int:
		f := float64(x)
		return &f
	case int64:
		f := float64(x)
		return &f
	}
	return nil
}

func truth(v any) bool {
	b, _ := boolOf(rawsql.Normal(rawsql.Deref(v)))
	return b
}
