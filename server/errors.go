package server

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/filters"
	"github.com/inventory/inventory/server/auth"
)

// apiError is a {"detail": ...} error with a status.
type apiError struct {
	status int
	detail string
}

func (e *apiError) Error() string { return e.detail }

func detailErr(status int, detail string) error { return &apiError{status, detail} }

// listError is a 400 whose body is a bare array of strings (NetBox's
// paginator errors).
type listError []string

func (e listError) Error() string { return e[0] }

// bulkError is a 400 whose body is an array of per-item error dicts
// (each a map, or a *resource.ValidationError keeping its field order).
type bulkError []any

func (e bulkError) Error() string { return "bulk validation failed" }

// bodyError is a 400 with an arbitrary body.
type bodyError struct{ body any }

func (e bodyError) Error() string { return "bad request" }

var (
	errNotAuthenticated = detailErr(http.StatusForbidden, string(auth.ErrNotAuthenticated))
	errForbidden        = detailErr(http.StatusForbidden, string(auth.ErrPermissionDenied))
	errNotFound         = detailErr(http.StatusNotFound, "Not found.")
)

// render is the one error translator: every handler returns errors and
// this writes them in NetBox's body shapes (BEHAVIOUR.md §2).
func (s *Server) render(c *gin.Context, err error) {
	var (
		ae *apiError
		de *resource.DetailError
		ve *resource.ValidationError
		fe filters.Errors
		le listError
		be bulkError
		bo bodyError
		au auth.Error
		se *api.StatusError
		fd *api.FieldError
		ie api.ItemErrors
		xe *api.BodyError
	)
	switch {
	case errors.As(err, &ae):
		writeJSON(c, ae.status, map[string]string{"detail": ae.detail})
	case errors.As(err, &de):
		writeJSON(c, de.Status, map[string]string{"detail": de.Detail})
	case errors.As(err, &se): // from a logic package's handler
		writeJSON(c, se.Status, map[string]string{"detail": se.Detail})
	case errors.As(err, &fd):
		writeJSON(c, http.StatusBadRequest, resource.Invalid(fd.Field, fd.Message).Fields)
	case errors.As(err, &ve):
		writeJSON(c, http.StatusBadRequest, ve)
	case errors.As(err, &fe):
		writeJSON(c, http.StatusBadRequest, fe)
	case errors.As(err, &le):
		writeJSON(c, http.StatusBadRequest, []string(le))
	case errors.As(err, &be):
		writeJSON(c, http.StatusBadRequest, []any(be))
	case errors.As(err, &ie): // from a logic package's handler
		writeJSON(c, http.StatusBadRequest, []map[string][]string(ie))
	case errors.As(err, &bo):
		writeJSON(c, http.StatusBadRequest, bo.body)
	case errors.As(err, &xe): // from a logic package's handler
		writeJSON(c, xe.Status, xe.Body)
	case errors.As(err, &au):
		writeJSON(c, http.StatusForbidden, map[string]string{"detail": string(au)})
	case errors.Is(err, resource.ErrNotFound):
		writeJSON(c, http.StatusNotFound, map[string]string{"detail": "Not found."})
	default:
		s.renderFault(c, err)
	}
}

// RetryAfter is the Retry-After of a 503: about how long PostgreSQL takes
// to restart, or SQLite's writer to come free.
const RetryAfter = 5 * time.Second

// renderFault answers an error that is not the client's: database
// trouble is a 503 with Retry-After (the client may try again), anything
// else a 500. Neither body carries the error's text (SQL, driver
// messages, paths): the detail goes to the log with the request id, which
// the body names so that an operator can find it.
func (s *Server) renderFault(c *gin.Context, err error) {
	rid := c.GetString(ctxRequestID)
	log := slog.With("method", c.Request.Method, "path", c.Request.URL.Path, "request_id", rid, "error", err)
	if errors.Is(err, db.ErrTransactionTimeout) {
		log.Warn("write transaction timed out")
		unavailable(c, "The write did not finish in time (transaction timeout) and nothing was changed; try again later or write less at once.")
		return
	}
	switch db.Classify(err) {
	case db.Dropped:
		if retryRead(c) {
			log.Warn("database connection dropped; retrying the read")
			return
		}
		fallthrough
	case db.Unavailable:
		log.Warn("database unavailable")
		unavailable(c, "The database is unavailable; try again later.")
	case db.TimedOut:
		log.Warn("database statement timed out")
		unavailable(c, "The database did not answer in time (statement timeout); simplify the filters or try again later.")
	default:
		log.Error("request failed")
		writeJSON(c, http.StatusInternalServerError, map[string]string{"detail": "Internal server error", "request_id": rid})
	}
}

func unavailable(c *gin.Context, detail string) {
	c.Header("Retry-After", strconv.Itoa(int(RetryAfter/time.Second)))
	writeJSON(c, http.StatusServiceUnavailable, map[string]string{"detail": detail})
}

// writeJSON writes a compact JSON body without HTML escaping.
func writeJSON(c *gin.Context, status int, v any) {
	var b []byte
	switch x := v.(type) {
	case []byte:
		b = x
	case json.RawMessage:
		b = x
	default:
		var err error
		if b, err = marshal(v); err != nil {
			b = []byte(`{"detail":"response encoding failed"}`)
			status = http.StatusInternalServerError
		}
	}
	c.Data(status, "application/json", b)
}

func marshal(v any) ([]byte, error) {
	var buf jsonBuffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.b[:len(buf.b)-1], nil // drop Encode's newline
}

type jsonBuffer struct{ b []byte }

func (j *jsonBuffer) Write(p []byte) (int, error) { j.b = append(j.b, p...); return len(p), nil }
