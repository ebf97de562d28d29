package server

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/ent/resource"
)

// Identical list requests that arrive while one of them is being built
// share that build (request coalescing). Ansible's dynamic inventory run
// from many hosts at once, or a dashboard polled by many browsers, sends
// the same pages at the same moment; each page of 1,000 interfaces costs
// the server about 10 ms of CPU, so 100 such clients on two cores wait
// for each other's pages (a p99 of a second) although they all ask for
// the same bytes. With coalescing the first request of a page builds it
// and the others that arrive meanwhile answer with its bytes.
//
// A page that more than one request asked for while it was built is kept
// afterwards for the requests that come just too late (the slower of
// those clients), for as long as the read cache would keep a value: until
// the next write (a new generation) and at most the cache's TTL, never
// while the cache is off, and within maxKeptBytes. A page only one request
// asked for is not kept, so a client alone always gets a fresh build.
//
// A request joins only a build or page of its own generation (the read
// cache's, bumped after every commit of this process and by every other
// replica's commits), so a client's read after its own write never gets
// a page built before the write. The key holds everything the bytes
// depend on: the method, the URL with its query, the scheme and host the
// links are made of, the user (object permissions restrict the rows),
// and, with hot standbys, the client's last write position (which
// decides where the read may go).

// maxKeptBytes bounds the pages kept after their build.
const maxKeptBytes = 64 << 20

// listFlights are the builds in progress, by key.
type listFlights struct {
	// cache gives the generation and how long a page may be kept.
	cache *resource.Cache
	mu    sync.Mutex
	m     map[string]*listFlight
	// kept are the finished pages of shared builds, keptBytes their size.
	kept      map[string]*listFlight
	keptBytes int
	// shared counts the requests answered with another's build.
	shared atomic.Uint64
	// off: every request builds its own page (Config.ShareListPages).
	off atomic.Bool
}

// SetShareListPages switches page sharing on or off (Config.ShareListPages;
// the benchmark measures each workload's own cost with it off).
func (s *Server) SetShareListPages(on bool) { s.flights.off.Store(!on) }

// listFlight is one build and the requests waiting for it.
type listFlight struct {
	done chan struct{}
	// refs counts the requests holding page, and kept's hold (guarded by
	// listFlights.mu).
	refs int
	page listPage
	// gen and until: the generation it was built in and the end of its
	// keeping (kept pages).
	gen   uint64
	until time.Time
}

// listPage is a built list response: its body, the pooled buffer holding
// it (returned to the pool by the last request that writes it), the
// ignored filter parameters (each request names them in its header and
// log), or the error every request of the flight answers.
type listPage struct {
	body    []byte
	buf     *[]byte
	ignored []string
	err     error
}

// maxFlightRetries bounds how often a request whose flight's leader went
// away (its client disconnected, cancelling the build) starts over.
const maxFlightRetries = 3

// do answers key (made by flightKey in generation gen) with a build: its
// own (build runs with ctx), one in progress or a kept page. release must
// be called once the page is written.
func (g *listFlights) do(ctx context.Context, key string, gen uint64, build func() listPage) (listPage, func()) {
	for attempt := 0; ; attempt++ {
		g.mu.Lock()
		if k := g.kept[key]; k != nil {
			if time.Now().Before(k.until) && g.cache.Gen() == k.gen {
				k.refs++
				g.mu.Unlock()
				g.shared.Add(1)
				return k.page, func() { g.leave(k) }
			}
			g.drop(key, k)
		}
		if g.m == nil {
			g.m = map[string]*listFlight{}
		}
		f, joined := g.m[key]
		if !joined {
			f = &listFlight{done: make(chan struct{}), gen: gen}
			g.m[key] = f
		}
		f.refs++
		g.mu.Unlock()
		if !joined {
			g.lead(key, f, build)
			return f.page, func() { g.leave(f) }
		}
		select {
		case <-f.done:
		case <-ctx.Done():
			g.leave(f)
			return listPage{err: ctx.Err()}, func() {}
		}
		// The leader's client went away mid-build: its cancellation is
		// not this request's answer.
		if err := f.page.err; (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) &&
			ctx.Err() == nil && attempt < maxFlightRetries {
			g.leave(f)
			continue
		}
		g.shared.Add(1)
		return f.page, func() { g.leave(f) }
	}
}

