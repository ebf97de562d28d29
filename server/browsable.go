package server

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/server/browse"
	"github.com/inventory/inventory/server/session"
)

// browsable serves the browsable API (server/browse) to a browser: the
// request runs as a JSON request, its answer is kept, and a JSON or empty
// answer is rendered as an HTML page with the same status. Any other answer (an
// export, a rendered config, a file) passes through as it is.
// ctxRawBody marks an answer a browser gets as it is, not in the
// browsable page: the OpenAPI document (NetBox's schema view has no HTML
// renderer; link-ifying its 20 MB took seconds and stalled browsers).
const ctxRawBody = "raw-body"

func (s *Server) browsable(c *gin.Context) {
	if !strings.HasPrefix(c.Request.URL.Path, "/api/") || c.Request.Context().Value(internalKey{}) != nil || !browse.Wants(c.Request) {
		c.Next()
		return
	}
	if q := c.Request.URL.Query(); c.Request.Method == http.MethodGet && q.Has(browse.FilterField) {
		// The filter form: its name and value become the list's own query.
		name, value := strings.TrimSpace(q.Get(browse.FilterField)), q.Get(browse.ValueField)
		q.Del(browse.FilterField)
		q.Del(browse.ValueField)
		if name != "" {
			q.Add(name, value)
		}
		loc := c.Request.URL.Path
		if len(q) > 0 {
			loc += "?" + q.Encode()
		}
		c.Redirect(http.StatusFound, loc)
		c.Abort()
		return
	}
	c.Request.Header.Set("Accept", "application/json")
	orig := c.Writer
	buf := &bufferedWriter{ResponseWriter: orig, status: http.StatusOK}
	c.Writer = buf
	c.Next()
	c.Writer = orig
	h := orig.Header()
	// A 204 (a DELETE) gets the page too: the browser shows the status
	// rather than nothing.
	_, raw := c.Get(ctxRawBody)
	if ct := h.Get("Content-Type"); raw || !strings.HasPrefix(ct, "application/json") && buf.status != http.StatusNoContent {
		orig.WriteHeader(buf.status)
		orig.Write(buf.body.Bytes())
		return
	}
	user, csrf := usernameOf(c.Request.Context()), ""
	if p := PrincipalFrom(c.Request.Context()); p != nil && p.Session != nil {
		csrf = p.Session.CsrfToken
	}
	// The write form comes from OPTIONS: after a GET that succeeded, and
	// after the form's own request whatever its answer, so that the form
	// stays with what was sent (to be corrected after a 400).
	sent, _ := c.Request.Context().Value(sentKey{}).(*browse.Sent)
	var opts []byte
	if (c.Request.Method == http.MethodGet && buf.status < 300 || sent != nil) && strings.Contains(h.Get("Allow"), http.MethodOptions) {
		opts = s.optionsOf(c.Request)
	}
	var filterNames []string
	if c.Request.Method == http.MethodGet && buf.status < 300 {
		if doc := openAPIReady(s.cfg.Version); doc != nil {
			filterNames = doc.filters[c.FullPath()]
		}
	}
	shown := h.Clone() // the headers the JSON answer had
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Del("Content-Length")
	h.Set("Vary", "Accept")
	// The page is the caller's (its name, its session's CSRF token): not
	// to be cached or revalidated by the JSON's validators.
	h.Del("ETag")
	h.Del("Last-Modified")
	h.Set("Cache-Control", "no-store")
	var page bytes.Buffer
	q := c.Request.URL.Query()
	q.Del("format")
	err := browse.Render(&page, browse.Page{Method: c.Request.Method, Path: c.Request.URL.Path, Query: q.Encode(),
		Origin: baseURL(c.Request), Status: buf.status, Header: shown, Body: buf.body.Bytes(), User: user,
		CSRF: csrf, Options: opts, Sent: sent, Filters: filterNames})
	if err != nil {
		// The template is fixed and its data plain: should it still fail,
		// the JSON answer is better than none.
		h.Set("Content-Type", shown.Get("Content-Type"))
		orig.WriteHeader(buf.status)
		orig.Write(buf.body.Bytes())
		return
	}
	status := buf.status
	if status == http.StatusNoContent {
		// HTTP allows a 204 no body, and a browser stays on the form's
		// page: the page (saying 204) is sent as 200.
		status = http.StatusOK
	}
	orig.WriteHeader(status)
	if c.Request.Method != http.MethodHead {
		orig.Write(page.Bytes())
	}
}

