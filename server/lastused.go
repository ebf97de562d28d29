package server

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/db/notify"
	"github.com/inventory/inventory/server/auth"
)

// lastUsedWriter records tokens' last_used beside the requests, not in
// them. NetBox writes it inside the request; here that write would put
// every read behind SQLite's single writer (a long bulk write would hold
// up GETs whose token's last_used is due), so the request only notes that
// a write is due and one background write per token does it. last_used is
// bookkeeping (not change-logged, no event, as NetBox), so a write lost
// to a crash costs nothing but a stale timestamp.
type lastUsedWriter struct {
	mu sync.Mutex
	// noted is the time last written or being written, per token: the
	// cached token's LastUsed stays as it was read until the cache drops
	// it, so this keeps one write per token and interval.
	noted map[int]time.Time
	wg    sync.WaitGroup
}

// touch starts the write of t's last_used when it is due (LastUsedStale).
func (w *lastUsedWriter) touch(client *ent.Client, t *ent.Token, now time.Time) {
	w.mu.Lock()
	last := t.LastUsed
	if n, ok := w.noted[t.ID]; ok && (last == nil || n.After(*last)) {
		last = &n
	}
	if !auth.LastUsedStale(last, now) {
		w.mu.Unlock()
		return
	}
	if w.noted == nil {
		w.noted = map[int]time.Time{}
	}
	w.noted[t.ID] = now
	w.mu.Unlock()
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		// Quietly: no replica's cache needs this write at once (notify).
		ctx, cancel := context.WithTimeout(notify.Quietly(context.Background()), time.Minute)
		defer cancel()
		// A direct update: not change-logged, no event (as NetBox). A
		// token deleted meanwhile has nothing to update.
		err := client.Token.UpdateOneID(t.ID).SetLastUsed(now.Truncate(time.Microsecond)).Exec(ctx)
		if err != nil && !ent.IsNotFound(err) {
			slog.Warn("token last_used not recorded", "token_id", t.ID, "error", err)
			w.mu.Lock()
			delete(w.noted, t.ID) // due again on the next request
			w.mu.Unlock()
		}
	}()
}

// Settle waits for the background writes the requests so far started
// (tokens' last_used): at shutdown, and in tests that read them back.
func (s *Server) Settle() { s.lastUsed.wg.Wait() }
