// Package standbytest runs a PostgreSQL primary and a streaming hot
// standby of it on loopback for the tests of reads served by standbys
// (issue 38): one pair per test binary, made on first use with the
// installed server's own initdb, pg_ctl and pg_basebackup -R (the same
// Debian packages .ci/pg.sh installs in CI), and removed by Shutdown
// (call it from TestMain). It is test support: nothing of the service
// imports it.
//
// The pair is separate from the shared server of INVENTORY_TEST_POSTGRES
// on purpose: a standby of that server would replay every other test's
// databases, and tests here stop the standby and pause its replay.
package standbytest

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // PostgreSQL driver "pgx"
)

// Cluster is the primary and its standby.
type Cluster struct {
	bin                      string // the server's bin directory
	dir                      string
	primaryPort, standbyPort int
	cred                     *syscall.Credential // the postgres user when run as root

	mu      sync.Mutex
	standby bool // running
}

var (
	once     sync.Once
	shared   *Cluster
	startErr error
)

// Get returns the binary's cluster, starting it on first use. Without
// PostgreSQL's server binaries the test is skipped, except in CI (CI=true),
// where it fails: CI always installs them.
func Get(t testing.TB) *Cluster {
	t.Helper()
	once.Do(func() { shared, startErr = start() })
	if startErr != nil {
		if errors.Is(startErr, errNoBinaries) && os.Getenv("CI") != "true" {
			t.Skip(startErr)
		}
		t.Fatal(startErr)
	}
	return shared
}

// Shutdown stops the cluster, if one was started, and deletes its files.
func Shutdown() {
	if shared == nil {
		return
	}
	shared.ctl(shared.dir+"/standby", "stop", "-m", "immediate")
	shared.ctl(shared.dir+"/primary", "stop", "-m", "immediate")
	os.RemoveAll(shared.dir)
}

var errNoBinaries = errors.New("no PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup) under /usr/lib/postgresql/*/bin or on PATH")

// bindir is the newest installed server's bin directory, as .ci/pg.sh
// picks it.
func bindir() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "pg_basebackup")); err == nil {
			return d, nil
		}
	}
	if p, err := exec.LookPath("pg_basebackup"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", errNoBinaries
}

func version(dir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return v
}

func start() (*Cluster, error) {
	bin, err := bindir()
	if err != nil {
		return nil, err
	}
	c := &Cluster{bin: bin}
	c.dir, err = os.MkdirTemp("", "inventory-standby.")
	if err != nil {
		return nil, err
	}
	if err := c.asPostgres(); err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			shared = c
			Shutdown()
			shared = nil
		}
	}()
	if c.primaryPort, err = freePort(); err != nil {
		return nil, err
	}
	if c.standbyPort, err = freePort(); err != nil {
		return nil, err
	}
	primary := c.dir + "/primary"
	if out, err := c.run("initdb", "-D", primary, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	// Durability off (a throwaway server); WAL for a streaming standby is
	// the default (wal_level=replica, max_wal_senders=10). The standby
	// reports the queries it runs so that replay does not cancel them.
	conf := fmt.Sprintf(`
listen_addresses = '127.0.0.1'
unix_socket_directories = '%s'
fsync = off
full_page_writes = off
max_connections = 100
hot_standby_feedback = on
wal_receiver_status_interval = 1s
logging_collector = off
`, c.dir)
	if err := appendFile(primary+"/postgresql.conf", conf); err != nil {
		return nil, err
	}
	if out, err := c.ctl(primary, "start", "-o", "-p "+strconv.Itoa(c.primaryPort)); err != nil {
		return nil, fmt.Errorf("start the primary: %v\n%s", err, out)
	}
	// -R writes primary_conninfo and standby.signal: the copy starts as a
	// streaming hot standby.
	if out, err := c.run("pg_basebackup", "-D", c.dir+"/standby", "-R", "-X", "stream", "-c", "fast",
		"-h", "127.0.0.1", "-p", strconv.Itoa(c.primaryPort), "-U", "postgres", "--no-sync"); err != nil {
		return nil, fmt.Errorf("pg_basebackup: %v\n%s", err, out)
	}
	if out, err := c.startStandby(); err != nil {
		return nil, fmt.Errorf("start the standby: %v\n%s", err, out)
	}
	ok = true
	return c, nil
}

// asPostgres makes the server run as the postgres user when the tests
// run as root (CI): PostgreSQL refuses to run as root.
func (c *Cluster) asPostgres() error {
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return fmt.Errorf("running as root and no postgres user to run the server as: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	return os.Chown(c.dir, uid, gid)
}

func (c *Cluster) run(name string, args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(c.bin, name), args...)
	cmd.Dir = c.dir
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	return cmd.CombinedOutput()
}

