package db

import (
	"context"
	stdsql "database/sql"
	"database/sql/driver"
	"errors"
	"sync"
	"sync/atomic"
)

// Statement counting. Every pool Open makes goes through a wrapper of the
// registered database/sql driver (go-sqlite3 or pgx's stdlib) that counts
// each statement sent to the database: a query, an exec, the execution of
// a prepared statement, and a transaction's BEGIN, COMMIT and ROLLBACK.
// Counting below database/sql rather than in ent's driver or in the
// resource layer's store means no path is missed: token lookups,
// permission grants, custom field definitions, hooks' raw SQL, change
// records, outbox events and PostgreSQL's cache notifications all count.
// A string of several statements run by one call (migrations) counts
// once: the figure is round trips, what a request costs. Connection setup
// (SQLite's pragmas, pgx's startup) is not a statement of any request and
// is not counted.
//
// Two views of the same count: DB.Statements, every statement of the
// process's pools (the benchmark's per-request figure divides it), and
// per context (CountingStatements), which attributes statements to the
// request whose context they ran under: the query-count tests measure one
// request exactly, whatever else runs at the time (a token's background
// last_used write).

type counterKey struct{}

// Counter counts the statements run under the contexts that carry it
// (CountingStatements), and while Recording, keeps their text.
type Counter struct {
	n         atomic.Int64
	recording atomic.Bool
	mu        sync.Mutex
	log       []string
}

// Load is the number of statements counted so far.
func (c *Counter) Load() int64 { return c.n.Load() }

// Record runs fn and returns the statements counted meanwhile, in order:
// what a query-count test shows when a count grows.
func (c *Counter) Record(fn func()) []string {
	c.mu.Lock()
	c.log = nil
	c.mu.Unlock()
	c.recording.Store(true)
	defer c.recording.Store(false)
	fn()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.log
}

// CountingStatements returns ctx whose statements, at the driver, are also
// counted by c.
func CountingStatements(ctx context.Context, c *Counter) context.Context {
	return context.WithValue(ctx, counterKey{}, c)
}

// counter counts for a pool: its total, and the context's Counter if any.
type counter struct{ total *atomic.Int64 }

func (k counter) add(ctx context.Context, query string) {
	k.total.Add(1)
	if ctx == nil {
		return
	}
	if c, ok := ctx.Value(counterKey{}).(*Counter); ok {
		c.n.Add(1)
		if c.recording.Load() {
			c.mu.Lock()
			c.log = append(c.log, query)
			c.mu.Unlock()
		}
	}
}

// openCounted opens a pool of the registered driver name whose statements
// are counted into total.
func openCounted(name, dsn string, total *atomic.Int64) (*stdsql.DB, error) {
	probe, err := stdsql.Open(name, dsn)
	if err != nil {
		return nil, err
	}
	drv := probe.Driver()
	probe.Close() // opens no connection: only the driver was wanted
	var base driver.Connector = dsnConnector{dsn, drv}
	if dc, ok := drv.(driver.DriverContext); ok {
		if base, err = dc.OpenConnector(dsn); err != nil {
			return nil, err
		}
	}
	return stdsql.OpenDB(&countingConnector{base: base, c: counter{total}}), nil
}

// dsnConnector is database/sql's own connector for a driver without
// OpenConnector (go-sqlite3).
type dsnConnector struct {
	dsn string
	drv driver.Driver
}

func (d dsnConnector) Connect(context.Context) (driver.Conn, error) { return d.drv.Open(d.dsn) }
func (d dsnConnector) Driver() driver.Driver                        { return d.drv }

type countingConnector struct {
	base driver.Connector
	c    counter
}

func (k *countingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := k.base.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: conn, c: k.c}, nil
}

func (k *countingConnector) Driver() driver.Driver { return k.base.Driver() }

// countingConn forwards every optional interface database/sql looks for,
// answering as database/sql itself would when the driver's conn lacks one
// (driver.ErrSkip makes it fall back), so the wrapped driver behaves
// exactly as before: pgx keeps its own argument conversion
// (NamedValueChecker) and session reset.
type countingConn struct {
	driver.Conn
	c counter
}

