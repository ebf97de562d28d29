package filters

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
)

// SQLite substring search through an index (issue 15).
//
// A B-tree cannot serve LIKE '%text%', so on SQLite q and the ic / isw /
// iew / ie lookups scanned every row. An FTS5 table with the trigram
// tokenizer can: resource.SearchIndexes creates one per model over the
// columns its q searches (contentless, kept by triggers on the model's
// table, so every write path — ent, hooks' raw SQL, bulk — keeps it in the
// same transaction), and the searches here add
//
//	id IN (SELECT rowid FROM <table>_search WHERE <table>_search MATCH '{cols} : ("nee" "dle")')
//
// as a candidate prefilter in front of the exact predicate, which stays as
// it was: results are NetBox's icontains etc. exactly, whatever the
// index holds.
//
// Why FTS5 rather than lower-cased companion columns: a companion column
// only makes the scan cheaper (SQLite's LIKE already folds ASCII natively,
// sqliteFolded), it is still a scan of every row; a trigram index reads the
// rows that contain the needle's trigrams only.
//
// The prefilter is exact as a superset: the index stores each column
// folded by inventory_lower (the same Go folding as the exact predicate)
// and the tokenizer is case-sensitive, so a row's indexed text contains
// the folded needle exactly when the folded column does. Letting FTS5 fold
// (case_sensitive 0) instead would not be: its Unicode folding differs
// from Go's for a few characters (U+0130 'İ' lowers to 'i' in Go), and a
// row could then be missing from the candidates.
//
// Not prefiltered, and scanned as before:
//   - needles shorter than 3 characters (a trigram index has no key for
//     them);
//   - the negations (ic__n, ...): the complement of a candidate superset is
//     no superset of the complement, so an index of what matches cannot
//     say what does not;
//   - columns outside the model's q columns, lookups through related
//     tables, and builds of go-sqlite3 without FTS5 (the sqlite_fts5 build
//     tag, which the Makefile sets), where the registry below stays empty.

// sqliteSearch maps a table to the columns of its trigram index.
var sqliteSearch sync.Map // string -> map[string]bool

// SearchIndexSuffix names a table's trigram index: "<table>_search".
const SearchIndexSuffix = "_search"

// IndexedSearch records that table has a trigram index (SearchIndexSuffix)
// of columns on SQLite, kept in step by triggers; the searches on those
// columns then prefilter through it. Called by the migration once the
// index exists.
func IndexedSearch(table string, columns []string) {
	m := make(map[string]bool, len(columns))
	for _, c := range columns {
		m[c] = true
	}
	sqliteSearch.Store(table, m)
}

// minTrigramNeedle is the shortest needle (in characters) a trigram index
// can look up.
const minTrigramNeedle = 3

// trigramMatch is the FTS5 query that finds the candidates of a
// substring search for any of needles in columns of table, false when
// table has no index over all of them or a needle is too short.
func trigramMatch(table string, columns []string, needles []string) (string, bool) {
	if len(needles) == 0 || len(columns) == 0 {
		return "", false
	}
	v, ok := sqliteSearch.Load(table)
	if !ok {
		return "", false
	}
	indexed := v.(map[string]bool)
	for _, c := range columns {
		if !indexed[c] {
			return "", false
		}
	}
	groups := make([]string, len(needles))
	for i, n := range needles {
		n = strings.ToLower(n)
		if utf8.RuneCountInString(n) < minTrigramNeedle || strings.ContainsRune(n, 0) {
			return "", false
		}
		groups[i] = "(" + strings.Join(trigramCover(n), " ") + ")"
	}
	return "{" + strings.Join(columns, " ") + "} : (" + strings.Join(groups, " OR ") + ")", true
}

