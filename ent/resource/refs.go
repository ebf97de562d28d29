package resource

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"entgo.io/ent/dialect/sql"
)

// ResolveRef resolves a related object given as a numeric id, a numeric
// string, {"id": n}, or a dictionary of attributes that identifies exactly
// one object (nested dictionaries follow FKs). It returns the id, or one of
// NetBox's messages (BEHAVIOUR.md §5.7).
func (t *Tx) ResolveRef(ctx context.Context, d *Descriptor, raw json.RawMessage) (int, string) {
	raw = bytes.TrimSpace(raw)
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return 0, "Invalid value."
	}
	switch x := v.(type) {
	case json.Number:
		if id, err := strconv.Atoi(x.String()); err == nil {
			return t.byID(ctx, d, id)
		}
	case string:
		if id, err := strconv.Atoi(strings.TrimSpace(x)); err == nil {
			return t.byID(ctx, d, id)
		}
	case map[string]any:
		if len(x) == 1 {
			if n, ok := x["id"].(json.Number); ok {
				if id, err := strconv.Atoi(n.String()); err == nil {
					return t.byID(ctx, d, id)
				}
			}
		}
		flat := map[string]any{}
		flatten("", x, flat)
		preds, msg := d.attrPreds(t.Dialect, "", x)
		if msg != "" {
			return 0, msg
		}
		if t.Visible != nil {
			preds = append(preds, t.Visible(d)...)
		}
		rows, err := d.Where(ctx, t.Store(), 2, preds...)
		if err != nil {
			return 0, "Related object lookup failed."
		}
		switch len(rows) {
		case 0:
			return 0, "Related object not found using the provided attributes: " + pyRepr(flat)
		case 1:
			return rows[0].ID, ""
		default:
			return 0, "Multiple objects match the provided attributes: " + pyRepr(flat)
		}
	}
	return 0, fmt.Sprintf("Related objects must be referenced by numeric ID or by dictionary of attributes. Received an unrecognized value: %s", pyValue(v))
}

func (t *Tx) byID(ctx context.Context, d *Descriptor, id int) (int, string) {
	r, err := d.Get(ctx, t.Store(), id)
	if err != nil || r == nil {
		return 0, fmt.Sprintf("Related object not found using the provided numeric ID: %d", id)
	}
	return id, ""
}

// attrPreds turns an attribute dictionary into predicates on d's table.
func (d *Descriptor) attrPreds(dia, prefix string, attrs map[string]any) ([]func(*sql.Selector), string) {
	var preds []func(*sql.Selector)
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := attrs[k]
		f := d.byName[k]
		if f == nil || (f.Column == "" && f.Kind != KindFK) || f.WriteOnly {
			return nil, fmt.Sprintf("Cannot resolve keyword '%s' into field. Choices are: %s", prefix+k, d.choiceNames())
		}
		if sub, ok := v.(map[string]any); ok && f.Kind == KindFK {
			inner, msg := f.target.attrPreds(dia, prefix+k+"__", sub)
			if msg != "" {
				return nil, msg
			}
			col := f.Column
			target := f.target
			preds = append(preds, func(s *sql.Selector) {
				sel := sql.Dialect(dia).Select(sql.Table(target.Table).C("id")).From(sql.Table(target.Table))
				for _, p := range inner {
					p(sel)
				}
				s.Where(sql.In(s.C(col), sel))
			})
			continue
		}
		col := f.Column
		val := plainValue(v)
		preds = append(preds, func(s *sql.Selector) {
			if val == nil {
				s.Where(sql.IsNull(s.C(col)))
			} else {
				s.Where(sql.EQ(s.C(col), val))
			}
		})
	}
	return preds, ""
}

func (d *Descriptor) choiceNames() string {
	var names []string
	for _, f := range d.Fields {
		if f.Column != "" || f.Kind == KindFK {
			names = append(names, f.Name)
		}
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func plainValue(v any) any {
	switch x := v.(type) {
	case json.Number:
		if n, err := strconv.Atoi(x.String()); err == nil {
			return n
		}
		f, _ := x.Float64()
		return f
	}
	return v
}

func flatten(prefix string, m map[string]any, out map[string]any) {
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			flatten(prefix+k+"__", sub, out)
			continue
		}
		out[prefix+k] = v
	}
}

// pyRepr renders a flat dictionary as Python's repr, as NetBox's messages do.
func pyRepr(m map[string]any) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = "'" + k + "': " + pyValue(m[k])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func pyValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case string:
		return "'" + strings.ReplaceAll(x, "'", `\'`) + "'"
	case json.Number:
		return x.String()
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = pyValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		return pyRepr(x)
	}
	return fmt.Sprint(v)
}
