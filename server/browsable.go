package server

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/server/browse"
)

// browsable serves the browsable API (server/browse) to a browser: the
// request runs as a JSON request, its answer is kept, and a JSON answer is
// rendered as an HTML page with the same status. Any other answer (an
// export, a rendered config, a file) passes through as it is.
func (s *Server) browsable(c *gin.Context) {
	if !browse.Wants(c.Request) {
		c.Next()
		return
	}
	c.Request.Header.Set("Accept", "application/json")
	orig := c.Writer
	buf := &bufferedWriter{ResponseWriter: orig, status: http.StatusOK}
	c.Writer = buf
	c.Next()
	c.Writer = orig
	h := orig.Header()
	if ct := h.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		orig.WriteHeader(buf.status)
		orig.Write(buf.body.Bytes())
		return
	}
	user := usernameOf(c.Request.Context())
	shown := h.Clone() // the headers the JSON answer had
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Del("Content-Length")
	h.Set("Vary", "Accept")
	var page bytes.Buffer
	q := c.Request.URL.Query()
	q.Del("format")
	err := browse.Render(&page, browse.Page{Method: c.Request.Method, Path: c.Request.URL.Path, Query: q.Encode(),
		Origin: baseURL(c.Request), Status: buf.status, Header: shown, Body: buf.body.Bytes(), User: user})
	if err != nil {
		// The template is fixed and its data plain: should it still fail,
		// the JSON answer is better than none.
		h.Set("Content-Type", shown.Get("Content-Type"))
		orig.WriteHeader(buf.status)
		orig.Write(buf.body.Bytes())
		return
	}
	orig.WriteHeader(buf.status)
	if c.Request.Method != http.MethodHead {
		orig.Write(page.Bytes())
	}
}

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
