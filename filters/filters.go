package filters

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
)

// Kind says how a filter parses its values and which lookups it has.
type Kind int

const (
	String      Kind = iota // text: exact (case-sensitive) + n ic nic isw nisw iew niew ie nie empty regex iregex
	Choice                  // String whose values must be one of Choices
	Integer                 // exact + n lt lte gt gte empty
	Decimal                 // like Integer, float values
	Boolean                 // true/True/1, false/False/0; anything else is no filter
	DateTime                // like Integer, date/time values
	Date                    // like Integer, date values
	ForeignID               // <rel>_id: Column is an FK; ints or "null"; lookup n
	ForeignAttr             // <rel>: match the related row's RelColumn (slug, name); lookup n
	TreeID                  // ForeignID that also matches descendants in RelTable (RelParent)
	TreeAttr                // ForeignAttr that also matches descendants
	TagSlug                 // tag: AND of slugs; __any OR; __n none of them
	TagID                   // tag_id: the same by tag id
	Custom                  // Func builds the predicate
	kindCF                  // filters made from custom fields at request time
)

// Filter declares one query parameter (and its `__lookup` variants).
type Filter struct {
	Name      string   // query parameter base name, e.g. "name", "site_id", "region"
	Kind      Kind     // how values are parsed and matched
	Column    string   // column on the model's table (Foreign*/Tree*: the FK column)
	RelTable  string   // Foreign*/Tree*: the related table (ForeignID: optional, enables the existence check)
	RelColumn string   // ForeignAttr/TreeAttr: attribute column on RelTable, e.g. "slug"
	RelParent string   // Tree*: parent FK column on RelTable, e.g. "parent_id"
	Choices   []string // Choice: the valid values
	Lookups   []string // allowed lookup suffixes; nil = the defaults of Kind, empty = none
	Nullable  bool     // the literal value "null" means IS NULL (Foreign*/Tree* always)
	// Through applies the filter to a column of another table: Column is then
	// an FK on the main table to Through.Table, and the predicate (of any
	// kind but tags and custom) is on Through.Column, as Django's
	// tenant__group: Column IN (SELECT id FROM Through.Table WHERE pred).
	// Like Django's joins, a "null" value or __empty=true also matches rows
	// whose Column is NULL, and negations exclude only rows whose related
	// row matches.
	Through *Through
	// Beyond continues Through over further relations, as Django's
	// rack__site__region: Through.Column is then an FK of Through.Table to
	// Beyond[0].Table, and so on; the predicate is on the last one's
	// Column.
	Beyond []Through
	// Into applies the filter to rows of other tables that point at the
	// main row instead of one it points at (a site's contact: the contacts
	// of the contact assignments whose object is the site): Column (the
	// main table's id when empty) is in Into[0].Key of the Into[0].Table
	// rows (those whose TypeColumn is Type, for a generic relation) whose
	// Into[0].Column matches, hop after hop; the predicate is on the last
	// hop's Column. A "null" value also matches main rows no such row
	// points at; negations exclude the rows that match.
	Into []Hop
	// Func builds the predicate of a Custom filter. values are the non-empty
	// values of the parameter; lookup is "" for the base name. An Errors or any
	// other error is reported as a 400 for the parameter.
	Func func(lookup string, values []string) (func(*sql.Selector), error)
	// Search makes a Custom filter a case-insensitive substring match
	// over these columns (OR), the `q` of a model, built by Apply
	// (buildSearch); Func, when set, is the same filter for use outside
	// Apply (Search(columns...)).
	Search []string
	// Fixed is the lookup the base name applies (time_after is "time"
	// with gte); such a filter takes no suffixes.
	Fixed string
	// Exists makes a Custom filter Django's ModelChoiceFilter: its last
	// value must name a row of Exists.Table by Exists.Column (an id column
	// takes whole numbers), checked with Options.Exec as ForeignAttr
	// checks its values.
	Exists *Through

	cf *CustomField
}

// Through names the table and column a Through filter's predicate reads.
type Through struct{ Table, Column string }

// Hop is one table of an Into filter: its rows whose Key holds the
// previous hop's value (and, for a generic relation, whose TypeColumn is
// Type) lead on through Column.
type Hop struct{ Table, Key, Column, TypeColumn, Type string }

// Spec describes one model to the filter language.
type Spec struct {
	Table    string            // main table name (its primary key column is "id")
	Filters  []*Filter         // declared filters
	Ordering map[string]string // ?ordering= name → column (or SQL expression)
	Default  []string          // default ordering: names (or columns), "-" for descending
	// Text lists ordering columns compared as text (byte order on both
	// databases); columns of String and Choice filters are text already.
	Text []string
	// TagTable is the generic tagged-items table (tag_id, object_type,
	// object_id), TagsTable the tags table (id, slug), ObjectType this model's
	// "app.model" in TagTable.
	TagTable, TagsTable, ObjectType string
	// CustomFields returns the custom fields of this model at request time;
	// CustomFieldColumn is the JSON column holding their values.
	CustomFields      func(ctx context.Context) ([]CustomField, error)
	CustomFieldColumn string
}

// CustomField is what the filters need to know about a custom field.
// Type: text longtext integer decimal boolean date datetime url json select
// multiselect object multiobject; FilterLogic: loose exact disabled.
type CustomField struct{ Name, Type, FilterLogic string }

// Querier runs the existence queries of related-object and tag filters
// (*database/sql.DB, *sql.Tx and *sql.Conn satisfy it).
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*stdsql.Rows, error)
}

