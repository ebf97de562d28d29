package rawsql

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"entgo.io/ent"
	"entgo.io/ent/dialect"
)

// Execer runs statements. The generated *ent.Client and *ent.Tx (with the
// execquery feature), every generated mutation, *database/sql.DB and
// *database/sql.Tx satisfy it.
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// Querier runs queries; the same types as Execer satisfy it.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Mutation is what a hook needs of a generated mutation (*ent.XMutation),
// spelled as an interface so that the hook's package need not import the
// generated code.
type Mutation interface {
	ent.Mutation
	Execer
	Querier
	// DriverDialect is dialect.SQLite or dialect.Postgres.
	DriverDialect() string
	// ID is the row of a one-row update or delete.
	ID() (int, bool)
	// IDs are the rows a many-row update or delete matches (queried in the
	// mutation's transaction).
	IDs(ctx context.Context) ([]int, error)
}

// As asserts that m is a generated mutation; hook names the hook in the
// error, which can only come from a generator change.
func As(hook string, m ent.Mutation) (Mutation, error) {
	sm, ok := m.(Mutation)
	if !ok {
		return nil, fmt.Errorf("%s: unexpected mutation %T", hook, m)
	}
	return sm, nil
}

// Postgres reports whether the mutation runs on PostgreSQL.
func Postgres(m Mutation) bool { return m.DriverDialect() == dialect.Postgres }

// TargetIDs are the rows an update or delete touches: the one row of a
// one-row operation, or those the predicates of a many-row one match.
func TargetIDs(ctx context.Context, m Mutation) ([]int, error) {
	if id, ok := m.ID(); ok {
		return []int{id}, nil
	}
	return m.IDs(ctx)
}

// Written runs next on m and returns the rows the write touched: an
// update's or delete's targets, read before it (a delete's rows are gone
// after), or a create's new row. before, when not nil, sees the targets
// ahead of the write (nil for a create), to read their old state.
func Written(ctx context.Context, m Mutation, next ent.Mutator, before func(ids []int) error) (ent.Value, []int, error) {
	create := m.Op().Is(ent.OpCreate)
	var ids []int
	if !create {
		var err error
		if ids, err = TargetIDs(ctx, m); err != nil {
			return nil, nil, err
		}
	}
	if before != nil {
		if err := before(ids); err != nil {
			return nil, nil, err
		}
	}
	v, err := next.Mutate(ctx, m)
	if err != nil {
		return nil, nil, err
	}
	if create {
		id, ok := m.ID()
		if !ok {
			return nil, nil, fmt.Errorf("%s created without an id", m.Type())
		}
		ids = []int{id}
	}
	return v, ids, nil
}

// Touched reports whether m sets or clears any of fields.
func Touched(m ent.Mutation, fields ...string) bool {
	for _, f := range fields {
		if _, set := m.Field(f); set || m.FieldCleared(f) {
			return true
		}
	}
	return false
}

// Args collects bind parameters and renders their placeholders: "?" on
// SQLite, "$n" on PostgreSQL.
type Args struct {
	PG   bool
	List []any
}

// P adds v and returns its placeholder.
func (a *Args) P(v any) string {
	a.List = append(a.List, v)
	if a.PG {
		return "$" + strconv.Itoa(len(a.List))
	}
	return "?"
}

// Tuples adds the values of rows and writes their placeholders to b as a
// VALUES list, "(?, ?), (?, ?)". With casts (PostgreSQL, which cannot
// infer a VALUES list's types from parameters) each placeholder of column
// j is followed by "::"+casts[j].
func (a *Args) Tuples(b *strings.Builder, rows [][]any, casts []string) {
	for i, row := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for j, v := range row {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(a.P(v))
			if casts != nil {
				b.WriteString("::" + casts[j])
			}
		}
		b.WriteByte(')')
	}
}

// In adds vals and returns their placeholders separated by commas, for
// "x IN (...)".
func In[T any](a *Args, vals []T) string {
	ps := make([]string, len(vals))
	for i, v := range vals {
		ps[i] = a.P(v)
	}
	return strings.Join(ps, ", ")
}

// ChunkSize bounds the values bound in one IN list (SQLite allows 32766
// parameters, PostgreSQL 65535; smaller statements plan faster anyway).
const ChunkSize = 500

// AfterUpdate runs follow with the ids of the updated rows (at most
// ChunkSize at a time) after an update that sets or clears one of
// fields, in its transaction: what follows a row (placement, cached
// displays and scopes).
func AfterUpdate(follow func(ctx context.Context, m Mutation, ids []int) error, fields ...string) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if !m.Op().Is(ent.OpUpdate|ent.OpUpdateOne) || !Touched(m, fields...) {
				return next.Mutate(ctx, m)
			}
			sm, err := As("after-update hook", m)
			if err != nil {
				return nil, err
			}
			ids, err := TargetIDs(ctx, sm)
			if err != nil {
				return nil, err
			}
			v, err := next.Mutate(ctx, m)
			if err != nil || len(ids) == 0 {
				return v, err
			}
			return v, Chunks(ids, func(ids []int) error { return follow(ctx, sm, ids) })
		})
	}
}

