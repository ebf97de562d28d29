package resource

import (
	"sync"
	"sync/atomic"
	"time"
)

// Cache keeps read results (custom field definitions, list counts, token
// lookups) until the next write made through this process (Bump) or for at
// most its TTL, which bounds how long a write by another replica sharing
// the database can go unseen when nothing tells this process about it.
// On PostgreSQL the replicas tell each other (ent/db/notify): every
// committed write bumps every replica's cache, and while that channel is
// down the cache is switched off (Pause) rather than trusted. Reads inside
// a write transaction never use it.
type Cache struct {
	gen atomic.Uint64
	// hits, misses and bumps are counted for the metrics (Stats).
	hits, misses, bumps atomic.Uint64
	ttl                 atomic.Int64 // time.Duration
	// off: the invalidation channel is down (Pause), so nothing cached
	// could be trusted to be dropped in time: every Get misses.
	off atomic.Bool
	mu  sync.RWMutex
	m   map[string]cacheEntry
	// swept and sweptGen: when Put last dropped the entries that can no
	// longer be served, and in which generation (guarded by mu).
	swept    time.Time
	sweptGen uint64
	// big holds the few large values (a list's ordered ids, for its deep
	// offset pages): at most maxBigEntries of at most maxBigBytes
	// together, the oldest going first, so that many distinct lists
	// cannot fill memory.
	big []bigEntry
}

type bigEntry struct {
	key  string
	size int
	cacheEntry
}

// maxBigEntries and maxBigBytes bound the large values kept (PutBig):
// 32 MB holds the ordered ids of eight lists of a million rows.
const (
	maxBigEntries = 8
	maxBigBytes   = 32 << 20
)

type cacheEntry struct {
	gen uint64
	at  time.Time
	v   any
}

// maxCacheEntries bounds memory: a full cache starts over.
const maxCacheEntries = 50000

// NewCache returns a cache whose entries live at most ttl.
func NewCache(ttl time.Duration) *Cache {
	c := &Cache{m: map[string]cacheEntry{}}
	c.ttl.Store(int64(ttl))
	return c
}

// SetTTL changes how long entries live (the operator's --cache-ttl).
func (c *Cache) SetTTL(ttl time.Duration) {
	if c != nil {
		c.ttl.Store(int64(ttl))
	}
}

// Bump invalidates every entry: something was written.
func (c *Cache) Bump() {
	if c != nil {
		c.gen.Add(1)
		c.bumps.Add(1)
	}
}

// Stats are the cache's reads answered (hits) and not (misses), and its
// invalidations (Bump), since it was made.
func (c *Cache) Stats() (hits, misses, invalidations uint64) {
	if c == nil {
		return 0, 0, 0
	}
	return c.hits.Load(), c.misses.Load(), c.bumps.Load()
}

// count records a read's outcome.
func (c *Cache) count(hit bool) {
	if hit {
		c.hits.Add(1)
	} else {
		c.misses.Add(1)
	}
}

// Pause switches the cache off: the channel that would report other
// replicas' writes is down, so every Get misses until Resume.
func (c *Cache) Pause() {
	if c != nil {
		c.off.Store(true)
		c.gen.Add(1)
	}
}

// Resume switches the cache back on once the channel is up again. It
// bumps first: writes made while it was down were not reported, and a
// value computed before the bump cannot be stored after it.
func (c *Cache) Resume() {
	if c != nil {
		c.gen.Add(1)
		c.off.Store(false)
	}
}

// Lifetime is how long a value read now may be served without looking
// again: the TTL, or 0 while the cache is off (Pause). For values kept
// outside the cache under its generation (the server's shared list pages).
func (c *Cache) Lifetime() time.Duration {
	if c == nil || c.off.Load() {
		return 0
	}
	return time.Duration(c.ttl.Load())
}

// Get returns the value cached under key, if still valid.
func (c *Cache) Get(key string) (any, bool) {
	if c == nil {
		return nil, false
	}
	if c.off.Load() {
		c.count(false)
		return nil, false
	}
	c.mu.RLock()
	e, ok := c.m[key]
	c.mu.RUnlock()
	ok = ok && c.fresh(e)
	c.count(ok)
	if !ok {
		return nil, false
	}
	return e.v, true
}

// fresh reports whether e was cached in this generation and within the
// TTL.
func (c *Cache) fresh(e cacheEntry) bool {
	return e.gen == c.gen.Load() && time.Since(e.at) <= time.Duration(c.ttl.Load())
}

// Put caches v under key. gen is the generation read before v was
// computed, so that a write racing with the computation invalidates it.
func (c *Cache) Put(key string, gen uint64, v any) {
	if c == nil || c.off.Load() || gen != c.gen.Load() {
		return
	}
	c.mu.Lock()
	now := time.Now()
	// Entries of an earlier generation or past the TTL are never served
	// again (fresh) but held their values until the map filled: the
	// nested rows of 100 clients paging interfaces stayed as 70-300 MB
	// of live heap after the run (issue 37, `inventory bench --scale
	// --memprofile`). Drop them at each new generation and once per TTL:
	// a pass over the map per bump or per TTL, amortised over the puts.
	if ttl := time.Duration(c.ttl.Load()); gen != c.sweptGen || now.Sub(c.swept) >= ttl {
		for k, e := range c.m {
			if e.gen != gen || now.Sub(e.at) > ttl {
				delete(c.m, k)
			}
		}
		c.swept, c.sweptGen = now, gen
	}
	if len(c.m) >= maxCacheEntries {
		c.m = map[string]cacheEntry{}
	}
	c.m[key] = cacheEntry{gen: gen, at: now, v: v}
	c.mu.Unlock()
}

// GetBig returns the large value cached under key (PutBig), if still
// valid.
func (c *Cache) GetBig(key string) (v any, ok bool) {
	if c == nil {
		return nil, false
	}
	defer func() { c.count(ok) }()
	if c.off.Load() {
		return nil, false
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, e := range c.big {
		if e.key == key {
			if !c.fresh(e.cacheEntry) {
				return nil, false
			}
			return e.v, true
		}
	}
	return nil, false
}

// PutBig caches a large value of about size bytes under key, among at
// most maxBigEntries of at most maxBigBytes together; a value larger than
// that alone is not kept.
func (c *Cache) PutBig(key string, gen uint64, v any, size int) {
	if c == nil || c.off.Load() || gen != c.gen.Load() || size > maxBigBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	kept, total := c.big[:0], size
	for _, e := range c.big {
		if e.key != key && e.gen == gen {
			kept = append(kept, e)
			total += e.size
		}
	}
	for len(kept) > 0 && (len(kept) >= maxBigEntries || total > maxBigBytes) {
		total -= kept[0].size
		kept = append(kept[:0], kept[1:]...)
	}
	c.big = append(kept, bigEntry{key: key, size: size, cacheEntry: cacheEntry{gen: gen, at: time.Now(), v: v}})
}

// Gen is the current generation, to pass to Put.
func (c *Cache) Gen() uint64 {
	if c == nil {
		return 0
	}
	return c.gen.Load()
}

// Load returns the value cached under key, or computes it with load and
// caches it (unless a write raced with load; errors are not cached).
func (c *Cache) Load(key string, load func() (any, error)) (any, error) {
	if v, ok := c.Get(key); ok {
		return v, nil
	}
	gen := c.Gen()
	v, err := load()
	if err == nil {
		c.Put(key, gen, v)
	}
	return v, err
}