// Options are the per-request settings of Apply.
type Options struct {
	Unknown  Unknown        // what unknown parameters do; "" is Guard
	Reserved []string       // parameters that are never filters (see Reserved)
	Dialect  string         // dialect.SQLite or dialect.Postgres, for the existence queries
	Exec     Querier        // required by ForeignAttr, TreeAttr and tag filters; optional checks for *ID
	Location *time.Location // zone of date/times given without offset; nil = UTC
	// Cached, when set, keeps the related rows' lookups (a tag's or a
	// tenant's slug to its ids) between requests: load runs on a miss.
	// The caller's cache must drop them on every write (resource.Cache).
	Cached func(key string, load func() (any, error)) (any, error)
	// NoLookups judges the parameters without reading related rows: the
	// values naming related objects (slugs, ids, tags) are not looked up,
	// so none is refused for naming a row that does not exist (yet). The
	// predicates are then not to be run: a saved filter is checked so.
	NoLookups bool
}

// cached runs load through Cached when there is one.
func (o Options) cached(key string, load func() (any, error)) (any, error) {
	if o.Cached != nil {
		return o.Cached(key, load)
	}
	return load()
}

// Unknown says what a parameter that names no filter (or a lookup the
// filter lacks) does: the setting FILTER_UNKNOWN.
type Unknown string

const (
	// Guard ignores unknown parameters while a known filter with a value
	// is present, and refuses them (400) when none is: the request would
	// otherwise return the whole table because its only filter was a
	// typo (NetBox #19579). Clients that send extra identifying fields
	// (Ansible's `?username=u&password=p`) keep working.
	Guard Unknown = "guard"
	// Strict refuses every unknown parameter.
	Strict Unknown = "strict"
	// Ignore ignores them all, as NetBox does.
	Ignore Unknown = "ignore"
)

// ParseUnknown reads a FILTER_UNKNOWN value.
func ParseUnknown(s string) (Unknown, error) {
	switch u := Unknown(strings.ToLower(strings.TrimSpace(s))); u {
	case Guard, Strict, Ignore:
		return u, nil
	}
	return "", fmt.Errorf("FILTER_UNKNOWN must be guard, strict or ignore, not %q", s)
}

// MaxValueLength bounds every filter value in characters: values reach
// SQL as LIKE patterns and regular expressions, whose cost grows with
// their length (SQLite refuses LIKE patterns over 50 000 bytes with an
// internal error). No NetBox field holding a searchable string is longer
// than 1000 characters except free text (comments, descriptions are 200).
const MaxValueLength = 1000

// MaxValues bounds the values of one parameter (`?id=1&id=2...`): each
// becomes one term of an OR (SQLite's expression depth is 1000) or one
// bind parameter.
const MaxValues = 500

// Result is what Resolve makes of a query string.
type Result struct {
	Preds []func(*sql.Selector)
	// Ignored are the parameters that filtered nothing: unknown ones
	// (Guard, Ignore) and those of disabled custom fields, sorted.
	Ignored []string
}

// Reserved are NetBox's non-filter list parameters.
var Reserved = []string{"limit", "offset", "start", "ordering", "brief", "fields", "omit", "exclude", "format", "export", "filter", "filter_id"}

// Errors are invalid filter parameters: the 400 body {"param": ["msg"]}.
type Errors map[string][]string

func (e Errors) Error() string {
	keys := make([]string, 0, len(e))
	for k := range e {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": " + strings.Join(e[k], " ")
	}
	return "invalid filters: " + strings.Join(parts, "; ")
}

// invalid is a validation message for the parameter being built.
type invalid string

func (e invalid) Error() string { return string(e) }

func choiceErr(v string) invalid {
	return invalid("Select a valid choice. " + v + " is not one of the available choices.")
}

var (
	charLookups = []string{"n", "ic", "nic", "isw", "nisw", "iew", "niew", "ie", "nie", "empty", "regex", "iregex"}
	numLookups  = []string{"n", "lt", "lte", "gt", "gte", "empty"}
	// negated lookups map to the lookup they negate ("n" negates exact).
	negated = map[string]string{"n": "", "nic": "ic", "nisw": "isw", "niew": "iew", "nie": "ie"}
)

// HasLookup reports whether the filter accepts the `__lookup` suffix.
func (f *Filter) HasLookup(lookup string) bool { return slices.Contains(f.lookups(), lookup) }

func (f *Filter) lookups() []string {
	if f.Lookups != nil {
		return f.Lookups
	}
	switch f.Kind {
	case String, Choice:
		return charLookups
	case Integer, Decimal, DateTime, Date:
		return numLookups
	case ForeignID, ForeignAttr, TreeID, TreeAttr:
		return []string{"n"}
	case TagSlug, TagID:
		return []string{"n", "any"}
	}
	return nil
}

// Apply validates the filter parameters of q and returns the predicates to
// AND together. Invalid values come back as Errors (all parameters at once);
// other errors (custom fields, existence queries) are internal.
func (s *Spec) Apply(ctx context.Context, q url.Values, opt Options) ([]func(*sql.Selector), error) {
	r, err := s.Resolve(ctx, q, opt)
	if err != nil {
		return nil, err
	}
	return r.Preds, nil
}

