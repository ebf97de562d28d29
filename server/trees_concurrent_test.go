package server_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestTreeConcurrentMoves: two nodes moved under each other at the same
// moment never make a cycle. Each move checks that the new parent is not
// the node or one of its descendants; on PostgreSQL two transactions
// could both pass that check (neither sees the other's move), so moves of
// one tree take a per-tree advisory lock (resource.lockTree) and the
// second check runs after the first move commits. SQLite has a single
// writer. Exactly one of the two moves succeeds, every round.
func TestTreeConcurrentMoves(t *testing.T) {
	t.Parallel()
	const rounds = 10
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		for _, tree := range []string{"/api/dcim/regions/", "/api/dcim/site-groups/", "/api/tenancy/tenant-groups/", "/api/tenancy/contact-groups/"} {
			for i := range rounds {
				x := idOf(e.Must(http.StatusCreated, "POST", tree, map[string]any{"name": fmt.Sprintf("X%d", i), "slug": fmt.Sprintf("x%d", i)}).Object())
				y := idOf(e.Must(http.StatusCreated, "POST", tree, map[string]any{"name": fmt.Sprintf("Y%d", i), "slug": fmt.Sprintf("y%d", i)}).Object())
				var wg sync.WaitGroup
				start := make(chan struct{})
				status := make([]int, 2)
				for k, move := range [][2]int{{x, y}, {y, x}} {
					wg.Add(1)
					go func() {
						defer wg.Done()
						<-start
						status[k] = e.Do("PATCH", fmt.Sprintf("%s%d/", tree, move[0]), map[string]any{"parent": move[1]}).Status
					}()
				}
				close(start)
				wg.Wait()
				ok := 0
				for _, s := range status {
					switch s {
					case http.StatusOK:
						ok++
					case http.StatusBadRequest:
					default:
						t.Errorf("%s round %d: status %d", tree, i, s)
					}
				}
				if ok != 1 {
					t.Fatalf("%s round %d: %d of the two crossed moves succeeded (%v), want exactly one", tree, i, ok, status)
				}
				depths := 0.0
				for _, id := range []int{x, y} {
					depths += e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", tree, id), nil).Object()["_depth"].(float64)
				}
				if depths != 1 {
					t.Errorf("%s round %d: depths add up to %v, want 0 and 1", tree, i, depths)
				}
			}
		}
	})
}