// lead builds f's page and hands it to the requests that joined. A build
// that panics ends the flight with an error (the panic goes on to the
// recovery of the request that built), so that no request waits for it.
func (g *listFlights) lead(key string, f *listFlight, build func() listPage) {
	finish := func() {
		g.mu.Lock()
		delete(g.m, key) // later arrivals build afresh, or take the kept page
		if f.refs > 1 && f.page.err == nil {
			g.keep(key, f)
		}
		g.mu.Unlock()
		close(f.done)
	}
	defer func() {
		if r := recover(); r != nil {
			f.page = listPage{err: errFlightFailed}
			finish()
			panic(r)
		}
	}()
	f.page = build()
	finish()
}

// errFlightFailed answers the requests that joined a build that panicked.
var errFlightFailed = errors.New("the list build this request joined failed")

// keep keeps f's page for later requests of its key (g.mu held): while
// the cache would keep a value, dropping pages of older generations or
// past their time, then the oldest, to stay within maxKeptBytes.
func (g *listFlights) keep(key string, f *listFlight) {
	life := g.cache.Lifetime()
	size := cap(f.page.body)
	if life <= 0 || g.cache.Gen() != f.gen || size > maxKeptBytes/4 {
		return
	}
	now := time.Now()
	for k, x := range g.kept {
		if x.gen != f.gen || !now.Before(x.until) {
			g.drop(k, x)
		}
	}
	for g.keptBytes+size > maxKeptBytes {
		oldest := ""
		for k, x := range g.kept {
			if oldest == "" || x.until.Before(g.kept[oldest].until) {
				oldest = k
			}
		}
		g.drop(oldest, g.kept[oldest])
	}
	if g.kept == nil {
		g.kept = map[string]*listFlight{}
	}
	f.refs++
	f.until = now.Add(life)
	g.kept[key] = f
	g.keptBytes += size
}

// drop stops keeping k's page (g.mu held).
func (g *listFlights) drop(key string, k *listFlight) {
	delete(g.kept, key)
	g.keptBytes -= cap(k.page.body)
	k.refs--
	if k.refs == 0 && k.page.buf != nil {
		putListBuffer(k.page.buf)
	}
}

// leave drops one request's hold on f; the last returns the buffer.
func (g *listFlights) leave(f *listFlight) {
	g.mu.Lock()
	f.refs--
	last := f.refs == 0
	g.mu.Unlock()
	if last && f.page.buf != nil {
		putListBuffer(f.page.buf)
	}
}

// flightKey is the coalescing key of a list request (see above); ok is
// false for a request that must build alone (made inside this process, or
// sharing is off).
func (s *Server) flightKey(c *gin.Context, gen uint64) (key string, ok bool) {
	if s.flights.off.Load() {
		return "", false
	}
	r := c.Request
	var b strings.Builder
	b.WriteString(r.Method)
	b.WriteByte(' ')
	b.WriteString(strconv.FormatUint(gen, 10))
	b.WriteByte(' ')
	switch p := PrincipalFrom(r.Context()); {
	case p == nil || p.User == nil:
		b.WriteString("-")
	case p.inProcess:
		return "", false
	default:
		b.WriteString(strconv.Itoa(p.User.ID))
	}
	if s.db.HasStandbys() {
		b.WriteByte(' ')
		b.WriteString(r.Header.Get(PositionHeader))
		if ck, err := r.Cookie(positionCookie); err == nil {
			if l, ok := db.ParseLSN(ck.Value); ok {
				b.WriteString(l.String())
			}
		}
	}
	b.WriteByte(' ')
	b.WriteString(baseURL(r))
	b.WriteString(r.URL.RequestURI())
	return b.String(), true
}
