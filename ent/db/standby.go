package db

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/inventory/inventory/ent/resource"
)

// Reads served by PostgreSQL hot standbys (issue 38).
//
// With --read-database URLs the read side of the database layer routes:
// DB.Store's Querier sends a statement to the standby its request was
// given (Request, called once per request by the server), or to the
// primary. Everything else is the primary's: writes and every read inside
// a write's transaction (InTx, resource.Tx), the ent clients (token and
// session lookups, permissions, the webhook and data source jobs),
// LISTEN/NOTIFY and migrations. A request is given a standby only when it
// is a read (the server decides: GET, HEAD, OPTIONS, not an allocation
// endpoint), the standby is usable (reachable, in recovery, at most
// --read-max-lag behind; checked in the background, not per request) and
// the standby has replayed the client's last write (read-your-writes).
//
// Read-your-writes: after a write transaction of a request commits, InTx
// reads the primary's WAL insert position and hands it to the request
// (the server returns it as a header and a cookie the client sends back),
// and for a token keeps it by token id in a small unlogged table on the
// primary (positionsTable), which every replica of the service reads
// before giving a token's read a standby. A read is given a standby only
// if the standby's replay position is at or past the client's.
// pg_current_wal_insert_lsn rather than pg_current_wal_lsn: read after the
// commit returned, the insert position is past the commit record even with
// synchronous_commit=off, when the write position may not be yet.
//
// Why a table read per token read rather than the notification channel
// the caches use: a notification reaches the other replicas a moment
// after the commit, and a client that writes through one replica and reads
// through another at once can be faster (measured: 5 stale reads in 1000
// pairs). The lookup is one primary-key read of an unlogged table (no WAL,
// nothing replicated), made only when a standby could serve the read.
//
// Caches: each standby has its own read cache (resource.WithCache),
// emptied whenever the background check sees its replay position move, so
// that nothing read from a standby is ever answered to a read the
// primary's cache serves, and a client routed to a standby once it has
// replayed the client's write never gets an entry computed before.
//
// A standby that fails under a read (stopped, restarted, a replay
// conflict) is dropped at once, until the next check finds it back, and
// the statement runs again on the primary: the client sees no error.

// LSN is a position in PostgreSQL's write-ahead log.
type LSN uint64

// ParseLSN parses PostgreSQL's text form of a pg_lsn ("16/B374D848").
func ParseLSN(s string) (LSN, bool) {
	hi, lo, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return 0, false
	}
	h, err1 := strconv.ParseUint(hi, 16, 32)
	l, err2 := strconv.ParseUint(lo, 16, 32)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return LSN(h<<32 | l), true
}

func (l LSN) String() string { return fmt.Sprintf("%X/%X", uint64(l)>>32, uint32(l)) }

// unknownLSN is the position of a write whose position could not be read
// (the primary went away right after the commit): no standby is ever at
// it, so the client reads from the primary while it is kept.
const unknownLSN = LSN(^uint64(0))

// DefaultReadMaxLag is --read-max-lag's default.
const DefaultReadMaxLag = time.Second

// defaultCheckInterval is how often the standbys' replay positions and
// the primary's WAL position are read: one small statement per server.
const defaultCheckInterval = 100 * time.Millisecond

// ReadDatabases makes reads go to these PostgreSQL hot standbys of the
// primary (see above); maxLag is the furthest a standby may be behind and
// still serve reads (0: DefaultReadMaxLag). Refused on SQLite.
func ReadDatabases(urls []string, maxLag time.Duration) Option {
	return func(o *options) { o.readURLs, o.readMaxLag = urls, maxLag }
}

// positionsTable keeps the position of each token's last write (see
// above); unlogged: it is the primary's alone, and lost positions (after
// a crash of the primary) only matter for the lag limit's length.
const positionsTable = "inventory_read_positions"

// createPositions creates positionsTable unless it exists (another
// replica may be creating it at the same moment).
func createPositions(ctx context.Context, primary *stdsql.DB) error {
	_, err := primary.ExecContext(ctx, `CREATE UNLOGGED TABLE IF NOT EXISTS `+positionsTable+
		` (key text PRIMARY KEY, lsn pg_lsn NOT NULL, at timestamptz NOT NULL DEFAULT now())`)
	if err != nil {
		var exists bool
		if primary.QueryRowContext(ctx, `SELECT to_regclass($1) IS NOT NULL`, positionsTable).Scan(&exists) == nil && exists {
			return nil
		}
		return fmt.Errorf("create %s: %w", positionsTable, err)
	}
	return nil
}

// standby is one --read-database.
type standby struct {
	name  string // host:port/database, without credentials
	pool  *stdsql.DB
	cache *resource.Cache
	state atomic.Pointer[StandbyStatus]
	// down: a read failed on it; no reads until the next good check.
	down      atomic.Bool
	reads     atomic.Uint64
	failovers atomic.Uint64
}

