package resource

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"github.com/inventory/inventory/ent/logic/choicesets"
	logicdcim "github.com/inventory/inventory/ent/logic/dcim"
	logicextras "github.com/inventory/inventory/ent/logic/extras"
	"github.com/inventory/inventory/ent/logic/pyrepr"
)

// CustomFieldDef is a custom field as reads and writes of other models need
// it (read from the extras.customfield table).
type CustomFieldDef struct {
	ID                            int
	Name, Type, FilterLogic       string
	GroupName, RelatedType, Regex string
	// Schema is a json field's validation_schema (JSON text), nil for
	// none.
	Schema           json.RawMessage
	Weight           int
	Required, Unique bool
	Default          json.RawMessage
	Min, Max         *float64
	// ChoiceSet, BaseChoices and Choices are a select or multiselect
	// field's choice set: its name, its base set (checked through
	// choicesets, never copied) and its extra values.
	ChoiceSet, BaseChoices string
	Choices                []string
	choiceSetID            int
}

// hasChoice reports whether s is a value of the field's choice set (base
// or extra), as NetBox's CustomFieldChoiceSet.values.
func (def *CustomFieldDef) hasChoice(s string) bool {
	return slices.Contains(def.Choices, s) || choicesets.Has(def.BaseChoices, s)
}

// CustomFieldsFor returns the custom fields assigned to content type ct, in
// NetBox's order (group name, weight, name).
func CustomFieldsFor(ctx context.Context, st Store, ct string) ([]CustomFieldDef, error) {
	if st.Cache == nil {
		if m, ok := ctx.Value(defsKey{}).(*defsMemo); ok {
			return m.get(ctx, st, ct)
		}
	}
	cache := st.CacheIn(ctx)
	if v, ok := cache.Get("cf:" + ct); ok {
		return v.([]CustomFieldDef), nil
	}
	gen := cache.Gen()
	defs, err := customFieldsFor(ctx, st, ct)
	if err == nil {
		cache.Put("cf:"+ct, gen, defs)
	}
	return defs, err
}

// defsMemo keeps the custom field definitions read in one write
// transaction (WithTransactionDefs), per content type.
type defsMemo struct {
	mu sync.Mutex
	m  map[string][]CustomFieldDef
}

type defsKey struct{}

// WithTransactionDefs returns the context of a write transaction in which
// custom field definitions are read once per content type rather than
// once per object: a bulk write validates every object against them, and
// the change log renders each before and after. Reads inside a
// transaction cannot use the process's cache (they must see the
// transaction's own writes), so a write of a custom field or choice set
// through the resource layer (Create, Update, Delete) drops what was read.
func WithTransactionDefs(ctx context.Context) context.Context {
	return context.WithValue(ctx, defsKey{}, &defsMemo{})
}

// wroteDefs notes a write of d's objects in ctx's transaction.
func wroteDefs(ctx context.Context, d *Descriptor) {
	switch d.ContentType() {
	case "extras.customfield", "extras.customfieldchoiceset":
		if m, ok := ctx.Value(defsKey{}).(*defsMemo); ok {
			m.mu.Lock()
			m.m = nil
			m.mu.Unlock()
		}
	}
}

func (m *defsMemo) get(ctx context.Context, st Store, ct string) ([]CustomFieldDef, error) {
	m.mu.Lock()
	defs, ok := m.m[ct]
	m.mu.Unlock()
	if ok {
		return defs, nil
	}
	defs, err := customFieldsFor(ctx, st, ct)
	if err == nil {
		m.mu.Lock()
		defer m.mu.Unlock()
		if m.m == nil {
			m.m = map[string][]CustomFieldDef{}
		}
		m.m[ct] = defs
	}
	return defs, err
}

