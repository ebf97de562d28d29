// Package db opens the database behind the service: SQLite (the default,
// one file) or PostgreSQL (postgres:// URLs), tuned as DESIGN.md §4 says,
// and runs the schema migration. On PostgreSQL, reads may be served by hot
// standbys of the primary (standby.go: routing, read-your-writes, lag);
// standbytest runs a primary and a standby for the tests of that.
package db

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	_ "github.com/jackc/pgx/v5/stdlib" // PostgreSQL driver "pgx"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/db/notify"
	"github.com/inventory/inventory/ent/logic/ipam"
	"github.com/inventory/inventory/ent/resource"
	// Schema hooks, defaults and validators live in ent/runtime once any
	// schema has hooks (ipam.Prefix does): without this import they would
	// silently not run.
	_ "github.com/inventory/inventory/ent/runtime"
	"github.com/inventory/inventory/filters"
)

// DB is an open database: an ent client for writes and a pool for reads.
// On SQLite the writer is a single connection (SQLite has one writer at a
// time anyway; one connection avoids busy retries) and reads use their own
// pool, which WAL lets run beside the writer.
type DB struct {
	Client *ent.Client
	// ReadClient is an ent client on the read pool, for typed reads that
	// need not wait behind the SQLite writer (authentication).
	ReadClient *ent.Client
	Read       *stdsql.DB
	Write      *stdsql.DB
	Dialect    string
	// Cache keeps reads between requests (see CacheTTL).
	Cache *resource.Cache
	// dsn reopens the database (PostgreSQL's invalidation listener).
	dsn string
	// Statements counts every statement sent on this DB's pools, by
	// anyone (count.go): the benchmark's statements per request.
	Statements atomic.Int64

	// migrateURL is the PostgreSQL URL as given, without the statement
	// timeout of the serving pool: an upgrade's index builds may take
	// longer than any request should.
	migrateURL string

	// txTimeout bounds each InTx (TransactionTimeout); 0: unbounded.
	txTimeout time.Duration

	// router serves reads from hot standbys (standby.go); nil without.
	router *router
}

// Option tunes Open.
type Option func(*options)

type options struct {
	statementTimeout   time.Duration
	transactionTimeout time.Duration
	readURLs           []string
	readMaxLag         time.Duration
}

// DefaultStatementTimeout bounds every PostgreSQL statement of the serving
// pool: a pathological filter (a catastrophic regular expression, a LIKE
// over a huge table) is cancelled by the server instead of holding a
// connection and a CPU for ever; the client gets a 503 (server/errors.go).
// No request of the API needs anywhere near this long.
const DefaultStatementTimeout = 30 * time.Second

// StatementTimeout sets PostgreSQL's statement_timeout for the serving
// pool (0: none, the server's own setting). A statement_timeout given in
// the URL wins. SQLite has no equivalent: its regexp function is RE2,
// linear in its input.
func StatementTimeout(d time.Duration) Option {
	return func(o *options) { o.statementTimeout = d }
}

// DefaultTransactionTimeout bounds every write transaction (InTx), from
// asking for the writer to the commit. SQLite has one writer: a write that
// runs away (a bug in a hook, a path that never ends, a statement that
// never returns) would otherwise freeze every other write for as long as
// it runs. At the deadline its statement is interrupted, the transaction
// rolled back and the client answered 503 (server/errors.go); the writer
// is free again. Writers queued behind it wait at most as long.
const DefaultTransactionTimeout = 30 * time.Second

// TransactionTimeout sets the deadline of each write transaction (0:
// none).
func TransactionTimeout(d time.Duration) Option {
	return func(o *options) { o.transactionTimeout = d }
}

// SQLitePath is the file of a SQLite database URL as Open reads it, and
// false for a PostgreSQL URL.
func SQLitePath(rawURL string) (string, bool) {
	if strings.HasPrefix(rawURL, "postgres://") || strings.HasPrefix(rawURL, "postgresql://") {
		return "", false
	}
	path := strings.TrimPrefix(strings.TrimPrefix(rawURL, "sqlite://"), "file:")
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	return path, true
}

