package resource

import (
	"context"
	"fmt"
	"hash/fnv"
	"slices"
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
// of d (each selector selects the rows holding one set of them): on
// PostgreSQL two transactions, on one replica or two, could otherwise both
// find no clash and both commit, since most of NetBox's unique sets are
// conditional (unique per group, globally unique when the group is null)
// and have no index to stop the second. The locks are held until the
// transaction ends, so the second check runs after the first commit and
// sees its row. Strings are hashed lowercased so that case-insensitive sets
// serialise too; a hash collision only makes two unrelated writers wait for
// each other. All are taken in one statement, in the order of their keys:
// two writers wanting overlapping keys take them in the same order, so
// neither holds one the other waits for while waiting itself. SQLite has a
// single writer: nothing to do.
func lockUnique(ctx context.Context, tx *Tx, sels ...*sql.Selector) error {
	if tx.Dialect != dialect.Postgres || len(sels) == 0 {
		return nil
	}
	keys := make([]int32, 0, len(sels))
	for _, s := range sels {
		keys = append(keys, uniqueKey(s))
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	// A statement binds at most maxLocksAt keys (a delete may check the
	// values of thousands of rows); taken in order, chunk after chunk.
	for len(keys) > 0 {
		n := min(len(keys), maxLocksAt)
		var q strings.Builder
		args := []any{lockUniqueClass}
		q.WriteString("SELECT ")
		for i, k := range keys[:n] {
			if i > 0 {
				q.WriteString(", ")
			}
			fmt.Fprintf(&q, "pg_advisory_xact_lock($1, $%d)", i+2)
			args = append(args, k)
		}
		if _, err := tx.Client.ExecContext(ctx, q.String(), args...); err != nil {
			return err
		}
		keys = keys[n:]
	}
	return nil
}

// maxLocksAt is the number of keys one statement of lockUnique takes.
const maxLocksAt = 1000

// uniqueKey is the lock key of the values s selects: a hash of its query
// and arguments.
func uniqueKey(s *sql.Selector) int32 {
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
	return int32(h.Sum32())
}
