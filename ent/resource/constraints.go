package resource

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/inventory/inventory/ent/logic/pyrepr"
	"github.com/inventory/inventory/filters"
)

// Permission constraints (BEHAVIOUR.md §4.1) are NetBox's ORM lookups: an
// object is the AND of "field__path__lookup": value pairs, a list the OR of
// such objects; null, {} or a null/empty element anywhere in the list leave
// the permission unrestricted; the string "$user" stands for the
// requesting user's id. They are translated onto the descriptor's fields
// and built with the filters package's predicates, never a second query
// language.

// UserToken is the placeholder for the requesting user's id.
const UserToken = "$user"

// Constraint translates constraints for d. unrestricted reports that the
// constraints do not narrow anything; otherwise cond selects the objects
// they allow. An error names the first bad lookup.
func (d *Descriptor) Constraint(raw json.RawMessage, userID int) (cond filters.Cond, unrestricted bool, err error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, true, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false, fmt.Errorf("Constraints must be valid JSON.")
	}
	var sets []map[string]any
	switch x := v.(type) {
	case map[string]any:
		sets = []map[string]any{x}
	case []any:
		for _, e := range x {
			if e == nil {
				return nil, true, nil
			}
			m, ok := e.(map[string]any)
			if !ok {
				return nil, false, fmt.Errorf("Constraints must be a dictionary or a list of dictionaries.")
			}
			sets = append(sets, m)
		}
	default:
		return nil, false, fmt.Errorf("Constraints must be a dictionary or a list of dictionaries.")
	}
	var ors []filters.Cond
	for _, set := range sets {
		if len(set) == 0 {
			return nil, true, nil
		}
		var ands []filters.Cond
		for _, k := range sortedKeys(set) {
			c, err := d.pathCond(strings.Split(k, "__"), k, substituteUser(set[k], userID))
			if err != nil {
				return nil, false, err
			}
			ands = append(ands, c)
		}
		ors = append(ors, filters.AndConds(ands...))
	}
	if len(ors) == 0 {
		return nil, true, nil
	}
	return filters.OrConds(ors...), false, nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

func substituteUser(v any, userID int) any {
	switch x := v.(type) {
	case string:
		if x == UserToken {
			return json.Number(strconv.Itoa(userID))
		}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = substituteUser(e, userID)
		}
		return out
	}
	return v
}

func isLookup(s string) bool {
	_, ok := filters.DjangoLookups[s]
	return ok && s != ""
}

func badKeyword(key string) error {
	return fmt.Errorf("Cannot resolve keyword '%s' into field.", key)
}

// pathCond resolves one constraint key, following foreign keys,
// many-to-many relations and tags to the related model's fields.
func (d *Descriptor) pathCond(parts []string, key string, v any) (filters.Cond, error) {
	name, rest := parts[0], parts[1:]
	if name == "pk" {
		name = "id"
	}
	f := d.byName[name]
	if f == nil && strings.HasSuffix(name, "_id") {
		// tenant_id: the FK column itself.
		if fk := d.byName[strings.TrimSuffix(name, "_id")]; fk != nil && fk.Kind == KindFK {
			if len(rest) > 1 || len(rest) == 1 && !isLookup(rest[0]) {
				return nil, badKeyword(key)
			}
			return lookupOn(fk.Column, "int", rest, v, key)
		}
	}
	if f == nil || f.WriteOnly || f.Kind == KindHidden || f.Kind == KindSecret {
		return nil, badKeyword(key)
	}
	terminal := len(rest) == 0 || len(rest) == 1 && isLookup(rest[0])
	switch f.Kind {
	case KindFK:
		if terminal {
			return lookupOn(f.Column, "int", rest, v, key)
		}
		inner, err := f.target.pathCond(rest, key, v)
		if err != nil {
			return nil, err
		}
		return filters.In(f.Column, f.target.Table, inner), nil
	case KindM2M:
		if terminal {
			c, err := lookupOn(f.JoinTarget, "int", rest, v, key)
			if err != nil {
				return nil, err
			}
			return filters.InJoin(f.Join, f.JoinOwn, nil, c), nil
		}
		inner, err := f.target.pathCond(rest, key, v)
		if err != nil {
			return nil, err
		}
		return filters.InJoin(f.Join, f.JoinOwn, nil, filters.In(f.JoinTarget, f.target.Table, inner)), nil
	case KindTags:
		tag := ByContentType("extras.tag")
		extra := map[string]any{"object_type": d.ContentType()}
		if terminal {
			c, err := lookupOn("tag_id", "int", rest, v, key)
			if err != nil {
				return nil, err
			}
			return filters.InJoin("extras_taggeditem", "object_id", extra, c), nil
		}
		inner, err := tag.pathCond(rest, key, v)
		if err != nil {
			return nil, err
		}
		return filters.InJoin("extras_taggeditem", "object_id", extra, filters.In("tag_id", tag.Table, inner)), nil
	}
	if f.Column == "" || !terminal {
		return nil, badKeyword(key)
	}
	switch f.GoType {
	case "int", "int64", "float64", "bool", "string", "time.Time":
	default:
		return nil, fmt.Errorf("Constraints on '%s' are not supported.", key)
	}
	return lookupOn(f.Column, f.GoType, rest, v, key)
}

