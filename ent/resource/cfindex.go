package resource

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"entgo.io/ent"
	"entgo.io/ent/dialect"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/filters"
)

// DESIGN: custom field filters through expression indexes.
//
// A cf_<name> filter compares a value extracted from the row's
// custom_field_data JSON (filters.cfJSON): without an index every list
// extracts it from every row, for the page and for its count (issue 15:
// 0.78 s at p50 on SQLite at 17,569 prefixes). Each custom field therefore
// gets, on every table of its object types, an index on exactly the
// expression its filter renders, filters.CFIndexes: the typed value
// (json_extract(custom_field_data, '$."name"') on SQLite; ->> with a
// number-guarded ::numeric cast for numbers on PostgreSQL) in a B-tree for
// the equality, repeated-value (OR) and range lookups, followed by the
// table's ordering terms so that an equality's page is read in order
// (cfIndexStatement), and on PostgreSQL a
// pg_trgm GIN on LOWER of the text for loose text fields, whose default
// lookup is a substring match (on SQLite their B-tree is scanned instead
// of the table: see filters.CFIndexes).
//
// Rather than the alternatives:
//   - a side table of (object type, object id, field, typed value) would
//     have to follow every write of custom_field_data (creates, PATCHes,
//     bulk writes, hooks' raw SQL, defaults filled in) in the same
//     transaction, and the filters would become a join or a subquery:
//     another copy of the data to keep right, for the same index lookups;
//   - a jsonb_path_ops GIN on the whole column serves only containment
//     (@>), i.e. equality on PostgreSQL: not ranges, not substrings, and
//     nothing on SQLite.
//
// The filters keep their expressions (and so their results, pinned by the
// filter and conformance suites); the field's key became a literal instead
// of a bind parameter, because a planner matches an index only against the
// same expression with the same constants. filters' TestCustomFieldIndexes
// and server's TestCustomFieldIndexes ask each database's planner whether
// the indexes serve the filters, so they fail when the two drift apart.
//
// The indexes follow the definitions: CustomFieldIndexHook reconciles them
// after every write of a custom field that changes its name, type, filter
// logic or object types, or deletes it, inside that write's transaction
// (CREATE INDEX, not CONCURRENTLY, which no transaction may run); Migrate
// does it for a database made before this code. The index names carry a
// hash of their definition, so a field whose type changes gets a new
// index and loses the old; any "cfidx_" index no field asks for is
// dropped. Fields whose filters no index can serve (booleans, date/times,
// multi-valued, JSON) get none: see filters.CFIndexes.

// customFieldColumn is the JSON column of a model's custom field values.
const customFieldColumn = "custom_field_data"

// cfIndexPrefix names the indexes this file owns.
const cfIndexPrefix = "cfidx_"

