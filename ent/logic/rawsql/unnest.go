package rawsql

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqlgraph"
	"entgo.io/ent/schema/field"
)

// Many-row INSERTs on PostgreSQL bind one array per column, not one
// parameter per value:
//
//	INSERT INTO "t" ("a", "b") SELECT * FROM unnest($1::int8[], $2::text[])
//
// A device of a type with 10 000 interface templates writes 10 000
// interfaces and 10 001 change records. As multi-row VALUES that was about
// 270 000 parameters in 51 statements, each parameter encoded on its own by
// pgx (a type lookup, a length, a copy) and bound and converted on its own
// by the server, and the statement text itself (a "$123, " per value)
// built, sent and parsed each time. As arrays it is 13 or 14 parameters a
// statement, each encoded in one pass, and the statement's text is the
// same whatever the number of rows (one prepared statement a table and
// column set, where VALUES needed one per piece size). The server's work
// per row (heap, indexes, foreign-key triggers) is unchanged, and so are
// the rows stored: every value goes through the same input conversion
// (binary for integers, booleans, floats, timestamps and bytes; text for
// strings; JSON parsed by the server from its text, as before), and a
// column missing from a row is NULL, as it is in ent's batch insert.
//
// The rows' order is kept: unnest returns the arrays' elements in order,
// WITH ORDINALITY numbers them and the INSERT takes them sorted by that
// number, so RETURNING gives the new ids in the order of the rows (what
// ent's bulk create and InsertRowsReturning promise).
//
// SQLite has no arrays; it keeps the multi-row VALUES cut by the
// parameter limit (Batches). A value of a type this file does not map to
// a PostgreSQL array (anything but integers, floats, booleans, strings,
// times, JSON and bytes, and their pointers) sends its whole statement
// the VALUES way, so nothing is ever written differently.

// UnnestRows is the most rows one array INSERT carries: the arrays of one
// statement stay a few megabytes (10 000 change records of ~700 bytes of
// JSON are 7 MB), and more rows a statement save nothing measurable.
const UnnestRows = 4096

// colKind is a column's PostgreSQL array element type.
type colKind int

const (
	kindNone colKind = iota // no non-NULL value and no declared type: NULL
	kindInt
	kindFloat
	kindBool
	kindString
	kindTime
	kindJSON
	kindBytes
)

// cast is the array parameter's type in the statement.
func (k colKind) cast() string {
	switch k {
	case kindInt:
		return "int8[]"
	case kindFloat:
		return "float8[]"
	case kindBool:
		return "bool[]"
	case kindString:
		return "text[]"
	case kindTime:
		return "timestamptz[]"
	case kindJSON:
		// Sent as text, parsed by the server as it parses a JSON
		// parameter; json converts to jsonb on assignment.
		return "text[]::json[]"
	case kindBytes:
		return "bytea[]"
	}
	return ""
}

// fieldKind is the kind of an ent field type; kindNone when the type has
// no array here (UUID, other).
func fieldKind(t field.Type) colKind {
	switch t {
	case field.TypeBool:
		return kindBool
	case field.TypeTime:
		return kindTime
	case field.TypeJSON:
		return kindJSON
	case field.TypeBytes:
		return kindBytes
	case field.TypeString, field.TypeEnum:
		return kindString
	case field.TypeInt8, field.TypeInt16, field.TypeInt32, field.TypeInt, field.TypeInt64,
		field.TypeUint8, field.TypeUint16, field.TypeUint32, field.TypeUint, field.TypeUint64:
		return kindInt
	case field.TypeFloat32, field.TypeFloat64:
		return kindFloat
	}
	return kindNone
}

// plainValue reduces v to nil, int64, float64, bool, string, time.Time,
// json.RawMessage or []byte: pointers followed, driver.Valuer asked, named
// types by their kind. ok is false for anything else.
func plainValue(v any) (any, bool) {
	for range 4 { // a Valuer returning a pointer, at most a few levels
		switch x := v.(type) {
		case nil:
			return nil, true
		case int:
			return int64(x), true
		case int64:
			return x, true
		case int32:
			return int64(x), true
		case int16:
			return int64(x), true
		case int8:
			return int64(x), true
		case uint8:
			return int64(x), true
		case uint16:
			return int64(x), true
		case uint32:
			return int64(x), true
		case float64:
			return x, true
		case float32:
			return float64(x), true
		case bool, string, time.Time, json.RawMessage, []byte:
			return x, true
		case driver.Valuer:
			rv := reflect.ValueOf(x)
			if rv.Kind() == reflect.Pointer && rv.IsNil() {
				return nil, true
			}
			y, err := x.Value()
			if err != nil {
				return nil, false
			}
			v = y
			continue
		}
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Pointer:
			if rv.IsNil() {
				return nil, true
			}
			v = rv.Elem().Interface()
			continue
		case reflect.String:
			return rv.String(), true
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			return rv.Int(), true
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			if u := rv.Uint(); u <= math.MaxInt64 {
				return int64(u), true
			}
		case reflect.Bool:
			return rv.Bool(), true
		case reflect.Float32, reflect.Float64:
			return rv.Float(), true
		}
		return nil, false
	}
	return nil, false
}

