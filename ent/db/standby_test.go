package db

import (
	"context"
	"errors"
	"io"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/inventory/inventory/ent/db/standbytest"
)

func TestParseLSN(t *testing.T) {
	for _, c := range []struct {
		in   string
		want LSN
		ok   bool
	}{
		{"0/0", 0, true},
		{"16/B374D848", 0x16_B374D848, true},
		{"FFFFFFFF/FFFFFFFF", unknownLSN, true},
		{" 1/2 ", 1<<32 | 2, true},
		{"", 0, false},
		{"12", 0, false},
		{"1/2/3", 0, false},
		{"100000000/0", 0, false},
		{"x/1", 0, false},
	} {
		got, ok := ParseLSN(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseLSN(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
		if ok && got.String() != c.in && c.in[0] != ' ' {
			t.Errorf("%q prints as %q", c.in, got.String())
		}
	}
}

// A read the standby failed is answered by the primary; one that failed
// by its own fault (or its client's) is not run again.
func TestFailover(t *testing.T) {
	pg := func(code string) error { return &pgconn.PgError{Code: code} }
	done, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name string
		ctx  context.Context
		err  error
		want bool
	}{
		{"connection lost", context.Background(), io.ErrUnexpectedEOF, true},
		{"admin shutdown", context.Background(), pg("57P01"), true},
		{"cannot connect now", context.Background(), pg("57P03"), true},
		{"connection failure", context.Background(), pg("08006"), true},
		{"too many connections", context.Background(), pg("53300"), true},
		{"conflict with recovery", context.Background(), pg("40001"), true},
		{"statement timeout", context.Background(), pg("57014"), false},
		{"syntax error", context.Background(), pg("42601"), false},
		{"client gone", done, io.ErrUnexpectedEOF, false},
		{"wrapped", context.Background(), errors.Join(errors.New("select"), pg("57P01")), true},
	} {
		if got := failover(c.ctx, c.err); got != c.want {
			t.Errorf("%s: failover %v, want %v", c.name, got, c.want)
		}
	}
}

// A standby's lag is how long ago the primary first passed its replay
// position, as the checks saw it.
func TestLag(t *testing.T) {
	r := &router{maxLag: time.Second}
	t0 := time.Now()
	r.addSample(100, t0)
	r.addSample(100, t0.Add(time.Second)) // no new WAL: not a sample
	r.addSample(200, t0.Add(2*time.Second))
	r.addSample(300, t0.Add(3*time.Second))
	now := t0.Add(4 * time.Second)
	for _, c := range []struct {
		replay LSN
		want   time.Duration
	}{
		{300, 0},
		{400, 0},
		{250, time.Second},
		{200, time.Second},
		{150, 2 * time.Second},
		{50, 4 * time.Second},
	} {
		if got := r.lag(c.replay, now); got != c.want {
			t.Errorf("lag at %d: %v, want %v", c.replay, got, c.want)
		}
	}
	// Old samples go, but the newest one before the window stays: a
	// standby behind it is at least that far behind.
	later := t0.Add(time.Hour)
	r.addSample(400, later)
	if len(r.hist) != 2 || r.hist[0].lsn != 300 {
		t.Fatalf("history after an hour: %v", r.hist)
	}
	if got := r.lag(50, later); got < time.Hour-3*time.Second {
		t.Errorf("lag of a standby an hour behind: %v", got)
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	standbytest.Shutdown()
	os.Exit(code)
}

// After this process migrates the schema, no read goes to a standby that
// has not replayed the migration: the new code would not find its
// columns there.
func TestNoReadsBeforeTheMigrationIsReplayed(t *testing.T) {
	c := standbytest.Get(t)
	primary, standby := c.Database(t)
	ctx := context.Background()
	d, err := Open(ctx, primary, ReadDatabases([]string{standby}, time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	read := func() string { return ServedBy(d.Request(ctx, "", 0, true, nil)) }
	poll := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	poll("a read served by the standby", func() bool { return read() != "primary" })
	c.PauseReplay(t)
	defer c.ResumeReplay(t)
	if err := d.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	for range 20 {
		if got := read(); got != "primary" {
			t.Fatalf("a read after the migration went to %s, which has not replayed it", got)
		}
	}
	c.ResumeReplay(t)
	poll("reads back on the standby once it replayed the migration", func() bool { return read() != "primary" })
	// The standby serves the migrated schema.
	rctx := d.Request(ctx, "", 0, true, nil)
	rows, err := d.Store().Q.QueryContext(rctx, "SELECT count(*) FROM dcim_site")
	if err != nil {
		t.Fatal(err)
	}
	rows.Close()
	if got := ServedBy(rctx); got == "primary" {
		t.Fatalf("the read fell back to the primary")
	}
}