// CustomFieldIndexes makes the custom field indexes of the database match
// its custom fields: it creates the missing ones and drops those no field
// asks for any more.
func CustomFieldIndexes(ctx context.Context, ex SQLExecer, dia string) error {
	cfd := ByContentType("extras.customfield")
	if cfd == nil {
		return nil
	}
	pg := dia == dialect.Postgres
	trgm := false
	if pg {
		n, err := queryStrings(ctx, ex, "SELECT extname FROM pg_extension WHERE extname = 'pg_trgm'")
		if err != nil {
			return fmt.Errorf("custom field indexes: %w", err)
		}
		trgm = len(n) > 0
	}
	rows, err := ex.QueryContext(ctx, "SELECT name, type, filter_logic, object_types FROM "+quote(cfd.Table))
	if err != nil {
		return fmt.Errorf("custom field indexes: %w", err)
	}
	want := map[string]string{} // index name → CREATE INDEX statement
	for rows.Next() {
		var cf filters.CustomField
		var types any
		if err := rows.Scan(&cf.Name, &cf.Type, &cf.FilterLogic, &types); err != nil {
			rows.Close()
			return fmt.Errorf("custom field indexes: %w", err)
		}
		var cts []string
		if s := rawsql.StringOf(types); s != "" {
			if err := json.Unmarshal([]byte(s), &cts); err != nil {
				rows.Close()
				return fmt.Errorf("custom field indexes: object_types of %s: %w", cf.Name, err)
			}
		}
		for _, ct := range cts {
			d := ByContentType(ct)
			if d == nil || !d.Custom {
				continue
			}
			for _, x := range filters.CFIndexes(cf, customFieldColumn, pg) {
				if x.Trigram && !trgm {
					continue
				}
				name, stmt := cfIndexStatement(d.Table, cf.Name, x, orderingTerms(d, dia))
				want[name] = stmt
			}
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("custom field indexes: %w", err)
	}
	list := `SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'cfidx\_%' ESCAPE '\'`
	if pg {
		list = `SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE 'cfidx\_%' ESCAPE '\'`
	}
	have, err := queryStrings(ctx, ex, list)
	if err != nil {
		return fmt.Errorf("custom field indexes: %w", err)
	}
	var stmts []string
	for _, n := range have {
		if _, ok := want[n]; ok {
			delete(want, n)
		} else {
			stmts = append(stmts, "DROP INDEX IF EXISTS "+quote(n))
		}
	}
	creates := make([]string, 0, len(want))
	for _, s := range want {
		creates = append(creates, s)
	}
	sort.Strings(stmts)
	sort.Strings(creates)
	for _, s := range append(stmts, creates...) {
		if _, err := ex.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("custom field index: %s: %w", s, err)
		}
	}
	return nil
}

// cfIndexStatement is the name and CREATE INDEX statement of index x of
// custom field field on table: "cfidx_<table>_<field>_<hash>", the hash
// of the definition, the whole within PostgreSQL's 63 bytes. A B-tree
// continues with the terms of the table's default ordering (order, as
// OrderingIndexes makes them): a value selects about 1% of 100,000
// prefixes, and with those terms its page is the index's first 50
// entries for that value, where the value alone fetches and sorts all
// 1,000 rows for each page.
func cfIndexStatement(table, field string, x filters.CFIndex, order string) (name, stmt string) {
	using, col := "", "("+x.Expr+")"
	switch {
	case x.Trigram:
		using, col = " USING gin", col+" gin_trgm_ops"
	case order != "":
		col += ", " + order
	}
	h := sha1.Sum([]byte(table + "\x00" + using + "\x00" + col))
	base := cfIndexPrefix + table + "_" + strings.ToLower(field)
	if len(base) > 54 {
		base = base[:54]
	}
	name = base + "_" + hex.EncodeToString(h[:4])
	return name, fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s%s (%s)", quote(name), quote(table), using, col)
}

// orderingTerms are the terms of d's ordering index ("" when it has
// none), as its statement has them.
func orderingTerms(d *Descriptor, dia string) string {
	stmt := d.orderingIndex(dia)
	on := " ON " + quote(d.Table) + " ("
	i := strings.Index(stmt, on)
	if i < 0 || !strings.HasSuffix(stmt, ")") {
		return ""
	}
	return stmt[i+len(on) : len(stmt)-1]
}

func queryStrings(ctx context.Context, q SQLExecer, query string) ([]string, error) {
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// CustomFieldIndexHook keeps the custom field indexes in step with the
// custom fields (CustomFieldIndexes), in the writing transaction. It is a
// client-level hook (ent/db installs it) rather than one of the custom
// field schema's hooks because it needs the registry (tables of object
// types) and the filters' expressions, which the schema may not import.
func CustomFieldIndexHook() ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if m.Type() != "CustomField" || (!m.Op().Is(ent.OpDelete|ent.OpDeleteOne) &&
				!rawsql.Touched(m, "name", "type", "filter_logic", "object_types")) {
				return next.Mutate(ctx, m)
			}
			v, err := next.Mutate(ctx, m)
			if err != nil {
				return v, err
			}
			sm, err := rawsql.As("custom field indexes", m)
			if err != nil {
				return v, err
			}
			return v, CustomFieldIndexes(ctx, sm, sm.DriverDialect())
		})
	}
}
