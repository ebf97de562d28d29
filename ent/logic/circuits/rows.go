package circuits

import (
	"context"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
)

// rowCheck validates the row a create or update leaves behind (see
// rawsql.RowCheck), with its values plain.
type rowCheck func(ctx context.Context, m rawsql.Mutation, id int, row map[string]any) error

// rowHook is rawsql.RowHook with the row's values plain: NetBox's model
// clean() before each row a create or update writes.
func rowHook(table string, columns []string, check rowCheck) ent.Hook {
	return rawsql.RowHook(table, columns, func(ctx context.Context, m rawsql.Mutation, id int, row, _ map[string]any) error {
		for c, v := range row {
			row[c] = rawsql.Plain(v)
		}
		return check(ctx, m, id, row)
	})
}

// loadRows is rawsql.LoadRows with the values plain.
func loadRows(ctx context.Context, m rawsql.Mutation, table string, columns []string, ids []int) (map[int]map[string]any, error) {
	rows, err := rawsql.LoadRows(ctx, m, table, columns, ids)
	for _, row := range rows {
		for c, v := range row {
			row[c] = rawsql.Plain(v)
		}
	}
	return rows, err
}

// lookup reads one row's columns of table by id (nil when there is none).
func lookup(ctx context.Context, m rawsql.Mutation, table string, id int, columns ...string) (map[string]any, error) {
	rows, err := loadRows(ctx, m, table, columns, []int{id})
	if err != nil {
		return nil, err
	}
	return rows[id], nil
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
