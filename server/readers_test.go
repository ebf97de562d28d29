package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/inventory/inventory/ent/tenant"
	"github.com/inventory/inventory/server/servertest"
)

// TestReadersNeverWaitOnWriter: while a write transaction holds the
// database's writer (SQLite has one; the service's write pool is one
// connection there), reads are served from their own pool with what was
// committed, a token's first request is served too (its last_used write
// waits for the writer at most a second, then goes on beside the
// request), and an oversized bulk is refused before it would queue for the
// writer. Once the writer is free, the token's last_used is recorded.
func TestReadersNeverWaitOnWriter(t *testing.T) {
	t.Parallel()
	const tenants = "/api/tenancy/tenants/"
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		r := e.Must(http.StatusCreated, "POST", tenants, map[string]any{"name": "t1", "slug": "t1", "description": "committed"})
		id := int(r.Object()["id"].(float64))
		reader, uid := e.NewUser("reader")
		e.Grant(uid, []string{"tenancy.tenant"}, []string{"view"}, nil)
		tok := e.Must(http.StatusOK, "GET", "/api/users/tokens/?user_id="+itoa(uid), nil).Results()[0]
		if tok["last_used"] != nil {
			t.Fatalf("a new token has last_used %v", tok["last_used"])
		}

		ctx := context.Background()
		tx, err := e.DB.Write.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.ExecContext(ctx, "UPDATE "+tenant.Table+" SET description = 'uncommitted'"); err != nil {
			t.Fatal(err)
		}
		many := "[" + strings.TrimSuffix(strings.Repeat(`{"name":"x","slug":"x"},`, 100000), ",") + "]"
		type answer struct {
			what string
			r    *servertest.Response
		}
		done := make(chan []answer, 1)
		go func() {
			done <- []answer{
				{"list", reader.Do("GET", tenants, nil)},
				{"detail", reader.Do("GET", tenants+itoa(id)+"/", nil)},
				{"100000-item bulk", e.Do("POST", tenants, many)},
			}
		}()
		var answers []answer
		select {
		case answers = <-done:
		case <-time.After(2 * time.Minute): // a guard against hanging, not a timing
			tx.Rollback()
			t.Fatal("requests waited on the held writer")
		}
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
		want := map[string]struct {
			status int
			body   string
		}{
			"list":             {200, `"description":"committed"`},
			"detail":           {200, `"description":"committed"`},
			"100000-item bulk": {400, "at most 1000 items"},
		}
		for _, a := range answers {
			if w := want[a.what]; a.r.Status != w.status || !strings.Contains(string(a.r.Body), w.body) {
				t.Errorf("%s while the writer was held: %d %.200s, want %d %s", a.what, a.r.Status, a.r.Body, w.status, w.body)
			}
		}
		e.Server.Settle()
		tok = e.Must(http.StatusOK, "GET", "/api/users/tokens/?user_id="+itoa(uid), nil).Results()[0]
		if tok["last_used"] == nil {
			t.Error("the token's last_used was not recorded")
		}
		if n := e.Must(http.StatusOK, "GET", tenants, nil).Object()["count"]; n != 1.0 {
			t.Errorf("%v tenants after the refused bulk, want 1", n)
		}
	})
}

// TestTokenFirstUseVisible: a token's first use is recorded before its
// request is answered (NetBox writes last_used during authentication), so
// the very next request sees it, every time, on both databases; later uses
// within LastUsedInterval write nothing (the throttle).
func TestTokenFirstUseVisible(t *testing.T) {
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		_, uid := e.NewUser("user")
		for i := range 10 {
			r := e.Must(http.StatusCreated, "POST", "/api/users/tokens/", map[string]any{"user": uid, "version": 1})
			tok := r.Object()
			id := itoa(int(tok["id"].(float64)))
			user := e.WithToken("Token " + tok["token"].(string))
			user.Must(http.StatusOK, "GET", "/api/", nil)
			first := e.Must(http.StatusOK, "GET", "/api/users/tokens/"+id+"/", nil).Object()["last_used"]
			if first == nil {
				t.Fatalf("token %d: last_used not visible to the request after its first use", i)
			}
			user.Must(http.StatusOK, "GET", "/api/", nil)
			e.Server.Settle()
			if again := e.Must(http.StatusOK, "GET", "/api/users/tokens/"+id+"/", nil).Object()["last_used"]; again != first {
				t.Errorf("token %d: last_used rewritten within the interval: %v, then %v", i, first, again)
			}
		}
	})
}
