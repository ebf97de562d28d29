package resource

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
)

// lockUniqueClass is the advisory lock class of uniqueness checks (the
// allocation and idempotency classes are 1001xx-1009xx).
const lockUniqueClass int32 = 100950

// lockTreeClass is the advisory lock class of moves within a tree (a
// node given another parent), keyed by the tree's table.
const lockTreeClass int32 = 100951

// lockTree serialises the transactions that move nodes of d's tree, so
// that each one's cycle check sees the moves committed before it.
func lockTree(ctx context.Context, tx *Tx, d *Descriptor) error {
	if tx.Dialect != dialect.Postgres {
		return nil
	}
	h := fnv.New32a()
	h.Write([]byte(d.Table))
	_, err := tx.Client.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1, $2)", lockTreeClass, int32(h.Sum32()))
	return err
}

// lockUnique serialises the transactions that check the same unique values
// of d (s selects the rows holding them): on PostgreSQL two transactions,
// on one replica or two, could otherwise both find no clash and both
// commit, since most of NetBox's unique sets are conditional (unique per
// group, globally unique when the group is null) and have no index to
// stop the second. The lock is held until the transaction ends, so the
// second check runs after the first commit and sees its row. Strings are
// hashed lowercased so that case-insensitive sets serialise too; a hash
// collision only makes two unrelated writers wait for each other. SQLite
// has a single writer: nothing to do.
func lockUnique(ctx context.Context, tx *Tx, s *sql.Selector) error {
	if tx.Dialect != dialect.Postgres {
		return nil
	}
	// A clone: building the query consumes the selector.
	q, args := s.Clone().Query()
	h := fnv.New32a()
	h.Write([]byte(q))
	for _, a := range args {
		if str, ok := a.(string); ok {
			a = strings.ToLower(str)
		}
		fmt.Fprintf(h, "\x00%v", a)
	}
	_, err := tx.Client.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1, $2)", lockUniqueClass, int32(h.Sum32()))
	return err
}