func customFieldsFor(ctx context.Context, st Store, ct string) ([]CustomFieldDef, error) {
	cfd := ByContentType("extras.customfield")
	if cfd == nil {
		return nil, nil
	}
	rows, err := cfd.Where(ctx, st, 0)
	if err != nil {
		return nil, err
	}
	var out []CustomFieldDef
	sets := map[int]bool{}
	for _, r := range rows {
		var types []string
		if raw, ok := cfd.Value(r, "object_types").(json.RawMessage); ok {
			_ = json.Unmarshal(raw, &types)
		}
		match := false
		for _, t := range types {
			match = match || t == ct
		}
		if !match {
			continue
		}
		def := CustomFieldDef{ID: r.ID}
		def.Name, _ = cfd.Value(r, "name").(string)
		def.Type, _ = cfd.Value(r, "type").(string)
		def.FilterLogic, _ = cfd.Value(r, "filter_logic").(string)
		def.GroupName, _ = cfd.Value(r, "group_name").(string)
		def.RelatedType, _ = cfd.Value(r, "related_object_type").(string)
		def.Regex, _ = cfd.Value(r, "validation_regex").(string)
		def.Weight, _ = cfd.Value(r, "weight").(int)
		def.Required, _ = cfd.Value(r, "required").(bool)
		def.Unique, _ = cfd.Value(r, "unique").(bool)
		if raw, ok := cfd.Value(r, "default").(json.RawMessage); ok && string(raw) != "null" {
			def.Default = raw
		}
		if raw, ok := cfd.Value(r, "validation_schema").(json.RawMessage); ok && def.Type == "json" {
			if t := strings.TrimSpace(string(raw)); t != "" && t != "null" && t != "{}" {
				def.Schema = raw
			}
		}
		if v, ok := cfd.Value(r, "validation_minimum").(float64); ok {
			def.Min = &v
		}
		if v, ok := cfd.Value(r, "validation_maximum").(float64); ok {
			def.Max = &v
		}
		if id, ok := cfd.Value(r, "choice_set").(int); ok {
			sets[id] = true
			def.choiceSetID = id // resolved below
		}
		out = append(out, def)
	}
	if len(sets) > 0 {
		if err := resolveChoiceSets(ctx, st, out); err != nil {
			return nil, err
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.GroupName != b.GroupName {
			return a.GroupName < b.GroupName
		}
		if a.Weight != b.Weight {
			return a.Weight < b.Weight
		}
		return a.Name < b.Name
	})
	return out, nil
}

// resolveChoiceSets fills in the choice set of the fields that have one.
func resolveChoiceSets(ctx context.Context, st Store, defs []CustomFieldDef) error {
	csd := ByContentType("extras.customfieldchoiceset")
	if csd == nil {
		return nil
	}
	var ids []int
	for _, d := range defs {
		if d.choiceSetID != 0 {
			ids = append(ids, d.choiceSetID)
		}
	}
	rows, err := csd.GetMany(ctx, st, dedupe(ids))
	if err != nil {
		return err
	}
	byID := map[int]*Row{}
	for _, r := range rows {
		byID[r.ID] = r
	}
	for i := range defs {
		r := byID[defs[i].choiceSetID]
		if r == nil {
			continue
		}
		var extra [][]string
		if raw, ok := csd.Value(r, "extra_choices").(json.RawMessage); ok {
			_ = json.Unmarshal(raw, &extra)
		}
		vals := []string{}
		for _, pair := range extra {
			if len(pair) > 0 {
				vals = append(vals, pair[0])
			}
		}
		defs[i].Choices = vals
		defs[i].ChoiceSet, _ = csd.Value(r, "name").(string)
		switch b := csd.Value(r, "base_choices").(type) {
		case string:
			defs[i].BaseChoices = b
		case *string:
			if b != nil {
				defs[i].BaseChoices = *b
			}
		}
	}
	return nil
}

func (p *Page) loadCustomFields(ctx context.Context, rows []*Row) error {
	defs, err := CustomFieldsFor(ctx, p.st, p.d.ContentType())
	if err != nil {
		return err
	}
	p.cfs = defs
	// Object-typed custom fields render nested objects: one batched load per
	// related type.
	wanted := map[string][]int{}
	f := p.d.byName["custom_fields"]
	for _, def := range defs {
		if def.Type != "object" && def.Type != "multiobject" {
			continue
		}
		for _, r := range rows {
			switch v := p.cfValues(r.Vals[f.col]).get(def.Name).(type) {
			case float64:
				wanted[def.RelatedType] = append(wanted[def.RelatedType], int(v))
			case []any:
				for _, e := range v {
					if n, ok := e.(float64); ok {
						wanted[def.RelatedType] = append(wanted[def.RelatedType], int(n))
					}
				}
			}
		}
	}
	p.cfObjs = map[string]map[int]*Row{}
	for ct, ids := range wanted {
		td := ByContentType(ct)
		if td == nil {
			continue
		}
		got, err := td.getNested(ctx, p.st, dedupe(ids))
		if err != nil {
			return err
		}
		p.cfObjs[ct] = map[int]*Row{}
		for _, r := range got {
			p.cfObjs[ct][r.ID] = r
		}
	}
	return nil
}

func cfData(v any) map[string]any {
	m := map[string]any{}
	if raw, ok := v.(json.RawMessage); ok {
		_ = json.Unmarshal(raw, &m)
	}
	return m
}

func (p *Page) encodeCustomFields(b []byte, v any) []byte {
	data := p.cfValues(v)
	b = append(b, '{')
	for i, def := range p.cfs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, def.Name)
		b = append(b, ':')
		val := data.get(def.Name)
		if val == nil {
			b = append(b, "null"...)
			continue
		}
		td := ByContentType(def.RelatedType)
		switch {
		case def.Type == "object" && td != nil:
			n, _ := val.(float64)
			if r := p.cfObjs[def.RelatedType][int(n)]; r != nil {
				b = p.encode(b, td, r, td.nestedFields(), true)
			} else {
				b = append(b, "null"...)
			}
		case def.Type == "multiobject" && td != nil:
			b = append(b, '[')
			list, _ := val.([]any)
			first := true
			for _, e := range list {
				n, _ := e.(float64)
				if r := p.cfObjs[def.RelatedType][int(n)]; r != nil {
					if !first {
						b = append(b, ',')
					}
					first = false
					b = p.encode(b, td, r, td.nestedFields(), true)
				}
			}
			b = append(b, ']')
		default:
			b = appendAny(b, val)
		}
	}
	return append(b, '}')
}

// decodeCustomFields validates custom_fields on a write and computes the
// data to store: existing data merged with the given values, defaults on
// create, required fields checked.
func (d *Descriptor) decodeCustomFields(ctx context.Context, tx *Tx, in Input, existing *Row, ch *change, verr *ValidationError) error {
	raw, given := in["custom_fields"]
	if !given && existing != nil {
		return nil
	}
	defs, err := CustomFieldsFor(ctx, tx.Store(), d.ContentType())
	if err != nil {
		return err
	}
	data := map[string]any{}
	if existing != nil {
		data = cfData(existing.Vals[d.byName["custom_fields"].col])
	}
	var input map[string]any
	var rawInput map[string]json.RawMessage // the values as sent, for integers
	if given && string(raw) != "null" {
		if err := json.Unmarshal(raw, &input); err != nil {
			// NetBox's CustomFieldsDataField.to_internal_value.
			verr.add("custom_fields", "Invalid data format. Custom field data must be passed as a dictionary mapping field names to their values.")
			return nil
		}
		_ = json.Unmarshal(raw, &rawInput)
	}
	known := map[string]*CustomFieldDef{}
	for i := range defs {
		known[defs[i].Name] = &defs[i]
	}
	unknown := map[string]any{}
	for k := range input {
		if known[k] == nil {
			unknown[k] = fmt.Sprintf("Custom field '%s' does not exist for this object type.", k)
		}
	}
	if len(unknown) > 0 {
		if verr.Fields == nil {
			verr.Fields = map[string]any{}
		}
		verr.Fields["custom_fields"] = unknown
		return nil
	}
	for _, def := range defs {
		v, ok := input[def.Name]
		if !ok {
			if existing == nil {
				if def.Default != nil {
					var dv any
					_ = json.Unmarshal(def.Default, &dv)
					data[def.Name] = dv
				} else {
					data[def.Name] = nil
				}
			}
		} else {
			if v != nil && v != "" {
				nv, msg := def.validate(ctx, tx, v)
				if msg == "" && def.Type == "integer" {
					msg = cfInteger(rawInput[def.Name])
				}
				if msg != "" {
					verr.add("__all__", fmt.Sprintf("Invalid value for custom field '%s': %s", def.Name, msg))
					continue
				}
				v = nv
			} else {
				v = nil
			}
			data[def.Name] = v
		}
		if def.Unique && (ok || existing == nil) && !cfEmpty(data[def.Name]) {
			ch.cfUnique = append(ch.cfUnique, def.Name)
		}
		if def.Required && (data[def.Name] == nil || data[def.Name] == "") {
			verr.add("__all__", fmt.Sprintf("Missing required custom field '%s'.", def.Name))
		}
	}
	// Drop data of fields no longer assigned.
	for k := range data {
		if known[k] == nil {
			delete(data, k)
		}
	}
	ch.cfData, ch.cfGiven = data, true
	return nil
}

// cfEmpty is NetBox's CUSTOMFIELD_EMPTY_VALUES: None, "" and [].
func cfEmpty(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case []any:
		return len(v) == 0
	}
	return false
}

// customFieldProbes adds to probes the values of unique custom fields that
// another object of the model may hold (NetBox's CustomFieldsMixin.clean:
// "Custom field 'x' must have a unique value."). Only the values the write
// sets are checked, those given and, on a create, the defaults filled in:
// an object saved without its custom fields keeps what it had, even if a
// field was made unique over duplicates since. The values compare as JSON
// (SQLite: json_extract of both sides; PostgreSQL: jsonb equality, with
// the text the field's expression index holds for strings).
func (d *Descriptor) customFieldProbes(tx *Tx, ch *change, probes []uniqueProbe) ([]uniqueProbe, error) {
	pg := tx.Dialect == dialect.Postgres
	for _, name := range ch.cfUnique {
		v := ch.cfData[name]
		doc, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		s := d.Selector(tx.Dialect)
		col := s.C(customFieldColumn)
		lit := strings.ReplaceAll(name, "'", "''")
		s.Where(sql.P(func(b *sql.Builder) {
			if !pg {
				b.WriteString("json_extract(" + col + `, '$."` + lit + `"') = json_extract(`).Arg(string(doc)).WriteString(", '$')")
				return
			}
			if str, ok := v.(string); ok {
				b.WriteString("(" + col + ")::jsonb ->> '" + lit + "' = ").Arg(str).WriteString(" AND ")
			}
			b.WriteString("(" + col + ")::jsonb -> '" + lit + "' = ").Arg(string(doc)).WriteString("::jsonb")
		}))
		probes = append(probes, uniqueProbe{s, "__all__", fmt.Sprintf("Custom field '%s' must have a unique value.", name)})
	}
	return probes, nil
}

// cfInteger checks an integer custom field's value as sent: NetBox takes
// only a JSON integer (type(value) is int: 1e30 and 5.0 are floats, "Value
// must be an integer."), and the value must fit the 64-bit integer the
// filters and PostgreSQL compare it as (2^70 does not).
func cfInteger(raw json.RawMessage) string {
	text := strings.TrimSpace(string(raw))
	if strings.ContainsAny(text, ".eE") {
		return "Value must be an integer."
	}
	if _, err := strconv.ParseInt(text, 10, 64); err != nil {
		return fmt.Sprintf("Value must be an integer between %d and %d.", math.MinInt64, math.MaxInt64)
	}
	return ""
}

