package filters

import (
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
)

// cfFilter declares the cf_<name> filter of a custom field (BEHAVIOUR §7.5);
// nil for types without a filter (json, unknown).
func cfFilter(cf CustomField) *Filter {
	f := &Filter{Name: "cf_" + cf.Name, cf: &cf, Kind: kindCF, Lookups: []string{}}
	switch cf.Type {
	case "text", "longtext", "url":
		if cf.FilterLogic == "exact" { // loose text is icontains without suffixes
			f.Lookups = charLookups
		}
	case "select":
		f.Lookups = charLookups
	case "integer", "decimal", "date", "datetime", "object", "multiobject":
		f.Lookups = numLookups
	case "boolean", "multiselect":
	default:
		return nil
	}
	return f
}

// cfKinds maps custom field types to the Kind used to parse their values.
var cfKinds = map[string]Kind{
	"integer": Integer, "object": Integer, "multiobject": Integer, "decimal": Decimal,
	"date": Date, "datetime": DateTime, "boolean": Boolean,
}

func (s *Spec) buildCF(f *Filter, lookup string, raw []string, opt Options) (func(*sql.Selector), error) {
	cf := *f.cf
	kind, ok := cfKinds[cf.Type]
	if !ok {
		kind = String
	}
	multi := strings.HasPrefix(cf.Type, "multi")
	// j renders the value (or, for multi*, one array element) of the field.
	j := cfJSON{col: s.CustomFieldColumn, name: cf.Name, kind: kind}
	if kind == Boolean || lookup == "empty" {
		b, err := BoolValue(raw[len(raw)-1])
		if err != nil {
			return nil, err
		}
		return where(func(sel *sql.Selector, pg bool) frag {
			if kind == Boolean {
				return cat(j.typ(sel, pg, true), fr(" = ?", map[bool]string{true: "true", false: "false"}[b]))
			}
			return negate(j.empty(sel, pg), !b)
		}), nil
	}
	base, neg := lookup, false
	if b, ok := negated[lookup]; ok {
		base, neg = b, true
	}
	if kind == String && (cf.Type == "text" || cf.Type == "longtext" || cf.Type == "url") && cf.FilterLogic != "exact" {
		base = "ic"
	}
	parseLookup := base
	if base == "ic" && lookup == "" {
		parseLookup = "" // loose text: "null" still means no value
	}
	vals, err := parseValues(kind, parseLookup, raw, true, nil, opt.Location)
	if err != nil {
		return nil, err
	}
	var values []any
	hasNull := false
	for _, v := range vals {
		if v == null {
			hasNull = true
		} else if t, ok := v.(time.Time); ok && kind == Date {
			values = append(values, t.Format("2006-01-02")) // stored as ISO date text
		} else {
			values = append(values, v)
		}
	}
	return where(func(sel *sql.Selector, pg bool) frag {
		var fs []frag
		if len(values) > 0 {
			if multi {
				fs = append(fs, j.elems(sel, pg, anyOf(pg, j.elem(pg), base, values)))
			} else {
				fs = append(fs, anyOf(pg, j.value(sel, pg), base, values))
			}
		}
		if hasNull {
			fs = append(fs, cat(fr("COALESCE("), j.typ(sel, pg, false), fr(", 'null') = 'null'")))
		}
		return negate(join(" OR ", fs), neg)
	}), nil
}

// cfJSON renders JSON access to one custom field: json_extract/json_type/
// json_each on SQLite, ->> / jsonb_typeof / jsonb_array_elements on
// PostgreSQL (the column is cast to jsonb so json and text columns work).
// Numbers and date/times are only cast when the JSON type fits, so bad data
// cannot turn a filter into a 500.
type cfJSON struct {
	col, name string
	kind      Kind
}

func (j cfJSON) path() string { return `$."` + j.name + `"` }

func (j cfJSON) doc(sel *sql.Selector) string { return "(" + sel.C(j.col) + ")::jsonb" }

// typ is the JSON type of the value: SQLite json_type names ('true', 'text',
// 'integer'...) or PostgreSQL jsonb_typeof names; for booleans (asBool) the
// text 'true' or 'false' on both.
func (j cfJSON) typ(sel *sql.Selector, pg, asBool bool) frag {
	switch {
	case pg && asBool:
		return fr("("+j.doc(sel)+" ->> ?::text)", j.name)
	case pg:
		return fr("jsonb_typeof("+j.doc(sel)+" -> ?::text)", j.name)
	}
	return fr("json_type("+sel.C(j.col)+", ?)", j.path())
}

func (j cfJSON) value(sel *sql.Selector, pg bool) frag {
	if !pg {
		v := fr("json_extract("+sel.C(j.col)+", ?)", j.path())
		if j.kind == DateTime {
			v = cat(fr("inventory_ts("), v, fr(")"))
		}
		return v
	}
	d := j.doc(sel)
	switch j.kind {
	case Integer, Decimal:
		return fr("(CASE WHEN jsonb_typeof("+d+" -> ?::text) = 'number' THEN ("+d+" ->> ?::text)::numeric END)", j.name, j.name)
	case DateTime:
		return fr("(CASE WHEN jsonb_typeof("+d+" -> ?::text) = 'string' THEN ("+d+" ->> ?::text)::timestamptz END)", j.name, j.name)
	}
	return fr("("+d+" ->> ?::text)", j.name)
}

// elems wraps an element condition: some array element satisfies it.
func (j cfJSON) elems(sel *sql.Selector, pg bool, c frag) frag {
	if !pg {
		return cat(fr("EXISTS (SELECT 1 FROM json_each("+sel.C(j.col)+", ?) AS fje WHERE ", j.path()), c, fr(")"))
	}
	d := j.doc(sel)
	return cat(fr("EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof("+d+" -> ?::text) = 'array' THEN "+
		d+" -> ?::text ELSE '[]'::jsonb END) AS fje(v) WHERE ", j.name, j.name), c, fr(")"))
}

func (j cfJSON) elem(pg bool) frag {
	switch {
	case !pg:
		return fr("fje.value")
	case j.kind == Integer:
		return fr("(CASE WHEN jsonb_typeof(fje.v) = 'number' THEN (fje.v #>> '{}')::numeric END)")
	}
	return fr("(fje.v #>> '{}')")
}

// empty: no value, JSON null, "" or [].
func (j cfJSON) empty(sel *sql.Selector, pg bool) frag {
	if pg {
		d := j.doc(sel)
		return fr("(COALESCE(jsonb_typeof("+d+" -> ?::text), 'null') = 'null' OR ("+d+
			" -> ?::text) IN ('\"\"'::jsonb, '[]'::jsonb))", j.name, j.name)
	}
	c := sel.C(j.col)
	return fr("(COALESCE(json_type("+c+", ?), 'null') = 'null' OR (json_type("+c+", ?) = 'text' AND json_extract("+c+
		", ?) = '') OR (json_type("+c+", ?) = 'array' AND json_array_length("+c+", ?) = 0))",
		j.path(), j.path(), j.path(), j.path(), j.path())
}