func (c *Cluster) ctl(data, action string, args ...string) ([]byte, error) {
	return c.run("pg_ctl", append([]string{"-D", data, "-l", data + ".log", "-w", "-t", "60", action}, args...)...)
}

func (c *Cluster) startStandby() ([]byte, error) {
	out, err := c.ctl(c.dir+"/standby", "start", "-o", "-p "+strconv.Itoa(c.standbyPort))
	if err == nil {
		c.standby = true
	}
	return out, err
}

func appendFile(path, s string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(s)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func dsn(port int, database string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", port, database)
}

// PrimaryURL and StandbyURL are the URLs of database on either server.
func (c *Cluster) PrimaryURL(database string) string { return dsn(c.primaryPort, database) }
func (c *Cluster) StandbyURL(database string) string { return dsn(c.standbyPort, database) }

// Database creates a database for the test on the primary (dropped
// afterwards) and returns its URLs on both servers once the standby
// serves it.
func (c *Cluster) Database(t testing.TB) (primary, standby string) {
	t.Helper()
	admin := c.open(t, c.PrimaryURL("postgres"))
	name := fmt.Sprintf("inv_standby_%d_%d", os.Getpid(), time.Now().UnixNano()%1e9)
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)") })
	primary, standby = c.PrimaryURL(name), c.StandbyURL(name)
	c.CatchUp(t)
	return primary, standby
}

// open opens a pool closed when the test ends.
func (c *Cluster) open(t testing.TB, url string) *stdsql.DB {
	t.Helper()
	d, err := stdsql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// poll waits, up to a minute, until cond holds.
func poll(t testing.TB, what string, cond func() (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	var last error
	for {
		ok, err := cond()
		if ok {
			return
		}
		if err != nil {
			last = err
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s (last error: %v)", what, last)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// CatchUp returns once the standby has replayed everything the primary
// has written so far.
func (c *Cluster) CatchUp(t testing.TB) {
	t.Helper()
	p := c.open(t, c.PrimaryURL("postgres"))
	s := c.open(t, c.StandbyURL("postgres"))
	var target string
	if err := p.QueryRow("SELECT pg_current_wal_insert_lsn()::text").Scan(&target); err != nil {
		t.Fatal(err)
	}
	poll(t, "the standby to replay "+target, func() (bool, error) {
		var ok bool
		err := s.QueryRow("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn", target).Scan(&ok)
		return ok, err
	})
}

// StopStandby stops the standby (fast: its sessions are ended, as when an
// operator restarts it).
func (c *Cluster) StopStandby(t testing.TB) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if out, err := c.ctl(c.dir+"/standby", "stop", "-m", "fast"); err != nil {
		t.Fatalf("stop the standby: %v\n%s", err, out)
	}
	c.standby = false
}

// StartStandby starts the standby again and waits until it accepts
// queries.
func (c *Cluster) StartStandby(t testing.TB) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.standby {
		return
	}
	if out, err := c.startStandby(); err != nil {
		t.Fatalf("start the standby: %v\n%s", err, out)
	}
	s := c.open(t, c.StandbyURL("postgres"))
	poll(t, "the standby to accept queries", func() (bool, error) {
		var rec bool
		err := s.QueryRow("SELECT pg_is_in_recovery()").Scan(&rec)
		return err == nil && rec, err
	})
}

// PauseReplay pauses the standby's replay (pg_wal_replay_pause): it keeps
// serving queries, at the position it stopped at, and falls behind.
func (c *Cluster) PauseReplay(t testing.TB) { c.standbyExec(t, "SELECT pg_wal_replay_pause()") }

// ResumeReplay resumes it.
func (c *Cluster) ResumeReplay(t testing.TB) { c.standbyExec(t, "SELECT pg_wal_replay_resume()") }

func (c *Cluster) standbyExec(t testing.TB, q string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.open(t, c.StandbyURL("postgres")).ExecContext(ctx, q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// StandbyScans is the number of scans (sequential and index) the standby
// itself has run on table in database: reads it served, counted by the
// standby (its own statistics, flushed before they are read).
func (c *Cluster) StandbyScans(t testing.TB, database, table string) int64 {
	t.Helper()
	s := c.open(t, c.StandbyURL(database))
	conn, err := s.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx := context.Background()
	// Statistics of other sessions reach the shared view when those
	// sessions flush them (at most a second after their query, or when
	// idle): the caller polls.
	conn.ExecContext(ctx, "SELECT pg_stat_clear_snapshot()")
	var n int64
	if err := conn.QueryRowContext(ctx, `SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0)
		FROM pg_stat_user_tables WHERE relname = $1`, table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// DatabaseName is the database a URL of Database names.
func DatabaseName(url string) string {
	i := strings.LastIndexByte(url, '/')
	name, _, _ := strings.Cut(url[i+1:], "?")
	return name
}