// kindOf is the kind a plain value asks for by itself.
func kindOf(v any) colKind {
	switch v.(type) {
	case int64:
		return kindInt
	case float64:
		return kindFloat
	case bool:
		return kindBool
	case string:
		return kindString
	case time.Time:
		return kindTime
	case json.RawMessage:
		return kindJSON
	case []byte:
		return kindBytes
	}
	return kindNone
}

// pgColumn is one column's array of rows[lo:hi].
type pgColumn struct {
	kind colKind
	arr  any
}

// pgArrays turns rows (values by column, in cols order) into one array
// per column. declared gives a column's kind when known (an ent field's
// type: typed even when all its values are NULL); kindNone, or no
// declared at all, takes the kind from the values (NULL in the statement
// when there is none). ok is false when a value does not fit its
// column's kind or has no array here.
func pgArrays(rows [][]any, ncols int, declared []colKind) ([]pgColumn, bool) {
	n := len(rows)
	cols := make([]pgColumn, ncols)
	plain := make([]any, n)
	for j := range ncols {
		kind := kindNone
		if declared != nil {
			kind = declared[j]
		}
		for i, r := range rows {
			v, ok := plainValue(r[j])
			if !ok {
				return nil, false
			}
			plain[i] = v
			if v == nil {
				continue
			}
			vk := kindOf(v)
			switch {
			case kind == kindNone:
				kind = vk
			case vk == kind:
			case kind == kindString && (vk == kindJSON || vk == kindBytes && declared != nil),
				kind == kindJSON && (vk == kindString || vk == kindBytes),
				kind == kindFloat && vk == kindInt && declared != nil:
				// Text given as bytes or JSON, JSON given as text or
				// bytes, an integer for a float column: what the
				// driver converts the same way for the column's type.
			default:
				return nil, false
			}
		}
		arr, ok := makeArray(kind, plain)
		if !ok {
			return nil, false
		}
		cols[j] = pgColumn{kind: kind, arr: arr}
	}
	return cols, true
}

// makeArray builds the typed slice pgx encodes as an array of kind, NULL
// for nil (a nil pointer, or a nil slice for bytes).
func makeArray(kind colKind, vals []any) (any, bool) {
	n := len(vals)
	switch kind {
	case kindNone:
		return nil, true
	case kindInt:
		back, out := make([]int64, n), make([]*int64, n)
		for i, v := range vals {
			if v != nil {
				back[i] = v.(int64)
				out[i] = &back[i]
			}
		}
		return out, true
	case kindFloat:
		back, out := make([]float64, n), make([]*float64, n)
		for i, v := range vals {
			switch x := v.(type) {
			case float64:
				back[i] = x
			case int64:
				back[i] = float64(x)
			default:
				continue
			}
			out[i] = &back[i]
		}
		return out, true
	case kindBool:
		back, out := make([]bool, n), make([]*bool, n)
		for i, v := range vals {
			if v != nil {
				back[i] = v.(bool)
				out[i] = &back[i]
			}
		}
		return out, true
	case kindTime:
		back, out := make([]time.Time, n), make([]*time.Time, n)
		for i, v := range vals {
			if v != nil {
				back[i] = v.(time.Time)
				out[i] = &back[i]
			}
		}
		return out, true
	case kindString, kindJSON:
		if b, ok := byteElements(vals); ok {
			return b, true
		}
		back, out := make([]string, n), make([]*string, n)
		for i, v := range vals {
			switch x := v.(type) {
			case string:
				back[i] = x
			case json.RawMessage:
				back[i] = string(x)
			case []byte:
				back[i] = string(x)
			default:
				continue
			}
			out[i] = &back[i]
		}
		return out, true
	case kindBytes:
		out := make([][]byte, n)
		for i, v := range vals {
			if v != nil {
				b := v.([]byte)
				if b == nil {
					b = []byte{} // a nil slice would be NULL
				}
				out[i] = b
			}
		}
		return out, true
	}
	return nil, false
}

// byteElements is a text array of vals given as bytes, when every value
// is nil (NULL), json.RawMessage or []byte (the change records' and
// outbox events' snapshots and payloads): pgx appends each element's
// bytes as they are, where strings would be copies of them first (7 MB
// a device of a 10 000-interface type).
func byteElements(vals []any) ([][]byte, bool) {
	for _, v := range vals {
		switch v.(type) {
		case nil, json.RawMessage, []byte:
		default:
			return nil, false
		}
	}
	out := make([][]byte, len(vals))
	for i, v := range vals {
		var b []byte
		switch x := v.(type) {
		case nil:
			continue // NULL
		case json.RawMessage:
			b = x
		case []byte:
			b = x
		}
		if b == nil {
			b = []byte{} // an empty value, as its string was, not NULL
		}
		out[i] = b
	}
	return out, true
}

