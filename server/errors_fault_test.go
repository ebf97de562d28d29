package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/jackc/pgx/v5/pgconn"
	sqlite3 "github.com/mattn/go-sqlite3"
)

// TestRenderFault: errors that are not the client's never show their
// text. Database trouble is a 503 with Retry-After and NetBox's
// {"detail": ...}; anything else a 500 naming only the request id.
func TestRenderFault(t *testing.T) {
	leaky := func(e error) error { return fmt.Errorf("select dcim_site WHERE x = $1 (/src/ent/x.go:12): %w", e) }
	for _, c := range []struct {
		name   string
		err    error
		status int
		detail string
	}{
		{"shutdown", leaky(&pgconn.PgError{Code: "57P01", Message: "terminating connection due to administrator command"}), 503, "The database is unavailable; try again later."},
		{"refused", leaky(&pgconn.ConnectError{}), 503, "The database is unavailable; try again later."},
		{"sqlite busy", leaky(sqlite3.Error{Code: sqlite3.ErrBusy}), 503, "The database is unavailable; try again later."},
		{"timeout", leaky(&pgconn.PgError{Code: "57014", Message: "canceling statement due to statement timeout"}), 503, "The database did not answer in time (statement timeout); simplify the filters or try again later."},
		{"aborted", leaky(&pgconn.PgError{Code: "25P02", Message: "current transaction is aborted"}), 500, "Internal server error"},
		{"panic", panicError{errors.New("runtime error: index out of range")}, 500, "Internal server error"},
		{"plain", leaky(errors.New("sql: no rows in result set")), 500, "Internal server error"},
	} {
		for _, method := range []string{"GET", "POST"} {
			s := &Server{cfg: Defaults()}
			w := httptest.NewRecorder()
			ctx, _ := gin.CreateTestContext(w)
			ctx.Request = httptest.NewRequest(method, "/api/dcim/sites/", nil)
			ctx.Set(ctxRequestID, "rid-1")
			s.render(ctx, c.err)
			var body map[string]string
			if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || w.Code != c.status || body["detail"] != c.detail {
				t.Errorf("%s %s: %d %s", c.name, method, w.Code, w.Body)
			}
			if strings.Contains(w.Body.String(), "dcim_site") || strings.Contains(w.Body.String(), "SQLSTATE") {
				t.Errorf("%s: internals in %s", c.name, w.Body)
			}
			switch c.status {
			case http.StatusServiceUnavailable:
				if w.Header().Get("Retry-After") != "5" || len(body) != 1 {
					t.Errorf("%s: Retry-After %q, body %v", c.name, w.Header().Get("Retry-After"), body)
				}
			default:
				if body["request_id"] != "rid-1" || len(body) != 2 {
					t.Errorf("%s: body %v", c.name, body)
				}
			}
		}
	}
}

// TestReadRetriedOnDroppedConnection: a read whose connection dropped
// under it runs once more and the client sees only the second attempt;
// a second drop is a 503; a write is never run twice.
func TestReadRetriedOnDroppedConnection(t *testing.T) {
	dropped := &pgconn.PgError{Code: "57P01", Message: "terminating connection due to administrator command"}
	for _, c := range []struct {
		method string
		fails  int // attempts that fail
		status int
		runs   int
	}{
		{"GET", 1, 200, 2},
		{"HEAD", 1, 200, 2},
		{"GET", 2, 503, 2},
		{"POST", 1, 503, 1},
		{"GET", 0, 200, 1},
	} {
		gin.SetMode(gin.ReleaseMode)
		s := &Server{cfg: Defaults(), engine: gin.New()}
		runs := 0
		h := s.wrap(func(c2 *gin.Context) error {
			runs++
			c2.Header("X-Attempt", fmt.Sprint(runs))
			c2.Writer.Header().Add("Vary", "Accept")
			if runs <= c.fails {
				return fmt.Errorf("list: %w", dropped)
			}
			c2.Data(http.StatusOK, "application/json", []byte(`{"ok":true}`))
			return nil
		})
		s.engine.Handle(c.method, "/x", h)
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest(c.method, "/x", nil))
		if w.Code != c.status || runs != c.runs {
			t.Errorf("%s failing %d times: %d after %d runs, want %d after %d: %s", c.method, c.fails, w.Code, runs, c.status, c.runs, w.Body)
		}
		if c.status == 200 && (w.Header().Get("X-Attempt") != fmt.Sprint(c.runs) || len(w.Header().Values("Vary")) != 1) {
			t.Errorf("%s: headers of the first attempt leaked: %v", c.method, w.Header())
		}
		if c.status == 503 && w.Header().Get("Retry-After") == "" {
			t.Errorf("%s: 503 without Retry-After", c.method)
		}
	}
}
