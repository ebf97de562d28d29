package resource

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"entgo.io/ent/dialect/sql"
	"golang.org/x/sync/singleflight"
)

// Deep offset pages. Selecting a page's ids first (page) keeps a deep
// page from building the rows it skips, but the database still walks
// every skipped entry of the ordering's index: at offset 90,000 of
// 100,000 prefixes, about three times the first page on SQLite. A client
// reading a whole list page by page (pynetbox's all(), any script with
// offset) walks the list again for every page, quadratic in its length.
// So the ordered ids of a list (its filters and ordering) are read once,
// whole, when a page deep in it is asked for, and kept in the read cache
// until the next write or the cache's TTL: every deep page after that is
// a slice of them, at the first page's cost. Lists longer than
// maxOrderedIDs are not kept (their pages walk the index as before), and
// the cache keeps only a few such lists at once (Cache.PutBig).

// deepOffset is the offset from which a page uses (and keeps) its
// list's ordered ids: shallower pages walk little of the index.
const deepOffset = 1000

// maxOrderedIDs bounds the ids kept for one list: 4 bytes each while the
// ids fit (orderedIDList), so the change log's million records (issue 37)
// take 4 MB and reading them once costs about what walking the index to
// one deep page does.
const maxOrderedIDs = 2_000_000

// tooLong marks a list longer than maxOrderedIDs, so it is not read
// whole again until the next write.
type tooLong struct{}

// orderedIDList holds a list's ids in order, in 32 bits while they fit.
type orderedIDList struct {
	narrow []int32
	wide   []int
}

func (l *orderedIDList) len() int { return len(l.narrow) + len(l.wide) }

// add appends id, widening the list once an id does not fit 32 bits.
func (l *orderedIDList) add(id int) {
	if l.wide == nil && id >= math.MinInt32 && id <= math.MaxInt32 {
		l.narrow = append(l.narrow, int32(id))
		return
	}
	if l.wide == nil {
		l.wide = make([]int, len(l.narrow), max(len(l.narrow)*2, 16))
		for i, n := range l.narrow {
			l.wide[i] = int(n)
		}
		l.narrow = nil
	}
	l.wide = append(l.wide, id)
}

// page returns the ids from offset on, at most limit of them.
func (l *orderedIDList) page(offset, limit int) []int {
	n := l.len()
	from, to := min(offset, n), min(offset+limit, n)
	if l.wide != nil {
		return l.wide[from:to]
	}
	out := make([]int, to-from)
	for i, id := range l.narrow[from:to] {
		out[i] = int(id)
	}
	return out
}

// readingIDs gathers the concurrent first reads of one list's ids (several
// clients asking for different deep pages of it at once) into one.
var readingIDs singleflight.Group

// orderedIDs returns every id that s (the ids of a list in its order,
// without limit or offset) selects, from the cache or read whole; false
// when the list is too long to keep.
func (d *Descriptor) orderedIDs(ctx context.Context, st Store, s *sql.Selector) (*orderedIDList, bool, error) {
	q, args := s.Query()
	cache := st.CacheIn(ctx)
	key := "ids:" + q + fmt.Sprint(args)
	if v, ok := cache.GetBig(key); ok {
		ids, ok := v.(*orderedIDList)
		return ids, ok, nil
	}
	gen := cache.Gen()
	// The flight's key names the cache (one per database) and its
	// generation: a read that began before a write serves no one after it.
	v, err, _ := readingIDs.Do(fmt.Sprintf("%p/%d/%s", cache, gen, key), func() (any, error) {
		ids, err := d.readOrderedIDs(ctx, st, q, args)
		if err != nil {
			return nil, err
		}
		if ids == nil {
			cache.PutBig(key, gen, tooLong{}, 0)
			return tooLong{}, nil
		}
		cache.PutBig(key, gen, ids, 4*len(ids.narrow)+8*len(ids.wide))
		return ids, nil
	})
	if err != nil {
		if ctx.Err() == nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
			// The reader's client went away: this page walks the index.
			return nil, false, nil
		}
		return nil, false, err
	}
	ids, ok := v.(*orderedIDList)
	return ids, ok, nil
}

// readOrderedIDs reads a list's ids whole; nil when there are more than
// maxOrderedIDs.
func (d *Descriptor) readOrderedIDs(ctx context.Context, st Store, q string, args []any) (*orderedIDList, error) {
	rs, err := st.Q.QueryContext(ctx, q+" LIMIT "+strconv.Itoa(maxOrderedIDs+1), args...)
	if err != nil {
		return nil, fmt.Errorf("select %s ids: %w", d.Table, err)
	}
	defer rs.Close()
	l := &orderedIDList{}
	for rs.Next() {
		var id int
		if err := rs.Scan(&id); err != nil {
			return nil, err
		}
		l.add(id)
	}
	if err := rs.Err(); err != nil {
		return nil, err
	}
	if l.len() > maxOrderedIDs {
		return nil, nil
	}
	// Growing by appends leaves up to half the capacity unused: keep
	// only what the ids take.
	if cap(l.narrow) > len(l.narrow) {
		l.narrow = slices.Clone(l.narrow)
	}
	return l, nil
}
