package filters

import (
	"strings"
	"sync"
	"unicode/utf8"

	"entgo.io/ent/dialect/sql"
)

// PostgreSQL prefix and exact text searches through a B-tree (issue 15).
//
// The trigram indexes (ent/resource/searchindex.go) serve isw and ie by
// intersecting the lists of every trigram of the needle. When the values
// share a long prefix ("Benchmark prefix 1", "Benchmark prefix 2", ...)
// most of those lists hold the whole table, and a search for one value
// read them all (isw over 100,000 prefixes: 3.6x an indexed equality).
// A B-tree on the lower-cased text (text_pattern_ops, so that LIKE
// 'abc%' is a range whatever the collation) answers both with a range.
// It holds the first PrefixLen characters only: a B-tree entry must fit
// in a third of a page, and a comments column may be longer. So the
// B-tree's condition is a prefilter on those first characters, put in
// front of the exact predicate, which stays as it was: results are
// NetBox's istartswith and iexact exactly.

// PrefixLen is how many lower-cased characters the prefix B-trees hold.
const PrefixLen = 200

// pgPrefix maps a table to its columns with a prefix B-tree.
var pgPrefix sync.Map

// IndexedPrefix records that table has a prefix B-tree (PrefixIndexExpr)
// on each of columns on PostgreSQL. Called by the migration.
func IndexedPrefix(table string, columns []string) {
	m := make(map[string]bool, len(columns))
	for _, c := range columns {
		m[c] = true
	}
	pgPrefix.Store(table, m)
}

// PrefixIndexExpr is the indexed expression of column's prefix B-tree.
func PrefixIndexExpr(column string) string {
	return "LEFT(LOWER(" + quoteIdent(column) + "), 200) text_pattern_ops"
}

// prefixPrefilter is the B-tree prefilter of lookup (isw or ie) for any
// of needles in column of sel's table, false when there is none.
func prefixPrefilter(sel *sql.Selector, column, lookup string, needles []string) (frag, bool) {
	if (lookup != "isw" && lookup != "ie") || len(needles) == 0 {
		return frag{}, false
	}
	v, ok := pgPrefix.Load(selectorTable(sel))
	if !ok || !v.(map[string]bool)[column] {
		return frag{}, false
	}
	expr := "LEFT(LOWER(" + sel.C(column) + "), 200)"
	fs := make([]frag, len(needles))
	for i, n := range needles {
		n = strings.ToLower(n)
		if utf8.RuneCountInString(n) > PrefixLen {
			n = string([]rune(n)[:PrefixLen])
		}
		pattern, op := n, " = "
		if lookup == "isw" {
			pattern, op = likeEscaper.Replace(n)+"%", " LIKE "
		}
		lit, ok := pgLiteral(pattern)
		if !ok {
			return frag{}, false
		}
		if lookup == "isw" {
			lit += ` ESCAPE '\'`
		}
		fs[i] = fr(expr + op + lit)
	}
	return join(" OR ", fs), true
}
