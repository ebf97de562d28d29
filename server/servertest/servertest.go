// Package servertest runs the server over a fresh database for tests: on
// SQLite always, and on PostgreSQL when INVENTORY_TEST_POSTGRES holds a
// DSN (CI always provides one; there, its absence is a failure, so the
// PostgreSQL suite can never be skipped silently).
package servertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/auth"
)

// Token is the admin's v1 token secret in every Env.
const Token = "0123456789abcdef0123456789abcdef01234567"

// Pepper is the token pepper of every Env.
var Pepper = auth.Peppers{1: strings.Repeat("pepper-for-tests-", 4)}

// Databases lists the databases every behaviour is tested on.
func Databases(t testing.TB) []string {
	dbs := []string{"sqlite"}
	if os.Getenv("INVENTORY_TEST_POSTGRES") != "" {
		dbs = append(dbs, "postgres")
	} else if os.Getenv("CI") == "true" {
		t.Fatal("INVENTORY_TEST_POSTGRES is not set in CI: the PostgreSQL suite must run")
	}
	return dbs
}

// Each runs fn as a subtest per database.
func Each(t *testing.T, fn func(t *testing.T, e *Env), opts ...func(*server.Config)) {
	for _, name := range Databases(t) {
		t.Run(name, func(t *testing.T) {
			fn(t, New(t, name, opts...))
		})
	}
}

// EachParallel is Each with the databases run as parallel subtests: for
// suites whose every database gets its own Env, so that SQLite and
// PostgreSQL (and, one level up, the models) proceed side by side. The Env
// is opened after t.Parallel returns, so at most -parallel Envs (and their
// PostgreSQL connections) are open at once.
func EachParallel(t *testing.T, fn func(t *testing.T, e *Env), opts ...func(*server.Config)) {
	for _, name := range Databases(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fn(t, New(t, name, opts...))
		})
	}
}

// Env is a server over a fresh database with a superuser "admin" whose
// token is Token.
type Env struct {
	T       testing.TB
	DB      *db.DB
	Server  *server.Server
	Config  server.Config
	Handler http.Handler
	// DSN opens the same database again (a second replica or process).
	DSN   string
	token string

	// live is shared by the copies Anonymous and WithToken make.
	live *liveServer
	// stmts counts the SQL statements of the requests Do sent (shared by
	// the copies too): see Statements.
	stmts *db.Counter
}

// Statements is the number of SQL statements the requests sent through Do
// (by this Env and its copies) have made so far, counted at the database
// driver (db.CountingStatements): every statement a request runs under
// its own context, and none of what runs beside it (a token's background
// last_used write, another test's requests). The query-count tests take
// the difference around one request.
func (e *Env) Statements() int64 { return e.stmts.Load() }

// Record runs fn and returns the statements its requests through Do made,
// in order (see Statements).
func (e *Env) Record(fn func()) []string { return e.stmts.Record(fn) }

// New opens a fresh database of kind "sqlite" or "postgres": a copy of a
// migrated template (template.go).
func New(t testing.TB, kind string, opts ...func(*server.Config)) *Env {
	t.Helper()
	ctx := context.Background()
	var dsn string
	switch kind {
	case "sqlite":
		dsn = freshSQLite(t)
	case "postgres":
		dsn = freshPostgres(t)
	default:
		t.Fatalf("unknown database %q", kind)
	}
	d, err := db.Open(ctx, dsn, db.TransactionTimeout(txTimeout))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if kind == "postgres" {
		// The server's pool allows 20 connections per database; parallel
		// tests open many databases at once on a server that allows 100
		// (max_connections). A test makes its requests one at a time
		// (or a few at once), so a few connections each are plenty.
		d.Write.SetMaxOpenConns(pgConnsPerEnv)
		d.Write.SetMaxIdleConns(2)
	}
	cfg := server.Defaults()
	cfg.Peppers = Pepper
	cfg.Hostname = "test"
	cfg.MediaRoot = filepath.Join(t.TempDir(), "media")
	// Local data sources and repositories on disk lie below this root
	// (tests create their directories in it).
	cfg.DataSources.Root = filepath.Join(t.TempDir(), "datasources")
	for _, o := range opts {
		o(&cfg)
	}
	s := server.New(cfg, d)
	if err := s.CreateSuperuser(ctx, "admin", "admin", "admin@example.com", Token, false); err != nil {
		t.Fatal(err)
	}
	return &Env{T: t, DB: d, Server: s, Config: cfg, Handler: guard(t, s.Handler()), DSN: dsn, token: "Token " + Token, live: &liveServer{}, stmts: new(db.Counter)}
}

