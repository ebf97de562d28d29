package notify

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// Cache is what the listener drives: resource.Cache.
type Cache interface {
	// Bump drops every entry.
	Bump()
	// Pause switches the cache off (every read misses).
	Pause()
	// Resume bumps and switches it back on.
	Resume()
}

// Timing of the listener; the zero value of each field takes its default.
type Timing struct {
	// Heartbeat: after this long without a notification the connection is
	// pinged, so that a connection that hangs is noticed (default 10 s).
	Heartbeat time.Duration
	// MinBackoff and MaxBackoff bound the delay between reconnection
	// attempts, doubled per failure with jitter (defaults 100 ms and 5 s).
	MinBackoff, MaxBackoff time.Duration
}

func (t *Timing) fill() {
	if t.Heartbeat <= 0 {
		t.Heartbeat = 10 * time.Second
	}
	if t.MinBackoff <= 0 {
		t.MinBackoff = 100 * time.Millisecond
	}
	if t.MaxBackoff < t.MinBackoff {
		t.MaxBackoff = 5 * time.Second
	}
}

// Listener is the LISTEN side: one dedicated connection per process.
type Listener struct {
	dsn    string
	cache  Cache
	timing Timing
	log    *slog.Logger

	live     atomic.Bool
	mu       sync.Mutex
	received int64
	last     string
	cancel   context.CancelFunc
	done     chan struct{}
}

// ApplicationName names the listener's connection in pg_stat_activity.
const ApplicationName = "inventory cache listener"

// pingTimeout bounds the heartbeat's ping: a server that does not answer
// within it is taken for gone.
const pingTimeout = 5 * time.Second

// firstConnect bounds the synchronous first attempt of Listen.
const firstConnect = 10 * time.Second

// Listen starts listening on dsn for c: the cache is off until the first
// LISTEN succeeds, which Listen waits for (up to a few seconds; after
// that it keeps trying in the background). It runs until Close.
func Listen(dsn string, c Cache, t Timing) *Listener {
	t.fill()
	ctx, cancel := context.WithCancel(context.Background())
	l := &Listener{dsn: dsn, cache: c, timing: t, cancel: cancel, done: make(chan struct{}),
		log: slog.Default().With("component", "cache-notify")}
	c.Pause()
	first := make(chan struct{})
	go l.run(ctx, first)
	select {
	case <-first:
	case <-time.After(firstConnect):
		l.log.Warn("cache invalidation channel not up yet; caching stays off until it is")
	}
	return l
}

// Live reports whether the listener is connected (the cache is on).
func (l *Listener) Live() bool { return l != nil && l.live.Load() }

// Received counts the notifications received; last is the payload of the
// latest (tests use a marker notification as a barrier).
func (l *Listener) Received() (n int64, last string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.received, l.last
}

// Close stops listening and leaves the cache off. A nil Listener (SQLite)
// has nothing to close.
func (l *Listener) Close() {
	if l == nil {
		return
	}
	l.cancel()
	<-l.done
	l.live.Store(false)
	l.cache.Pause()
}

func (l *Listener) run(ctx context.Context, first chan struct{}) {
	defer close(l.done)
	signalled := false
	up := func() {
		if !signalled {
			signalled = true
			close(first)
		}
	}
	backoff := l.timing.MinBackoff
	for failures := 0; ; {
		err := l.session(ctx, up)
		if ctx.Err() != nil {
			return
		}
		if l.live.Load() {
			// Off before Live says so: whoever sees !Live sees no cache.
			l.cache.Pause()
			l.live.Store(false)
			failures = 0
			backoff = l.timing.MinBackoff
			l.log.Warn("cache invalidation channel lost; caching is off until it is back", "error", err)
		} else if failures++; failures == 1 || failures%20 == 0 {
			l.log.Warn("cache invalidation channel cannot connect; caching is off", "error", err, "attempts", failures)
		}
		delay := backoff/2 + rand.N(backoff/2+1)
		select {
		case <-ctx.Done():
			return
		case <-time.After(delay):
		}
		if backoff *= 2; backoff > l.timing.MaxBackoff {
			backoff = l.timing.MaxBackoff
		}
	}
}

// session connects, listens and bumps the cache per notification until
// the connection fails or ctx ends.
func (l *Listener) session(ctx context.Context, up func()) error {
	cfg, err := pgx.ParseConfig(l.dsn)
	if err != nil {
		return err
	}
	cfg.RuntimeParams["application_name"] = ApplicationName
	cctx, cancel := context.WithTimeout(ctx, firstConnect)
	conn, err := pgx.ConnectConfig(cctx, cfg)
	if err == nil {
		_, err = conn.Exec(cctx, "LISTEN "+pgx.Identifier{Channel}.Sanitize())
		if err != nil {
			conn.Close(context.Background())
		}
	}
	cancel()
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	// Listening: from here on every commit is reported. Writes committed
	// before were not: Resume bumps.
	l.cache.Resume()
	l.live.Store(true)
	l.log.Info("cache invalidation channel up")
	up()
	for {
		wctx, cancel := context.WithTimeout(ctx, l.timing.Heartbeat)
		n, err := conn.WaitForNotification(wctx)
		cancel()
		switch {
		case err == nil:
			l.mu.Lock()
			l.received++
			l.last = n.Payload
			l.mu.Unlock()
			l.cache.Bump()
			continue
		case ctx.Err() != nil:
			return ctx.Err()
		case !errors.Is(err, context.DeadlineExceeded):
			return err
		}
		pctx, cancel := context.WithTimeout(ctx, pingTimeout)
		err = conn.Ping(pctx)
		cancel()
		if err != nil {
			return err
		}
	}
}
