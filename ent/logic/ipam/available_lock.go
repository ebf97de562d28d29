package ipam

import (
	"context"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
)

// IPWriteLockHook makes creates and updates of IP addresses wait for the
// IP allocations that run (and these wait for them), as NetBox locks
// IPAddressViewSet's create and update with the available-ips lock:
// otherwise an address written by hand while an allocation reads what is
// used could be allocated again. A write outside an allocation takes the
// exclusive all-VRF key once per transaction; inside an allocation (which
// holds its keys already) it takes nothing, which also keeps an
// allocation from waiting for itself. PostgreSQL only: SQLite runs write
// transactions one at a time.
func IPWriteLockHook(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		if !m.Op().Is(ent.OpCreate | ent.OpUpdate | ent.OpUpdateOne) {
			return next.Mutate(ctx, m)
		}
		rm, err := rawsql.As("IP write lock", m)
		if err != nil {
			return nil, err
		}
		if rawsql.Postgres(rm) {
			// The session's own advisory locks of the class: held when
			// this transaction allocates or already wrote an address.
			a := &rawsql.Args{PG: true}
			held, err := rawsql.Int(ctx, rm, "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND classid::bigint = "+
				a.P(int64(lockIPs))+" AND granted", a)
			if err != nil {
				return nil, err
			}
			if held == 0 {
				if _, err := rm.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1, $2)", lockIPs, lockAllVRFs); err != nil {
					return nil, err
				}
			}
		}
		return next.Mutate(ctx, m)
	})
}
