package filters

import (
	"fmt"
	"regexp"

	"entgo.io/ent/dialect/sql"
)

// Cond builds a predicate against a selector at query time, when the
// selector's table alias and dialect are known. Conds combine with And and
// Or, which query-string filters (func(*sql.Selector)) cannot.
type Cond func(sel *sql.Selector) *sql.Predicate

// Where applies a Cond as a filter predicate.
func (c Cond) Where() func(*sql.Selector) {
	return func(sel *sql.Selector) { sel.Where(c(sel)) }
}

// AndConds and OrConds combine Conds.
func AndConds(cs ...Cond) Cond {
	return func(sel *sql.Selector) *sql.Predicate {
		ps := make([]*sql.Predicate, len(cs))
		for i, c := range cs {
			ps[i] = c(sel)
		}
		if len(ps) == 1 {
			return ps[0]
		}
		return sql.And(ps...)
	}
}

// OrConds ORs Conds; no Conds matches nothing.
func OrConds(cs ...Cond) Cond {
	return func(sel *sql.Selector) *sql.Predicate {
		if len(cs) == 0 {
			return sql.P(func(b *sql.Builder) { b.WriteString("1 = 0") })
		}
		ps := make([]*sql.Predicate, len(cs))
		for i, c := range cs {
			ps[i] = c(sel)
		}
		if len(ps) == 1 {
			return ps[0]
		}
		return sql.Or(ps...)
	}
}

// DjangoLookups maps the Django lookups that permission constraints use
// onto the query-string language's lookups (BEHAVIOUR.md §4.1: constraints
// are ORM-style lookups).
var DjangoLookups = map[string]string{
	"": "", "exact": "", "iexact": "ie", "in": "", "lt": "lt", "lte": "lte", "gt": "gt", "gte": "gte",
	"icontains": "ic", "istartswith": "isw", "iendswith": "iew", "contains": "c", "startswith": "sw",
	"endswith": "ew", "regex": "regex", "iregex": "iregex", "isnull": "isnull",
}

// Lookup compares a column of the selector's table with a value under a
// Django lookup ("" is exact; "in" takes a list), building the same SQL as
// the query-string filters so both databases agree. Values are plain Go
// values (string, int, float64, bool, nil, []any for "in").
func Lookup(column, lookup string, value any) (Cond, error) {
	base, ok := DjangoLookups[lookup]
	if !ok {
		return nil, fmt.Errorf("Unsupported lookup '%s'", lookup)
	}
	var vals []any
	switch {
	case lookup == "in":
		list, ok := value.([]any)
		if !ok {
			return nil, fmt.Errorf("the lookup 'in' needs a list")
		}
		vals = list
	case lookup == "isnull":
		b, ok := value.(bool)
		if !ok {
			return nil, fmt.Errorf("the lookup 'isnull' needs true or false")
		}
		return func(sel *sql.Selector) *sql.Predicate {
			if b {
				return sql.IsNull(sel.C(column))
			}
			return sql.NotNull(sel.C(column))
		}, nil
	default:
		if _, isList := value.([]any); isList {
			return nil, fmt.Errorf("the lookup '%s' needs a single value", lookup)
		}
		vals = []any{value}
	}
	for i, v := range vals {
		if v == nil {
			vals[i] = null
		}
		if s, ok := v.(string); ok && (base == "regex" || base == "iregex") {
			if _, err := regexp.Compile(s); err != nil {
				return nil, invalid("Enter a valid regular expression.")
			}
		}
	}
	return func(sel *sql.Selector) *sql.Predicate {
		pg := sel.Dialect() == "postgres"
		op := fr(sel.C(column))
		if len(vals) == 0 {
			return fr("1 = 0").pred(pg)
		}
		switch base {
		case "c", "sw", "ew":
			fs := make([]frag, len(vals))
			for i, v := range vals {
				fs[i] = caseSensitive(pg, op, base, fmt.Sprint(v))
			}
			return join(" OR ", fs).pred(pg)
		}
		return anyOf(pg, op, base, vals).pred(pg)
	}, nil
}

// caseSensitive is contains/startswith/endswith without LIKE, whose case
// sensitivity differs between the databases.
func caseSensitive(pg bool, op frag, lookup, s string) frag {
	pos := "instr("
	if pg {
		pos = "strpos("
	}
	switch lookup {
	case "sw":
		return cat(fr("substr("), op, fr(", 1, ?) = ?", len([]rune(s)), s))
	case "ew":
		n := len([]rune(s))
		if n == 0 {
			return fr("1 = 1")
		}
		return cat(fr("substr("), op, fr(", -?) = ?", n, s))
	}
	return cat(fr(pos), op, fr(", ?) > 0", s))
}

// In matches rows whose column is among the ids of table selected by inner
// (a related object's attributes: tenant__slug). Subqueries are not
// correlated, so an unaliased table (even the outer one) is unambiguous.
func In(column, table string, inner Cond) Cond {
	return func(sel *sql.Selector) *sql.Predicate {
		t := sql.Table(table)
		sub := sql.Dialect(sel.Dialect()).Select(t.C("id")).From(t)
		sub.Where(inner(sub))
		return sql.In(sel.C(column), sub)
	}
}

// InJoin matches rows whose id appears in ownCol of a join table row
// matching cond (evaluated on the join table) and the extra equalities
// (many-to-many relations; tags with their object type).
func InJoin(joinTable, ownCol string, extra map[string]any, cond Cond) Cond {
	return func(sel *sql.Selector) *sql.Predicate {
		j := sql.Table(joinTable)
		sub := sql.Dialect(sel.Dialect()).Select(j.C(ownCol)).From(j)
		for k, v := range extra {
			sub.Where(sql.EQ(sub.C(k), v))
		}
		sub.Where(cond(sub))
		return sql.In(sel.C("id"), sub)
	}
}