// unnestInsert is the array INSERT of cols into table for cols' kinds, and
// its arguments: a column without any value is NULL in the statement.
func unnestInsert(table string, cols []string, arrays []pgColumn, returning string) (string, []any) {
	var b strings.Builder
	b.WriteString(`INSERT INTO "` + table + `" (`)
	for j, c := range cols {
		if j > 0 {
			b.WriteString(", ")
		}
		b.WriteString(`"` + c + `"`)
	}
	b.WriteString(") SELECT ")
	var args []any
	for j, c := range arrays {
		if j > 0 {
			b.WriteString(", ")
		}
		if c.kind == kindNone {
			b.WriteString("NULL")
			continue
		}
		b.WriteString("u.c" + strconv.Itoa(j))
	}
	b.WriteString(" FROM unnest(")
	var names []string
	for j, c := range arrays {
		if c.kind == kindNone {
			continue
		}
		if len(args) > 0 {
			b.WriteString(", ")
		}
		args = append(args, c.arr)
		b.WriteString("$" + strconv.Itoa(len(args)) + "::" + c.kind.cast())
		names = append(names, "c"+strconv.Itoa(j))
	}
	b.WriteString(") WITH ORDINALITY AS u(" + strings.Join(append(names, "n"), ", ") + ") ORDER BY u.n")
	if returning != "" {
		b.WriteString(` RETURNING "` + returning + `"`)
	}
	return b.String(), args
}

// insertArrays is insertRows on PostgreSQL; ok is false when some value
// has no array here (the caller then writes the VALUES way).
func insertArrays(ctx context.Context, ex Execer, q Querier, table string, cols []string, rows [][]any) (ids []int, ok bool, err error) {
	for _, r := range rows {
		if len(r) != len(cols) {
			return nil, true, fmt.Errorf("insert into %s: a row of %d values for %d columns", table, len(r), len(cols))
		}
	}
	type piece struct {
		query string
		args  []any
		n     int
	}
	// Every piece is converted before the first is sent: a value without
	// an array must not leave half the rows written one way.
	var pieces []piece
	for lo := 0; lo < len(rows); lo += UnnestRows {
		part := rows[lo:min(lo+UnnestRows, len(rows))]
		arrays, ok := pgArrays(part, len(cols), nil)
		if !ok {
			return nil, false, nil
		}
		ret := ""
		if q != nil {
			ret = "id"
		}
		query, args := unnestInsert(table, cols, arrays, ret)
		pieces = append(pieces, piece{query, args, len(part)})
	}
	for _, p := range pieces {
		if q == nil {
			if _, err := ex.ExecContext(ctx, p.query, p.args...); err != nil {
				return nil, true, err
			}
			continue
		}
		got, err := scanIDs(ctx, q, p.query, p.args)
		if err != nil {
			return nil, true, err
		}
		if len(got) != p.n {
			return nil, true, fmt.Errorf("insert into %s: %d rows returned for %d inserted", table, len(got), p.n)
		}
		ids = append(ids, got...)
	}
	return ids, true, nil
}

