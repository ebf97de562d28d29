package users

import (
	"context"
	"fmt"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// errUsernameTaken is User.clean()'s error: a model error without a field.
var errUsernameTaken = &api.FieldError{Field: "__all__", Message: "A user with this username already exists."}

// UserHooks are the hooks of users.User: User.clean() refuses a username
// that differs only in case from another user's, on every path that
// writes one (the API, `inventory user create`, createsuperuser). An
// exact duplicate is answered before, by the unique set of the schema
// (DRF's UniqueValidator on the field, with its own message), and by the
// database's unique index.
func UserHooks() []ent.Hook {
	return []ent.Hook{func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			v, set := m.Field("username")
			if !set || !m.Op().Is(ent.OpCreate|ent.OpUpdate|ent.OpUpdateOne) {
				return next.Mutate(ctx, m)
			}
			sm, err := rawsql.As("user hook", m)
			if err != nil {
				return nil, err
			}
			var self []int
			if !m.Op().Is(ent.OpCreate) {
				if self, err = rawsql.TargetIDs(ctx, sm); err != nil {
					return nil, err
				}
				if len(self) > 1 {
					return nil, errUsernameTaken // one name for several users
				}
			}
			if err := checkUsername(ctx, sm, rawsql.StringOf(v), self); err != nil {
				return nil, err
			}
			return next.Mutate(ctx, m)
		})
	}}
}

// checkUsername refuses name when a user other than self has it, compared
// case-insensitively as Django's username__iexact: LOWER folds Unicode on
// PostgreSQL, and inventory_lower (filters.RegisterSQLite) does on SQLite,
// whose own LOWER folds ASCII only.
func checkUsername(ctx context.Context, m rawsql.Mutation, name string, self []int) error {
	a := &rawsql.Args{PG: rawsql.Postgres(m)}
	lower := "inventory_lower"
	if a.PG {
		lower = "LOWER"
	}
	q := `SELECT COUNT(*) FROM users_user WHERE ` + lower + `(username) = ` + lower + `(` + a.P(name) + `)`
	if len(self) > 0 {
		q += ` AND id <> ` + a.P(self[0])
	}
	n, err := rawsql.Int(ctx, m, q, a)
	if err != nil {
		return fmt.Errorf("user hook: %w", err)
	}
	if n > 0 {
		return errUsernameTaken
	}
	return nil
}
