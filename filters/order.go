package filters

import (
	"regexp"
	"slices"
	"strings"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
)

// OrderTerm is one ORDER BY term. Column is a column of the main table or an
// SQL expression; Text columns are compared byte-wise on both databases.
type OrderTerm struct {
	Column string
	Desc   bool
	Text   bool
}

// Order parses ?ordering= ("name,-created"): unknown names are dropped and,
// when none remain, Default applies. A final id term makes the order total
// so that pages never overlap.
func (s *Spec) Order(param string) []OrderTerm {
	terms := s.terms(strings.Split(param, ","), false)
	if len(terms) == 0 {
		terms = s.terms(s.Default, true)
	}
	if !slices.ContainsFunc(terms, func(t OrderTerm) bool { return t.Column == "id" }) {
		terms = append(terms, OrderTerm{Column: "id"})
	}
	return terms
}

func (s *Spec) terms(names []string, columnsToo bool) []OrderTerm {
	var out []OrderTerm
	seen := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		desc := strings.HasPrefix(n, "-")
		n = strings.TrimPrefix(n, "-")
		col, ok := s.Ordering[n]
		if !ok && columnsToo && n != "" {
			col, ok = n, true // Default may name columns directly
		}
		if !ok || seen[col] {
			continue
		}
		seen[col] = true
		out = append(out, OrderTerm{Column: col, Desc: desc, Text: s.isText(col)})
	}
	return out
}

func (s *Spec) isText(col string) bool {
	if slices.Contains(s.Text, col) {
		return true
	}
	// A filter through a relation (Through) compares a column of the
	// related row; its own Column is the key, no text.
	return slices.ContainsFunc(s.Filters, func(f *Filter) bool {
		return (f.Kind == String || f.Kind == Choice) && f.Column == col && f.Through == nil
	})
}

var identRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ApplyOrder adds terms to sel so that both databases order alike: NULLs
// placed as PostgreSQL (and so NetBox) does by default, last ascending and
// first descending, pinned explicitly because SQLite's default is the
// opposite; text in byte order (SQLite's BINARY, PostgreSQL's "C"), because
// PostgreSQL's default collation follows the locale.
func ApplyOrder(sel *sql.Selector, terms []OrderTerm) {
	pg := sel.Dialect() == dialect.Postgres
	for _, t := range terms {
		col := t.Column
		if identRe.MatchString(col) {
			col = sel.C(col)
		}
		if t.Text && pg {
			col += ` COLLATE "C"`
		}
		if t.Desc {
			col += " DESC NULLS FIRST"
		} else {
			col += " ASC NULLS LAST"
		}
		sel.OrderExpr(sql.Expr(col))
	}
}