func scanIDs(ctx context.Context, q Querier, query string, args []any) ([]int, error) {
	rs, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var ids []int
	for rs.Next() {
		var id int
		if err := rs.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rs.Err()
}

// BatchCreate is sqlgraph.BatchCreate, ent's bulk create, which the
// generated CreateBulk builders call (ent/template/create_bulk.tmpl). On
// PostgreSQL it inserts the nodes with array INSERTs (above) and gives
// each node its id, as sqlgraph does; anything that insert cannot carry
// (edges kept in other tables, ids given by the caller, ON CONFLICT, a
// field type without an array) goes to sqlgraph.BatchCreate unchanged, as
// does every batch on SQLite.
func BatchCreate(ctx context.Context, drv dialect.Driver, spec *sqlgraph.BatchCreateSpec) error {
	if drv.Dialect() != dialect.Postgres || len(spec.Nodes) == 0 {
		return sqlgraph.BatchCreate(ctx, drv, spec)
	}
	if len(spec.OnConflict) > 0 {
		return valuesBatchCreate(ctx, drv, spec)
	}
	nodes := spec.Nodes
	table := nodes[0].Table
	kinds := map[string]colKind{}
	values := make([]map[string]any, len(nodes))
	for i, node := range nodes {
		if node.Table != table || node.Schema != "" || node.ID == nil || node.ID.Value != nil ||
			!node.ID.Type.Numeric() || node.ID.Column == "" {
			return valuesBatchCreate(ctx, drv, spec)
		}
		vals := make(map[string]any, len(node.Fields)+len(node.Edges))
		for _, fi := range node.Fields {
			k := fieldKind(fi.Type)
			if k == kindNone {
				return valuesBatchCreate(ctx, drv, spec)
			}
			v := fi.Value
			if fi.Type == field.TypeJSON {
				// As sqlgraph stores a JSON field: json.Marshal's
				// output, nil marshalled to null.
				buf, err := json.Marshal(v)
				if err != nil {
					return fmt.Errorf("marshal value for column %s: %w", fi.Column, err)
				}
				v = json.RawMessage(buf)
			}
			vals[fi.Column] = v
			kinds[fi.Column] = k
		}
		for _, e := range node.Edges {
			// Only the edges whose key is a column of this row (the
			// ones sqlgraph's setTableColumns writes): the others need
			// statements of their own.
			if len(e.Columns) != 1 || len(e.Target.Nodes) != 1 ||
				!(e.Rel == sqlgraph.M2O || e.Rel == sqlgraph.O2O && (e.Inverse || e.Bidi)) {
				return valuesBatchCreate(ctx, drv, spec)
			}
			vals[e.Columns[0]] = e.Target.Nodes[0]
			if _, ok := kinds[e.Columns[0]]; !ok {
				kinds[e.Columns[0]] = kindNone // from the values
			}
		}
		values[i] = vals
	}
	if len(kinds) == 0 {
		return valuesBatchCreate(ctx, drv, spec) // DEFAULT VALUES
	}
	cols := make([]string, 0, len(kinds))
	for c := range kinds {
		cols = append(cols, c)
	}
	sort.Strings(cols)
	declared := make([]colKind, len(cols))
	for j, c := range cols {
		declared[j] = kinds[c]
	}
	type piece struct {
		query string
		args  []any
	}
	var pieces []piece
	for lo := 0; lo < len(nodes); lo += UnnestRows {
		part := values[lo:min(lo+UnnestRows, len(values))]
		rows := make([][]any, len(part))
		for i, vals := range part {
			r := make([]any, len(cols))
			for j, c := range cols {
				r[j] = vals[c] // a column a node lacks is NULL, as in sqlgraph
			}
			rows[i] = r
		}
		arrays, ok := pgArrays(rows, len(cols), declared)
		if !ok {
			return valuesBatchCreate(ctx, drv, spec)
		}
		q, args := unnestInsert(table, cols, arrays, nodes[0].ID.Column)
		pieces = append(pieces, piece{q, args})
	}
	next := 0
	for _, p := range pieces {
		rows := &entsql.Rows{}
		if err := drv.Query(ctx, p.query, p.args, rows); err != nil {
			return fmt.Errorf("insert nodes to table %q: %w", table, err)
		}
		for rows.Next() {
			if next == len(nodes) {
				rows.Close()
				return fmt.Errorf("insert nodes to table %q: more ids returned than rows", table)
			}
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return fmt.Errorf("insert nodes to table %q: %w", table, err)
			}
			nodes[next].ID.Value = id
			next++
		}
		err := rows.Err()
		rows.Close()
		if err != nil {
			return fmt.Errorf("insert nodes to table %q: %w", table, err)
		}
	}
	if next != len(nodes) {
		return fmt.Errorf("insert nodes to table %q: %d ids returned for %d rows", table, next, len(nodes))
	}
	return nil
}

// valuesBatchCreate is sqlgraph.BatchCreate (multi-row VALUES) cut by the
// parameter limit: on PostgreSQL a bulk create's nodes come in pieces of
// up to BulkRows (BulkRanges, sized for the arrays), more than one VALUES
// statement may bind when the nodes must go that way (a field without an
// array here, edges in other tables, ids or ON CONFLICT given).
func valuesBatchCreate(ctx context.Context, drv dialect.Driver, spec *sqlgraph.BatchCreateSpec) error {
	perRow := 1
	for _, n := range spec.Nodes {
		// Its fields, and two for each row of its edges (a key column
		// of the row, or a row of a join table).
		k := len(n.Fields) + 1
		for _, e := range n.Edges {
			k += 2 * max(1, len(e.Target.Nodes))
		}
		perRow = max(perRow, k)
	}
	return Batches(drv.Dialect(), spec.Nodes, perRow, 0, func(part []*sqlgraph.CreateSpec) error {
		if len(part) == len(spec.Nodes) {
			return sqlgraph.BatchCreate(ctx, drv, spec)
		}
		return sqlgraph.BatchCreate(ctx, drv, &sqlgraph.BatchCreateSpec{Nodes: part, OnConflict: spec.OnConflict})
	})
}