type liveServer struct {
	once sync.Once
	http *httptest.Server
}

// pgConnsPerEnv caps each Env's PostgreSQL pool and pgAdminConns the
// process's admin pool (template.go): with `make test`'s -parallel 12,
// at most 12*6+4 = 76 connections, below max_connections = 100.
const (
	pgConnsPerEnv = 6
	pgAdminConns  = 4
)

// txTimeout is the write transaction deadline of a test's server. The
// service's default (db.DefaultTransactionTimeout, 30 s) would make every
// test a timed one: on a CI machine running the whole suite in parallel a
// legitimate bulk of 2 600 objects took 36 s on PostgreSQL, ten times its
// time on an idle machine, and was answered 503. Here the deadline only
// ends a write that hangs; TestTransactionTimeout tests the deadline itself
// with its own short one.
const txTimeout = 10 * time.Minute

// URL starts a real HTTP server on loopback (for clients such as pynetbox)
// and returns its base URL.
func (e *Env) URL() string {
	e.live.once.Do(func() {
		e.live.http = httptest.NewServer(e.Handler)
		e.T.Cleanup(e.live.http.Close)
	})
	return e.live.http.URL
}

// Response is a recorded response.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into any.
func (r *Response) JSON() any {
	var v any
	if err := json.Unmarshal(r.Body, &v); err != nil {
		return nil
	}
	return v
}

// Object decodes the body as an object.
func (r *Response) Object() map[string]any {
	m, _ := r.JSON().(map[string]any)
	return m
}

// Results is the results array of a list response.
func (r *Response) Results() []map[string]any {
	var out []map[string]any
	if list, ok := r.Object()["results"].([]any); ok {
		for _, x := range list {
			m, _ := x.(map[string]any)
			out = append(out, m)
		}
	}
	return out
}

// Anonymous makes the next requests without a token.
func (e *Env) Anonymous() *Env {
	c := *e
	c.token = ""
	return &c
}

// WithToken makes the next requests with this Authorization value.
func (e *Env) WithToken(authorization string) *Env {
	c := *e
	c.token = authorization
	return &c
}

// Do sends a request in-process. body may be nil, a string (sent as is)
// or any value (sent as JSON). headers are "Name: value" strings.
func (e *Env) Do(method, path string, body any, headers ...string) *Response {
	e.T.Helper()
	rec := httptest.NewRecorder()
	e.DoTo(rec, method, path, body, headers...)
	return &Response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
}

// DoTo sends a request in-process as Do does, with w as the client's end
// (benchmarks reuse one, as a connection reuses its buffers).
func (e *Env) DoTo(w http.ResponseWriter, method, path string, body any, headers ...string) {
	e.T.Helper()
	e.Handler.ServeHTTP(w, e.request(method, path, body, headers...))
}

func (e *Env) request(method, path string, body any, headers ...string) *http.Request {
	e.T.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			e.T.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, "http://inventory.test"+path, rd)
	req = req.WithContext(db.CountingStatements(req.Context(), e.stmts))
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if e.token != "" {
		req.Header.Set("Authorization", e.token)
	}
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ":")
		req.Header.Set(strings.TrimSpace(k), strings.TrimSpace(v))
	}
	return req
}