// trigramPrefilter is the candidate prefilter of a substring search for
// any of needles in columns of sel's table, false when there is none
// (trigramMatch): plan's (planTrigrams), or when plan is for no table or
// another one (a predicate built without the Spec's table or database),
// the covering trigrams, driven. plan.walk renders it so that SQLite walks
// the list's order and probes each row's id in the candidates instead of
// reading the candidates and sorting them.
func trigramPrefilter(sel *sql.Selector, columns, needles []string, plan trigramPlan) (frag, bool) {
	table := selectorTable(sel)
	if plan.match == "" || plan.table != table {
		match, ok := trigramMatch(table, columns, needles)
		if !ok {
			return frag{}, false
		}
		plan = trigramPlan{table: table, match: match}
	}
	id := sel.C("id")
	if plan.walk {
		id = "+" + id // a unary plus: no index may serve the IN
	}
	fts := quoteIdent(table + SearchIndexSuffix)
	return fr(id+" IN (SELECT rowid FROM "+fts+" WHERE "+fts+" MATCH ?)", plan.match), true
}

// trigramPlan is the SQLite trigram prefilter of a substring search: the
// FTS5 query that finds its candidates ("" for none) on table, and
// whether to walk the list's order rather than drive the query with them.
type trigramPlan struct {
	table, match string
	walk         bool
}

// planTrigrams plans the trigram prefilter of a search for any of needles
// in columns of the Spec's table (SQLite only; trigramMatch says which
// searches have one).
//
// Which trigrams: FTS5 reads the whole doclist of every trigram of its
// query, and trigrams common to every row (`val`, `alu`, `lue` of
// "value-42" in a custom field whose values are all "value-<n>") hold
// the whole table: the three covering trigrams of "value-42" took 0.96 ms
// at 100,000 prefixes, its rarest one alone ("-42", 1,004 rows) 0.04 ms.
// So each trigram of a needle (of its first maxProbed) is counted, up to
// maxMatchCount, in one statement. A needle with trigrams rarer than that
// is looked up by its rarest ones (at most rareTrigrams, none over 4
// times as common as the rarest); a needle without any by its covering
// trigrams (trigramCover), as each holds most rows anyway. Any trigrams
// of the needle make a superset of the rows that hold it; the exact
// predicate decides.
//
// Walk or drive: driving costs each candidate a row read, the exact
// predicate and a place in the sort (about 2.5µs at 100,000 prefixes:
// 1,000 candidates take 2.8 ms); walking costs each row of the order's
// index passed over a probe of the candidates' Bloom filter (about 45ns),
// and a page of 50 is found within 50·N/C rows of a table of N rows with C
// candidates. Walking is cheaper from C² > N·50·45/2500, about C > √N: 317
// candidates at 100,000 rows (a page of candidates that rare: 0.06 ms
// driven, against 4.4 ms for a walk of the whole index). SQLite's planner
// takes the candidates' IN list as the driver whatever its size, as with
// tags (denseTags). The candidates of the chosen trigrams are counted (up
// to maxMatchCount) in a second statement: one trigram alone can leave
// many more candidates than rows that match, and a walk is only cheap
// when many match.
//
// The plan is cached with the other lookups until the next write: counts
// move slowly, and a stale plan costs time, never results. Without a
// database to ask (opt.Exec nil), the covering trigrams are driven.
func (s *Spec) planTrigrams(ctx context.Context, opt Options, columns, needles []string) (trigramPlan, error) {
	if opt.Dialect != dialect.SQLite || s.Table == "" {
		return trigramPlan{}, nil
	}
	cover, ok := trigramMatch(s.Table, columns, needles)
	if !ok {
		return trigramPlan{}, nil
	}
	if opt.Exec == nil {
		return trigramPlan{table: s.Table, match: cover}, nil
	}
	v, err := opt.cached("trigrams:"+s.Table+":"+cover, func() (any, error) {
		return s.countTrigrams(ctx, opt, columns, needles, cover)
	})
	if err != nil {
		return trigramPlan{}, err
	}
	return v.(trigramPlan), nil
}