// Open opens url: "postgres://..." or "postgresql://..." for PostgreSQL;
// anything else is a SQLite file path (optionally "sqlite://path" or
// "file:path"), created with its directory when missing.
func Open(ctx context.Context, rawURL string, opts ...Option) (*DB, error) {
	o := options{statementTimeout: DefaultStatementTimeout, transactionTimeout: DefaultTransactionTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	d := &DB{txTimeout: o.transactionTimeout}
	if strings.HasPrefix(rawURL, "postgres://") || strings.HasPrefix(rawURL, "postgresql://") {
		serving, err := withStatementTimeout(rawURL, o.statementTimeout)
		if err != nil {
			return nil, err
		}
		w, err := openCounted("pgx", serving, &d.Statements)
		if err != nil {
			return nil, err
		}
		if serving != rawURL {
			d.migrateURL = rawURL
		}
		w.SetMaxOpenConns(20)
		w.SetMaxIdleConns(20)
		if err := w.PingContext(ctx); err != nil {
			w.Close()
			return nil, fmt.Errorf("connect to PostgreSQL: %w", err)
		}
		// Writes notify the other replicas' caches (replicas.go).
		c := ent.NewClient(ent.Driver(notify.Driver(entsql.OpenDB(dialect.Postgres, w))))
		d.dsn = rawURL
		d.Client, d.ReadClient, d.Read, d.Write, d.Dialect = c, c, w, w, dialect.Postgres
		withCache(d)
		if len(o.readURLs) > 0 {
			if err := createPositions(ctx, w); err != nil {
				d.Close()
				return nil, err
			}
			if d.router, err = newRouter(w, o.readURLs, o, CacheTTL); err != nil {
				d.Close()
				return nil, err
			}
			d.router.start()
		}
		return d, nil
	}
	if len(o.readURLs) > 0 {
		return nil, errors.New("read databases (--read-database, INVENTORY_READ_DATABASES) are PostgreSQL hot standbys of a PostgreSQL --database; SQLite has none: remove them or use PostgreSQL")
	}
	path, _ := SQLitePath(rawURL)
	if path == "" {
		return nil, fmt.Errorf("empty database path")
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	filters.RegisterSQLite()
	q := url.Values{}
	q.Set("_fk", "1")
	q.Set("_journal_mode", "WAL")
	q.Set("_busy_timeout", "10000")
	q.Set("_synchronous", "NORMAL")
	q.Set("_txlock", "immediate")
	// Each connection keeps its last 128 prepared statements: a request
	// runs the same few statements as the last one of its kind, and
	// preparing them again was 0.3 ms of a page of 1000 prefixes and a
	// quarter of a detail GET. (pgx caches its own on PostgreSQL.)
	q.Set("_stmt_cache_size", "128")
	// No lock around each call into SQLite (SQLite's multi-thread mode):
	// database/sql hands a connection to one goroutine at a time, which
	// is all that mode asks. The serialized mode took SQLite's lock for
	// every value read, a third of reading a page of 1000 prefixes. (The
	// driver's cancellation calls sqlite3_interrupt, which is safe from
	// any thread.)
	q.Set("_mutex", "no")
	dsn := "file:" + path + "?" + q.Encode()
	w, err := openCounted(filters.SQLiteDriver, dsn, &d.Statements)
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	if err := w.PingContext(ctx); err != nil {
		w.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	q.Set("_txlock", "deferred")
	q.Set("_query_only", "1")
	r, err := openCounted(filters.SQLiteDriver, "file:"+path+"?"+q.Encode(), &d.Statements)
	if err != nil {
		w.Close()
		return nil, err
	}
	r.SetMaxOpenConns(8)
	r.SetMaxIdleConns(8)
	d.Client = ent.NewClient(ent.Driver(entsql.OpenDB(dialect.SQLite, w)))
	d.ReadClient = ent.NewClient(ent.Driver(entsql.OpenDB(dialect.SQLite, r)))
	d.Read, d.Write, d.Dialect = r, w, dialect.SQLite
	return withCache(d), nil
}

// CacheTTL bounds how long a cached read (counts, custom field
// definitions, token lookups) may miss a write made by another replica;
// writes through this process invalidate the cache at once.
const CacheTTL = 2 * time.Second

// withCache gives d its read cache, invalidated by every mutation that
// changed something and by every commit.
func withCache(d *DB) *DB {
	d.Cache = resource.NewCache(CacheTTL)
	d.Client.Use(resource.NaturalHook())
	d.Client.Use(resource.CustomFieldIndexHook())
	d.Client.Use(func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			v, err := next.Mutate(ctx, m)
			if n, ok := v.(int); ok && n == 0 && err == nil {
				return v, err // a bulk update that matched nothing
			}
			if !uncachedTypes[m.Type()] && !notify.IsQuiet(ctx) {
				d.Cache.Bump()
			}
			return v, err
		})
	})
	return d
}

// withStatementTimeout adds statement_timeout to a PostgreSQL URL (pgx
// sends unknown URL parameters as run-time parameters of each connection)
// unless the URL sets one already.
func withStatementTimeout(rawURL string, d time.Duration) (string, error) {
	if d <= 0 {
		return rawURL, nil
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", fmt.Errorf("database URL: %w", err)
	}
	q := u.Query()
	if q.Has("statement_timeout") {
		return rawURL, nil
	}
	ms := d.Milliseconds()
	if ms < 1 {
		ms = 1
	}
	q.Set("statement_timeout", strconv.FormatInt(ms, 10))
	u.RawQuery = q.Encode()
	return u.String(), nil
}

var migrateMu sync.Mutex

// searchWarned: the missing-FTS5 warning is the build's, said once per
// process (tests migrate many databases).
var searchWarned atomic.Bool

