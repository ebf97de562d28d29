package resource

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/inventory/inventory/filters"
)

// Named filter kinds of schemas whose filters are not a column comparison
// (api.Filter.Kind). Each works on SQLite and PostgreSQL; JSON columns are
// read with json_each (SQLite) or the jsonb functions (PostgreSQL).
func init() {
	// scope-id: <scope type>=<id>, NetBox's NumberFilter(method='filter_scope'):
	// rows whose <Column>_type is Target and <Column>_id the value.
	FilterKinds["scope-id"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		if decl.Target == "" || d.byName[decl.Column+"_type"] == nil || d.byName[decl.Column+"_id"] == nil {
			return nil
		}
		tcol, icol := d.byName[decl.Column+"_type"].Column, d.byName[decl.Column+"_id"].Column
		return numberFilter(decl.Name, func(n int64) func(*sql.Selector) {
			return func(s *sql.Selector) { s.Where(sql.And(sql.EQ(s.C(tcol), decl.Target), sql.EQ(s.C(icol), n))) }
		})
	}
	// int-ranges-contains: an integer inside any [lower, upper] pair (both
	// inclusive, as the API shows them) of a JSON list of pairs.
	FilterKinds["int-ranges-contains"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		col := d.column(decl.Column)
		return numberFilter(decl.Name, func(n int64) func(*sql.Selector) {
			return func(s *sql.Selector) {
				if s.Dialect() == dialect.Postgres {
					s.Where(rawPred("EXISTS (SELECT 1 FROM jsonb_array_elements("+s.C(col)+"::jsonb) r "+
						"WHERE (r.value->>0)::bigint <= ? AND (r.value->>1)::bigint >= ?)", n, n))
					return
				}
				s.Where(rawPred("EXISTS (SELECT 1 FROM json_each("+s.C(col)+") r "+
					"WHERE json_extract(r.value, '$[0]') <= ? AND json_extract(r.value, '$[1]') >= ?)", n, n))
			}
		})
	}
	// content-types-contains: a JSON list of "app.model" holds one of the
	// values (NetBox's MultiValueContentTypeFilter over a many-to-many of
	// object types); see contentTypeFilter for the lookups.
	FilterKinds["content-types-contains"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		col := d.column(decl.Column)
		return contentTypeFilter(decl.Name, func(s *sql.Selector, cts []any) *sql.Predicate {
			return jsonElementIn(s, col, cts)
		}, nil)
	}
	// json-list-int: the JSON list of objects in Column (a front port's
	// rear_ports, NetBox's mappings table seen from one side) has an
	// element whose integer key Attr matches, as Django's join through
	// the mappings does (rear_port_id: mappings__rear_port): exact (any
	// of the values), lt/lte/gt/gte, n (no element matches), empty (no
	// element has the key). The lookups NetBox lists for the filter stay
	// (netboxOnly).
	FilterKinds["json-list-int"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		if decl.Attr == "" || d.byName[decl.Column] == nil {
			return nil
		}
		col, key := d.column(decl.Column), decl.Attr
		ops := map[string]string{"": "=", "n": "=", "lt": "<", "lte": "<=", "gt": ">", "gte": ">="}
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{"n", "lt", "lte", "gt", "gte", "empty"},
			Func: func(lookup string, values []string) (func(*sql.Selector), error) {
				if lookup == "empty" {
					return emptyFilter(values, func(s *sql.Selector) *sql.Predicate {
						return sql.Not(jsonListHas(s, col, key, "IS NOT NULL", nil))
					})
				}
				nums := make([]any, 0, len(values))
				for _, v := range values {
					n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
					if err != nil {
						return nil, errors.New("Enter a whole number.")
					}
					nums = append(nums, n)
				}
				return func(s *sql.Selector) {
					ps := make([]*sql.Predicate, len(nums))
					for i, n := range nums {
						ps[i] = jsonListHas(s, col, key, ops[lookup]+" ?", n)
					}
					p := sql.Or(ps...)
					if lookup == "n" {
						p = sql.Not(p)
					}
					s.Where(p)
				}, nil
			}}
	}
	// strings-has: a boolean filter on a JSON list of strings (Column):
	// true keeps the rows whose list holds Attr, false the others, as
	// NetBox's permission can_view (actions__contains=[action]). A value
	// that is no boolean is a 400 (filters.BoolValue).
	FilterKinds["strings-has"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		if decl.Attr == "" || d.byName[decl.Column] == nil {
			return nil
		}
		col, elem := d.column(decl.Column), []any{decl.Attr}
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				b, err := filters.BoolValue(values[len(values)-1])
				if err != nil {
					return nil, err
				}
				return func(s *sql.Selector) {
					p := jsonElementIn(s, col, elem)
					if !b {
						p = sql.Not(coalesceFalse(p))
					}
					s.Where(p)
				}, nil
			}}
	}
	// m2m-reverse: the reverse side of another model's many-to-many field
	// (Target's field Column, whose target is this model): rows related to
	// a Target row by its id, or by its Attr when given (groups' user_id:
	// the groups having that user). __n: related to none of them.
	FilterKinds["m2m-reverse"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		t := byType[decl.Target]
		if t == nil {
			return nil
		}
		f := t.byName[decl.Column]
		if f == nil || f.Kind != KindM2M || f.target != d {
			return nil
		}
		attr, numeric := "id", true
		if decl.Attr != "" && decl.Attr != "id" {
			af := t.byName[decl.Attr]
			if af == nil || af.Column == "" {
				return nil
			}
			attr, numeric = af.Column, af.Kind == KindInt
		}
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{"n"},
			Func: m2mMatch(f.Join, f.JoinTarget, f.JoinOwn, t.Table, attr, numeric)}
	}
	// m2m-attr: rows related through this model's many-to-many field Column
	// to a row whose Attr is one of the values (interfaces' vdc_identifier:
	// vdcs__identifier). __n: related to none of them.
	FilterKinds["m2m-attr"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		f := d.byName[decl.Column]
		if f == nil || f.Kind != KindM2M {
			return nil
		}
		af := f.target.byName[decl.Attr]
		if af == nil || af.Column == "" {
			return nil
		}
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{"n"},
			Func: m2mMatch(f.Join, f.JoinOwn, f.JoinTarget, f.target.Table, af.Column, af.Kind == KindInt || af.Kind == KindID)}
	}
	// tagged-type: tags applied to at least one object of the given types
	// (TagFilterSet._content_type).
	FilterKinds["tagged-type"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				cts := contentTypes(values)
				return func(s *sql.Selector) {
					if len(cts) == 0 {
						s.Where(sql.False())
						return
					}
					s.Where(sql.In(s.C("id"), sql.Select("tag_id").From(sql.Table("extras_taggeditem")).
						Where(sql.In("object_type", cts...))))
				}, nil
			}}
	}
	// choice-set-choice: a JSON list of [value, label] pairs holds one of
	// the values. NetBox's extra_choices__overlap flattens the pairs, so a
	// label matches too.
	FilterKinds["choice-set-choice"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		col := d.column(decl.Column)
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				vals := make([]any, len(values))
				for i, v := range values {
					vals[i] = v
				}
				return func(s *sql.Selector) {
					in := strings.TrimSuffix(strings.Repeat("?, ", len(vals)), ", ")
					if s.Dialect() == dialect.Postgres {
						s.Where(rawPred("EXISTS (SELECT 1 FROM jsonb_array_elements("+s.C(col)+"::jsonb) p, "+
							"jsonb_array_elements_text(CASE WHEN jsonb_typeof(p.value) = 'array' THEN p.value ELSE '[]'::jsonb END) e "+
							"WHERE e.value IN ("+in+"))", vals...))
						return
					}
					s.Where(rawPred("EXISTS (SELECT 1 FROM json_each("+s.C(col)+") p, json_each(p.value) e "+
						"WHERE e.value IN ("+in+"))", vals...))
				}, nil
			}}
	}
	// strings-contains: the JSON list of strings in Column holds the
	// value (the last one given), as NetBox's CharFilter with
	// features__contains=[value] (an object type's features).
	FilterKinds["strings-contains"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		col := d.column(decl.Column)
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				v := []any{values[len(values)-1]}
				return func(s *sql.Selector) { s.Where(jsonElementIn(s, col, v)) }, nil
			}}
	}
	// json-values-choice: a JSON object has one of the values (validated
	// against Choices) among its values (choice_colors: a choice's color).
	FilterKinds["json-values-choice"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		col := d.column(decl.Column)
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				vals := make([]any, len(values))
				for i, v := range values {
					if !slices.Contains(decl.Choices, v) {
						return nil, fmt.Errorf("Select a valid choice. %s is not one of the available choices.", v)
					}
					vals[i] = v
				}
				return func(s *sql.Selector) {
					in := strings.TrimSuffix(strings.Repeat("?, ", len(vals)), ", ")
					if s.Dialect() == dialect.Postgres {
						s.Where(rawPred("EXISTS (SELECT 1 FROM jsonb_each_text(CASE WHEN jsonb_typeof("+s.C(col)+
							"::jsonb) = 'object' THEN "+s.C(col)+"::jsonb ELSE '{}'::jsonb END) e WHERE e.value IN ("+in+"))", vals...))
						return
					}
					s.Where(rawPred("EXISTS (SELECT 1 FROM json_each("+s.C(col)+") e WHERE e.value IN ("+in+"))", vals...))
				}, nil
			}}
	}
}

