package db

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	stdsql "database/sql"

	"github.com/jackc/pgx/v5/pgconn"
	sqlite3 "github.com/mattn/go-sqlite3"
)

// Trouble is what a database error means to a client: whether to try
// again later (Unavailable, a 503 with Retry-After), and whether the
// same request may simply be sent again at once because the connection
// it ran on was dropped (Dropped: the reads' one retry).
type Trouble int

const (
	// Fault is any other error: a bug or a broken schema (a 500).
	Fault Trouble = iota
	// Unavailable: the database cannot be reached or refuses work now
	// (stopped, restarting, too many connections, SQLite's writer busy
	// beyond its timeout).
	Unavailable
	// Dropped: the connection broke under the statement (the server
	// shut down or restarted): Unavailable, and a read may be retried.
	Dropped
	// TimedOut: the statement ran past statement_timeout (a pathological
	// filter such as a catastrophic regex, or an overloaded server).
	TimedOut
)

// Classify says what err means to a client. It knows the errors of the
// two drivers (pgx, go-sqlite3) and of database/sql's pool, and never
// looks at the message text of errors it can recognise by type.
func Classify(err error) Trouble {
	if err == nil {
		return Fault
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "57014": // query_canceled: statement_timeout
			return TimedOut
		case pe.Code == "57P01", pe.Code == "57P02": // admin / crash shutdown
			return Dropped
		case pe.Code == "57P03", pe.Code == "53300", pe.Code == "53400": // cannot connect now, too many connections
			return Unavailable
		case strings.HasPrefix(pe.Code, "08"): // connection exception
			return Dropped
		case pe.Code == "25P02": // a statement after a failed one: a bug
			return Fault
		}
		return Fault
	}
	var se sqlite3.Error
	if errors.As(err, &se) {
		if se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked {
			return Unavailable
		}
		return Fault
	}
	var ce *pgconn.ConnectError
	switch {
	case errors.As(err, &ce):
		return Unavailable
	case errors.Is(err, driver.ErrBadConn), errors.Is(err, stdsql.ErrConnDone),
		errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return Dropped
	case errors.Is(err, syscall.ECONNREFUSED):
		return Unavailable
	case errors.Is(err, context.DeadlineExceeded):
		return TimedOut
	case errors.Is(err, context.Canceled):
		// The client went away: nobody reads the answer; not a fault.
		return Unavailable
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return Dropped
	}
	// pgx reports a connection it closed itself after a fatal error as a
	// plain "conn closed" error, without a type to match.
	if strings.Contains(err.Error(), "conn closed") {
		return Dropped
	}
	return Fault
}
