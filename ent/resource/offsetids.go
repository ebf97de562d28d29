package resource

import (
	"context"
	"fmt"
	"strconv"

	"entgo.io/ent/dialect/sql"
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

// maxOrderedIDs bounds the ids kept for one list (8 bytes each).
const maxOrderedIDs = 500_000

// tooLong marks a list longer than maxOrderedIDs, so it is not read
// whole again until the next write.
type tooLong struct{}

// orderedIDs returns every id that s (the ids of a list in its order,
// without limit or offset) selects, from the cache or read whole; false
// when the list is too long to keep.
func (d *Descriptor) orderedIDs(ctx context.Context, st Store, s *sql.Selector) ([]int, bool, error) {
	q, args := s.Query()
	key := "ids:" + q + fmt.Sprint(args)
	cache := st.CacheIn(ctx)
	if v, ok := cache.GetBig(key); ok {
		ids, ok := v.([]int)
		return ids, ok, nil
	}
	gen := cache.Gen()
	rs, err := st.Q.QueryContext(ctx, q+" LIMIT "+strconv.Itoa(maxOrderedIDs+1), args...)
	if err != nil {
		return nil, false, fmt.Errorf("select %s ids: %w", d.Table, err)
	}
	defer rs.Close()
	var ids []int
	for rs.Next() {
		var id int
		if err := rs.Scan(&id); err != nil {
			return nil, false, err
		}
		ids = append(ids, id)
	}
	if err := rs.Err(); err != nil {
		return nil, false, err
	}
	if len(ids) > maxOrderedIDs {
		cache.PutBig(key, gen, tooLong{})
		return nil, false, nil
	}
	cache.PutBig(key, gen, ids)
	return ids, true, nil
}