// lookupOn compares a column with v, coerced to the column's type.
func lookupOn(column, goType string, rest []string, v any, key string) (filters.Cond, error) {
	lookup := ""
	if len(rest) == 1 {
		lookup = rest[0]
	}
	var err error
	switch lookup {
	case "isnull":
		if _, ok := v.(bool); !ok {
			return nil, fmt.Errorf("'%s' needs true or false.", key)
		}
	case "in":
		list, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("'%s' needs a list.", key)
		}
		out := make([]any, len(list))
		for i, e := range list {
			if out[i], err = coerce(goType, e); err != nil {
				return nil, fmt.Errorf("'%s': %v", key, err)
			}
		}
		v = out
	default:
		if v, err = coerce(goType, v); err != nil {
			return nil, fmt.Errorf("'%s': %v", key, err)
		}
		switch lookup {
		case "icontains", "istartswith", "iendswith", "iexact", "contains", "startswith", "endswith", "regex", "iregex":
			if _, ok := v.(string); !ok {
				return nil, fmt.Errorf("'%s' needs a string.", key)
			}
		}
	}
	c, err := filters.Lookup(column, lookup, v)
	if err != nil {
		return nil, fmt.Errorf("'%s': %v", key, err)
	}
	return c, nil
}

func coerce(goType string, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch goType {
	case "int", "int64":
		switch x := v.(type) {
		case json.Number:
			if n, err := strconv.Atoi(x.String()); err == nil {
				return n, nil
			}
		case string:
			if n, err := strconv.Atoi(strings.TrimSpace(x)); err == nil {
				return n, nil
			}
		}
		return nil, fmt.Errorf("“%v” is not a valid integer.", v)
	case "float64":
		switch x := v.(type) {
		case json.Number:
			return x.Float64()
		case string:
			return strconv.ParseFloat(x, 64)
		}
		return nil, fmt.Errorf("“%v” is not a valid number.", v)
	case "bool":
		if b, ok := v.(bool); ok {
			return b, nil
		}
		return nil, fmt.Errorf("“%v” value must be either True or False.", v)
	}
	switch x := v.(type) {
	case string:
		return x, nil
	case json.Number:
		return x.String(), nil
	case bool:
		return nil, fmt.Errorf("“%v” is not a valid string.", v)
	}
	return nil, fmt.Errorf("“%v” is not a valid value.", v)
}

func init() {
	RegisterKind("actions", nil, func(f *Field, raw json.RawMessage) (any, []string) {
		var list []string
		if err := json.Unmarshal(raw, &list); err != nil || bytes.TrimSpace(raw)[0] != '[' {
			return nil, []string{fmt.Sprintf("Expected a list of items but got type %q.", pyrepr.TypeOfJSON(raw))}
		}
		for _, a := range list {
			if a == "" {
				return nil, []string{"This field may not be blank."}
			}
			if len([]rune(a)) > 30 {
				return nil, []string{"Ensure this field has no more than 30 characters."}
			}
		}
		if len(list) == 0 {
			return nil, []string{"This list may not be empty."}
		}
		return list, nil
	})
	// Constraints are checked for shape here; the server validates every
	// lookup against the permission's object types before saving.
	RegisterKind("constraints", nil, func(f *Field, raw json.RawMessage) (any, []string) {
		raw = bytes.TrimSpace(raw)
		switch raw[0] {
		case '{', '[':
			return json.RawMessage(append([]byte(nil), raw...)), nil
		}
		return nil, []string{"Constraints must be a dictionary or a list of dictionaries."}
	})
}
