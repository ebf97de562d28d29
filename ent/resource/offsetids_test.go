package resource

import (
	"math"
	"reflect"
	"testing"
	"time"
)

// TestCacheBigBudget: the large values (lists' ordered ids) are kept
// within maxBigEntries and maxBigBytes together, the oldest going first,
// and a value larger than the budget alone is not kept.
func TestCacheBigBudget(t *testing.T) {
	for _, c := range []struct {
		name  string
		sizes []int
		kept  []int // indexes into sizes
	}{
		{"within both bounds", []int{1 << 20, 2 << 20, 3 << 20}, []int{0, 1, 2}},
		{"more entries than maxBigEntries", []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, []int{2, 3, 4, 5, 6, 7, 8, 9}},
		{"more bytes than maxBigBytes", []int{12 << 20, 12 << 20, 12 << 20}, []int{1, 2}},
		{"one value larger than the budget", []int{1 << 20, maxBigBytes + 1}, []int{0}},
		{"a new value evicts as many as it needs", []int{10 << 20, 10 << 20, 10 << 20, 30 << 20}, []int{3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cache := NewCache(time.Hour)
			for i, size := range c.sizes {
				cache.PutBig(string(rune('a'+i)), cache.Gen(), i, size)
			}
			var kept []int
			total := 0
			for i := range c.sizes {
				if v, ok := cache.GetBig(string(rune('a' + i))); ok {
					kept = append(kept, v.(int))
					total += c.sizes[i]
				}
			}
			if !reflect.DeepEqual(kept, c.kept) {
				t.Errorf("kept %v, want %v", kept, c.kept)
			}
			if total > maxBigBytes {
				t.Errorf("%d bytes kept, over %d", total, maxBigBytes)
			}
		})
	}
}

// TestOrderedIDListPages: a list's ids are kept in 32 bits while they fit
// and in full once one does not; pages are the same either way.
func TestOrderedIDListPages(t *testing.T) {
	for _, ids := range [][]int{
		{5, 3, 9, 1, 7},
		{5, 3, math.MaxInt32 + 10, 1, 7},
		{5, 3, math.MinInt32 - 10, 1, 7},
	} {
		l := &orderedIDList{}
		for _, id := range ids {
			l.add(id)
		}
		wide := ids[2] > math.MaxInt32 || ids[2] < math.MinInt32
		if (l.wide != nil) != wide || (l.narrow != nil) == wide {
			t.Errorf("%v: narrow %v, wide %v", ids, l.narrow, l.wide)
		}
		for _, c := range []struct{ offset, limit int }{{0, 2}, {1, 3}, {3, 10}, {5, 2}, {9, 1}} {
			want := ids[min(c.offset, len(ids)):min(c.offset+c.limit, len(ids))]
			if got := l.page(c.offset, c.limit); !reflect.DeepEqual(got, want) {
				t.Errorf("%v page(%d, %d) = %v, want %v", ids, c.offset, c.limit, got, want)
			}
		}
	}
}
