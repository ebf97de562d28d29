package resource

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/inventory/inventory/ent/logic/pyrepr"
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
		preds, msg, possible := d.attrPreds(t.Dialect, "", x)
		if msg != "" {
			return 0, msg
		}
		if !possible {
			// A value no row can hold (an id of "abc"): nothing matches,
			// and asking the database would be an error on PostgreSQL
			// that aborts the whole transaction.
			return 0, "Related object not found using the provided attributes: " + pyrepr.Repr(flat)
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
			return 0, "Related object not found using the provided attributes: " + pyrepr.Repr(flat)
		case 1:
			return rows[0].ID, ""
		default:
			return 0, "Multiple objects match the provided attributes: " + pyrepr.Repr(flat)
		}
	}
	return 0, fmt.Sprintf("Related objects must be referenced by numeric ID or by dictionary of attributes. Received an unrecognized value: %s", pyrepr.Str(v))
}

func (t *Tx) byID(ctx context.Context, d *Descriptor, id int) (int, string) {
	if importedKnown(ctx, d, id) {
		return id, ""
	}
	r, err := d.Get(ctx, t.Store(), id)
	if err != nil || r == nil {
		return 0, fmt.Sprintf("Related object not found using the provided numeric ID: %d", id)
	}
	return id, ""
}

// attrPreds turns an attribute dictionary into predicates on d's table.
// possible is false when a value cannot match any row because it has the
// wrong type for its column (a string for an id, a list for a name): the
// caller answers "not found" without a query, on both databases alike.
func (d *Descriptor) attrPreds(dia, prefix string, attrs map[string]any) (preds []func(*sql.Selector), msg string, possible bool) {
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	possible = true
	for _, k := range keys {
		v := attrs[k]
		f := d.byName[k]
		if f == nil || (f.Column == "" && f.Kind != KindFK) || f.WriteOnly {
			return nil, fmt.Sprintf("Cannot resolve keyword '%s' into field. Choices are: %s", prefix+k, d.choiceNames()), false
		}
		if sub, ok := v.(map[string]any); ok && f.Kind == KindFK {
			inner, msg, ok := f.target.attrPreds(dia, prefix+k+"__", sub)
			if msg != "" {
				return nil, msg, false
			}
			possible = possible && ok
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
		val, ok := columnValue(f, v)
		possible = possible && ok
		preds = append(preds, func(s *sql.Selector) {
			if val == nil {
				s.Where(sql.IsNull(s.C(col)))
			} else {
				s.Where(sql.EQ(s.C(col), val))
			}
		})
	}
	return preds, "", possible
}

// columnValue converts a JSON value of an attribute lookup to the Go type
// of f's column, as Django's get_prep_value would; ok is false when no
// value of that column can equal it. Only nil, strings, numbers and bools
// are ever passed to the database.
func columnValue(f *Field, v any) (any, bool) {
	if v == nil {
		return nil, true
	}
	switch f.GoType {
	case "int":
		switch x := v.(type) {
		case json.Number:
			if n, err := strconv.ParseInt(x.String(), 10, 64); err == nil {
				return n, true
			}
			if fl, err := x.Float64(); err == nil && fl == math.Trunc(fl) && math.Abs(fl) < 1<<62 {
				return int64(fl), true
			}
		case string:
			if n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64); err == nil {
				return n, true
			}
		}
	case "string":
		switch x := v.(type) {
		case string:
			return x, true
		case json.Number:
			return x.String(), true
		case bool:
			return pyrepr.Str(x), true // str(True), as CharField.to_python
		}
	case "float64":
		var s string
		switch x := v.(type) {
		case json.Number:
			s = x.String()
		case string:
			s = strings.TrimSpace(x)
		}
		if fl, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(fl, 0) && !math.IsNaN(fl) {
			return fl, true
		}
	case "bool":
		switch x := v.(type) {
		case bool:
			return x, true
		case json.Number:
			switch x.String() {
			case "1":
				return true, true
			case "0":
				return false, true
			}
		case string:
			switch x {
			case "t", "true", "True", "1":
				return true, true
			case "f", "false", "False", "0":
				return false, true
			}
		}
	case "time.Time":
		if x, ok := v.(string); ok {
			for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999", "2006-01-02"} {
				if t, err := time.Parse(layout, strings.TrimSpace(x)); err == nil {
					return t.UTC(), true
				}
			}
		}
	}
	// JSON, list and map columns are not compared by value.
	return nil, false
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

func flatten(prefix string, m map[string]any, out map[string]any) {
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			flatten(prefix+k+"__", sub, out)
			continue
		}
		out[prefix+k] = v
	}
}
