package servertest

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"testing"
)

// leak matches what must never reach a client in an error answer: SQL,
// the drivers' and database/sql's messages, Go's error and panic text,
// source paths (issue 11: "no internals in any answer"). Every response of
// every test that goes through an Env's handler is checked, so every error
// path some test reaches is covered without a test of its own.
var leak = regexp.MustCompile(`SQLSTATE|sqlite3|SQLITE_|\bpgx\b|pgconn|\bpq: |\bsql: |\bent: |` +
	`\bSELECT\b[^"]*\bFROM\b|\bINSERT INTO\b|\bUPDATE\s+\S+\s+SET\b|\bDELETE FROM\b|` +
	`\w+\.go:\d+|runtime error|goroutine \d|panic:|interface conversion|nil pointer|` +
	`constraint failed|duplicate key value|current transaction is aborted|no such (table|column)|` +
	`syntax error at or near|invalid input syntax|database is locked|failed to connect to|` +
	`dial tcp|connection refused|conn closed|unexpected EOF|\bjson: |strconv\.|reflect:`)

// guard checks every error response of h for leaked internals. A match
// the request itself contains (a client's value echoed in a 400, as
// NetBox's messages do) is the client's own text, not a leak.
func guard(t testing.TB, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var sent bytes.Buffer
		if r.Body != nil {
			r.Body = struct {
				io.Reader
				io.Closer
			}{io.TeeReader(r.Body, &sent), r.Body}
		}
		rec := &recorder{ResponseWriter: w}
		h.ServeHTTP(rec, r)
		if rec.status < 400 {
			return
		}
		query, _ := url.QueryUnescape(r.URL.RawQuery)
		path, _ := url.PathUnescape(r.URL.Path)
		request := path + "?" + query + "\n" + sent.String()
		for _, m := range leak.FindAllString(rec.body.String(), -1) {
			if !bytes.Contains([]byte(request), []byte(m)) {
				t.Errorf("%s %s answered %d with internals (%q): %.500s", r.Method, r.URL, rec.status, m, rec.body.String())
				return
			}
		}
	})
}

// recorder keeps the status and, for error answers, the body.
type recorder struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	if r.status >= 400 {
		r.body.Write(b)
	}
	return r.ResponseWriter.Write(b)
}

func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
