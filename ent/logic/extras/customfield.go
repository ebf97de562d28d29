package extras

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/choicesets"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

var cfNameRE = regexp.MustCompile(`(?i)^[a-z0-9_]+$`)

// ValidateCustomFieldName applies NetBox's validators of a custom field's
// name (the field's ent validator).
func ValidateCustomFieldName(s string) error {
	if !cfNameRE.MatchString(s) {
		return &api.FieldError{Field: "name", Message: "Only alphanumeric characters and underscores are allowed."}
	}
	if strings.Contains(s, "__") {
		return &api.FieldError{Field: "name", Message: "Double underscores are not permitted in custom field names."}
	}
	return nil
}

// customFieldDataTypes is NetBox's CustomFieldSerializer.get_data_type;
// every other type is "string".
var customFieldDataTypes = map[string]string{
	"integer": "integer", "decimal": "decimal", "boolean": "boolean", "json": "object",
	"multiselect": "array", "multiobject": "array",
}

// CustomFieldHooks are the hooks of extras.CustomField: the definition is
// checked as NetBox checks it when saved (checkCustomField), and data_type
// is kept in step with type (NetBox computes it in the serializer; storing
// it lets it be read, filtered and ordered like any column); the objects'
// stored data follows the definition (customFieldData).
func CustomFieldHooks() []ent.Hook {
	return []ent.Hook{
		rawsql.Chain(rawsql.RowHook("extras_customfield", customFieldCleanColumns, checkCustomField), func(next ent.Mutator) ent.Mutator {
			return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
				if v, ok := m.Field("type"); ok && m.Op().Is(ent.OpCreate|ent.OpUpdate|ent.OpUpdateOne) {
					dt, known := customFieldDataTypes[fmt.Sprint(v)]
					if !known {
						dt = "string"
					}
					if err := m.SetField("data_type", dt); err != nil {
						return nil, err
					}
				}
				return next.Mutate(ctx, m)
			})
		}, customFieldData),
	}
}

// CustomFieldChoiceSetHooks are the hooks of extras.CustomFieldChoiceSet:
// NetBox's clean() and save(). A set needs base or extra choices, extra
// values are unique, color mappings name existing choices (base or extra),
// extra choices are sorted by value when the set orders alphabetically,
// and choices_count (a property in NetBox, stored here so that reads need
// no decoding) is the number of base plus extra choices.
func CustomFieldChoiceSetHooks() []ent.Hook {
	return []ent.Hook{rawsql.RowHook("extras_customfieldchoiceset", choiceSetColumns, checkChoiceSet)}
}

var choiceSetColumns = []string{"base_choices", "extra_choices", "choice_colors", "order_alphabetically"}

func checkChoiceSet(ctx context.Context, m rawsql.Mutation, id int, row, old map[string]any) error {
	base := rawsql.StringOf(rawsql.Deref(row["base_choices"]))
	extra, err := pairsOf(row["extra_choices"])
	if err != nil {
		return err
	}
	if base == "" && len(extra) == 0 {
		return &api.FieldError{Field: "__all__", Message: "Must define base or extra choices."}
	}
	values := make(map[string]bool, len(extra))
	for _, p := range extra {
		if values[p[0]] {
			return &api.FieldError{Field: "__all__", Message: fmt.Sprintf("Duplicate value '%s' found in extra choices.", p[0])}
		}
		values[p[0]] = true
	}
	colors, err := colorsOf(row["choice_colors"])
	if err != nil {
		return err
	}
	var unknown []string
	for v := range colors {
		if !values[v] && !choicesets.Has(base, v) {
			unknown = append(unknown, v)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return &api.FieldError{Field: "choice_colors", Message: fmt.Sprintf(
			"Color mappings must reference an existing choice value. Invalid value(s): %s.", strings.Join(unknown, ", "))}
	}
	if old != nil {
		if err := checkRemovedChoices(ctx, m, id, base, values, old["extra_choices"]); err != nil {
			return err
		}
	}
	count := choicesets.Count(base) + len(extra)
	if id != 0 && !m.Op().Is(ent.OpUpdateOne) {
		// One statement updating many rows: each row's count differs.
		a := &rawsql.Args{PG: rawsql.Postgres(m)}
		return rawsql.Exec(ctx, m, `UPDATE extras_customfieldchoiceset SET choices_count = `+a.P(count)+` WHERE id = `+a.P(id), a)
	}
	if alpha, _ := boolOf(row["order_alphabetically"]); alpha && !sort.SliceIsSorted(extra, func(i, j int) bool { return extra[i][0] < extra[j][0] }) {
		sort.SliceStable(extra, func(i, j int) bool { return extra[i][0] < extra[j][0] })
		if err := m.SetField("extra_choices", extra); err != nil {
			return err
		}
	}
	return m.SetField("choices_count", count)
}

// pairsOf reads extra_choices from a mutation ([][]string) or a stored row
// (JSON text); null is no choices.
func pairsOf(v any) ([][]string, error) {
	var out [][]string
	switch x := v.(type) {
	case [][]string:
		out = x
	case nil:
		return nil, nil
	default:
		if s := rawsql.StringOf(v); s != "" && s != "null" {
			if err := json.Unmarshal([]byte(s), &out); err != nil {
				return nil, fmt.Errorf("extra_choices: %w", err)
			}
		}
	}
	for _, p := range out {
		if len(p) != 2 {
			// The API decoder refuses these (resource.decodeJSON); a
			// mutation from elsewhere gets the same message.
			return nil, &api.FieldError{Field: "extra_choices", Message: fmt.Sprintf("Each choice needs a value and a label (got %d items).", len(p))}
		}
	}
	return out, nil
}

// colorsOf reads choice_colors from a mutation or a stored row.
func colorsOf(v any) (map[string]any, error) {
	if m, ok := v.(map[string]any); ok || v == nil {
		return m, nil
	}
	var out map[string]any
	if s := rawsql.StringOf(v); s != "" && s != "null" {
		if err := json.Unmarshal([]byte(s), &out); err != nil {
			return nil, fmt.Errorf("choice_colors: %w", err)
		}
	}
	return out, nil
}

// boolOf reads a boolean from a mutation or a stored row (SQLite stores
// integers).
func boolOf(v any) (bool, bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case *bool:
		if x != nil {
			return *x, true
		}
	}
	if n, ok := rawsql.IntOf(v); ok {
		return n != 0, true
	}
	return false, false
}

