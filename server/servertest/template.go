package servertest

import (
	"context"
	"crypto/rand"
	stdsql "database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/inventory/inventory/ent/db"
)

// Every Env's database is a copy of one migrated template. On PostgreSQL
// (CREATE DATABASE ... TEMPLATE) Migrate builds every table and some 450
// indexes (ordering, pg_trgm search): seconds of work per database, which
// a copy of the finished files replaces. The template is made once per
// test process and per server (TestDatabaseStoppedUnderLoad points
// INVENTORY_TEST_POSTGRES at a cluster of its own). On SQLite the
// migration takes about 0.35 s of an Env's 0.3-1 s; the migrated file
// (under 3 MB) is kept in memory and written out for each Env.
//
// Once per process, not once per schema version shared between processes:
// the migration is whatever the code of this very binary does (the
// generated tables, the ordering, search and custom-field indexes, and any
// step added to db.Migrate later), and no hash of some of its inputs can
// be trusted to change whenever it does; a stale shared template would
// make tests pass or fail on a schema that is not the code's. One
// migration per test binary costs seconds; the suites make hundreds of
// Envs.
//
// Nothing is shared, so nothing needs a lock: each process's databases
// carry its own random tag (invt_<tag>_template, invt_<tag>_<n>), which is
// also the application_name of an admin connection it holds open for its
// whole life. A test process has no hook at its end to drop its template,
// so the next process drops it: every invt_ database whose tag no live
// connection carries belongs to a process that has ended (or was killed
// before its Cleanups ran) and is dropped when a template is made. On CI
// the PostgreSQL server is thrown away with the run anyway.

// sqliteTemplate is the migrated SQLite file's content.
var sqliteTemplate struct {
	once sync.Once
	data []byte
	err  error
}

// freshSQLite writes a migrated SQLite database into a directory of t's
// and returns its path.
func freshSQLite(t testing.TB) string {
	sqliteTemplate.once.Do(func() {
		sqliteTemplate.data, sqliteTemplate.err = migratedSQLite()
	})
	if sqliteTemplate.err != nil {
		t.Fatal(sqliteTemplate.err)
	}
	path := filepath.Join(t.TempDir(), "test.db")
	if err := os.WriteFile(path, sqliteTemplate.data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// migratedSQLite migrates a database in a directory of its own and
// returns the file. Closing the last connection checkpoints the WAL into
// the file and removes it, so the file is the whole database.
func migratedSQLite() ([]byte, error) {
	dir, err := os.MkdirTemp("", "servertest-sqlite-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "template.db")
	ctx := context.Background()
	d, err := db.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	err = d.Migrate(ctx)
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("migrate the template database: %w", err)
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		return nil, fmt.Errorf("the template database's WAL outlived its connections")
	}
	return os.ReadFile(path)
}

// pgPrefix begins the name of every database servertest makes.
const pgPrefix = "invt_"

// pgServers holds one pgServer per admin DSN.
var pgServers struct {
	sync.Mutex
	m map[string]*pgServer
}

// pgServer is this process's state on one PostgreSQL server.
type pgServer struct {
	once     sync.Once
	err      error
	tag      string       // invt_<random>: names the databases and the owner connection
	admin    *stdsql.DB   // CREATE and DROP DATABASE
	owner    *stdsql.Conn // held for the process's life: its tag marks the databases as in use
	template string
	url      *url.URL // the admin DSN, for the databases' own DSNs

	mu sync.Mutex
	n  int
}

// pgServerFor returns the ready server state for admin, making the
// template on first use.
func pgServerFor(admin string) (*pgServer, error) {
	pgServers.Lock()
	if pgServers.m == nil {
		pgServers.m = map[string]*pgServer{}
	}
	p := pgServers.m[admin]
	if p == nil {
		p = &pgServer{}
		pgServers.m[admin] = p
	}
	pgServers.Unlock()
	p.once.Do(func() { p.err = p.init(admin) })
	return p, p.err
}

func (p *pgServer) init(admin string) error {
	ctx := context.Background()
	u, err := url.Parse(admin)
	if err != nil {
		return err
	}
	p.url = u
	b := make([]byte, 6)
	rand.Read(b)
	p.tag = pgPrefix + hex.EncodeToString(b)
	p.template = p.tag + "_template"
	// The tag travels as the connection's application_name: every
	// connection of the admin pool carries it, the held one for sure.
	tagged := *u
	q := tagged.Query()
	q.Set("application_name", p.tag)
	tagged.RawQuery = q.Encode()
	if p.admin, err = stdsql.Open("pgx", tagged.String()); err != nil {
		return err
	}
	p.admin.SetMaxOpenConns(pgAdminConns)
	if p.owner, err = p.admin.Conn(ctx); err != nil {
		return fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	p.sweep(ctx)
	if _, err := p.owner.ExecContext(ctx, "CREATE DATABASE "+p.template); err != nil {
		return fmt.Errorf("create the template database: %w", err)
	}
	d, err := db.Open(ctx, p.dsn(p.template))
	if err != nil {
		return err
	}
	err = d.Migrate(ctx)
	d.Close()
	if err != nil {
		return fmt.Errorf("migrate the template database: %w", err)
	}
	// No connection may reach the template while it is copied (CREATE
	// DATABASE refuses a template in use): none will.
	if _, err := p.owner.ExecContext(ctx, "ALTER DATABASE "+p.template+" ALLOW_CONNECTIONS false"); err != nil {
		return err
	}
	return nil
}

// sweep drops the databases of test processes that have ended: those
// whose tag no connection carries. Errors are ignored: another process may
// be dropping the same database, and a leftover costs disk only.
func (p *pgServer) sweep(ctx context.Context) {
	rows, err := p.owner.QueryContext(ctx, `SELECT datname FROM pg_database d
		WHERE starts_with(datname, $1) AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a
			WHERE starts_with(a.application_name, $1) AND starts_with(d.datname, a.application_name || '_'))`, pgPrefix)
	if err != nil {
		return
	}
	var stale []string
	for rows.Next() {
		var name string
		if rows.Scan(&name) == nil {
			stale = append(stale, name)
		}
	}
	rows.Close()
	for _, name := range stale {
		p.owner.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	}
}

// dsn is the DSN of database name on this server.
func (p *pgServer) dsn(name string) string {
	u := *p.url
	u.Path = "/" + name
	return u.String()
}

// fresh copies the template into a new database, dropped when t ends.
func (p *pgServer) fresh(t testing.TB) string {
	p.mu.Lock()
	p.n++
	name := fmt.Sprintf("%s_%d", p.tag, p.n)
	p.mu.Unlock()
	if _, err := p.admin.Exec("CREATE DATABASE " + name + " TEMPLATE " + p.template); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)") })
	return p.dsn(name)
}

// freshPostgres creates a migrated database for one test and drops it
// afterwards.
func freshPostgres(t testing.TB) string {
	admin := os.Getenv("INVENTORY_TEST_POSTGRES")
	if admin == "" {
		t.Skip("INVENTORY_TEST_POSTGRES not set")
	}
	p, err := pgServerFor(admin)
	if err != nil {
		t.Fatal(err)
	}
	return p.fresh(t)
}