func (s *Spec) countTrigrams(ctx context.Context, opt Options, columns, needles []string, cover string) (trigramPlan, error) {
	fts := quoteIdent(s.Table + SearchIndexSuffix)
	scope := "{" + strings.Join(columns, " ") + "} : "
	counted := "(SELECT count(*) FROM (SELECT 1 FROM " + fts + " WHERE " + fts + " MATCH ? LIMIT " + strconv.Itoa(maxMatchCount) + "))"
	var args []any
	trigrams := make([][]string, len(needles))
	sel := []string{"(SELECT COALESCE(MAX(id), 0) FROM " + quoteIdent(s.Table) + ")"}
	for i, n := range needles {
		trigrams[i] = trigramsOf(strings.ToLower(n))
		// A long needle is judged by its first trigrams: each count
		// reads up to maxMatchCount entries.
		trigrams[i] = trigrams[i][:min(len(trigrams[i]), maxProbed)]
		for _, t := range trigrams[i] {
			sel = append(sel, counted)
			args = append(args, scope+t)
		}
	}
	counts := make([]int64, len(sel))
	dst := make([]any, len(counts))
	for i := range counts {
		dst[i] = &counts[i]
	}
	if _, err := QueryRow(ctx, opt.Exec, "SELECT "+strings.Join(sel, ", "), args, dst...); err != nil {
		return trigramPlan{}, err
	}
	rows, k := counts[0], 1
	groups := make([]string, len(needles))
	for i, ts := range trigrams {
		// The needle's rare trigrams, rarest first, at most rareTrigrams.
		var rare []int
		for j := range ts {
			if counts[k+j] < maxMatchCount {
				rare = append(rare, j)
			}
		}
		slices.SortStableFunc(rare, func(a, b int) int { return int(counts[k+a] - counts[k+b]) })
		if len(rare) == 0 {
			groups[i] = "(" + strings.Join(trigramCover(strings.ToLower(needles[i])), " ") + ")"
		} else {
			// The rarest, and those at most 4 times as common (each costs
			// its doclist; the commoner ones narrow little).
			var terms []string
			for _, j := range rare[:min(len(rare), rareTrigrams)] {
				if counts[k+j] <= 4*counts[k+rare[0]] {
					terms = append(terms, ts[j])
				}
			}
			groups[i] = "(" + strings.Join(terms, " ") + ")"
		}
		k += len(ts)
	}
	plan := trigramPlan{table: s.Table, match: scope + "(" + strings.Join(groups, " OR ") + ")"}
	var c int64
	if _, err := QueryRow(ctx, opt.Exec, "SELECT "+counted, []any{plan.match}, &c); err != nil {
		return trigramPlan{}, err
	}
	plan.walk = c*c > rows
	return plan, nil
}

// rareTrigrams bounds the trigrams of a needle that planTrigrams looks
// up: each costs its doclist, and a few rare ones leave few candidates.
// maxProbed bounds those it counts.
const rareTrigrams, maxProbed = 3, 24

// QueryRow scans the first row of query into dst, reporting whether there
// was one (dst is left as it was when there was none). The resource layer
// reads its one-row statements through it too.
func QueryRow(ctx context.Context, q Querier, query string, args []any, dst ...any) (bool, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	if !rows.Next() {
		return false, rows.Err()
	}
	if err := rows.Scan(dst...); err != nil {
		return false, err
	}
	return true, rows.Close()
}