// StandbyStatus is a standby's state as the last check saw it.
type StandbyStatus struct {
	Name string
	// State: "ok", "lagging" (more than the limit behind), "unreachable",
	// "not a standby" (not in recovery: promoted or a primary given by
	// mistake), or "starting" before the first check.
	State  string
	Usable bool
	Replay LSN
	Lag    time.Duration
	Error  string
	// Reads counts the requests it served; Failovers the reads it failed
	// under, which the primary answered.
	Reads     uint64
	Failovers uint64
}

// ReadStats are the routing counters: requests read from the primary, and
// among them those that had a standby configured but none at the client's
// position (Behind) or none usable (Unavailable).
type ReadStats struct{ Primary, Behind, Unavailable uint64 }

// router is the read side's routing state.
type router struct {
	primary  *stdsql.DB
	standbys []*standby
	maxLag   time.Duration
	interval time.Duration
	next     atomic.Uint64 // round robin among candidates

	primaryReads, behind, unavailable atomic.Uint64

	// floor is the position every read needs (the end of this process's
	// migration): code that expects the new schema never reads a standby
	// that has not replayed it.
	floor atomic.Uint64

	// hist: the primary's WAL positions, each with when a check first saw
	// it (monitor goroutine only).
	hist []sample

	// pruned: when positionsTable was last pruned (monitor goroutine).
	pruned time.Time

	stop    chan struct{}
	done    chan struct{}
	started bool
	log     *slog.Logger
}

type sample struct {
	lsn LSN
	at  time.Time
}

func newRouter(primary *stdsql.DB, urls []string, o options, ttl time.Duration) (*router, error) {
	r := &router{primary: primary, maxLag: o.readMaxLag, interval: defaultCheckInterval,
		stop: make(chan struct{}), done: make(chan struct{}),
		log: slog.Default().With("component", "standbys")}
	if r.maxLag <= 0 {
		r.maxLag = DefaultReadMaxLag
	}
	for _, raw := range urls {
		if !strings.HasPrefix(raw, "postgres://") && !strings.HasPrefix(raw, "postgresql://") {
			r.close()
			return nil, fmt.Errorf("read database %q: a PostgreSQL hot standby's postgres:// URL is expected", redact(raw))
		}
		serving, err := withStatementTimeout(raw, o.statementTimeout)
		if err == nil {
			serving, err = withConnectTimeout(serving)
		}
		if err != nil {
			r.close()
			return nil, err
		}
		pool, err := stdsql.Open("pgx", serving)
		if err != nil {
			r.close()
			return nil, err
		}
		pool.SetMaxOpenConns(20)
		pool.SetMaxIdleConns(20)
		s := &standby{name: redact(raw), pool: pool, cache: resource.NewCache(ttl)}
		s.state.Store(&StandbyStatus{Name: s.name, State: "starting"})
		r.standbys = append(r.standbys, s)
	}
	return r, nil
}

// withConnectTimeout bounds connecting to a standby that does not answer
// (a host gone without a reset): the read waits that long, then the
// primary answers it.
func withConnectTimeout(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("read database URL: %w", err)
	}
	q := u.Query()
	if !q.Has("connect_timeout") {
		q.Set("connect_timeout", "2")
		u.RawQuery = q.Encode()
	}
	return u.String(), nil
}

// redact is a URL's host, port and database: what logs and the status
// page may show.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(unparsable URL)"
	}
	return u.Host + u.Path
}

// start runs the first check (so that the first requests may use the
// standbys) and the background checks.
func (r *router) start() {
	r.check()
	r.started = true
	go func() {
		defer close(r.done)
		t := time.NewTicker(r.interval)
		defer t.Stop()
		for {
			select {
			case <-r.stop:
				return
			case <-t.C:
				r.check()
			}
		}
	}()
}

func (r *router) close() {
	select {
	case <-r.stop:
	default:
		close(r.stop)
	}
	if r.started {
		<-r.done
	}
	for _, s := range r.standbys {
		s.pool.Close()
	}
}

// checkTimeout bounds one check of one server.
func (r *router) checkTimeout() time.Duration { return max(r.maxLag, time.Second) }

// check reads the primary's WAL position and every standby's replay
// position (in parallel: one standby that hangs holds up no other).
func (r *router) check() {
	ctx, cancel := context.WithTimeout(context.Background(), r.checkTimeout())
	defer cancel()
	now := time.Now()
	var cur string
	if err := r.primary.QueryRowContext(ctx, "SELECT pg_current_wal_insert_lsn()::text").Scan(&cur); err == nil {
		if l, ok := ParseLSN(cur); ok {
			r.addSample(l, now)
		}
	}
	var wg sync.WaitGroup
	for _, s := range r.standbys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.checkStandby(ctx, s, now)
		}()
	}
	wg.Wait()
	if now.Sub(r.pruned) > 10*time.Second {
		r.pruned = now
		r.prunePositions(ctx)
	}
}

