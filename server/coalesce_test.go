package server_test

import (
	"bytes"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/servertest"
)

// waitFlights yields until the list builds in progress hold want requests
// in all (the requests are gathered behind HoldListRows), and returns
// them by key. It does not sleep: the requests only need the scheduler.
func waitFlights(t *testing.T, e *servertest.Env, want int) map[string]int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, n := e.Server.ListFlights(), 0
		for _, refs := range got {
			n += refs
		}
		if n == want {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("list flights %v, want %d requests", got, want)
		}
		runtime.Gosched()
	}
}

// Identical list requests in flight together share one build; requests of
// another user, or made after a write, never join it.
func TestListCoalescing(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		admin := e.Admin()
		for _, n := range []string{"s1", "s2", "s3"} {
			admin.Must(201, "POST", "/api/dcim/sites/", map[string]any{"name": n, "slug": n, "status": "active"})
		}
		viewer, uid := admin.NewUser("viewer")
		admin.Grant(uid, []string{"dcim.site"}, []string{"view"}, map[string]any{"name": "s1"})
		// bogus is ignored (a known filter is present): every request of a
		// flight names it, not only the one that built the page.
		const path = "/api/dcim/sites/?limit=1000&status=active&bogus=1"
		viewer.Must(200, "GET", path, nil) // the tokens' first use is behind us
		admin.Must(200, "GET", path, nil)

		type answer struct {
			who string
			r   *servertest.Response
		}
		run := func(envs map[string]*servertest.Env, counts map[string]int) (func() []answer, int) {
			var mu sync.Mutex
			var out []answer
			var wg sync.WaitGroup
			total := 0
			for who, n := range counts {
				total += n
				for range n {
					wg.Add(1)
					go func() {
						defer wg.Done()
						r := envs[who].Do("GET", path, nil)
						mu.Lock()
						out = append(out, answer{who, r})
						mu.Unlock()
					}()
				}
			}
			return func() []answer { wg.Wait(); return out }, total
		}
		envs := map[string]*servertest.Env{"admin": admin, "viewer": viewer}

		release := e.Server.HoldListRows()
		shared := e.Server.ListsShared()
		wait, total := run(envs, map[string]int{"admin": 5, "viewer": 2})
		if got := waitFlights(t, e, total); len(got) != 2 {
			t.Errorf("flights %v: want one per user", got)
		}
		release()
		bodies := map[string][]byte{}
		for _, a := range wait() {
			if a.r.Status != 200 {
				t.Fatalf("%s: %d %s", a.who, a.r.Status, a.r.Body)
			}
			if h := a.r.Header.Get("X-Ignored-Filters"); h != "bogus" {
				t.Errorf("%s: X-Ignored-Filters %q, want bogus", a.who, h)
			}
			if b, ok := bodies[a.who]; ok && !bytes.Equal(b, a.r.Body) {
				t.Errorf("%s: answers of one flight differ", a.who)
			}
			bodies[a.who] = a.r.Body
		}
		if got := e.Server.ListsShared() - shared; got != 5 {
			t.Errorf("%d requests shared a build, want 5 (4 of the admin's, 1 of the viewer's)", got)
		}
		want := map[string]float64{"admin": 3, "viewer": 1}
		for who, b := range bodies {
			r := &servertest.Response{Body: b}
			if got := r.Object()["count"]; got != want[who] {
				t.Errorf("%s: count %v, want %v", who, got, want[who])
			}
		}

		// The page of that shared build is kept for the next identical
		// request of its generation: no statement.
		costOf := func(who *servertest.Env) (int64, *servertest.Response) {
			before := e.Statements()
			r := who.Must(200, "GET", path, nil)
			return e.Statements() - before, r
		}
		if n, r := costOf(admin); n != 0 || !bytes.Equal(r.Body, bodies["admin"]) {
			t.Errorf("after a shared build: %d statements (want 0: the kept page)", n)
		}
		if got := e.Server.ListsShared() - shared; got != 6 {
			t.Errorf("%d requests shared a build, want 6", got)
		}
		// After a write the kept page is of an older generation; a page
		// built for one request alone is not kept.
		admin.Must(201, "POST", "/api/dcim/sites/", map[string]any{"name": "s4", "slug": "s4", "status": "active"})
		for i := range 2 {
			if n, r := costOf(admin); n == 0 || r.Object()["count"] != 4.0 {
				t.Errorf("request %d after a write: %d statements, count %v (want a build, 4)", i, n, r.Object()["count"])
			}
		}

		// A write while a build is waiting: the next request is of the
		// new generation and builds afresh.
		release = e.Server.HoldListRows()
		first, _ := run(envs, map[string]int{"admin": 1})
		waitFlights(t, e, 1)
		admin.Must(201, "POST", "/api/dcim/sites/", map[string]any{"name": "s5", "slug": "s5", "status": "active"})
		second, _ := run(envs, map[string]int{"admin": 1})
		if got := waitFlights(t, e, 2); len(got) != 2 {
			t.Errorf("flights %v: the request after the write joined the one before it", got)
		}
		release()
		first()
		if a := second(); a[0].r.Object()["count"] != 5.0 {
			t.Errorf("after the write: count %v, want 5", a[0].r.Object()["count"])
		}
	}, func(c *server.Config) { c.ListRowsInFlight = 1000 })
}