// validate checks a custom field value with NetBox's messages.
func (def *CustomFieldDef) validate(ctx context.Context, tx *Tx, v any) (any, string) {
	switch def.Type {
	case "text", "longtext", "url":
		s, ok := v.(string)
		if !ok {
			return nil, "Value must be a string."
		}
		if def.Regex != "" {
			// Matched from the start of the value, as Python's re.match
			// (logicextras.CompileValidationRegex). A pattern that does
			// not compile (stored before definitions were checked at
			// save) refuses the value rather than letting it through.
			re, err := logicextras.CompileValidationRegex(def.Regex)
			if err != nil {
				return nil, fmt.Sprintf("Value cannot be checked: the field's validation regex '%s' is not a valid regular expression.", def.Regex)
			}
			if !re.MatchString(s) {
				return nil, fmt.Sprintf("Value must match regex '%s'", def.Regex)
			}
		}
		return s, ""
	case "integer":
		n, ok := v.(float64)
		if !ok || n != math.Trunc(n) {
			return nil, "Value must be an integer."
		}
		// The bounds print as NetBox's DecimalField(decimal_places=4)
		// holds them ("10.0000").
		if def.Min != nil && n < *def.Min {
			return nil, fmt.Sprintf("Value must be at least %.4f", *def.Min)
		}
		if def.Max != nil && n > *def.Max {
			return nil, fmt.Sprintf("Value must not exceed %.4f", *def.Max)
		}
		return n, ""
	case "decimal":
		n, ok := v.(float64)
		if !ok {
			return nil, "Value must be a decimal."
		}
		if def.Min != nil && n < *def.Min {
			return nil, fmt.Sprintf("Value must be at least %.4f", *def.Min)
		}
		if def.Max != nil && n > *def.Max {
			return nil, fmt.Sprintf("Value must not exceed %.4f", *def.Max)
		}
		return n, ""
	case "boolean":
		b, ok := v.(bool)
		if !ok {
			return nil, "Value must be true or false."
		}
		return b, ""
	case "date":
		s, _ := v.(string)
		if _, err := time.Parse("2006-01-02", s); err != nil {
			return nil, "Date values must be in ISO 8601 format (YYYY-MM-DD)."
		}
		return s, ""
	case "datetime":
		s, _ := v.(string)
		t, ok := ParseTime(s)
		if !ok {
			return nil, "Date and time values must be in ISO 8601 format (YYYY-MM-DD HH:MM:SS)."
		}
		return FormatTime(t), ""
	case "json":
		if def.Schema != nil {
			msg, err := logicdcim.SchemaViolation(def.Schema, v)
			if err != nil {
				return nil, err.Error()
			}
			if msg != "" {
				return nil, "Value does not conform to the assigned schema: " + msg
			}
		}
		return v, ""
	case "select":
		s, ok := v.(string)
		if !ok || !def.hasChoice(s) {
			return nil, fmt.Sprintf("Invalid choice (%s) for choice set %s.", pyrepr.Str(v), def.ChoiceSet)
		}
		return s, ""
	case "multiselect":
		list, ok := v.([]any)
		for _, e := range list {
			s, isStr := e.(string)
			ok = ok && isStr && def.hasChoice(s)
		}
		if !ok {
			return nil, fmt.Sprintf("Invalid choice(s) (%s) for choice set %s.", pyrepr.Str(v), def.ChoiceSet)
		}
		return list, ""
	case "object":
		n, ok := v.(float64)
		if !ok || n != math.Trunc(n) {
			return nil, fmt.Sprintf("Value must be an object ID, not %s", pyrepr.Type(v))
		}
		if td := ByContentType(def.RelatedType); td != nil {
			if r, _ := td.Get(ctx, tx.Store(), int(n)); r == nil {
				return nil, fmt.Sprintf("Found invalid object ID: %d", int(n))
			}
		}
		return n, ""
	case "multiobject":
		list, ok := v.([]any)
		if !ok {
			return nil, fmt.Sprintf("Value must be a list of object IDs, not %s", pyrepr.Type(v))
		}
		td := ByContentType(def.RelatedType)
		for _, e := range list {
			n, ok := e.(float64)
			if !ok || n != math.Trunc(n) {
				return nil, fmt.Sprintf("Found invalid object ID: %v", e)
			}
			if td != nil {
				if r, _ := td.Get(ctx, tx.Store(), int(n)); r == nil {
					return nil, fmt.Sprintf("Found invalid object ID: %d", int(n))
				}
			}
		}
		return list, ""
	}
	return v, ""
}