// CopyOnRename keeps a hidden copy of a name in the rows of another table
// that point here: after an update that sets field, the rows of table
// whose column holds an updated id take the new value in copyColumn (a
// renamed circuit renames itself in its terminations' displays).
func CopyOnRename(field, table, column, copyColumn string) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			v, ok := m.Field(field)
			if !ok || !m.Op().Is(ent.OpUpdate|ent.OpUpdateOne) {
				return next.Mutate(ctx, m)
			}
			sm, err := As("rename hook "+table, m)
			if err != nil {
				return nil, err
			}
			ids, err := TargetIDs(ctx, sm)
			if err != nil {
				return nil, err
			}
			out, err := next.Mutate(ctx, m)
			if err != nil {
				return nil, err
			}
			return out, Chunks(ids, func(ids []int) error {
				a := &Args{PG: Postgres(sm)}
				q := `UPDATE "` + table + `" SET "` + copyColumn + `" = ` + a.P(Plain(v)) + ` WHERE "` + column + `" IN (` + In(a, ids) + `)`
				return Exec(ctx, sm, q, a)
			})
		})
	}
}

// Chain makes one hook of hooks, the first outermost. The generated
// runtime registers as many hooks as a schema had when it was generated
// (runtime.go assigns them by index), so a rule joins a model's existing
// hooks this way without regenerating the model.
func Chain(hooks ...ent.Hook) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		for i := len(hooks) - 1; i >= 0; i-- {
			next = hooks[i](next)
		}
		return next
	}
}

// Plain is a mutation's value as a query argument: dereferenced,
// normalised, bytes as text.
func Plain(v any) any {
	v = Normal(Deref(v))
	if b, ok := v.([]byte); ok {
		return string(b)
	}
	return v
}

// Chunks calls fn with consecutive pieces of ids of at most ChunkSize.
func Chunks(ids []int, fn func([]int) error) error {
	for len(ids) > 0 {
		n := min(len(ids), ChunkSize)
		if err := fn(ids[:n]); err != nil {
			return err
		}
		ids = ids[n:]
	}
	return nil
}

// Int runs a query whose first row's first column is an integer (a COUNT);
// no row is 0.
func Int(ctx context.Context, q Querier, query string, a *Args) (int, error) {
	rows, err := q.QueryContext(ctx, query, a.List...)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	if rows.Next() {
		if err := rows.Scan(&n); err != nil {
			return 0, err
		}
	}
	return n, rows.Err()
}

// Deref reads the pointers a mutation holds for nillable fields (*int,
// *string, *float64, *bool): the value, nil for a nil pointer; any other
// value as it is.
func Deref(v any) any {
	switch x := v.(type) {
	case *int:
		if x != nil {
			return *x
		}
		return nil
	case *string:
		if x != nil {
			return *x
		}
		return nil
	case *float64:
		if x != nil {
			return *x
		}
		return nil
	case *bool:
		if x != nil {
			return *x
		}
		return nil
	}
	return v
}

// Rows reads every row of a query as values by column name, normalised
// (see Normal). The hooks read rows this way whatever the model, so that
// one scanning loop serves them all.
func Rows(ctx context.Context, q Querier, query string, a *Args) ([]map[string]any, error) {
	rs, err := q.QueryContext(ctx, query, a.List...)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	cols, err := rs.Columns()
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rs.Next() {
		if err := rs.Scan(ptrs...); err != nil {
			return nil, err
		}
		r := make(map[string]any, len(cols))
		for i, c := range cols {
			r[c] = Normal(vals[i])
		}
		out = append(out, r)
	}
	return out, rs.Err()
}

// Normal turns a driver value into int, float64, bool, string, []byte or
// nil. Text may come back from SQLite as []byte (read it with StringOf);
// bytes are copied, as the driver reuses its buffer for the next row.
func Normal(v any) any {
	switch x := v.(type) {
	case int64:
		return int(x)
	case int32:
		return int(x)
	case []byte:
		return append([]byte(nil), x...)
	}
	return v
}

// Exec runs a statement with a's parameters.
func Exec(ctx context.Context, ex Execer, query string, a *Args) error {
	_, err := ex.ExecContext(ctx, query, a.List...)
	return err
}

// IntOf reads an integer from a row of either driver or from a mutation's
// value (int, int64, int32, float64, *int, sql.NullInt64); false for NULL
// and anything else.
func IntOf(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case int64:
		return int(x), true
	case int32:
		return int(x), true
	case float64:
		return int(x), true
	case *int:
		if x != nil {
			return *x, true
		}
	case sql.NullInt64:
		return int(x.Int64), x.Valid
	}
	return 0, false
}

// StringOf reads text from a row of either driver (SQLite may return
// []byte) or from a mutation's value; "" for NULL and anything else.
func StringOf(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	case *string:
		if x != nil {
			return *x
		}
	}
	return ""
}

