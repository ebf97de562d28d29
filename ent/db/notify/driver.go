package notify

import (
	"context"
	"database/sql"
	"sort"
	"strings"
	"sync"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
)

// Channel is the PostgreSQL notification channel of cache invalidations.
const Channel = "inventory_cache"

// uncached are the tables no cached read depends on: the webhook worker
// writes them all the time, and notifying every replica for each delivery
// attempt would keep every cache empty.
var uncached = map[string]bool{"core_delivery": true, "core_outboxevent": true, "core_idempotencykey": true}

// maxPayload keeps the payload under PostgreSQL's 8000-byte limit.
const maxPayload = 7000

// Driver wraps drv (a PostgreSQL driver) so that writes notify the other
// replicas (see the package comment).
func Driver(drv *entsql.Driver) dialect.Driver { return &driver{drv} }

type driver struct{ *entsql.Driver }

// written is the table a statement writes, "" for a statement that writes
// nothing; "*" when it writes but the table is not recognised (a writing
// CTE, DDL): notified, to be safe.
func written(query string) string {
	q := strings.TrimLeft(query, " \t\r\n(")
	word, rest, _ := strings.Cut(q, " ")
	switch strings.ToUpper(word) {
	case "SELECT", "SAVEPOINT", "RELEASE", "ROLLBACK", "SET", "SHOW", "LOCK", "BEGIN", "COMMIT", "VALUES":
		return ""
	case "INSERT", "DELETE":
		_, rest, _ = strings.Cut(strings.TrimLeft(rest, " "), " ") // INTO, FROM
	case "UPDATE":
	default:
		return "*"
	}
	table, _, _ := strings.Cut(strings.TrimLeft(rest, " "), " ")
	table = strings.Trim(table, `"`)
	if i := strings.LastIndexByte(table, '.'); i >= 0 {
		table = strings.Trim(table[i+1:], `"`)
	}
	if table == "" {
		return "*"
	}
	return table
}

// payload lists the notified tables, or "*" when too many to name.
func payload(tables map[string]bool) string {
	names := make([]string, 0, len(tables))
	for t := range tables {
		names = append(names, t)
	}
	sort.Strings(names)
	p := strings.Join(names, ",")
	if len(p) > maxPayload {
		return "*"
	}
	return p
}

const notifySQL = "SELECT pg_notify($1, $2)"

type quietKey struct{}

// Quietly marks ctx for bookkeeping writes made outside a transaction
// that no cached read needs to see at once (a token's last_used, written
// at most once a minute per token and replica): they notify no replica,
// and db's own cache hook leaves the local cache alone too. Without it,
// every active token would empty every replica's cache once a minute.
func Quietly(ctx context.Context) context.Context { return context.WithValue(ctx, quietKey{}, true) }

// IsQuiet reports whether ctx was marked by Quietly.
func IsQuiet(ctx context.Context) bool { q, _ := ctx.Value(quietKey{}).(bool); return q }

// notifyNow notifies about a write made outside a transaction, once the
// statement has run (it commits by itself; every write of the service's
// objects runs in a transaction, so this serves the odd direct update),
// unless ctx says Quietly.
func (d *driver) notifyNow(ctx context.Context, table string) error {
	if table == "" || uncached[table] || IsQuiet(ctx) {
		return nil
	}
	_, err := d.Driver.ExecContext(ctx, notifySQL, Channel, table)
	return err
}

func (d *driver) Exec(ctx context.Context, query string, args, v any) error {
	if err := d.Driver.Exec(ctx, query, args, v); err != nil {
		return err
	}
	return d.notifyNow(ctx, written(query))
}

func (d *driver) Query(ctx context.Context, query string, args, v any) error {
	if err := d.Driver.Query(ctx, query, args, v); err != nil {
		return err
	}
	return d.notifyNow(ctx, written(query))
}

func (d *driver) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	r, err := d.Driver.ExecContext(ctx, query, args...)
	if err != nil {
		return r, err
	}
	return r, d.notifyNow(ctx, written(query))
}

func (d *driver) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	rows, err := d.Driver.QueryContext(ctx, query, args...)
	if err != nil {
		return rows, err
	}
	if err := d.notifyNow(ctx, written(query)); err != nil {
		rows.Close()
		return nil, err
	}
	return rows, nil
}

func (d *driver) Tx(ctx context.Context) (dialect.Tx, error) { return d.BeginTx(ctx, nil) }

func (d *driver) BeginTx(ctx context.Context, opts *sql.TxOptions) (dialect.Tx, error) {
	t, err := d.Driver.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &tx{Tx: t.(*entsql.Tx), ctx: ctx}, nil
}

// tx notes the tables its statements write and notifies at commit.
type tx struct {
	*entsql.Tx
	ctx    context.Context
	mu     sync.Mutex
	tables map[string]bool
}

func (t *tx) note(query string) {
	table := written(query)
	if table == "" || uncached[table] {
		return
	}
	t.mu.Lock()
	if t.tables == nil {
		t.tables = map[string]bool{}
	}
	t.tables[table] = true
	t.mu.Unlock()
}

func (t *tx) Exec(ctx context.Context, query string, args, v any) error {
	t.note(query)
	return t.Tx.Exec(ctx, query, args, v)
}

func (t *tx) Query(ctx context.Context, query string, args, v any) error {
	t.note(query)
	return t.Tx.Query(ctx, query, args, v)
}

func (t *tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	t.note(query)
	return t.Tx.ExecContext(ctx, query, args...)
}

func (t *tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	t.note(query)
	return t.Tx.QueryContext(ctx, query, args...)
}

// Commit sends the notification as the transaction's last statement:
// PostgreSQL holds it until the commit and drops it on rollback. If it
// cannot be sent the transaction is rolled back: a write other replicas
// would not hear of must not commit.
func (t *tx) Commit() error {
	t.mu.Lock()
	tables := t.tables
	t.mu.Unlock()
	if len(tables) > 0 {
		if _, err := t.Tx.ExecContext(t.ctx, notifySQL, Channel, payload(tables)); err != nil {
			t.Tx.Rollback()
			return err
		}
	}
	return t.Tx.Commit()
}
