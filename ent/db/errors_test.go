package db

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	sqlite3 "github.com/mattn/go-sqlite3"
)

func TestClassify(t *testing.T) {
	pg := func(code string) error { return &pgconn.PgError{Severity: "FATAL", Code: code, Message: "m"} }
	for _, c := range []struct {
		name string
		err  error
		want Trouble
	}{
		{"admin shutdown", pg("57P01"), Dropped},
		{"crash shutdown", pg("57P02"), Dropped},
		{"cannot connect now", pg("57P03"), Unavailable},
		{"too many connections", pg("53300"), Unavailable},
		{"connection failure", pg("08006"), Dropped},
		{"statement timeout", pg("57014"), TimedOut},
		{"wrapped shutdown", fmt.Errorf("re-read: %w", pg("57P01")), Dropped},
		{"aborted transaction", pg("25P02"), Fault},
		{"unique violation", pg("23505"), Fault},
		{"syntax", pg("42601"), Fault},
		{"connect refused", fmt.Errorf("x: %w", syscall.ECONNREFUSED), Unavailable},
		{"bad conn", driver.ErrBadConn, Dropped},
		{"reset", fmt.Errorf("read: %w", syscall.ECONNRESET), Dropped},
		{"sqlite busy", sqlite3.Error{Code: sqlite3.ErrBusy}, Unavailable},
		{"sqlite constraint", sqlite3.Error{Code: sqlite3.ErrConstraint}, Fault},
		{"client gone", context.Canceled, Unavailable},
		{"deadline", context.DeadlineExceeded, TimedOut},
		{"pgx closed conn", errors.New("conn closed"), Dropped},
		{"other", errors.New("boom"), Fault},
		{"nil", nil, Fault},
	} {
		if got := Classify(c.err); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestWithStatementTimeout(t *testing.T) {
	for _, c := range []struct {
		in   string
		d    int64
		want string
	}{
		{"postgres://u@h:5/db?sslmode=disable", 30000, "postgres://u@h:5/db?sslmode=disable&statement_timeout=30000"},
		{"postgres://u@h/db?statement_timeout=5", 30000, "postgres://u@h/db?statement_timeout=5"},
		{"postgres://u@h/db", 0, "postgres://u@h/db"},
	} {
		got, err := withStatementTimeout(c.in, msDuration(c.d))
		if err != nil || got != c.want {
			t.Errorf("%s: %q %v, want %q", c.in, got, err, c.want)
		}
	}
}

func msDuration(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }
