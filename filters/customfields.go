package filters

import (
	"context"
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

func (s *Spec) buildCF(ctx context.Context, f *Filter, lookup string, raw []string, opt Options) (func(*sql.Selector), error) {
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
	var needles []string // the trigram prefilter's, on SQLite
	if !neg && !multi && !hasNull && kind == String && substringLookups[base] {
		needles = cfNeedles(values)
	}
	plan, err := s.planTrigrams(ctx, opt, []string{s.CustomFieldColumn}, needles)
	if err != nil {
		return nil, err
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
		e := negate(join(" OR ", fs), neg)
		if !pg {
			if pre, ok := trigramPrefilter(sel, []string{s.CustomFieldColumn}, needles, plan); ok {
				return cat(fr("("), pre, fr(" AND "), e, fr(")"))
			}
		}
		return e
	}), nil
}

// substringLookups are the lookups whose every match contains the value
// (folded): a trigram index of the text can prefilter them.
var substringLookups = map[string]bool{"ic": true, "isw": true, "iew": true, "ie": true}

// cfNeedles are the needles of the SQLite trigram prefilter (trigram.go)
// of a substring filter on a text custom field, nil when there is none.
//
// The index holds the whole JSON text of the column (folded), not the
// field's value: an index per field would have to follow the custom field
// definitions, and a value's text is found in the document's text as
// long as JSON stores every character of the needle as itself. Go's
// encoder (every write of the service) and SQLite's JSON functions do so
// for all but the quote, the backslash, control characters, and (Go's
// HTML-safe escaping) <, >, &, U+2028 and U+2029; a needle holding one of
// these, or a replacement character (invalid UTF-8 is stored as an
// escaped U+FFFD), is not prefiltered. Matches in keys or other fields
// only add candidates, which the exact predicate sorts out.
func cfNeedles(values []any) []string {
	needles := make([]string, len(values))
	for i, v := range values {
		n, ok := v.(string)
		if !ok || strings.ContainsFunc(n, jsonEscaped) {
			return nil
		}
		needles[i] = n
	}
	return needles
}

// jsonEscaped: r may be stored as an escape sequence in JSON text.
func jsonEscaped(r rune) bool {
	switch r {
	case '"', '\\', '<', '>', '&', '\u2028', '\u2029', '\ufffd':
		return true
	}
	return r < 0x20 || r == 0x7f
}

// cfJSON renders JSON access to one custom field: json_extract/json_type/
// json_each on SQLite, ->> / jsonb_typeof / jsonb_array_elements on
// PostgreSQL (the column is cast to jsonb so json and text columns work).
// Numbers and date/times are only cast when the JSON type fits, so bad data
// cannot turn a filter into a 500.
//
// The field's key and path are SQL literals, not bind parameters: a
// database matches an expression index only against the same expression
// with the same constants (CFIndexes), and SQLite plans a statement before
// its parameters are bound. Custom field names are validated identifiers
// (letters, digits, underscores); sqlLit quotes them all the same.
type cfJSON struct {
	col, name string
	kind      Kind
}

func (j cfJSON) path() string { return sqlLit(`$."` + j.name + `"`) }

func (j cfJSON) key() string { return sqlLit(j.name) }

func sqlLit(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func (j cfJSON) doc(col string) string { return "(" + col + ")::jsonb" }

// typ is the JSON type of the value: SQLite json_type names ('true', 'text',
// 'integer'...) or PostgreSQL jsonb_typeof names; for booleans (asBool) the
// text 'true' or 'false' on both.
func (j cfJSON) typ(sel *sql.Selector, pg, asBool bool) frag {
	switch {
	case pg && asBool:
		return fr("(" + j.doc(sel.C(j.col)) + " ->> " + j.key() + ")")
	case pg:
		return fr("jsonb_typeof(" + j.doc(sel.C(j.col)) + " -> " + j.key() + ")")
	}
	return fr("json_type(" + sel.C(j.col) + ", " + j.path() + ")")
}

func (j cfJSON) value(sel *sql.Selector, pg bool) frag { return fr(j.valueSQL(sel.C(j.col), pg)) }

// valueSQL is the typed value of the field in column col (rendered by the
// caller: qualified in queries, bare in index definitions).
func (j cfJSON) valueSQL(col string, pg bool) string {
	if !pg {
		v := "json_extract(" + col + ", " + j.path() + ")"
		if j.kind == DateTime {
			v = "inventory_ts(" + v + ")"
		}
		return v
	}
	d, k := j.doc(col), j.key()
	switch j.kind {
	case Integer, Decimal:
		return "(CASE WHEN jsonb_typeof(" + d + " -> " + k + ") = 'number' THEN (" + d + " ->> " + k + ")::numeric END)"
	case DateTime:
		return "(CASE WHEN jsonb_typeof(" + d + " -> " + k + ") = 'string' THEN (" + d + " ->> " + k + ")::timestamptz END)"
	}
	return "(" + d + " ->> " + k + ")"
}

// elems wraps an element condition: some array element satisfies it.
func (j cfJSON) elems(sel *sql.Selector, pg bool, c frag) frag {
	if !pg {
		return cat(fr("EXISTS (SELECT 1 FROM json_each("+sel.C(j.col)+", "+j.path()+") AS fje WHERE "), c, fr(")"))
	}
	d, k := j.doc(sel.C(j.col)), j.key()
	return cat(fr("EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof("+d+" -> "+k+") = 'array' THEN "+
		d+" -> "+k+" ELSE '[]'::jsonb END) AS fje(v) WHERE "), c, fr(")"))
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
		d, k := j.doc(sel.C(j.col)), j.key()
		return fr("(COALESCE(jsonb_typeof(" + d + " -> " + k + "), 'null') = 'null' OR (" + d +
			" -> " + k + ") IN ('\"\"'::jsonb, '[]'::jsonb))")
	}
	c, p := sel.C(j.col), j.path()
	return fr("(COALESCE(json_type(" + c + ", " + p + "), 'null') = 'null' OR (json_type(" + c + ", " + p + ") = 'text' AND json_extract(" + c +
		", " + p + ") = '') OR (json_type(" + c + ", " + p + ") = 'array' AND json_array_length(" + c + ", " + p + ") = 0))")
}

// CFIndex is an index that serves a custom field's filter: Expr is the
// expression over the bare column that the filter renders over the
// qualified one (cfJSON.valueSQL, and LOWER of it for the substring
// lookups), so that the database matches the two.
type CFIndex struct {
	Expr string
	// Trigram: a PostgreSQL GIN index with gin_trgm_ops (the substring
	// lookups); otherwise a B-tree.
	Trigram bool
}

// CFIndexes lists the indexes serving cf's default lookups on a table
// whose custom field column is col (see ent/resource/cfindex.go). Fields
// without one: booleans (two values: an index finds no page faster than
// the ordering's walk), date/times (their comparable form is a Go
// function on SQLite and a cast that depends on the session's time zone
// on PostgreSQL, neither allowed in an index), multi-valued fields (a
// condition on array elements) and JSON fields (no filter). Loose text
// fields filter by substring: a trigram index serves them on PostgreSQL;
// on SQLite the table's FTS5 trigram index over all custom field data
// prefilters them (cfNeedles), and the needles it cannot serve (shorter
// than a trigram, or holding characters JSON escapes) scan the B-tree of
// the values instead of the table (a covering index: no JSON parsed per
// row), 25x faster for a count over 100,000 prefixes.
func CFIndexes(cf CustomField, col string, pg bool) []CFIndex {
	if cf.FilterLogic == "disabled" {
		return nil
	}
	kind, ok := cfKinds[cf.Type]
	if !ok {
		kind = String
	}
	j := cfJSON{col: col, name: cf.Name, kind: kind}
	v := j.valueSQL(quoteIdent(col), pg)
	switch cf.Type {
	case "integer", "decimal", "object", "date", "select":
		return []CFIndex{{Expr: v}}
	case "text", "longtext", "url":
		if cf.FilterLogic == "exact" {
			return []CFIndex{{Expr: v}}
		}
		if pg {
			// cmp's form of the ic lookup on PostgreSQL.
			return []CFIndex{{Expr: "LOWER(" + v + ")", Trigram: true}}
		}
		return []CFIndex{{Expr: v}}
	}
	return nil
}
