package ipam

import (
	"database/sql"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// Where a run of used numbers ends, in one statement (Points' run).
//
// No database keeps the rank of an index entry, so proving that n numbers
// in a row are used means stepping over n index entries; what can be
// saved is the statements and the rows sent back. The statement below
// walks the sorted distinct used numbers inside the database with a
// recursive CTE: each step asks for the k-th distinct number at or after
// the first one not yet known to be used (an index seek, then k entries
// stepped: `SELECT DISTINCT col … ORDER BY col LIMIT 1 OFFSET k-1`), and
// when it is the number the run would have there, all k are used and the
// walk moves on by k; when not, the step shrinks (1024, 32, 1) and the
// walk ends when a step of 1 misses: the number it asked for is free. The
// run is stepped over about once, plus at most 2 × 1024 entries around
// its end, in one statement whatever its length (the galloping OFFSET
// probes it replaces stepped over it three to five times, in a statement
// each: 19 to 31 statements for 50,000 used addresses).
//
// The comparisons need "the number at offset o from the walk's start" in
// SQL. Integers (ASNs) add; a 16-byte host has no arithmetic on either
// database, so the walk stays inside one aligned block of 2^32 numbers
// (hosts sharing their first 12 bytes: the whole IPv4 space is one) and
// builds the last 4 bytes from an integer: SQLite's
// unhex(printf('%08X', n)), PostgreSQL's int8send(n) cut to its last 4
// bytes. A run that crosses such a block (IPv6 only) takes one statement
// per block. On both databases each probe is an index seek and a range
// of the index read in order (EXPLAIN: SQLite "SEARCH … USING COVERING
// INDEX", PostgreSQL an Index Only Scan under Unique and Limit).

// runSteps are the walk's step sizes, largest first; the last must be 1.
var runSteps = []int{1024, 32, 1}

// runStatement is the walk over the distinct values of col. Its SQL
// pieces use numbered placeholders (P), so each is written once and may
// be repeated: filter is "FROM t WHERE … AND ", at(o) the SQL value at
// offset o (an SQL integer expression), never equal to a stored value
// when o is past the window; max is the window's size (no probe starts
// past it).
//
// The probes have a lower bound only: on PostgreSQL a range of two bounds
// one of which is an expression is estimated at 0.5% of the rows, fewer
// than a step, and the planner then sorts a bitmap scan of the whole
// range instead of stepping the index (750 ms instead of 5 for 50,000
// used); one bound is estimated at a third. A probe may then find a
// value past the window (past the parent's span): the comparison with
// at() is exact, so the walk only counts values that are there, and the
// run it reports may reach past the span, which Gaps allows.
type runStatement struct {
	filter string
	col    string
	at     func(o string) string
	max    int64
}

// numbered is a rawsql.Args whose placeholders carry their number ("?3"
// on SQLite), so that a piece of SQL may appear more than once.
type numbered struct{ rawsql.Args }

// P adds v and returns its placeholder.
func (a *numbered) P(v any) string {
	a.List = append(a.List, v)
	if a.PG {
		return "$" + strconv.Itoa(len(a.List))
	}
	return "?" + strconv.Itoa(len(a.List))
}

// sql is the statement; its one row is the count of used values from
// offset 0 (the walk's largest g).
func (s runStatement) sql() string {
	probe := func(g string, k int) string {
		return "(SELECT DISTINCT " + s.col + " " + s.filter + s.col + " >= " + s.at(g) +
			" ORDER BY " + s.col + " LIMIT 1 OFFSET " + strconv.Itoa(k-1) + ")"
	}
	// probes is the probe for step k at offset g (SQL expressions), NULL
	// at the window's end.
	probes := func(g, k string) string {
		var b strings.Builder
		b.WriteString("CASE WHEN " + g + " >= " + strconv.FormatInt(s.max, 10) + " THEN NULL")
		for _, st := range runSteps {
			b.WriteString(" WHEN " + k + " = " + strconv.Itoa(st) + " THEN " + probe(g, st))
		}
		b.WriteString(" END")
		return b.String()
	}
	// Each row holds its probe p; the next row moves on by k when p is
	// the value the run has there, else shrinks k (1024/32 = 32/1).
	ok := "(p = " + s.at("g + k - 1") + ")"
	g2 := "(g + CASE WHEN " + ok + " THEN k ELSE 0 END)"
	k2 := "(CASE WHEN " + ok + " THEN k ELSE k / " + strconv.Itoa(runSteps[0]/runSteps[1]) + " END)"
	first := strconv.Itoa(runSteps[0])
	return "WITH RECURSIVE hop(g, k, p) AS (SELECT 0, " + first + ", " + probes("0", first) +
		" UNION ALL SELECT " + g2 + ", " + k2 + ", " + probes(g2, k2) + " FROM hop WHERE k > 0)" +
		" SELECT max(g) FROM hop"
}

// hostRun is the run of used hosts from from (at most to last) among the
// rows filter selects (filter(P) is "FROM … WHERE … AND "): the offsets
// are those of from's last 4 bytes, inside from's block of 2^32, so that
// the value at an offset is from's first 12 bytes and 4 bytes made of an
// integer. Past the block the 4 bytes wrap (PostgreSQL) or are 5 and the
// value NULL (SQLite): below from, or nothing, never a stored host.
func hostRun(pg bool, filter func(P func(any) string) string, from, last Num) (string, *rawsql.Args) {
	a := &numbered{rawsql.Args{PG: pg}}
	end := from.or(mask(32))
	if last.Less(end) {
		end = last
	}
	s := runStatement{col: "host", max: int64(end.Sub(from).Lo + 1), // at most 2^32
		filter: filter(a.P)}
	top := from.Bytes()[:12]
	low := a.P(int64(from.Lo & 0xFFFFFFFF))
	if pg {
		// bytea || bytea; int8send is the 8-byte big-endian form.
		t := a.P(top)
		s.at = func(o string) string {
			return "(" + t + "::bytea || substring(int8send(" + low + "::bigint + " + o + ") from 5 for 4))"
		}
	} else {
		// unhex of a hex text is a blob (|| of blobs would be text); an
		// odd number of digits makes NULL.
		t := a.P(strings.ToUpper(hex.EncodeToString(top)))
		s.at = func(o string) string { return "unhex(" + t + " || printf('%08X', " + low + " + " + o + "))" }
	}
	return s.sql(), &a.Args
}

// intRun is runStatement for an integer column (ASNs) over [from, last].
func intRun(pg bool, filter func(P func(any) string) string, col string, from, last uint64) (string, *rawsql.Args) {
	a := &numbered{rawsql.Args{PG: pg}}
	s := runStatement{col: col, max: int64(last - from + 1), filter: filter(a.P)}
	f := a.P(int64(from))
	if pg {
		f += "::bigint"
	}
	s.at = func(o string) string { return "(" + f + " + " + o + ")" }
	return s.sql(), &a.Args
}

// runEnd runs a run statement that starts at from: the first number
// after the used ones it counted (free, or the first past its window; Max
// when that overflows).
func runEnd(r api.Request, q string, a *rawsql.Args, from Num) (Num, error) {
	var n sql.NullInt64
	if err := query(r, q, a, func(rows *sql.Rows) error { return rows.Scan(&n) }); err != nil {
		return Num{}, err
	}
	next, over := from.Add(NumOf(uint64(n.Int64)))
	if over {
		return Max, nil
	}
	return next, nil
}