// Resolve is Apply that also reports the parameters it ignored.
func (s *Spec) Resolve(ctx context.Context, q url.Values, opt Options) (*Result, error) {
	byName := make(map[string]*Filter, len(s.Filters))
	for _, f := range s.Filters {
		byName[f.Name] = f
	}
	keys := make([]string, 0, len(q))
	loadCF := false
	for k := range q {
		keys = append(keys, k)
		loadCF = loadCF || strings.HasPrefix(k, "cf_")
	}
	sort.Strings(keys)
	disabled := map[string]bool{}
	if loadCF && s.CustomFields != nil {
		cfs, err := s.CustomFields(ctx)
		if err != nil {
			return nil, err
		}
		for _, cf := range cfs {
			if cf.FilterLogic == "disabled" {
				disabled["cf_"+cf.Name] = true
			} else if f := cfFilter(cf); f != nil {
				byName[f.Name] = f
			}
		}
	}
	errs := Errors{}
	unknown := Errors{}
	res := &Result{}
	known := false // a known filter with a value: the list is filtered
	for _, key := range keys {
		if slices.Contains(opt.Reserved, key) {
			continue
		}
		base, lookup := key, ""
		f := byName[key]
		if i := strings.LastIndex(key, "__"); f == nil && i > 0 {
			base, lookup = key[:i], key[i+2:]
			f = byName[base]
		}
		switch {
		case disabled[base]:
			res.Ignored = append(res.Ignored, key)
			continue
		case f == nil:
			unknown[key] = []string{"Unknown filter parameter."}
			continue
		case lookup != "" && !slices.Contains(f.lookups(), lookup):
			unknown[key] = []string{fmt.Sprintf("Unknown filter parameter: %q does not support the lookup %q.", base, lookup)}
			continue
		}
		// PostgreSQL text cannot hold NUL: refuse it as Django's
		// ProhibitNullCharactersValidator does, on both databases.
		if slices.ContainsFunc(q[key], func(v string) bool { return strings.ContainsRune(v, 0) }) {
			errs[key] = []string{"Null characters are not allowed."}
			continue
		}
		// Invalid UTF-8 (percent-encoded bytes such as %ff, or a UTF-16
		// surrogate %ED%A0%80) is no text: refused rather than matched as
		// replacement characters.
		if slices.ContainsFunc(q[key], func(v string) bool { return !utf8.ValidString(v) }) {
			errs[key] = []string{"Enter a valid value: the text is not valid UTF-8."}
			continue
		}
		if len(q[key]) > MaxValues {
			errs[key] = []string{fmt.Sprintf("Ensure this parameter has at most %d values.", MaxValues)}
			continue
		}
		if slices.ContainsFunc(q[key], func(v string) bool { return utf8.RuneCountInString(v) > MaxValueLength }) {
			errs[key] = []string{fmt.Sprintf("Ensure this value has at most %d characters.", MaxValueLength)}
			continue
		}
		// Like NetBox's multi-value fields, blank values are dropped.
		var vals []string
		for _, v := range q[key] {
			if v != "" {
				vals = append(vals, v)
			}
		}
		if len(vals) == 0 {
			continue
		}
		known = true
		p, err := s.build(ctx, f, lookup, vals, opt)
		var inv invalid
		var fe Errors
		switch {
		case errors.As(err, &fe):
			for k, v := range fe {
				errs[k] = append(errs[k], v...)
			}
		case errors.As(err, &inv) || (err != nil && f.Kind == Custom):
			errs[key] = []string{err.Error()}
		case err != nil:
			return nil, err
		case p != nil:
			res.Preds = append(res.Preds, p)
		}
	}
	if len(unknown) > 0 && (opt.Unknown == Strict || (opt.Unknown != Ignore && !known)) {
		for k, v := range unknown {
			errs[k] = v
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	for k := range unknown {
		res.Ignored = append(res.Ignored, k)
	}
	sort.Strings(res.Ignored)
	return res, nil
}

// null stands for the literal value "null" (FILTERS_NULL_CHOICE_VALUE).
type nullValue struct{}

var null any = nullValue{}

// cond renders a filter at query time, when the selector's alias and
// dialect are known.
type cond func(sel *sql.Selector, pg bool) frag

func where(c cond) func(*sql.Selector) {
	return func(sel *sql.Selector) {
		pg := sel.Dialect() == dialect.Postgres
		sel.Where(c(sel, pg).pred(pg))
	}
}

func (s *Spec) build(ctx context.Context, f *Filter, lookup string, raw []string, opt Options) (func(*sql.Selector), error) {
	if f.Search != nil {
		return s.buildSearch(ctx, f, raw, opt)
	}
	if f.Kind == Custom {
		if f.Func == nil {
			return nil, fmt.Errorf("filters: custom filter %q has no Func", f.Name)
		}
		pred, err := f.Func(lookup, raw)
		if err != nil || pred == nil || f.Exists == nil {
			return pred, err
		}
		v := []any{raw[len(raw)-1]}
		if f.Exists.Column == "id" {
			if v[0], err = parseInt(raw[len(raw)-1], "Enter a whole number."); err != nil {
				return nil, err
			}
		}
		if _, err := resolve(ctx, opt, f.Exists.Table, f.Exists.Column, raw[len(raw)-1:], v); err != nil {
			return nil, err
		}
		return pred, nil
	}
	if f.cf != nil {
		return s.buildCF(ctx, f, lookup, raw, opt)
	}
	pos, neg, matchNull, err := s.positive(ctx, f, lookup, raw, opt)
	if pos == nil || err != nil {
		return nil, err
	}
	if f.Kind == TagSlug || f.Kind == TagID {
		return where(func(sel *sql.Selector, pg bool) frag { return pos(sel, pg, "") }), nil
	}
	needles := substringNeedles(f, lookup, raw)
	plan, err := s.planTrigrams(ctx, opt, []string{f.Column}, needles)
	if err != nil {
		return nil, err
	}
	return where(func(sel *sql.Selector, pg bool) frag {
		if f.Into != nil {
			return negate(into(sel, f, matchNull, pos, pg), neg)
		}
		c := sel.C(f.Column)
		if f.Through == nil {
			if pre, ok := prefixPrefilter(sel, f.Column, fixedLookup(f, lookup), needles); ok && pg && !neg {
				return cat(fr("("), pre, fr(" AND "), negate(pos(sel, pg, c), neg), fr(")"))
			}
			return prefiltered(sel, pg, []string{f.Column}, needles, plan, func(noIndex bool) frag {
				if noIndex {
					return negate(pos(sel, pg, pgNoIndex(c)), neg)
				}
				return negate(pos(sel, pg, c), neg)
			})
		}
		e := cat(fr(c+" IN (SELECT fth.id FROM "+sel.Quote(f.Through.Table)+" fth WHERE "),
			beyond(sel, pg, "fth."+sel.Quote(f.Through.Column), f.Beyond, matchNull, pos), fr(")"))
		if matchNull {
			e = cat(fr("("), e, fr(" OR "+c+" IS NULL)"))
		}
		return negate(e, neg)
	}), nil
}

// substringNeedles are the values of a positive case-insensitive substring
// lookup on a string column (ic, isw, iew, ie), which a trigram index can
// prefilter (trigram.go); nil for anything else, the negations included.
func substringNeedles(f *Filter, lookup string, raw []string) []string {
	lookup = fixedLookup(f, lookup)
	if f.Kind != String || f.Into != nil || f.Through != nil || !substringLookups[lookup] {
		return nil
	}
	for _, v := range raw {
		if v == "null" && f.Nullable && lookup == "ie" {
			return nil // IS NULL: not a substring
		}
	}
	return raw
}

// ValueLookup is the lookup a parameter's values are parsed for (its own
// or the filter's fixed one, without its negation: "n" parses as exact,
// "nic" as "ic"), and whether the text "null" among them means none
// (FILTERS_NULL_CHOICE_VALUE). The OpenAPI document describes the values
// from it.
func (f *Filter) ValueLookup(lookup string) (base string, null bool) {
	base = fixedLookup(f, lookup)
	if b, ok := negated[base]; ok {
		base = b
	}
	return base, takesNull(f.Kind, f.Nullable, base)
}

// IsSubstring reports whether lookup (without negation) matches values
// that contain the given text, folded: ic, isw, iew, ie.
func IsSubstring(lookup string) bool { return substringLookups[lookup] }

// takesNull reports whether a filter of kind k reads the value "null" as
// none under lookup (stripped of its negation): related objects always,
// tags never, other kinds when nullable; for equality and ie only.
func takesNull(k Kind, nullable bool, lookup string) bool {
	switch k {
	case ForeignID, ForeignAttr, TreeID, TreeAttr:
		nullable = true
	case TagSlug, TagID:
		nullable = false
	}
	return nullable && (lookup == "" || lookup == "ie")
}

// fixedLookup is the lookup a parameter applies: its own, or the
// filter's fixed one.
func fixedLookup(f *Filter, lookup string) string {
	if lookup == "" {
		return f.Fixed
	}
	return lookup
}

// beyond renders the predicate on col, or, when further hops follow, col
// IN (SELECT id of the next table WHERE ... the predicate on its column).
// When NULL matches, a NULL key on the way matches too (Django's LEFT
// JOINs: rack__site__region__isnull holds when the site has no region).
func beyond(sel *sql.Selector, pg bool, col string, hops []Through, matchNull bool, pos func(sel *sql.Selector, pg bool, col string) frag) frag {
	if len(hops) == 0 {
		return pos(sel, pg, col)
	}
	a := fmt.Sprintf("fth%d", len(hops))
	e := cat(fr(col+" IN (SELECT "+a+".id FROM "+sel.Quote(hops[0].Table)+" "+a+" WHERE "),
		beyond(sel, pg, a+"."+sel.Quote(hops[0].Column), hops[1:], matchNull, pos), fr(")"))
	if matchNull {
		e = cat(fr("("), e, fr(" OR "+col+" IS NULL)"))
	}
	return e
}

// into renders an Into filter's predicate: the main row's column in the
// keys of the first hop's rows, and so on to the last hop's column.
func into(sel *sql.Selector, f *Filter, matchNull bool, pos func(sel *sql.Selector, pg bool, col string) frag, pg bool) frag {
	col := "id"
	if f.Column != "" {
		col = f.Column
	}
	c := sel.C(col)
	var hop func(i int, col string) frag
	hop = func(i int, col string) frag {
		if i == len(f.Into) {
			return pos(sel, pg, col)
		}
		h, a := f.Into[i], fmt.Sprintf("fin%d", i)
		e := fr(col + " IN (SELECT " + a + "." + sel.Quote(h.Key) + " FROM " + sel.Quote(h.Table) + " " + a + " WHERE ")
		if h.TypeColumn != "" {
			e = cat(e, fr(a+"."+sel.Quote(h.TypeColumn)+" = ? AND ", h.Type))
		}
		return cat(e, hop(i+1, a+"."+sel.Quote(h.Column)), fr(")"))
	}
	e := hop(0, c)
	if matchNull {
		h := f.Into[0]
		none := fr(c + " NOT IN (SELECT fnn." + sel.Quote(h.Key) + " FROM " + sel.Quote(h.Table) + " fnn")
		if h.TypeColumn != "" {
			none = cat(none, fr(" WHERE fnn."+sel.Quote(h.TypeColumn)+" = ?", h.Type))
		}
		e = cat(fr("("), e, fr(" OR "), none, fr("))"))
	}
	return e
}

// positive is the predicate of a filter without its negation, on a column
// expression given at render time; neg says whether to negate it and
// matchNull whether a NULL column satisfies it. A nil pos is no filter.
func (s *Spec) positive(ctx context.Context, f *Filter, lookup string, raw []string, opt Options) (pos func(sel *sql.Selector, pg bool, col string) frag, neg, matchNull bool, err error) {
	if f.Kind == Boolean || lookup == "empty" {
		// The last value wins like Django's QueryDict.get. A word that is
		// no boolean is a 400 (Django's BooleanFilter ignores it, and the
		// list would silently come back unfiltered).
		b, err := BoolValue(raw[len(raw)-1])
		if err != nil {
			return nil, false, false, err
		}
		if f.Kind == Boolean {
			return func(_ *sql.Selector, _ bool, col string) frag { return fr(col+" = ?", b) }, false, false, nil
		}
		return func(_ *sql.Selector, _ bool, col string) frag {
			if f.Kind == String || f.Kind == Choice && !intChoices(f.Choices) {
				// An integer choice (a console port's speed) is never
				// blank: comparing it with '' is an error on PostgreSQL.
				return fr("(" + col + " = '' OR " + col + " IS NULL)")
			}
			return fr(col + " IS NULL")
		}, !b, true, nil
	}
	if lookup == "" && f.Fixed != "" {
		lookup = f.Fixed
	}
	base := lookup
	if b, ok := negated[lookup]; ok {
		base, neg = b, true
	}
	vals, err := parseValues(f.Kind, base, raw, f.Nullable, f.Choices, opt.Location)
	if err != nil {
		return nil, false, false, err
	}
	switch f.Kind {
	case ForeignAttr, TreeAttr:
		vals, err = resolve(ctx, opt, f.RelTable, f.RelColumn, raw, vals)
	case ForeignID, TreeID:
		if f.RelTable != "" && opt.Exec != nil {
			vals, err = resolve(ctx, opt, f.RelTable, "id", raw, vals)
		}
	case TagSlug:
		vals, err = resolve(ctx, opt, s.TagsTable, "slug", raw, vals)
	case TagID:
		vals, err = resolve(ctx, opt, s.TagsTable, "id", raw, vals)
	}
	if err != nil {
		return nil, false, false, err
	}
	for _, v := range vals {
		matchNull = matchNull || v == null
	}
	switch f.Kind {
	case TagSlug, TagID:
		walk, err := s.denseTags(ctx, opt, lookup, vals)
		if err != nil {
			return nil, false, false, err
		}
		c := s.tagCond(lookup, vals, walk)
		return func(sel *sql.Selector, pg bool, _ string) frag { return c(sel, pg) }, false, false, nil
	case TreeID, TreeAttr:
		return treeCond(f, vals), neg, matchNull, nil
	}
	return func(_ *sql.Selector, pg bool, col string) frag {
		op := fr(col)
		if !pg && (f.Kind == DateTime || f.Kind == Date) {
			op = fr("inventory_ts(" + col + ")")
		}
		if f.Kind == Choice && intChoices(f.Choices) && textLookups[base] {
			// A pattern lookup on an integer choice (a rack's width__ic)
			// reads the number as text, as Django's icontains and regex
			// do on an integer column (PostgreSQL has no LOWER(integer)).
			op = fr("CAST(" + col + " AS TEXT)")
		}
		return anyOf(pg, op, base, flat(vals))
	}, neg, matchNull, nil
}

// parseValues parses raw values for the lookup (already stripped of its
// negation); the first bad value gives Django's message for the field.
func parseValues(k Kind, lookup string, raw []string, nullable bool, choices []string, loc *time.Location) ([]any, error) {
	if loc == nil {
		loc = time.UTC
	}
	nulls := takesNull(k, nullable, lookup)
	vals := make([]any, len(raw))
	for i, v := range raw {
		if v == "null" && nulls {
			vals[i] = null
			continue
		}
		var err error
		switch k {
		case Integer:
			vals[i], err = parseInt(v, "Enter a whole number.")
		case ForeignID, TreeID, TagID:
			vals[i], err = parseInt(v, "“"+v+"” is not a valid value.")
		case Decimal:
			f, e := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if vals[i] = f; e != nil || math.IsInf(f, 0) || math.IsNaN(f) {
				err = invalid("Enter a number.")
			}
		case DateTime:
			vals[i], err = parseTime(v, loc, dateTimeLayouts, "Enter a valid date/time.")
		case Date:
			vals[i], err = parseTime(v, time.UTC, dateLayouts, "Enter a valid date.")
		case Choice:
			if vals[i] = v; !slices.Contains(choices, v) {
				err = choiceErr(v)
			}
		default:
			vals[i] = v
		}
		if err == nil && (lookup == "regex" || lookup == "iregex") {
			if _, e := regexp.Compile(v); e != nil {
				err = invalid("Enter a valid regular expression.")
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return vals, nil
}

var reDecimalZero = regexp.MustCompile(`\.0*\s*$`)

// parseInt follows Django's IntegerField: surrounding blanks and a ".000"
// fraction are accepted.
func parseInt(v, msg string) (any, error) {
	n, err := strconv.ParseInt(reDecimalZero.ReplaceAllString(strings.TrimSpace(v), ""), 10, 64)
	if err != nil {
		return nil, invalid(msg)
	}
	return n, nil
}

// BoolValue reads a boolean filter value as Django's BooleanFilter does
// (true/True/1, false/False/0). Anything else is an error naming the value,
// reported as a 400 for the parameter: strict filtering (DESIGN.md §7)
// never turns a typo into an unfiltered list.
func BoolValue(v string) (bool, error) {
	b, ok := parseBool(v)
	if !ok {
		return false, invalid("“" + v + "” value must be either True or False.")
	}
	return b, nil
}

func parseBool(v string) (bool, bool) {
	switch v {
	case "true", "True", "1":
		return true, true
	case "false", "False", "0":
		return false, true
	}
	return false, false
}

var (
	dateLayouts     = []string{"2006-01-02", "01/02/2006", "01/02/06"}
	dateTimeLayouts = func() []string {
		var l []string // ISO 8601 as Django's parse_datetime reads it, then its input formats
		for _, sep := range []string{"T", " "} {
			for _, hms := range []string{"15:04:05", "15:04"} {
				for _, zone := range []string{"Z07:00", "-0700", "-07", ""} {
					l = append(l, "2006-01-02"+sep+hms+zone)
				}
			}
		}
		return append(l, "01/02/2006 15:04:05", "01/02/2006 15:04", "01/02/06 15:04:05", "01/02/06 15:04",
			"2006-01-02", "01/02/2006", "01/02/06")
	}()
)

func parseTime(v string, loc *time.Location, layouts []string, msg string) (any, error) {
	v = strings.TrimSpace(v)
	for _, l := range layouts {
		if t, err := time.ParseInLocation(l, v, loc); err == nil {
			return t.UTC(), nil
		}
	}
	return nil, invalid(msg)
}

// resolve checks in one query that every value names a row of table.column
// and replaces each value by the ids of its rows (a value may match several
// rows when the column is not unique). It returns one []any per value.
func resolve(ctx context.Context, opt Options, table, column string, raw []string, vals []any) ([]any, error) {
	if opt.NoLookups {
		return vals, nil
	}
	if opt.Exec == nil {
		return nil, fmt.Errorf("filters: Options.Exec is required to look up %s.%s", table, column)
	}
	var args []any
	for _, v := range vals {
		if v != null {
			args = append(args, v)
		}
	}
	ids := map[string][]any{}
	if len(args) > 0 {
		d := opt.Dialect
		if d == "" {
			d = dialect.SQLite
		}
		query, qargs := sql.Dialect(d).Select("id", column).From(sql.Table(table)).Where(sql.In(column, args...)).Query()
		v, err := opt.cached("resolve:"+query+fmt.Sprint(qargs), func() (any, error) { return lookupIDs(ctx, opt.Exec, query, qargs) })
		if err != nil {
			return nil, err
		}
		ids = v.(map[string][]any)
	}
	out := make([]any, len(vals))
	for i, v := range vals {
		found, ok := ids[fmt.Sprint(v)]
		switch {
		case v == null:
			out[i] = null
		case !ok:
			return nil, choiceErr(raw[i])
		default:
			out[i] = found
		}
	}
	return out, nil
}

// lookupIDs runs resolve's query: the ids of the rows per key value. The
// map is never modified once returned (it may be cached).
func lookupIDs(ctx context.Context, exec Querier, query string, args []any) (map[string][]any, error) {
	rows, err := exec.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	ids := map[string][]any{}
	for rows.Next() {
		var id int64
		var key any
		if err := rows.Scan(&id, &key); err != nil {
			return nil, err
		}
		if b, ok := key.([]byte); ok {
			key = string(b)
		}
		k := fmt.Sprint(key)
		ids[k] = append(ids[k], id)
	}
	return ids, rows.Err()
}

// flat expands the per-value id lists of resolve.
func flat(vals []any) []any {
	var out []any
	for _, v := range vals {
		if l, ok := v.([]any); ok {
			out = append(out, l...)
		} else {
			out = append(out, v)
		}
	}
	return out
}

// treeCond matches the given nodes and all their descendants with a
// recursive CTE (same SQL on SQLite and PostgreSQL; UNION stops on cycles).
func treeCond(f *Filter, vals []any) func(sel *sql.Selector, pg bool, col string) frag {
	var ids []any
	hasNull := false
	for _, v := range flat(vals) {
		if v == null {
			hasNull = true
		} else {
			ids = append(ids, v)
		}
	}
	return func(sel *sql.Selector, pg bool, col string) frag {
		var fs []frag
		if len(ids) > 0 {
			t := sel.Quote(f.RelTable)
			fs = append(fs, fr(col+" IN (WITH RECURSIVE filter_tree(id) AS (SELECT id FROM "+t+
				" WHERE id IN (?) UNION SELECT ftr.id FROM "+t+" ftr JOIN filter_tree ON ftr."+sel.Quote(f.RelParent)+
				" = filter_tree.id) SELECT id FROM filter_tree)", ids))
		}
		if hasNull {
			fs = append(fs, fr(col+" IS NULL"))
		}
		return join(" OR ", fs)
	}
}

// tagCond: tag=a&tag=b needs both, tag__any either, tag__n neither.
func (s *Spec) tagCond(lookup string, vals []any, walk bool) cond {
	return func(sel *sql.Selector, pg bool) frag {
		tagged := func(ids []any) frag {
			if walk {
				return fr("EXISTS (SELECT 1 FROM "+sel.Quote(s.TagTable)+" fti WHERE fti.object_type = ? AND fti.object_id = "+
					sel.C("id")+" AND fti.tag_id IN (?))", s.ObjectType, ids)
			}
			return fr(sel.C("id")+" IN (SELECT fti.object_id FROM "+sel.Quote(s.TagTable)+
				" fti WHERE fti.object_type = ? AND fti.tag_id IN (?))", s.ObjectType, ids)
		}
		if lookup == "" {
			fs := make([]frag, len(vals))
			for i, v := range vals {
				fs[i] = tagged(v.([]any))
			}
			return join(" AND ", fs)
		}
		return negate(tagged(flat(vals)), lookup == "n")
	}
}

// denseTags reports whether a tag filter should walk the list's order
// and probe each row's tags (EXISTS) rather than collect the tagged rows
// and sort them (IN): on SQLite only, whose planner takes the IN list as
// the driver whatever its size. Tagged rows that are a fair share of the
// table (1 in denseShare or more: a page of 50 is found within a few
// thousand rows of the ordering's index) are walked; rarer ones, which a
// walk would look for through the whole index, are collected. Counted up
// to the threshold only, and cached with the other lookups until the next
// write. The negation (tag__n) keeps its NOT IN.
func (s *Spec) denseTags(ctx context.Context, opt Options, lookup string, vals []any) (bool, error) {
	if opt.Dialect == dialect.Postgres || lookup == "n" || opt.Exec == nil || s.Table == "" || s.TagTable == "" {
		return false, nil
	}
	groups := [][]any{flat(vals)} // tag__any: one group
	if lookup == "" {
		groups = groups[:0]
		for _, v := range vals {
			l, _ := v.([]any)
			groups = append(groups, l)
		}
	}
	for _, g := range groups {
		if len(g) == 0 {
			return false, nil
		}
		ph := strings.TrimSuffix(strings.Repeat("?, ", len(g)), ", ")
		table := quoteIdent(s.Table)
		query := `SELECT count(*) >= (SELECT COALESCE(MAX(id), 0) FROM ` + table + `) / ` + strconv.Itoa(denseShare) +
			` FROM (SELECT 1 FROM ` + quoteIdent(s.TagTable) + ` WHERE object_type = ? AND tag_id IN (` + ph + `) LIMIT (SELECT COALESCE(MAX(id), 0) FROM ` +
			table + `) / ` + strconv.Itoa(denseShare) + ` + 1)`
		args := append([]any{s.ObjectType}, g...)
		load := func() (any, error) {
			dense := false
			_, err := QueryRow(ctx, opt.Exec, query, args, &dense)
			return dense, err
		}
		v, err := opt.cached("dense:"+query+fmt.Sprint(args), load)
		if err != nil {
			return false, err
		}
		if !v.(bool) {
			return false, nil
		}
	}
	return true, nil
}

// denseShare: tagged rows are walked from one in denseShare of the table.
const denseShare = 64

// frag is SQL text whose '?' are replaced, in order, by args when rendered.
// Text is built at render time from quoted identifiers only; values always
// travel as arguments.
type frag struct {
	sql  string
	args []any
}

func fr(s string, args ...any) frag { return frag{s, args} }

func cat(fs ...frag) frag {
	var out frag
	for _, f := range fs {
		out.sql += f.sql
		out.args = append(out.args, f.args...)
	}
	return out
}

func join(sep string, fs []frag) frag {
	if len(fs) == 1 {
		return fs[0]
	}
	out := fr("(")
	for i, f := range fs {
		if i > 0 {
			out = cat(out, fr(sep))
		}
		out = cat(out, f)
	}
	return cat(out, fr(")"))
}

// not negates like Django's exclude(): rows where the condition is unknown
// (NULL operand, missing custom field) are kept.
func not(f frag) frag { return cat(fr("NOT COALESCE("), f, fr(", FALSE)")) }

func negate(f frag, neg bool) frag {
	if neg {
		return not(f)
	}
	return f
}

func (f frag) pred(pg bool) *sql.Predicate {
	return sql.P(func(b *sql.Builder) {
		parts := strings.Split(f.sql, "?")
		for i, p := range parts {
			b.WriteString(p)
			if i == len(parts)-1 {
				break
			}
			switch a := f.args[i].(type) {
			case []any: // IN lists
				b.Args(a...)
			case time.Time:
				if pg {
					b.Arg(a)
				} else {
					b.Arg(canonTS(a))
				}
			default:
				b.Arg(a)
			}
		}
	})
}

// anyOf ORs one comparison per value (repeated parameter = OR).
func anyOf(pg bool, op frag, lookup string, vals []any) frag {
	fs := make([]frag, len(vals))
	for i, v := range vals {
		fs[i] = cmp(pg, op, lookup, v)
	}
	return join(" OR ", fs)
}

var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// cmp compares op with one value. Case-insensitive lookups fold both sides
// in Unicode (the value in Go) so SQLite and PostgreSQL agree; LIKE
// wildcards in the value are escaped.
func cmp(pg bool, op frag, lookup string, v any) frag {
	if v == null {
		return cat(op, fr(" IS NULL"))
	}
	s, _ := v.(string)
	switch lookup {
	case "lt", "lte", "gt", "gte":
		return cat(op, fr(map[string]string{"lt": " < ?", "lte": " <= ?", "gt": " > ?", "gte": " >= ?"}[lookup], v))
	case "ic", "isw", "iew":
		p := likeEscaper.Replace(strings.ToLower(s))
		if lookup != "isw" {
			p = "%" + p
		}
		if lookup != "iew" {
			p += "%"
		}
		like := fr(` LIKE ? ESCAPE '\'`, p)
		if pg {
			// LOWER(col) is the expression of the trigram indexes
			// (ent/resource/searchindex.go): keep the two in step.
			if lit, ok := pgLiteral(p); ok {
				like = fr(` LIKE ` + lit + ` ESCAPE '\'`)
			}
			return cat(fr("LOWER("), op, fr(")"), like)
		}
		return sqliteFolded(op, cat(op, like), cat(fr("inventory_lower("), op, fr(")"), like))
	case "ie":
		if pg {
			if lit, ok := pgLiteral(strings.ToLower(s)); ok {
				return cat(fr("LOWER("), op, fr(") = "+lit))
			}
			return cat(fr("LOWER("), op, fr(") = ?", strings.ToLower(s)))
		}
		eq := fr(" = ?", strings.ToLower(s))
		return sqliteFolded(op, cat(fr("LOWER("), op, fr(")"), eq), cat(fr("inventory_lower("), op, fr(")"), eq))
	case "regex":
		if pg {
			return cat(op, fr(" ~ ?", s))
		}
		return cat(op, fr(" REGEXP ?", s))
	case "iregex":
		if pg {
			return cat(op, fr(" ~* ?", s))
		}
		return cat(op, fr(" REGEXP ?", "(?i)"+s))
	}
	return cat(op, fr(" = ?", v))
}

// pgLiteral renders s as a PostgreSQL string constant (an escape string,
// whatever standard_conforming_strings says; '?' written as \x3f, as a
// frag's text may hold no '?' of its own), false for text a constant
// cannot hold (a NUL, invalid UTF-8), which stays a bind parameter.
//
// The text searches compare with a constant rather than a parameter
// because PostgreSQL plans a prepared statement once for any value after
// a few executions (the generic plan): for LOWER(col) LIKE $1 it cannot
// know that the pattern is selective, so it walks the ordering's index
// and filters every row (q over 100,000 prefixes: 58 ms) instead of
// asking the column's trigram index (5 ms). The custom field filters
// render their keys as constants for the same reason (cfJSON).
func pgLiteral(s string) (string, bool) {
	if strings.ContainsRune(s, 0) || !utf8.ValidString(s) {
		return "", false
	}
	var b strings.Builder
	b.WriteString("E'")
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '\'':
			b.WriteString(`''`)
		case '?':
			b.WriteString(`\x3f`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteString("'")
	return b.String(), true
}

// sqliteFolded is a case-insensitive comparison on SQLite that leaves
// inventory_lower, the Go callback folding Unicode, to the rows that need
// it: ascii is the comparison under SQLite's own folding (LIKE ignores
// ASCII case, LOWER folds ASCII), unicode the same through
// inventory_lower. The callback, a cgo round trip per row and column, made
// q and the i-lookups scan at a fraction of SQLite's speed (issue 15: 8x
// to 12x slower over 100,000 rows than this form).
//
// ascii OR (op has a multi-byte character AND unicode) is unicode exactly:
//   - an ASCII value folds the same either way (the pattern is folded by
//     Go already, and a non-ASCII pattern matches no ASCII value);
//   - when ascii holds for a non-ASCII value, unicode holds too: its
//     non-ASCII characters equal the pattern's, which are lower case
//     already and stay as they are;
//   - length counts characters (up to a NUL), octet_length bytes: they
//     differ when the value has a multi-byte character (or a NUL, which
//     merely takes the callback too).
//
// NULL stays NULL (unknown), as before. TestCaseFoldingUnicode pins it.
func sqliteFolded(op, ascii, unicode frag) frag {
	return cat(fr("("), ascii, fr(" OR (length("), op, fr(") <> octet_length("), op, fr(") AND "), unicode, fr("))"))
}

// Search returns the Func of a `q` filter: a case-insensitive substring
// match over columns (OR). The last value counts, like NetBox's CharFilter;
// a blank or whitespace-only q is no filter. A Filter's Search field
// (Spec.buildSearch) is the same filter with the trigram index's walk
// decided per request; this Func drives the query with the candidates.
func Search(columns ...string) func(lookup string, values []string) (func(*sql.Selector), error) {
	return func(_ string, values []string) (func(*sql.Selector), error) {
		return searchPred(columns, values, trigramPlan{}), nil
	}
}

// buildSearch builds the predicate of a filter with Search columns.
func (s *Spec) buildSearch(ctx context.Context, f *Filter, raw []string, opt Options) (func(*sql.Selector), error) {
	v := raw[len(raw)-1]
	if strings.TrimSpace(v) == "" {
		return nil, nil
	}
	plan, err := s.planTrigrams(ctx, opt, f.Search, []string{v})
	if err != nil {
		return nil, err
	}
	return searchPred(f.Search, raw, plan), nil
}

func searchPred(columns, values []string, plan trigramPlan) func(*sql.Selector) {
	v := values[len(values)-1]
	if strings.TrimSpace(v) == "" {
		return nil
	}
	return where(func(sel *sql.Selector, pg bool) frag {
		return prefiltered(sel, pg, columns, []string{v}, plan, func(noIndex bool) frag {
			fs := make([]frag, len(columns))
			for i, c := range columns {
				col := sel.C(c)
				if noIndex {
					col = pgNoIndex(col)
				}
				fs[i] = cmp(pg, fr(col), "ic", v)
			}
			return join(" OR ", fs)
		})
	})
}

// SearchRelated is Search that also matches the rows that a row of table
// points at through its column key when one of that row's columns
// related contains the value (a circuit's q: NetBox's
// terminations__xconnect_id__icontains, ...).
func SearchRelated(columns []string, table, key string, related []string) func(lookup string, values []string) (func(*sql.Selector), error) {
	return func(_ string, values []string) (func(*sql.Selector), error) {
		v := values[len(values)-1]
		if strings.TrimSpace(v) == "" {
			return nil, nil
		}
		return where(func(sel *sql.Selector, pg bool) frag {
			var fs, rs []frag
			for _, c := range columns {
				fs = append(fs, cmp(pg, fr(sel.C(c)), "ic", v))
			}
			for _, c := range related {
				rs = append(rs, cmp(pg, fr(`r.`+quoteIdent(c)), "ic", v))
			}
			sub := cat(fr(sel.C("id")+` IN (SELECT r.`+quoteIdent(key)+` FROM `+quoteIdent(table)+` r WHERE `), join(" OR ", rs), fr(")"))
			return join(" OR ", append(fs, sub))
		}), nil
	}
}

// quoteIdent quotes an SQL identifier (SQLite and PostgreSQL alike).
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// SearchOrNumber is Search that also matches the rows whose integer
// columns numbers equal the value when it is a whole number, as NetBox's
// searches that try int(value) do (an ASN's number, a VLAN translation
// rule's VLAN IDs).
func SearchOrNumber(columns, numbers []string) func(lookup string, values []string) (func(*sql.Selector), error) {
	return func(_ string, values []string) (func(*sql.Selector), error) {
		v := values[len(values)-1]
		if strings.TrimSpace(v) == "" {
			return nil, nil
		}
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		return where(func(sel *sql.Selector, pg bool) frag {
			var fs []frag
			for _, c := range columns {
				fs = append(fs, cmp(pg, fr(sel.C(c)), "ic", v))
			}
			if err == nil {
				for _, c := range numbers {
					fs = append(fs, cmp(pg, fr(sel.C(c)), "", n))
				}
			}
			return join(" OR ", fs)
		}), nil
	}
}

// textLookups are the lookups that compare text.
var textLookups = map[string]bool{"ic": true, "isw": true, "iew": true, "ie": true, "regex": true, "iregex": true}

// intChoices says whether every choice value is an integer: the column is
// then an integer one.
func intChoices(cs []string) bool {
	for _, c := range cs {
		if _, err := strconv.Atoi(c); err != nil {
			return false
		}
	}
	return len(cs) > 0
}