// sentKey holds the browse.Sent of a request the write form made.
type sentKey struct{}

// internalKey marks the browse page's own OPTIONS request.
type internalKey struct{}

// optionsOf is the JSON answer of OPTIONS on r's URL for r's caller (the
// page shows it, and its actions decide the write form), nil unless 200.
// It runs through the engine as any request does, authenticated by the
// same credentials, outside the read retry of r.
func (s *Server) optionsOf(r *http.Request) []byte {
	ctx := context.WithValue(r.Context(), internalKey{}, true)
	ctx = context.WithValue(ctx, retryKey{}, (*retryState)(nil))
	req := r.Clone(ctx)
	req.Method, req.Body, req.ContentLength = http.MethodOptions, http.NoBody, 0
	req.Header.Set("Accept", "application/json")
	w := &plainRecorder{header: http.Header{}, status: http.StatusOK}
	s.engine.ServeHTTP(w, req)
	if w.status != http.StatusOK {
		return nil
	}
	return w.body.Bytes()
}

// plainRecorder keeps an internal request's answer.
type plainRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *plainRecorder) Header() http.Header         { return w.header }
func (w *plainRecorder) WriteHeader(code int)        { w.status = code }
func (w *plainRecorder) Write(b []byte) (int, error) { return w.body.Write(b) }

// bufferedWriter keeps a handler's answer for browsable.
type bufferedWriter struct {
	gin.ResponseWriter
	status  int
	written bool
	body    bytes.Buffer
}

func (w *bufferedWriter) WriteHeader(code int) { w.status, w.written = code, true }
func (w *bufferedWriter) WriteHeaderNow()      { w.written = true }
func (w *bufferedWriter) Write(b []byte) (int, error) {
	w.written = true
	return w.body.Write(b)
}
func (w *bufferedWriter) WriteString(s string) (int, error) {
	w.written = true
	return w.body.WriteString(s)
}
func (w *bufferedWriter) Status() int   { return w.status }
func (w *bufferedWriter) Written() bool { return w.written }
func (w *bufferedWriter) Size() int     { return w.body.Len() }

// formOverride turns the browsable API's form (a POST of _method,
// _content and the CSRF field: an HTML form knows no other method or
// body) into the JSON request it stands for, before routing, as Django
// REST framework's overloaded POST does. Only for a browser (the page is
// what answers) and only with a _content field: API clients' form posts
// are left alone. The CSRF field becomes the header checkCSRF reads.
func (s *Server) formOverride(r *http.Request) *http.Request {
	if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/api/") || !browse.Wants(r) {
		return r
	}
	if mt := r.Header.Get("Content-Type"); !strings.HasPrefix(mt, "application/x-www-form-urlencoded") {
		return r
	}
	limit := s.cfg.MaxBodyBytes
	if limit <= 0 {
		limit = 1 << 30
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil || int64(len(raw)) > limit {
		// Left to the handler, which answers the size or read error.
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(raw), r.Body))
		return r
	}
	form, err := url.ParseQuery(string(raw))
	if err != nil || !form.Has("_content") {
		r.Body = io.NopCloser(bytes.NewReader(raw))
		return r
	}
	r = r.Clone(r.Context())
	switch m := strings.ToUpper(form.Get("_method")); m {
	case http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions:
		r.Method = m
	}
	content := form.Get("_content")
	r = r.WithContext(context.WithValue(r.Context(), sentKey{}, &browse.Sent{Method: r.Method, Content: content}))
	r.Body, r.ContentLength = io.NopCloser(strings.NewReader(content)), int64(len(content))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Del("Content-Length")
	if tok := form.Get(session.CSRFField); tok != "" {
		r.Header.Set(session.CSRFHeader, tok)
	}
	return r
}