// column is the column of the API field name (or name itself).
func (d *Descriptor) column(name string) string {
	if f := d.byName[name]; f != nil && f.Column != "" {
		return f.Column
	}
	return name
}

// numberFilter is Django's NumberFilter with a method: the last value
// counts, a number is required, a fraction matches nothing.
func numberFilter(name string, pred func(n int64) func(*sql.Selector)) *filters.Filter {
	return &filters.Filter{Name: name, Kind: filters.Custom, Lookups: []string{},
		Func: func(_ string, values []string) (func(*sql.Selector), error) {
			f, err := strconv.ParseFloat(strings.TrimSpace(values[len(values)-1]), 64)
			if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
				return nil, errors.New("Enter a number.")
			}
			if f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
				return none, nil
			}
			return pred(int64(f)), nil
		}}
}

// contentTypeLookups are the lookups NetBox generates for a
// MultiValueContentTypeFilter (a MultiValueCharFilter's); netboxOnly keeps
// those NetBox lists for each filter.
var contentTypeLookups = []string{"n", "ic", "nic", "iew", "niew", "isw", "nisw", "ie", "nie", "empty", "regex", "iregex"}

// contentTypeFilter is NetBox's MultiValueContentTypeFilter: each value
// names an object type "app.model" (case-insensitive; a value that names
// none matches nothing), and a row matches when match says it has one of
// them. NetBox's filter() ignores the lookup: object_type__ic=dcim.site,
// __isw, __regex ... all match the type dcim.site exactly, and so they do
// here (object_type__regex=^dcim matches nothing there and here). The
// negated lookups (n, nic, ...) exclude those rows here; NetBox drops the
// negation too (its filter() calls qs.filter, never exclude), which would
// make object_type__n=dcim.site keep exactly the dcim.site rows. empty,
// given a column test (empty != nil), is a boolean on having no type.
func contentTypeFilter(name string, match func(s *sql.Selector, cts []any) *sql.Predicate, empty func(s *sql.Selector) *sql.Predicate) *filters.Filter {
	f := contentTypeFilterOf(name, match, empty)
	ctMatchers.Store(f, ctMatch{match, empty})
	return f
}

// ctMatchers holds the match of every filter contentTypeFilter made, for
// its id twin (contentTypeIDTwin).
var ctMatchers sync.Map // *filters.Filter → ctMatch

// ctMatch is how a content type filter matches its values, and its empty
// lookup's predicate (nil without one).
type ctMatch struct {
	match func(*sql.Selector, []any) *sql.Predicate
	empty func(*sql.Selector) *sql.Predicate
}

// contentTypeIDTwin is the "<name>_id" filter beside a content type
// filter f (NetBox's object_type_id beside object_type: the same rows,
// the object types given by their ids, as /api/core/object-types/ lists
// them), nil when f is no content type filter. An id that names no object
// type matches nothing; one that is no number is a 400, as NetBox's
// MultiValueNumberFilter.
func contentTypeIDTwin(f *filters.Filter) *filters.Filter {
	m, ok := ctMatchers.Load(f)
	if !ok {
		return nil
	}
	match, empty := m.(ctMatch).match, m.(ctMatch).empty
	lookups := []string{"n", "lt", "lte", "gt", "gte"}
	if empty != nil {
		lookups = append(lookups, "empty")
	}
	cmp := map[string]func(a, b int) bool{
		"": func(a, b int) bool { return a == b }, "n": func(a, b int) bool { return a == b },
		"lt": func(a, b int) bool { return a < b }, "lte": func(a, b int) bool { return a <= b },
		"gt": func(a, b int) bool { return a > b }, "gte": func(a, b int) bool { return a >= b },
	}
	return &filters.Filter{Name: f.Name + "_id", Kind: filters.Custom, Lookups: lookups,
		Func: func(lookup string, values []string) (func(*sql.Selector), error) {
			if lookup == "empty" {
				return emptyFilter(values, empty)
			}
			var cts []any
			for _, v := range values {
				id, err := strconv.Atoi(strings.TrimSpace(v))
				if err != nil {
					return nil, errors.New("Enter a whole number.")
				}
				// The object types whose id compares so (one for equality).
				for tid, ct := range objectTypeByID() {
					if cmp[lookup](tid, id) {
						cts = append(cts, ct)
					}
				}
			}
			return func(s *sql.Selector) {
				p := sql.False()
				if len(cts) > 0 {
					p = match(s, cts)
				}
				if lookup == "n" {
					p = sql.Not(coalesceFalse(p))
				}
				s.Where(p)
			}, nil
		}}
}