// RowCheck validates the row a create or update leaves behind: row holds
// the columns the hook asked for, as stored before the write (old, nil on
// create) with the mutation's values laid over them; id is 0 on create.
type RowCheck func(ctx context.Context, m Mutation, id int, row, old map[string]any) error

// RowHook runs check before a create, a one-row update and a many-row
// update (once per row) of table, in the write's transaction: NetBox's
// model clean(), which sees the whole object whatever the request
// changed. Deletes pass, and so does a many-row update that writes none of
// columns: that is a queryset update (a deleted object's SET_NULL of
// another column, a denormalised field following its source), for which
// NetBox runs no clean() either, and it leaves what check reads as stored;
// a row stored before a rule was added must not block it.
func RowHook(table string, columns []string, check RowCheck) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if !m.Op().Is(ent.OpCreate|ent.OpUpdate|ent.OpUpdateOne) || m.Op().Is(ent.OpUpdate) && !Touched(m, columns...) {
				return next.Mutate(ctx, m)
			}
			sm, err := As("row check "+table, m)
			if err != nil {
				return nil, err
			}
			if m.Op().Is(ent.OpCreate) {
				if err := check(ctx, sm, 0, Overlay(m, columns, nil), nil); err != nil {
					return nil, err
				}
				return next.Mutate(ctx, m)
			}
			ids, err := TargetIDs(ctx, sm)
			if err != nil {
				return nil, err
			}
			old, err := LoadRows(ctx, sm, table, columns, ids)
			if err != nil {
				return nil, err
			}
			for _, id := range ids {
				if err := check(ctx, sm, id, Overlay(m, columns, old[id]), old[id]); err != nil {
					return nil, err
				}
			}
			return next.Mutate(ctx, m)
		})
	}
}

// Overlay lays the mutation's values for columns over old.
func Overlay(m ent.Mutation, columns []string, old map[string]any) map[string]any {
	row := make(map[string]any, len(columns))
	for _, c := range columns {
		row[c] = old[c]
		if v, ok := m.Field(c); ok {
			row[c] = v
		} else if m.FieldCleared(c) {
			row[c] = nil
		}
	}
	return row
}

// Lookup reads columns of row id of table, its values plain (see Plain);
// nil when there is no such row.
func Lookup(ctx context.Context, m Mutation, table string, id int, columns ...string) (map[string]any, error) {
	rows, err := LoadRows(ctx, m, table, columns, []int{id})
	if err != nil {
		return nil, err
	}
	r := rows[id]
	for c, v := range r {
		r[c] = Plain(v)
	}
	return r, nil
}

// LoadRows reads columns of the rows ids of table, keyed by id; text and
// JSON columns come back as strings.
func LoadRows(ctx context.Context, m Mutation, table string, columns []string, ids []int) (map[int]map[string]any, error) {
	out := map[int]map[string]any{}
	quoted := make([]string, len(columns))
	for i, c := range columns {
		quoted[i] = `"` + c + `"`
	}
	err := Chunks(ids, func(ids []int) error {
		a := &Args{PG: Postgres(m)}
		q := `SELECT id, ` + strings.Join(quoted, ", ") + ` FROM ` + table + ` WHERE id IN (` + In(a, ids) + `)`
		rows, err := m.QueryContext(ctx, q, a.List...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int
			vals := make([]any, len(columns))
			dest := []any{&id}
			for i := range vals {
				dest = append(dest, &vals[i])
			}
			if err := rows.Scan(dest...); err != nil {
				return err
			}
			row := map[string]any{}
			for i, c := range columns {
				if b, ok := vals[i].([]byte); ok {
					vals[i] = string(b)
				}
				row[c] = vals[i]
			}
			out[id] = row
		}
		return rows.Err()
	})
	return out, err
}

// AnyID adds ids as one parameter and returns the condition that column
// col is one of them: one statement whatever the number of ids, where an
// IN list of placeholders needs one per id (and Chunks of them). A
// PostgreSQL int8 array, a JSON array read by json_each on SQLite.
func AnyID(a *Args, col string, ids []int) string {
	return IDsMatch(a.PG, col, a.P(IDsParam(a.PG, ids)))
}

// IDsMatch is AnyID's condition in SQL text, on column expression col,
// with placeholder for its parameter (IDsParam).
func IDsMatch(pg bool, col, placeholder string) string {
	if pg {
		return col + " = ANY(" + placeholder + ")"
	}
	return col + " IN (SELECT value FROM json_each(" + placeholder + "))"
}

// IDsParam is the parameter of IDsMatch: the ids as an int8 array for
// PostgreSQL, as a JSON array for SQLite.
func IDsParam(pg bool, ids []int) any {
	if pg {
		arr := make([]int64, len(ids))
		for i, id := range ids {
			arr[i] = int64(id)
		}
		return arr
	}
	js := make([]byte, 0, len(ids)*6+2)
	js = append(js, '[')
	for i, id := range ids {
		if i > 0 {
			js = append(js, ',')
		}
		js = strconv.AppendInt(js, int64(id), 10)
	}
	return string(append(js, ']'))
}
