package resource

import (
	"context"
	stdsql "database/sql"
	"fmt"
	"sync"

	"entgo.io/ent"
	"entgo.io/ent/dialect/sql"

	gen "github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/filters"
)

// Natural ordering (NetBox's natural_sort collation) is served from a
// hidden companion column per naturally ordered field (Field.Natural),
// holding filters.NaturalKey of the value and ordered byte-wise on both
// databases. The resource write path sets it with the field (apply);
// NaturalHook covers writes made through ent directly, and FillNaturalKeys
// fills it for rows written before the column existed.

// NaturalHook sets the companion sort key of every naturally ordered field
// that a mutation sets, whatever wrote it; a nullable field created without
// a value or cleared gets NaturalNull's key.
func NaturalHook() ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if d := naturalByType()[m.Type()]; d != nil {
				for _, f := range d.Fields {
					if f.Natural == "" {
						continue
					}
					key, set := "", false
					if v, ok := m.Field(f.Column); ok {
						key, set = naturalKeyOf(v)
					} else if f.Nullable && (m.FieldCleared(f.Column) || m.Op().Is(ent.OpCreate)) {
						key, set = filters.NaturalNull, true // cleared, or created without one
					}
					if set {
						if err := m.SetField(f.Natural, key); err != nil {
							return nil, fmt.Errorf("set %s.%s: %w", d.Type, f.Natural, err)
						}
					}
				}
			}
			return next.Mutate(ctx, m)
		})
	}
}

// naturalKeyOf is the sort key of a value set: NaturalKey of a string,
// NaturalNull of a nil pointer (a nillable field set to nil).
func naturalKeyOf(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return filters.NaturalKey(x), true
	case *string:
		if x == nil {
			return filters.NaturalNull, true
		}
		return filters.NaturalKey(*x), true
	case nil:
		return filters.NaturalNull, true
	}
	return "", false
}

// naturalByType indexes the descriptors with naturally ordered fields by
// ent type name, once: the hook asks for every row written, and a device
// of a type with 10 000 interface templates writes as many rows in one
// request (rebuilding the index per row was a tenth of that request).
func naturalByType() map[string]*Descriptor {
	naturalOnce.Do(func() {
		naturalIndex = map[string]*Descriptor{}
		for _, d := range All() {
			for _, f := range d.Fields {
				if f.Natural != "" {
					naturalIndex[d.Type] = d
				}
			}
		}
	})
	return naturalIndex
}

var (
	naturalOnce  sync.Once
	naturalIndex map[string]*Descriptor
)

// SQLExecer runs raw statements (an ent client or transaction, a *sql.DB).
type SQLExecer interface {
	ExecContext(ctx context.Context, query string, args ...any) (stdsql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*stdsql.Rows, error)
}

// FillNaturalKeys computes the companion sort keys left empty: rows written
// before the column was added (a migrated database). Writes keep them
// current from then on. A change to filters.NaturalKey must empty the
// columns (set them to the empty string) for this to recompute them.
func FillNaturalKeys(ctx context.Context, ex SQLExecer, dialect string) error {
	for _, d := range All() {
		for _, f := range d.Fields {
			if f.Natural == "" {
				continue
			}
			if err := fillNatural(ctx, ex, dialect, d, f); err != nil {
				return fmt.Errorf("%s.%s: %w", d.Table, f.Natural, err)
			}
		}
	}
	return nil
}

func fillNatural(ctx context.Context, ex SQLExecer, dialect string, d *Descriptor, f *Field) error {
	if f.Nullable {
		// NULLs keyed before NaturalNull existed ("") sorted first.
		q, args := sql.Dialect(dialect).Update(d.Table).Set(f.Natural, filters.NaturalNull).
			Where(sql.And(sql.IsNull(f.Column), sql.NEQ(f.Natural, filters.NaturalNull))).Query()
		if _, err := ex.ExecContext(ctx, q, args...); err != nil {
			return err
		}
	}
	q, args := sql.Dialect(dialect).Select("id", f.Column).From(sql.Table(d.Table)).
		Where(sql.And(sql.EQ(f.Natural, ""), sql.NotNull(f.Column))).Query()
	rows, err := ex.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	type pending struct {
		id  int
		key string
	}
	var todo []pending
	for rows.Next() {
		var id int
		var v string
		if err := rows.Scan(&id, &v); err != nil {
			rows.Close()
			return err
		}
		todo = append(todo, pending{id, filters.NaturalKey(v)})
	}
	if err := rows.Close(); err != nil {
		return err
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, p := range todo {
		q, args := sql.Dialect(dialect).Update(d.Table).Set(f.Natural, p.key).Where(sql.EQ("id", p.id)).Query()
		if _, err := ex.ExecContext(ctx, q, args...); err != nil {
			return err
		}
	}
	return nil
}

var _ SQLExecer = (*gen.Client)(nil)