func contentTypeFilterOf(name string, match func(s *sql.Selector, cts []any) *sql.Predicate, empty func(s *sql.Selector) *sql.Predicate) *filters.Filter {
	lookups := contentTypeLookups
	if empty == nil {
		lookups = slices.DeleteFunc(slices.Clone(lookups), func(l string) bool { return l == "empty" })
	}
	return &filters.Filter{Name: name, Kind: filters.Custom, Lookups: lookups,
		Func: func(lookup string, values []string) (func(*sql.Selector), error) {
			if lookup == "empty" {
				return emptyFilter(values, empty)
			}
			cts := contentTypes(values)
			negated := lookup == "n" || strings.HasPrefix(lookup, "n") && slices.Contains(contentTypeLookups, lookup[1:])
			return func(s *sql.Selector) {
				p := match(s, cts)
				if negated {
					p = sql.Not(coalesceFalse(p))
				}
				s.Where(p)
			}, nil
		}}
}

// emptyFilter is the __empty lookup of a Custom filter: a boolean (the
// last value given) on isEmpty; a word that is no boolean is a 400.
func emptyFilter(values []string, isEmpty func(*sql.Selector) *sql.Predicate) (func(*sql.Selector), error) {
	b, err := filters.BoolValue(values[len(values)-1])
	if err != nil {
		return nil, err
	}
	return func(s *sql.Selector) {
		p := isEmpty(s)
		if !b {
			p = sql.Not(p)
		}
		s.Where(p)
	}, nil
}

// genericTypeFilter is the filter of a generic relation's type column (a
// service's parent_object_type): NetBox's MultiValueContentTypeFilter on
// the column, empty when it holds no type.
func genericTypeFilter(name, col string) *filters.Filter {
	return contentTypeFilter(name, func(s *sql.Selector, cts []any) *sql.Predicate {
		if len(cts) == 0 {
			return sql.False()
		}
		return sql.In(s.C(col), cts...)
	}, func(s *sql.Selector) *sql.Predicate {
		return sql.Or(sql.IsNull(s.C(col)), sql.EQ(s.C(col), ""))
	})
}

// contentTypes lower-cases "app.model" values and drops malformed ones.
func contentTypes(values []string) []any {
	var out []any
	for _, v := range values {
		v = strings.ToLower(strings.TrimSpace(v))
		if app, model, ok := strings.Cut(v, "."); ok && app != "" && model != "" && !strings.Contains(model, ".") {
			out = append(out, v)
		}
	}
	return out
}

// jsonElementIn: the JSON list in col has an element among vals.
func jsonElementIn(s *sql.Selector, col string, vals []any) *sql.Predicate {
	if len(vals) == 0 {
		return sql.False()
	}
	in := strings.TrimSuffix(strings.Repeat("?, ", len(vals)), ", ")
	if s.Dialect() == dialect.Postgres {
		return rawPred("EXISTS (SELECT 1 FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof("+s.C(col)+
			"::jsonb) = 'array' THEN "+s.C(col)+"::jsonb ELSE '[]'::jsonb END) e WHERE e.value IN ("+in+"))", vals...)
	}
	return rawPred("EXISTS (SELECT 1 FROM json_each("+s.C(col)+") e WHERE e.value IN ("+in+"))", vals...)
}

// jsonListHas: the JSON list of objects in col has an element whose
// integer key satisfies cond ("= ?", "IS NOT NULL"), arg bound to its ?.
func jsonListHas(s *sql.Selector, col, key, cond string, arg any) *sql.Predicate {
	var args []any
	if arg != nil {
		args = []any{arg}
	}
	if s.Dialect() == dialect.Postgres {
		return rawPred("EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof("+s.C(col)+
			"::jsonb) = 'array' THEN "+s.C(col)+"::jsonb ELSE '[]'::jsonb END) e WHERE jsonb_typeof(e.value) = 'object' AND (e.value->>'"+
			key+"')::bigint "+cond+")", args...)
	}
	return rawPred("EXISTS (SELECT 1 FROM json_each("+s.C(col)+") e WHERE json_type(e.value) = 'object' AND json_extract(e.value, '$."+
		key+"') "+cond+")", args...)
}

func coalesceFalse(p *sql.Predicate) *sql.Predicate {
	return sql.P(func(b *sql.Builder) { b.WriteString("COALESCE(").Join(p).WriteString(", FALSE)") })
}

// rawPred renders text whose '?' are bound, in order, to args with the
// dialect's placeholders. The text holds only quoted identifiers.
func rawPred(text string, args ...any) *sql.Predicate {
	return sql.P(func(b *sql.Builder) {
		parts := strings.Split(text, "?")
		for i, p := range parts {
			b.WriteString(p)
			if i < len(parts)-1 {
				b.Arg(args[i])
			}
		}
	})
}
