package resource

import (
	"sync"
	"sync/atomic"
	"time"
)

// Cache keeps read results (custom field definitions, list counts, token
// lookups) until the next write made through this process (Bump) or for at
// most its TTL, which bounds how long a write by another replica sharing
// the database can go unseen. Reads inside a write transaction never use
// it.
type Cache struct {
	gen atomic.Uint64
	ttl time.Duration
	mu  sync.RWMutex
	m   map[string]cacheEntry
}

type cacheEntry struct {
	gen uint64
	at  time.Time
	v   any
}

// maxCacheEntries bounds memory: a full cache starts over.
const maxCacheEntries = 50000

// NewCache returns a cache whose entries live at most ttl.
func NewCache(ttl time.Duration) *Cache {
	return &Cache{ttl: ttl, m: map[string]cacheEntry{}}
}

// Bump invalidates every entry: something was written.
func (c *Cache) Bump() {
	if c != nil {
		c.gen.Add(1)
	}
}

// Get returns the value cached under key, if still valid.
func (c *Cache) Get(key string) (any, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.RLock()
	e, ok := c.m[key]
	c.mu.RUnlock()
	if !ok || e.gen != c.gen.Load() || time.Since(e.at) > c.ttl {
		return nil, false
	}
	return e.v, true
}

// Put caches v under key. gen is the generation read before v was
// computed, so that a write racing with the computation invalidates it.
func (c *Cache) Put(key string, gen uint64, v any) {
	if c == nil || gen != c.gen.Load() {
		return
	}
	c.mu.Lock()
	if len(c.m) >= maxCacheEntries {
		c.m = map[string]cacheEntry{}
	}
	c.m[key] = cacheEntry{gen: gen, at: time.Now(), v: v}
	c.mu.Unlock()
}

// Gen is the current generation, to pass to Put.
func (c *Cache) Gen() uint64 {
	if c == nil {
		return 0
	}
	return c.gen.Load()
}