// prunePositions forgets positions older than the lag limit (and then
// some): every usable standby has replayed them.
func (r *router) prunePositions(ctx context.Context) {
	if _, err := r.primary.ExecContext(ctx, `DELETE FROM `+positionsTable+` WHERE at < now() - $1::interval`,
		(r.maxLag + 10*time.Second).String()); err != nil {
		r.log.Warn("cannot prune the write positions", "error", err)
	}
}

func (r *router) addSample(l LSN, now time.Time) {
	if n := len(r.hist); n > 0 && r.hist[n-1].lsn >= l {
		return
	}
	r.hist = append(r.hist, sample{l, now})
	// Keep the newest sample older than the window too: a standby behind
	// it is at least that far behind.
	window := now.Add(-(r.maxLag + 10*time.Second))
	drop := 0
	for drop+1 < len(r.hist) && r.hist[drop+1].at.Before(window) {
		drop++
	}
	r.hist = r.hist[drop:]
}

// lag is how long ago the primary first passed replay: 0 when the standby
// has replayed everything the primary had at the last check.
func (r *router) lag(replay LSN, now time.Time) time.Duration {
	for _, s := range r.hist {
		if s.lsn > replay {
			return now.Sub(s.at)
		}
	}
	return 0
}

func (r *router) checkStandby(ctx context.Context, s *standby, now time.Time) {
	prev := s.state.Load()
	st := &StandbyStatus{Name: s.name}
	var inRecovery bool
	var replay stdsql.NullString
	err := s.pool.QueryRowContext(ctx, "SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn()::text").Scan(&inRecovery, &replay)
	switch {
	case err != nil:
		st.State, st.Error = "unreachable", err.Error()
	case !inRecovery || !replay.Valid:
		st.State = "not a standby"
	default:
		st.Replay, _ = ParseLSN(replay.String)
		st.Lag = r.lag(st.Replay, now)
		st.State = "ok"
		if st.Lag > r.maxLag {
			st.State = "lagging"
		}
		st.Usable = st.State == "ok"
	}
	if st.Replay != prev.Replay || !st.Usable {
		// What the standby serves has moved on (or it comes back after a
		// failure): nothing cached from it before stays.
		s.cache.Bump()
	}
	s.state.Store(st)
	if st.Usable {
		s.down.Store(false)
	}
	if st.State != prev.State {
		r.log.Info("standby "+st.State, "standby", s.name, "lag", st.Lag.Round(time.Millisecond), "error", st.Error)
	}
}

// usable reports whether any standby may serve reads now.
func (r *router) usable() bool {
	for _, s := range r.standbys {
		if s.state.Load().Usable && !s.down.Load() {
			return true
		}
	}
	return false
}

// position is the position of the token's last write, through any
// replica; unknownLSN (the primary then) when it cannot be read.
func (r *router) position(ctx context.Context, key string) LSN {
	var raw string
	err := r.primary.QueryRowContext(ctx, `SELECT lsn::text FROM `+positionsTable+` WHERE key = $1`, key).Scan(&raw)
	if errors.Is(err, stdsql.ErrNoRows) {
		return 0
	}
	if l, ok := ParseLSN(raw); ok && err == nil {
		return l
	}
	return unknownLSN
}

// migrated sets the router's floor to the primary's position after a
// migration (Migrate); without standbys it does nothing.
func (d *DB) migrated(ctx context.Context) error {
	if d.router == nil {
		return nil
	}
	var raw string
	if err := d.Write.QueryRowContext(ctx, "SELECT pg_current_wal_insert_lsn()::text").Scan(&raw); err != nil {
		return err
	}
	l, _ := ParseLSN(raw)
	d.router.floor.Store(uint64(l))
	return nil
}

// pick gives a read at or after the client's position a standby, or nil
// for the primary.
func (r *router) pick(after LSN) *standby {
	after = max(after, LSN(r.floor.Load()))
	var cands [8]*standby
	c := cands[:0]
	usable := false
	for _, s := range r.standbys {
		st := s.state.Load()
		if !st.Usable || s.down.Load() {
			continue
		}
		usable = true
		if st.Replay >= after {
			c = append(c, s)
		}
	}
	if len(c) == 0 {
		r.primaryReads.Add(1)
		if usable {
			r.behind.Add(1)
		} else {
			r.unavailable.Add(1)
		}
		return nil
	}
	s := c[r.next.Add(1)%uint64(len(c))]
	s.reads.Add(1)
	return s
}

// Session is one request's read routing and write positions.
type Session struct {
	key     string
	after   LSN
	onWrite func(LSN)
	route   atomic.Pointer[standby]
}

type sessionKey struct{}

