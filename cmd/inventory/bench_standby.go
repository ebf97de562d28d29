package main

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/server"
)

// Reads spread over the primary and a hot standby (issue 38): with
// --read-database (a standby of the --database server), the scenarios run
// twice on the same seeded database, first served by the primary alone,
// then by a second server whose reads go to the standby too; the table
// after them compares the two. On one machine both servers share its
// CPUs, so the comparison shows what routing costs, not what a standby
// on its own machine gains (the primary's statements per request show the
// share it is spared).

// standbyDSN is the standby server's URL with the fresh database's name.
func standbyDSN(server, dsn string) (string, error) {
	su, err := url.Parse(server)
	if err != nil {
		return "", fmt.Errorf("--read-database: %w", err)
	}
	du, err := url.Parse(dsn)
	if err != nil {
		return "", err
	}
	su.Path = du.Path
	return su.String(), nil
}

// waitReplayed returns once the standby has replayed everything the
// primary has written (the seed), or fails after a few minutes.
func waitReplayed(ctx context.Context, d *db.DB, standby string) error {
	var target string
	if err := d.Write.QueryRowContext(ctx, "SELECT pg_current_wal_insert_lsn()::text").Scan(&target); err != nil {
		return err
	}
	s, err := stdsql.Open("pgx", standby)
	if err != nil {
		return err
	}
	defer s.Close()
	deadline := time.Now().Add(5 * time.Minute)
	for {
		var ok bool
		err := s.QueryRowContext(ctx, "SELECT pg_is_in_recovery() AND pg_last_wal_replay_lsn() >= $1::pg_lsn", target).Scan(&ok)
		if err == nil && ok {
			return nil
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = errors.New("not in recovery, or behind")
			}
			return fmt.Errorf("the standby %s did not replay the seed (%s): %v", redactDSN(standby), target, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// benchStandby runs the scenarios against the primary alone (srv) and
// then against a server with the standby, and compares them.
func benchStandby(ctx context.Context, o *benchOptions, d *db.DB, primary *loader, cfg server.Config, dsn, token string, seed *benchSeed) error {
	sdsn, err := standbyDSN(o.readDatabase, dsn)
	if err != nil {
		return err
	}
	if err := waitReplayed(ctx, d, sdsn); err != nil {
		return err
	}
	fmt.Println("== reads from the primary alone")
	alone, err := primary.runAll(ctx, seed)
	if err != nil {
		return err
	}
	d2, err := db.Open(ctx, dsn, db.ReadDatabases([]string{sdsn}, 0))
	if err != nil {
		return err
	}
	defer d2.Close()
	srv2 := server.New(cfg, d2)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: srv2.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	defer hs.Close()
	l2 := newLoader("http://"+ln.Addr().String(), "Token "+token, o)
	l2.statements = d2.Statements.Load // the primary's pool only
	l2.sharePages = srv2.SetShareListPages
	fmt.Printf("\n== reads spread over the primary and the standby %s\n", redactDSN(sdsn))
	spread, err := l2.runAll(ctx, seed)
	if err != nil {
		return err
	}
	st := d2.Standbys()[0]
	rs := d2.ReadStats()
	fmt.Printf("\nrouting: %d requests read from the standby, %d from the primary (%d behind the client's write, %d with no usable standby); standby %s, lag %v\n",
		st.Reads, rs.Primary, rs.Behind, rs.Unavailable, st.State, st.Lag.Round(time.Millisecond))
	fmt.Printf("\n%-34s %10s %10s %8s %9s %9s %11s %11s\n", "scenario", "req/s alone", "req/s both", "ratio", "p50 alone", "p50 both", "stmts alone", "stmts prim.")
	for _, name := range alone.order {
		a, b := alone.results[name], spread.results[name]
		if a == nil || b == nil || a.requests == 0 || b.requests == 0 {
			continue
		}
		fmt.Printf("%-34s %10.0f %10.0f %8.2f %9s %9s %11.1f %11.1f\n", trim(name, 34), a.rps(), b.rps(), b.rps()/a.rps(),
			a.pct(0.5).Round(10*time.Microsecond), b.pct(0.5).Round(10*time.Microsecond), a.stmts, b.stmts)
	}
	return nil
}

func trim(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}
