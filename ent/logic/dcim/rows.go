package dcim

import (
	"context"
	"encoding/json"
	"strings"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
)

// rowCheck validates the row a create or update leaves behind: row holds
// the columns the hook asked for, as stored before the write (old, nil on
// create) with the mutation's values laid over them; id is 0 on create.
type rowCheck func(ctx context.Context, m rawsql.Mutation, id int, row, old map[string]any) error

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
				if err := check(ctx, sm, 0, overlay(m, columns, nil), nil); err != nil {
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
				if err := check(ctx, sm, id, overlay(m, columns, old[id]), old[id]); err != nil {
					return nil, err
				}
			}
			return next.Mutate(ctx, m)
		})
	}
}

// overlay lays the mutation's values for columns over old.
func overlay(m ent.Mutation, columns []string, old map[string]any) map[string]any {
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

// loadRows reads columns of the rows ids of table, keyed by id; text and
// JSON columns come back as strings.
func loadRows(ctx context.Context, m rawsql.Mutation, table string, columns []string, ids []int) (map[int]map[string]any, error) {
	out := map[int]map[string]any{}
	quoted := make([]string, len(columns))
	for i, c := range columns {
		quoted[i] = `"` + c + `"`
	}
	err := rawsql.Chunks(ids, func(ids []int) error {
		a := &rawsql.Args{PG: rawsql.Postgres(m)}
		q := `SELECT id, ` + strings.Join(quoted, ", ") + ` FROM ` + table + ` WHERE id IN (` + rawsql.In(a, ids) + `)`
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

// asFloat reads a decimal column value of either driver (0 when null).
func asFloat(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case float32:
		return float64(x)
	case int64:
		return float64(x)
	case int:
		return float64(x)
	case *float64:
		if x != nil {
			return *x
		}
	}
	return 0
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }
