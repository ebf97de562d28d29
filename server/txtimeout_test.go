package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/servertest"
)

// TestTransactionTimeout: a write that runs away (here a hook whose
// statement never ends, standing for any future bug that keeps a write
// busy) is ended at the transaction deadline: the client gets a 503 with
// Retry-After, nothing of it is committed, and the writer is free at once
// for the next write, which on SQLite would otherwise wait as long as the
// runaway runs.
func TestTransactionTimeout(t *testing.T) {
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		d, err := db.Open(context.Background(), e.DSN, db.TransactionTimeout(300*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		// An endless statement in the write's own transaction: a
		// recursive count without end, the same on both databases.
		d.Client.Site.Use(func(next ent.Mutator) ent.Mutator {
			return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
				if name, _ := m.(*ent.SiteMutation).Name(); name == "runaway" {
					rows, err := m.(*ent.SiteMutation).QueryContext(ctx,
						`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM r) SELECT count(*) FROM r`)
					if err != nil {
						return nil, err
					}
					defer rows.Close()
					for rows.Next() {
					}
					if err := rows.Err(); err != nil {
						return nil, err
					}
					t.Error("the endless statement ended by itself")
				}
				return next.Mutate(ctx, m)
			})
		})
		h := server.New(e.Config, d).Handler()
		do := func(method, path string, body any) *httptest.ResponseRecorder {
			var b strings.Builder
			if body != nil {
				json.NewEncoder(&b).Encode(body)
			}
			w := httptest.NewRecorder()
			r := httptest.NewRequest(method, path, strings.NewReader(b.String()))
			r.Header.Set("Authorization", "Token "+servertest.Token)
			r.Header.Set("Content-Type", "application/json")
			h.ServeHTTP(w, r)
			return w
		}
		sites := "/api/dcim/sites/"
		w := do("POST", sites, []map[string]any{{"name": "first", "slug": "first"}, {"name": "runaway", "slug": "runaway"}})
		var body map[string]any
		if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" ||
			json.Unmarshal(w.Body.Bytes(), &body) != nil || len(body) != 1 ||
			!strings.Contains(body["detail"].(string), "transaction timeout") {
			t.Fatalf("runaway write: %d %v %s", w.Code, w.Header(), w.Body)
		}
		// The writer is free: the next write goes through at once, and
		// nothing of the runaway bulk was kept.
		if w := do("POST", sites, map[string]any{"name": "next", "slug": "next"}); w.Code != http.StatusCreated {
			t.Fatalf("write after the runaway: %d %s", w.Code, w.Body)
		}
		w = do("GET", sites+"?ordering=name", nil)
		var list struct {
			Count   int
			Results []struct{ Name string }
		}
		if json.Unmarshal(w.Body.Bytes(), &list) != nil || list.Count != 1 || list.Results[0].Name != "next" {
			t.Errorf("sites after the runaway: %s", w.Body)
		}
		w = do("GET", "/api/core/object-changes/?changed_object_type=dcim.site", nil)
		if !strings.Contains(w.Body.String(), `"count":1,`) {
			t.Errorf("change records after the runaway: %s", w.Body)
		}
	})
}