// trigramsOf are the distinct trigrams of needle, quoted for FTS5.
func trigramsOf(needle string) []string {
	r := []rune(needle)
	var out []string
	for i := 0; i+minTrigramNeedle <= len(r); i++ {
		t := `"` + strings.ReplaceAll(string(r[i:i+minTrigramNeedle]), `"`, `""`) + `"`
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// maxMatchCount bounds the counts of planTrigrams: enough to tell √N for
// tables of up to 16 million rows.
const maxMatchCount = 4096

// trigramCover is the FTS5 query (an implicit AND) of trigrams that cover
// needle without overlapping (the last one overlaps when the length is no
// multiple of 3): every row containing the needle contains them all, so
// it is a superset like the phrase of all its trigrams would be, at a
// fraction of the cost. FTS5 reads the doclist of every token of a query,
// and a phrase also checks their positions: "benchmark prefix 1234" is 19
// trigrams, most of them in every row of the bench's 10,000 prefixes (23 ms
// as a phrase, under 1 ms as its 7 covering trigrams, for 5 candidates
// instead of 1, which the exact predicate then sorts out).
func trigramCover(needle string) []string {
	r := []rune(needle)
	var out []string
	for i := 0; i < len(r); i += minTrigramNeedle {
		j := i
		if j+minTrigramNeedle > len(r) {
			j = len(r) - minTrigramNeedle
		}
		out = append(out, `"`+strings.ReplaceAll(string(r[j:j+minTrigramNeedle]), `"`, `""`)+`"`)
	}
	return out
}

// selectorTable is the table sel reads ("" when it reads nothing; a
// subquery's alias, which names no indexed table, when it reads one).
func selectorTable(sel *sql.Selector) string {
	if sel.Table() == nil {
		return ""
	}
	return sel.TableName()
}

// prefiltered puts the trigram prefilter of needles in columns in front
// of the exact condition, render(false). On SQLite that is the FTS5
// lookup of plan (trigramPrefilter). On PostgreSQL it is pgTrigramCover, and the
// exact condition is rendered on an expression the trigram indexes do not
// hold, render(true), so that the planner reads the indexes for the
// prefilter's few trigrams rather than for all of the needle's.
func prefiltered(sel *sql.Selector, pg bool, columns, needles []string, plan trigramPlan, render func(noIndex bool) frag) frag {
	if pg {
		if pre, ok := pgTrigramCover(sel, columns, needles); ok {
			return cat(fr("("), pre, fr(" AND "), render(true), fr(")"))
		}
		return render(false)
	}
	e := render(false)
	if pre, ok := trigramPrefilter(sel, columns, needles, plan); ok {
		return cat(fr("("), pre, fr(" AND "), e, fr(")"))
	}
	return e
}

// pgTrigramCover is PostgreSQL's counterpart of the FTS5 prefilter: for
// each column, LOWER(column) LIKE the needle's covering trigrams in order
// with anything between them ('%ben%chm%ark% pr%efi%x 1234%' for
// "benchmark prefix 1234": runs of 3, the last with what is left). pg_trgm looks up the trigrams of a LIKE
// pattern's literal runs only, so the index reads 8 trigrams' lists
// instead of the 19 of the needle, most of which, in data whose values
// share words, hold every row (q over 100,000 prefixes: 27 ms to 6.7 ms
// in EXPLAIN ANALYZE on a loaded machine). A row holding the needle holds
// its covering trigrams in that order, so the prefilter is a superset and
// the exact condition decides. Needles shorter than a trigram, or that a
// constant cannot hold, are not prefiltered.
func pgTrigramCover(sel *sql.Selector, columns []string, needles []string) (frag, bool) {
	if len(needles) == 0 || len(columns) == 0 {
		return frag{}, false
	}
	var fs []frag
	for _, n := range needles {
		n = strings.ToLower(n)
		r := []rune(n)
		if len(r) < minTrigramNeedle {
			return frag{}, false
		}
		// Consecutive runs of 3, the last taking the 1 or 2 left over
		// (runs may not overlap: LIKE matches them one after another).
		var parts []string
		for i := 0; i < len(r); i += minTrigramNeedle {
			j := i + minTrigramNeedle
			if len(r)-j < minTrigramNeedle {
				j = len(r)
			}
			parts = append(parts, likeEscaper.Replace(string(r[i:j])))
			if j == len(r) {
				break
			}
		}
		lit, ok := pgLiteral("%" + strings.Join(parts, "%") + "%")
		if !ok {
			return frag{}, false
		}
		for _, c := range columns {
			fs = append(fs, fr("LOWER("+sel.C(c)+") LIKE "+lit+` ESCAPE '\'`))
		}
	}
	return join(" OR ", fs), true
}

// pgNoIndex is column c as an expression no index holds (c || ”): the
// same value, NULL for NULL.
func pgNoIndex(c string) string { return "(" + c + " || '')" }

// SQLiteSearchIndex is the DDL of table's trigram index over columns: its
// CREATE VIRTUAL TABLE statement as sqlite_master keeps it (a migration
// compares it to tell whether the index is current), and the statements
// that (re)build the index from the table's rows and create the triggers
// that keep it.
//
// The index is contentless (an empty content option): it holds no second
// copy of the text; contentless_delete lets the triggers delete a row by its id. The
// triggers store each column folded by inventory_lower under a
// case-sensitive tokenizer (why: the top of this file). They run in the
// writing statement's transaction, whatever wrote the row.
func SQLiteSearchIndex(table string, columns []string) (create string, build []string) {
	fts := quoteIdent(table + SearchIndexSuffix)
	cols := make([]string, len(columns))
	folded := make([]string, len(columns))
	for i, c := range columns {
		cols[i] = quoteIdent(c)
		folded[i] = "inventory_lower(%s" + quoteIdent(c) + ")"
	}
	create = fmt.Sprintf("CREATE VIRTUAL TABLE %s USING fts5(%s, content='', contentless_delete=1, tokenize='trigram case_sensitive 1')",
		fts, strings.Join(cols, ", "))
	values := func(prefix string) string {
		return strings.ReplaceAll(strings.Join(folded, ", "), "%s", prefix)
	}
	insert := fmt.Sprintf("INSERT INTO %s(rowid, %s) VALUES (new.id, %s);", fts, strings.Join(cols, ", "), values("new."))
	del := fmt.Sprintf("DELETE FROM %s WHERE rowid = old.id;", fts)
	trigger := func(suffix string) string { return quoteIdent(table + SearchIndexSuffix + suffix) }
	t := quoteIdent(table)
	build = append(DropSearchTriggers(table),
		"DROP TABLE IF EXISTS "+fts,
		create,
		fmt.Sprintf("INSERT INTO %s(rowid, %s) SELECT id, %s FROM %s", fts, strings.Join(cols, ", "), values(""), t),
		fmt.Sprintf("CREATE TRIGGER %s AFTER INSERT ON %s BEGIN %s END", trigger("_ai"), t, insert),
		fmt.Sprintf("CREATE TRIGGER %s AFTER DELETE ON %s BEGIN %s END", trigger("_ad"), t, del),
		fmt.Sprintf("CREATE TRIGGER %s AFTER UPDATE OF %s ON %s BEGIN %s %s END", trigger("_au"), strings.Join(cols, ", "), t, del, insert),
	)
	return create, build
}

// searchTriggerSuffixes name the three triggers that keep a table's trigram
// index: after insert, delete and update.
var searchTriggerSuffixes = []string{"_ai", "_ad", "_au"}

// SearchTriggerNames are the (unquoted) names of the triggers that keep
// table's trigram index.
func SearchTriggerNames(table string) []string {
	out := make([]string, len(searchTriggerSuffixes))
	for i, s := range searchTriggerSuffixes {
		out[i] = table + SearchIndexSuffix + s
	}
	return out
}

// DropSearchTriggers are the statements that drop table's trigram index
// triggers. A binary built without FTS5 runs them at Migrate: the triggers
// write into an FTS5 table, so on a database a tagged build migrated they
// would fail every write of the table ("no such module: fts5"). Dropping a
// trigger does not need the module; the FTS5 table itself stays (dropping
// it would), and the next tagged Migrate sees the triggers missing and
// rebuilds the index from the rows.
func DropSearchTriggers(table string) []string {
	var out []string
	for _, n := range SearchTriggerNames(table) {
		out = append(out, "DROP TRIGGER IF EXISTS "+quoteIdent(n))
	}
	return out
}