// checkRemovedChoices refuses to drop an extra choice that objects still
// hold in a select or multiselect custom field of this set (NetBox's
// CustomFieldChoiceSet.clean()): one EXISTS per removed choice and model.
func checkRemovedChoices(ctx context.Context, m rawsql.Mutation, id int, base string, kept map[string]bool, oldExtra any) error {
	before, err := pairsOf(oldExtra)
	if err != nil {
		return err
	}
	var removed []string
	for _, p := range before {
		if !kept[p[0]] && !choicesets.Has(base, p[0]) {
			removed = append(removed, p[0])
		}
	}
	if len(removed) == 0 {
		return nil
	}
	pg := rawsql.Postgres(m)
	a := &rawsql.Args{PG: pg}
	fields, err := rawsql.Rows(ctx, m, `SELECT name, type, object_types FROM extras_customfield WHERE choice_set_id = `+a.P(id)+` ORDER BY id`, a)
	if err != nil {
		return err
	}
	for _, f := range fields {
		name, multi := rawsql.StringOf(f["name"]), rawsql.StringOf(f["type"]) == "multiselect"
		var types []string
		if err := json.Unmarshal([]byte(rawsql.StringOf(f["object_types"])), &types); err != nil {
			return err
		}
		for _, ct := range types {
			info, ok := api.ModelOf(ctx, ct)
			if !ok {
				continue
			}
			for _, choice := range removed {
				a := &rawsql.Args{PG: pg}
				n, err := rawsql.Int(ctx, m, `SELECT 1 FROM `+quoteIdent(info.Table)+` WHERE `+holdsChoice(a, pg, name, choice, multi)+` LIMIT 1`, a)
				if err != nil {
					return err
				}
				if n > 0 {
					return &api.FieldError{Field: "__all__", Message: fmt.Sprintf(
						"Cannot remove choice %s as there are %s objects which reference it.", choice, info.Label)}
				}
			}
		}
	}
	return nil
}

// holdsChoice is the condition that custom field name holds choice: equal
// for a select, an element for a multiselect.
func holdsChoice(a *rawsql.Args, pg bool, name, choice string, multi bool) string {
	switch {
	case pg && multi:
		return `(custom_field_data::jsonb -> ` + a.P(name) + `::text) @> jsonb_build_array(` + a.P(choice) + `::text)`
	case pg:
		return `(custom_field_data::jsonb ->> ` + a.P(name) + `::text) = ` + a.P(choice)
	case multi:
		return `EXISTS (SELECT 1 FROM json_each(custom_field_data, ` + a.P(`$."`+name+`"`) + `) WHERE value = ` + a.P(choice) + `)`
	}
	return `json_extract(custom_field_data, ` + a.P(`$."`+name+`"`) + `) = ` + a.P(choice)
}

// quoteIdent quotes a table name for both databases.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
