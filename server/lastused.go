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

// lastUsedWriter records tokens' last_used. A token's first use is
// written in the request, as NetBox does during authentication, so that
// the next request (a client listing its tokens right after using one)
// sees it on either database; the wait for the writer is bounded
// (firstUseWait), after which the write goes on beside the request. Later
// updates, at most one per token and LastUsedInterval, are written beside
// the requests, never in them: in them, SQLite's single writer would put
// every read behind any long write whenever its token's last_used is due.
// last_used is bookkeeping (not change-logged, no event, as NetBox), so a
// write lost to a crash costs nothing but a stale timestamp.
type lastUsedWriter struct {
	mu sync.Mutex
	// noted is the time last written or being written, per token: the
	// cached token's LastUsed stays as it was read until the cache drops
	// it, so this keeps one write per token and interval.
	noted map[int]time.Time
	wg    sync.WaitGroup
}

// firstUseWait bounds how long a token's first request waits for the
// writer to record last_used (SQLite's writer may be busy with a long
// write); past it the write goes on beside the request.
const firstUseWait = time.Second

// touch writes t's last_used when it is due (LastUsedStale): in the
// request (ctx) on the token's first use, beside it otherwise.
func (w *lastUsedWriter) touch(ctx context.Context, client *ent.Client, t *ent.Token, now time.Time) {
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
	if last == nil {
		// Not quietly: other replicas' caches of the token drop too.
		fctx, cancel := context.WithTimeout(ctx, firstUseWait)
		err := w.write(fctx, client, t.ID, now)
		cancel()
		if err == nil {
			return
		}
	}
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		// Quietly: no replica's cache needs this write at once (notify).
		ctx, cancel := context.WithTimeout(notify.Quietly(context.Background()), time.Minute)
		defer cancel()
		if err := w.write(ctx, client, t.ID, now); err != nil {
			slog.Warn("token last_used not recorded", "token_id", t.ID, "error", err)
			w.mu.Lock()
			delete(w.noted, t.ID) // due again on the next request
			w.mu.Unlock()
		}
	}()
}

// write sets last_used: a direct update, not change-logged, no event (as
// NetBox). A token deleted meanwhile has nothing to update.
func (w *lastUsedWriter) write(ctx context.Context, client *ent.Client, id int, now time.Time) error {
	err := client.Token.UpdateOneID(id).SetLastUsed(now.Truncate(time.Microsecond)).Exec(ctx)
	if ent.IsNotFound(err) {
		return nil
	}
	return err
}

// Settle waits for the background writes the requests so far started
// (tokens' last_used): at shutdown, and in tests that read them back.
func (s *Server) Settle() { s.lastUsed.wg.Wait() }