// Migrate creates or upgrades the schema; existing data is kept. Cached
// columns added by an upgrade (the prefixes' cached scope, the natural sort
// keys) are filled.
func (d *DB) Migrate(ctx context.Context) error {
	// ent's migration mutates the generated package-level table
	// descriptions: migrations of several databases in one process (tests)
	// must not overlap.
	migrateMu.Lock()
	defer migrateMu.Unlock()
	c := d.Client
	if d.migrateURL != "" {
		// Without the serving pool's statement timeout; the steps below
		// are schema changes and raw SQL, which need none of the
		// client's hooks.
		conn, err := openCounted("pgx", d.migrateURL, &d.Statements)
		if err != nil {
			return err
		}
		conn.SetMaxOpenConns(1)
		c = ent.NewClient(ent.Driver(entsql.OpenDB(dialect.Postgres, conn)))
		defer c.Close()
	}
	if err := c.Schema.Create(ctx); err != nil {
		return err
	}
	if err := resource.FillNaturalKeys(ctx, c, d.Dialect); err != nil {
		return err
	}
	if err := resource.OrderingIndexes(ctx, c, d.Dialect); err != nil {
		return err
	}
	if err := resource.KeyIndexes(ctx, c, d.Dialect); err != nil {
		return err
	}
	ok, err := resource.SearchIndexes(ctx, c, d.Dialect)
	if err != nil {
		return err
	}
	switch {
	case ok:
	case d.Dialect == dialect.Postgres:
		slog.Warn("pg_trgm is not available (CREATE EXTENSION pg_trgm failed): q and the case-insensitive lookups scan their tables; create the extension as a superuser and restart to index them")
	case d.Dialect == dialect.SQLite && !searchWarned.Swap(true):
		slog.Warn("this build's SQLite has no FTS5 (build with -tags sqlite_fts5, as make build does): q and the case-insensitive lookups scan their tables")
	}
	if err := resource.CustomFieldIndexes(ctx, c, d.Dialect); err != nil {
		return err
	}
	if err := resource.SyncObjectTypes(ctx, c, d.Dialect); err != nil {
		return err
	}
	if err := ipam.RebuildPrefixScopes(ctx, c); err != nil {
		return err
	}
	// Reads of this process need the migrated schema: none goes to a
	// standby that has not replayed the migration (standby.go).
	return d.migrated(ctx)
}

// PlanMigration writes the schema changes Migrate's first step would make
// to w, without making them: none on a database Migrate has brought up to
// date (the test of the partial key indexes holds it to that, so that no
// start rebuilds indexes).
func (d *DB) PlanMigration(ctx context.Context, w io.Writer) error {
	migrateMu.Lock()
	defer migrateMu.Unlock()
	return d.Client.Schema.WriteTo(ctx, w)
}

// Store is the read side as the resource layer sees it.
func (d *DB) Store() resource.Store {
	if d.router != nil {
		// Routed per request (standby.go).
		return resource.Store{Dialect: d.Dialect, Q: routed{d}, Cache: d.Cache}
	}
	return resource.Store{Dialect: d.Dialect, Q: d.Read, Cache: d.Cache}
}

// ErrTransactionTimeout is the error of a write transaction that ran
// past its deadline (TransactionTimeout): nothing of it was committed.
// It matches context.DeadlineExceeded too (Classify: TimedOut).
var ErrTransactionTimeout = errors.New("the write transaction ran past its deadline")

// txTimedOut wraps the error a transaction ended with when its deadline
// was the cause (the driver's own error may be an interrupt, a cancelled
// statement or database/sql's "transaction has already been committed or
// rolled back").
type txTimedOut struct{ cause error }

func (e txTimedOut) Error() string { return ErrTransactionTimeout.Error() + ": " + e.cause.Error() }
func (e txTimedOut) Unwrap() []error {
	return []error{ErrTransactionTimeout, context.DeadlineExceeded, e.cause}
}

// InTx runs fn in one transaction: committed when fn returns nil, rolled
// back otherwise (and on panic). The transaction, waiting for the writer
// included, has until the TransactionTimeout deadline: fn's statements
// must run with the ctx it is given (database/sql rolls a transaction back
// at its deadline only once the statement running then has returned).
func (d *DB) InTx(ctx context.Context, fn func(ctx context.Context, tx *ent.Tx) error) (err error) {
	parentCtx := ctx
	if d.txTimeout > 0 {
		parent := ctx
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d.txTimeout)
		defer cancel()
		defer func() {
			// Our deadline, not the caller's going away or deadline.
			if err != nil && parent.Err() == nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
				err = txTimedOut{err}
			}
		}()
	}
	tx, err := d.Client.Tx(ctx)
	if err != nil {
		return err
	}
	defer func() {
		if p := recover(); p != nil {
			tx.Rollback()
			panic(p)
		}
	}()
	if err := fn(ctx, tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		// A commit hook (the change log's flush) may fail before the
		// commit: end the transaction rather than leak it.
		tx.Rollback()
		return err
	}
	// Readers may have cached what they saw while the transaction ran.
	d.Cache.Bump()
	if d.router != nil {
		if s := sessionFrom(parentCtx); s != nil {
			d.noteWrite(parentCtx, s)
		}
	}
	return nil
}

// Close closes the pools.
func (d *DB) Close() error {
	if d.router != nil {
		d.router.close()
	}
	err := d.Client.Close()
	if d.Read != d.Write {
		d.ReadClient.Close()
	}
	return err
}
