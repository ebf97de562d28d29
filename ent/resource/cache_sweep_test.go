package resource

import (
	"testing"
	"time"
)

// TestCacheDropsStale: Put drops the entries that can no longer be served
// (an earlier generation's after a Bump, and those past the TTL once per
// TTL), so that they stop holding memory (issue 37); fresh entries stay.
func TestCacheDropsStale(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(c *Cache)
		kept  []string
	}{
		{"a bump drops the earlier generation", func(c *Cache) {
			c.Put("old", c.Gen(), 1)
			c.Bump()
		}, []string{"new"}},
		{"past the TTL", func(c *Cache) {
			// As a Put made them, without its sweep (the first Put sweeps).
			c.m["fresh"] = cacheEntry{gen: c.Gen(), at: time.Now(), v: 1}
			c.m["expired"] = cacheEntry{gen: c.Gen(), at: time.Now().Add(-2 * time.Hour), v: 1}
		}, []string{"fresh", "new"}},
		{"within the TTL and the generation, nothing dropped", func(c *Cache) {
			c.Put("a", c.Gen(), 1)
			c.Put("b", c.Gen(), 1)
		}, []string{"a", "b", "new"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cache := NewCache(time.Hour)
			c.setup(cache)
			cache.Put("new", cache.Gen(), 1)
			if len(cache.m) != len(c.kept) {
				t.Errorf("%d entries held, want %d (%v)", len(cache.m), len(c.kept), c.kept)
			}
			for _, k := range c.kept {
				if _, ok := cache.Get(k); !ok {
					t.Errorf("%s: not served", k)
				}
			}
		})
	}
}