var (
	_ driver.ConnPrepareContext = (*countingConn)(nil)
	_ driver.ExecerContext      = (*countingConn)(nil)
	_ driver.QueryerContext     = (*countingConn)(nil)
	_ driver.ConnBeginTx        = (*countingConn)(nil)
	_ driver.Pinger             = (*countingConn)(nil)
	_ driver.NamedValueChecker  = (*countingConn)(nil)
	_ driver.SessionResetter    = (*countingConn)(nil)
	_ driver.Validator          = (*countingConn)(nil)
)

func (c *countingConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c *countingConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	var (
		s   driver.Stmt
		err error
	)
	if p, ok := c.Conn.(driver.ConnPrepareContext); ok {
		s, err = p.PrepareContext(ctx, query)
	} else {
		s, err = c.Conn.Prepare(query)
	}
	if err != nil {
		return nil, err
	}
	return &countingStmt{Stmt: s, c: c.c, query: query}, nil
}

func (c *countingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	e, ok := c.Conn.(driver.ExecerContext)
	if !ok {
		return nil, driver.ErrSkip // database/sql prepares it (counted there)
	}
	r, err := e.ExecContext(ctx, query, args)
	if !errors.Is(err, driver.ErrSkip) {
		c.c.add(ctx, query)
	}
	return r, err
}

func (c *countingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	q, ok := c.Conn.(driver.QueryerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	r, err := q.QueryContext(ctx, query, args)
	if !errors.Is(err, driver.ErrSkip) {
		c.c.add(ctx, query)
	}
	return r, err
}

func (c *countingConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	var (
		tx  driver.Tx
		err error
	)
	if b, ok := c.Conn.(driver.ConnBeginTx); ok {
		tx, err = b.BeginTx(ctx, opts)
	} else {
		if opts.Isolation != driver.IsolationLevel(stdsql.LevelDefault) || opts.ReadOnly {
			return nil, errors.New("db: the driver does not support transaction options")
		}
		tx, err = c.Conn.Begin() //nolint:staticcheck // the fallback database/sql uses
	}
	c.c.add(ctx, "BEGIN") // sent or attempted
	if err != nil {
		return nil, err
	}
	return &countingTx{Tx: tx, c: c.c, ctx: ctx}, nil
}

func (c *countingConn) Ping(ctx context.Context) error {
	if p, ok := c.Conn.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

func (c *countingConn) CheckNamedValue(v *driver.NamedValue) error {
	if n, ok := c.Conn.(driver.NamedValueChecker); ok {
		return n.CheckNamedValue(v)
	}
	return driver.ErrSkip
}

func (c *countingConn) ResetSession(ctx context.Context) error {
	if r, ok := c.Conn.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *countingConn) IsValid() bool {
	if v, ok := c.Conn.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

// countingTx counts COMMIT and ROLLBACK under the context the transaction
// began with (database/sql gives them none).
type countingTx struct {
	driver.Tx
	c   counter
	ctx context.Context
}

func (t *countingTx) Commit() error {
	t.c.add(t.ctx, "COMMIT")
	return t.Tx.Commit()
}

func (t *countingTx) Rollback() error {
	t.c.add(t.ctx, "ROLLBACK")
	return t.Tx.Rollback()
}

// countingStmt counts each execution of a prepared statement.
type countingStmt struct {
	driver.Stmt
	c     counter
	query string
}

var (
	_ driver.StmtExecContext  = (*countingStmt)(nil)
	_ driver.StmtQueryContext = (*countingStmt)(nil)
)

func (s *countingStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	s.c.add(ctx, s.query)
	if e, ok := s.Stmt.(driver.StmtExecContext); ok {
		return e.ExecContext(ctx, args)
	}
	vals, err := values(args)
	if err != nil {
		return nil, err
	}
	return s.Stmt.Exec(vals) //nolint:staticcheck // the fallback database/sql uses
}

func (s *countingStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	s.c.add(ctx, s.query)
	if q, ok := s.Stmt.(driver.StmtQueryContext); ok {
		return q.QueryContext(ctx, args)
	}
	vals, err := values(args)
	if err != nil {
		return nil, err
	}
	return s.Stmt.Query(vals) //nolint:staticcheck // the fallback database/sql uses
}

// values is database/sql's conversion for drivers without the context
// methods: positional arguments only.
func values(named []driver.NamedValue) ([]driver.Value, error) {
	out := make([]driver.Value, len(named))
	for i, n := range named {
		if n.Name != "" {
			return nil, errors.New("db: the driver does not support named arguments")
		}
		out[i] = n.Value
	}
	return out, nil
}