func sessionFrom(ctx context.Context) *Session {
	s, _ := ctx.Value(sessionKey{}).(*Session)
	return s
}

// HasStandbys reports whether reads may be served by standbys.
func (d *DB) HasStandbys() bool { return d.router != nil }

// Request starts a request's routing: key names the client's token ("" for
// none), after is the position the client sent (its last write's), read
// says whether the request may be served by a standby, and onWrite is
// given the position of each write transaction the request commits. With
// no standbys ctx is returned as is.
func (d *DB) Request(ctx context.Context, key string, after LSN, read bool, onWrite func(LSN)) context.Context {
	r := d.router
	if r == nil {
		return ctx
	}
	s := &Session{key: key, after: after, onWrite: onWrite}
	ctx = context.WithValue(ctx, sessionKey{}, s)
	if !read {
		return ctx
	}
	if key != "" && r.usable() {
		s.after = max(s.after, r.position(ctx, key))
	}
	if sb := r.pick(s.after); sb != nil {
		s.route.Store(sb)
		ctx = resource.WithCache(ctx, sb.cache)
	}
	return ctx
}

// ServedBy names the server the request's reads went to: "primary" or a
// standby's host:port/database.
func ServedBy(ctx context.Context) string {
	if s := sessionFrom(ctx); s != nil {
		if sb := s.route.Load(); sb != nil {
			return sb.name
		}
	}
	return "primary"
}

// routed is DB.Store's Querier when there are standbys.
type routed struct{ d *DB }

func (q routed) QueryContext(ctx context.Context, query string, args ...any) (*stdsql.Rows, error) {
	if s := sessionFrom(ctx); s != nil {
		if sb := s.route.Load(); sb != nil {
			rows, err := sb.pool.QueryContext(ctx, query, args...)
			if err == nil || !failover(ctx, err) {
				return rows, err
			}
			// The standby failed under the read: none of this request's
			// reads go there again, nor anyone's until a check finds it
			// back; the primary answers.
			if s.route.CompareAndSwap(sb, nil) {
				sb.failovers.Add(1)
				if !sb.down.Swap(true) {
					q.d.router.log.Warn("standby failed under a read; reads go to the primary until it is back", "standby", sb.name, "error", err)
				}
			}
		}
	}
	return q.d.Read.QueryContext(ctx, query, args...)
}

// failover reports whether a read that failed with err on a standby is
// the standby's failure (connection lost, server shutting down, a replay
// conflict cancelling the query), which the primary can answer, rather
// than the read's own (a bad statement, the statement timeout) or the
// client's (its context ended).
func failover(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return true // the network, the driver: no answer from the server
	}
	switch {
	case pe.Code == "57014": // query_canceled: the statement timeout
		return false
	case pe.Code == "40001": // a conflict with recovery
		return true
	}
	switch pe.Code[:2] {
	case "08", "53", "57", "58":
		return true
	}
	return false
}

// noteWrite hands the primary's WAL position after a committed write to
// the request that made it and, for a token, keeps it in positionsTable
// for every replica (one statement either way).
func (d *DB) noteWrite(ctx context.Context, s *Session) {
	var raw string
	var err error
	if s.key != "" {
		err = d.Write.QueryRowContext(ctx, `INSERT INTO `+positionsTable+` (key, lsn) VALUES ($1, pg_current_wal_insert_lsn())
			ON CONFLICT (key) DO UPDATE SET lsn = greatest(`+positionsTable+`.lsn, excluded.lsn), at = now()
			RETURNING lsn::text`, s.key).Scan(&raw)
	} else {
		err = d.Write.QueryRowContext(ctx, "SELECT pg_current_wal_insert_lsn()::text").Scan(&raw)
	}
	l, ok := ParseLSN(raw)
	if err != nil || !ok {
		d.router.log.Warn("cannot read the WAL position of a write; its client reads from the primary for a while", "error", err)
		l = unknownLSN
	}
	if s.onWrite != nil {
		s.onWrite(l)
	}
}

// Standbys is each standby's state, for the status page and the metrics.
func (d *DB) Standbys() []StandbyStatus {
	if d.router == nil {
		return nil
	}
	out := make([]StandbyStatus, len(d.router.standbys))
	for i, s := range d.router.standbys {
		out[i] = *s.state.Load()
		out[i].Reads, out[i].Failovers = s.reads.Load(), s.failovers.Load()
		if s.down.Load() && out[i].Usable {
			out[i].Usable, out[i].State = false, "failed"
		}
	}
	return out
}

// ReadStats are the routing counters (zero without standbys).
func (d *DB) ReadStats() ReadStats {
	if d.router == nil {
		return ReadStats{}
	}
	r := d.router
	return ReadStats{Primary: r.primaryReads.Load(), Behind: r.behind.Load(), Unavailable: r.unavailable.Load()}
}
