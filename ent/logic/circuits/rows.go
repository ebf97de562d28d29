package circuits

import (
	"context"
	"strings"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
)

// rowCheck validates the row a create or update leaves behind: row holds
// the columns the hook asked for, as stored before the write (nil on
// create) with the mutation's values laid over them; id is 0 on create.
type rowCheck func(ctx context.Context, m rawsql.Mutation, id int, row map[string]any) error

// rowHook runs check before a create, a one-row update and a many-row
// update (once per row) of table, in the write's transaction: NetBox's
// model clean(), which sees the whole object whatever the request
// changed. Deletes pass.
func rowHook(table string, columns []string, check rowCheck) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if !m.Op().Is(ent.OpCreate | ent.OpUpdate | ent.OpUpdateOne) {
				return next.Mutate(ctx, m)
			}
			sm, err := rawsql.As("row check "+table, m)
			if err != nil {
				return nil, err
			}
			if m.Op().Is(ent.OpCreate) {
				if err := check(ctx, sm, 0, overlay(m, columns, nil)); err != nil {
					return nil, err
				}
				return next.Mutate(ctx, m)
			}
			ids, err := rawsql.TargetIDs(ctx, sm)
			if err != nil {
				return nil, err
			}
			old, err := loadRows(ctx, sm, table, columns, ids)
			if err != nil {
				return nil, err
			}
			for _, id := range ids {
				if err := check(ctx, sm, id, overlay(m, columns, old[id])); err != nil {
					return nil, err
				}
			}
			return next.Mutate(ctx, m)
		})
	}
}

// overlay lays the mutation's values for columns over old, normalised
// (integers as int, text as string, NULL as nil).
func overlay(m ent.Mutation, columns []string, old map[string]any) map[string]any {
	row := make(map[string]any, len(columns))
	for _, c := range columns {
		row[c] = old[c]
		if v, ok := m.Field(c); ok {
			row[c] = plain(v)
		} else if m.FieldCleared(c) {
			row[c] = nil
		}
	}
	return row
}

// plain turns a mutation's or a driver's value into int, float64, string
// or nil.
func plain(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case *int:
		if x == nil {
			return nil
		}
		return *x
	case *string:
		if x == nil {
			return nil
		}
		return *x
	case *float64:
		if x == nil {
			return nil
		}
		return *x
	case int64:
		return int(x)
	case int32:
		return int(x)
	case []byte:
		return string(x)
	}
	return v
}

// loadRows reads columns of the rows ids of table, keyed by id (text as
// string).
func loadRows(ctx context.Context, m rawsql.Mutation, table string, columns []string, ids []int) (map[int]map[string]any, error) {
	out := map[int]map[string]any{}
	quoted := make([]string, len(columns))
	for i, c := range columns {
		quoted[i] = `"` + c + `"`
	}
	err := rawsql.Chunks(ids, func(ids []int) error {
		a := &rawsql.Args{PG: rawsql.Postgres(m)}
		rows, err := rawsql.Rows(ctx, m, `SELECT id, `+strings.Join(quoted, ", ")+` FROM "`+table+`" WHERE id IN (`+rawsql.In(a, ids)+`)`, a)
		for _, r := range rows {
			id, _ := rawsql.IntOf(r["id"])
			row := make(map[string]any, len(columns))
			for _, c := range columns {
				row[c] = plain(r[c])
			}
			out[id] = row
		}
		return err
	})
	return out, err
}

// lookup reads one row's columns of table by id (nil when there is none).
func lookup(ctx context.Context, m rawsql.Mutation, table string, id int, columns ...string) (map[string]any, error) {
	rows, err := loadRows(ctx, m, table, columns, []int{id})
	if err != nil {
		return nil, err
	}
	return rows[id], nil
}

// copyOnRename keeps a hidden copy of a name in the rows of another table
// that point here: after an update that sets field, the rows of table
// whose column holds an updated id take the new value in copyColumn (a
// renamed circuit renames itself in its terminations' displays).
func copyOnRename(field, table, column, copyColumn string) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			v, ok := m.Field(field)
			if !ok || !m.Op().Is(ent.OpUpdate|ent.OpUpdateOne) {
				return next.Mutate(ctx, m)
			}
			sm, err := rawsql.As("rename hook "+table, m)
			if err != nil {
				return nil, err
			}
			ids, err := rawsql.TargetIDs(ctx, sm)
			if err != nil {
				return nil, err
			}
			out, err := next.Mutate(ctx, m)
			if err != nil {
				return nil, err
			}
			return out, rawsql.Chunks(ids, func(ids []int) error {
				a := &rawsql.Args{PG: rawsql.Postgres(sm)}
				q := `UPDATE "` + table + `" SET "` + copyColumn + `" = ` + a.P(plain(v)) + ` WHERE "` + column + `" IN (` + rawsql.In(a, ids) + `)`
				return rawsql.Exec(ctx, sm, q, a)
			})
		})
	}
}

// copyName sets copyColumn of the row being written to column of the row
// of table that its key field points at, whenever the write sets the key
// (a termination copies its circuit's cid).
func copyName(key, table, column, copyColumn string) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			v, ok := m.Field(key)
			if !ok || !m.Op().Is(ent.OpCreate|ent.OpUpdate|ent.OpUpdateOne) {
				return next.Mutate(ctx, m)
			}
			id, ok := rawsql.IntOf(v)
			if !ok {
				return next.Mutate(ctx, m)
			}
			sm, err := rawsql.As("copy hook "+table, m)
			if err != nil {
				return nil, err
			}
			row, err := lookup(ctx, sm, table, id, column)
			if err != nil {
				return nil, err
			}
			if row != nil {
				if err := m.SetField(copyColumn, rawsql.StringOf(row[column])); err != nil {
					return nil, err
				}
			}
			return next.Mutate(ctx, m)
		})
	}
}