// Must sends a request and fails the test unless the status is want.
func (e *Env) Must(want int, method, path string, body any, headers ...string) *Response {
	e.T.Helper()
	r := e.Do(method, path, body, headers...)
	if r.Status != want {
		e.T.Fatalf("%s %s: status %d, want %d: %s", method, path, r.Status, want, r.Body)
	}
	return r
}

// Cost is the number of SQL statements (Statements) a GET of path makes as
// this Env's caller, for the tests that guard against N+1 loads. The read
// cache is emptied first, so that the request's own reads are counted,
// not what earlier requests left cached. The answer must be a 200.
func (e *Env) Cost(path string) int64 {
	e.T.Helper()
	n, _ := e.CostOf(path)
	return n
}

// CostOf is Cost that returns the answer too, for checks of what the
// counted page holds.
func (e *Env) CostOf(path string) (int64, *Response) {
	e.T.Helper()
	e.DB.Cache.Bump()
	before := e.Statements()
	r := e.Must(http.StatusOK, "GET", path, nil)
	return e.Statements() - before, r
}

// NewUser creates a user who is not a superuser (as the admin, through the
// API) and returns an Env that authenticates with a fresh v1 token of
// theirs, and the user's id.
func (e *Env) NewUser(username string) (*Env, int) {
	e.T.Helper()
	r := e.Must(http.StatusCreated, "POST", "/api/users/users/", map[string]any{"username": username, "password": "pw-" + username})
	id := int(r.Object()["id"].(float64))
	return e.TokenFor(id, true), id
}

// TokenFor creates a v1 token for user id (as the admin) and returns an Env
// that authenticates with it.
func (e *Env) TokenFor(userID int, writeEnabled bool) *Env {
	e.T.Helper()
	r := e.Must(http.StatusCreated, "POST", "/api/users/tokens/", map[string]any{"user": userID, "version": 1, "write_enabled": writeEnabled})
	return e.WithToken("Token " + r.Object()["token"].(string))
}

// Grant creates an ObjectPermission (as the admin) for a user, with
// constraints (nil: unrestricted), and returns its id.
func (e *Env) Grant(userID int, types, actions []string, constraints any) int {
	e.T.Helper()
	r := e.Must(http.StatusCreated, "POST", "/api/users/permissions/", map[string]any{
		"name": fmt.Sprintf("grant-%d-%s-%s", userID, strings.Join(types, ","), strings.Join(actions, ",")), "object_types": types,
		"actions": actions, "constraints": constraints, "users": []int{userID},
	})
	return int(r.Object()["id"].(float64))
}

// Admin returns an Env that authenticates as the admin again.
func (e *Env) Admin() *Env { return e.WithToken("Token " + Token) }

// ListenToAllEvents creates an enabled event rule (as the admin) for
// every object event of every object type an event rule accepts, whose
// action notifies an empty notification group: a write then leaves an
// outbox event for each object it changes, which it writes only for an
// event some enabled rule listens for (webhooks.listeners). stop deletes
// the group, and the rule with it.
func (e *Env) ListenToAllEvents() (stop func()) {
	e.T.Helper()
	var types []string
	for _, d := range resource.All() {
		if ct := d.ContentType(); d.Logged && resource.ObjectTypeAccepted("event_rules", ct) {
			types = append(types, ct)
		}
	}
	a := e.Admin()
	ng := int(a.Must(http.StatusCreated, "POST", "/api/extras/notification-groups/", map[string]any{"name": "every event"}).Object()["id"].(float64))
	a.Must(http.StatusCreated, "POST", "/api/extras/event-rules/", map[string]any{
		"name": "every event", "object_types": types, "event_types": []string{"object_created", "object_updated", "object_deleted"},
		"action_type": "notification", "action_object_type": "extras.notificationgroup", "action_object_id": ng})
	return func() {
		e.T.Helper()
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/extras/notification-groups/%d/", ng), nil)
	}
}
