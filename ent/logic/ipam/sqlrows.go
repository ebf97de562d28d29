package ipam

import (
	"context"

	"github.com/inventory/inventory/ent/logic/rawsql"
)

// mutSQL runs the statements of the IP address, FHRP and service hooks on
// their mutation's connection (inside the write's transaction).
type mutSQL struct {
	m  rawsql.Mutation
	pg bool
}

func newMutSQL(m rawsql.Mutation) *mutSQL { return &mutSQL{m: m, pg: rawsql.Postgres(m)} }

func (h *mutSQL) args() *rawsql.Args { return &rawsql.Args{PG: h.pg} }

// rows reads every row of a query as values by column name, normalised:
// integers as int, text as string, binary as []byte, NULL as nil.
func (h *mutSQL) rows(ctx context.Context, query string, a *rawsql.Args) ([]map[string]any, error) {
	return rawsql.Rows(ctx, h.m, query, a)
}

// row is the first row of rows, nil when there is none.
func (h *mutSQL) row(ctx context.Context, query string, a *rawsql.Args) (map[string]any, error) {
	rs, err := h.rows(ctx, query, a)
	if err != nil || len(rs) == 0 {
		return nil, err
	}
	return rs[0], nil
}

func (h *mutSQL) exec(ctx context.Context, query string, a *rawsql.Args) error {
	return rawsql.Exec(ctx, h.m, query, a)
}

// finalValue is column c of a row after mutation m: the value m sets, nil
// when m clears it, else the stored one in old (nil on create).
func finalValue(m rawsql.Mutation, old map[string]any, c string) any {
	if v, ok := m.Field(c); ok {
		return rawsql.Deref(v)
	}
	if m.FieldCleared(c) {
		return nil
	}
	return old[c]
}
