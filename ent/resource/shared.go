package resource

import (
	"entgo.io/ent/dialect/sql"

	"github.com/inventory/inventory/filters"
)

// SharedRestriction is the visibility rule of a Shared model (NetBox's
// SharedObjectQuerySet.restrict_to_shared): the rows that are shared or
// belong to user; with user 0 (an anonymous caller) the shared rows only.
// Superusers are exempt (the caller does not ask). nil for other models.
func (d *Descriptor) SharedRestriction(user int) filters.Cond {
	if !d.Shared {
		return nil
	}
	shared, owner := d.column("shared"), d.column("user_id")
	return func(s *sql.Selector) *sql.Predicate {
		p := sql.EQ(s.C(shared), true)
		if user == 0 {
			return p
		}
		return sql.Or(p, sql.EQ(s.C(owner), user))
	}
}
