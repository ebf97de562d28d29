package server

import (
	"context"
	"errors"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/ent/resource"
)

// waitRefs yields until key's flight holds n requests.
func (g *listFlights) waitRefs(t *testing.T, key string, n int) {
	t.Helper()
	for i := 0; ; i++ {
		g.mu.Lock()
		f := g.m[key]
		got := 0
		if f != nil {
			got = f.refs
		}
		g.mu.Unlock()
		if got == n {
			return
		}
		if i > 10_000_000 {
			t.Fatalf("flight %q holds %d requests, want %d", key, got, n)
		}
		runtime.Gosched()
	}
}

// The ways a flight ends: a leader's page goes to every follower; a
// leader whose client went away does not hand its cancellation on (a
// follower builds instead); a follower that goes away leaves the others
// be; and every request's release is needed before the flight is gone.
func TestListFlights(t *testing.T) {
	ctx := context.Background()
	type result struct {
		page listPage
		done func()
	}
	follow := func(g *listFlights, ctx context.Context, key string, build func() listPage) chan result {
		ch := make(chan result, 1)
		go func() {
			p, done := g.do(ctx, key, 0, build)
			ch <- result{p, done}
		}()
		return ch
	}
	never := func() listPage { panic("a follower built") }

	t.Run("shared", func(t *testing.T) {
		var g listFlights
		gate := make(chan struct{})
		lead := follow(&g, ctx, "k", func() listPage { <-gate; return listPage{body: []byte("page")} })
		g.waitRefs(t, "k", 1)
		f1, f2 := follow(&g, ctx, "k", never), follow(&g, ctx, "k", never)
		g.waitRefs(t, "k", 3)
		close(gate)
		for _, ch := range []chan result{lead, f1, f2} {
			r := <-ch
			if string(r.page.body) != "page" || r.page.err != nil {
				t.Errorf("got %q, %v", r.page.body, r.page.err)
			}
			r.done()
		}
		if g.shared.Load() != 2 || len(g.m) != 0 {
			t.Errorf("shared %d, flights left %d", g.shared.Load(), len(g.m))
		}
		// A later request builds afresh.
		built := false
		if _, done := g.do(ctx, "k", 0, func() listPage { built = true; return listPage{} }); !built {
			t.Error("a request after the flight did not build")
		} else {
			done()
		}
	})

	t.Run("leader cancelled", func(t *testing.T) {
		var g listFlights
		gate := make(chan struct{})
		lead := follow(&g, ctx, "k", func() listPage { <-gate; return listPage{err: context.Canceled} })
		g.waitRefs(t, "k", 1)
		f := follow(&g, ctx, "k", func() listPage { return listPage{body: []byte("own")} })
		g.waitRefs(t, "k", 2)
		close(gate)
		r := <-lead
		r.done()
		if r := <-f; string(r.page.body) != "own" || r.page.err != nil {
			t.Errorf("follower of a cancelled leader: %q, %v", r.page.body, r.page.err)
		} else {
			r.done()
		}
	})

	t.Run("leader panics", func(t *testing.T) {
		var g listFlights
		gate := make(chan struct{})
		lead := make(chan any, 1)
		go func() {
			defer func() { lead <- recover() }()
			g.do(ctx, "k", 0, func() listPage { <-gate; panic("bug") })
		}()
		g.waitRefs(t, "k", 1)
		f := follow(&g, ctx, "k", never)
		g.waitRefs(t, "k", 2)
		close(gate)
		if r := <-lead; r != "bug" {
			t.Errorf("the leader's panic: %v", r)
		}
		if r := <-f; !errors.Is(r.page.err, errFlightFailed) {
			t.Errorf("follower of a panicking build: %v", r.page.err)
		}
	})

	t.Run("follower cancelled", func(t *testing.T) {
		var g listFlights
		gate := make(chan struct{})
		lead := follow(&g, ctx, "k", func() listPage { <-gate; return listPage{body: []byte("page")} })
		g.waitRefs(t, "k", 1)
		fctx, cancel := context.WithCancel(ctx)
		f := follow(&g, fctx, "k", never)
		g.waitRefs(t, "k", 2)
		cancel()
		if r := <-f; !errors.Is(r.page.err, context.Canceled) {
			t.Errorf("cancelled follower: %v", r.page.err)
		} else {
			r.done()
		}
		g.waitRefs(t, "k", 1)
		close(gate)
		if r := <-lead; string(r.page.body) != "page" {
			t.Errorf("leader: %q", r.page.body)
		} else {
			r.done()
		}
	})
}

// With sharing off (Config.ShareListPages false) every list request builds
// its own page: it has no flight key.
func TestShareListPagesOff(t *testing.T) {
	c, _ := gin.CreateTestContext(httptest.NewRecorder())
	c.Request = httptest.NewRequest("GET", "/api/dcim/sites/", nil)
	s := &Server{}
	s.flights.cache = resource.NewCache(time.Second)
	s.db = &db.DB{Cache: s.flights.cache}
	if _, ok := s.flightKey(c, 0); !ok {
		t.Fatal("sharing on: no key")
	}
	s.SetShareListPages(false)
	if key, ok := s.flightKey(c, 0); ok {
		t.Errorf("sharing off: key %q", key)
	}
}
