package server

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"
)

// A read (GET, HEAD, OPTIONS) that loses its database connection under it
// (PostgreSQL restarted, a pooled connection the server closed) is run once
// more on a fresh connection before the client sees a 503: it changes
// nothing, so running it twice is safe. Writes are never retried: whether
// a dropped COMMIT took effect is unknown, and the client decides.

type retryKey struct{}

// retryState is shared by the two attempts of one read.
type retryState struct {
	retried bool // the second attempt is running
	again   bool // the first attempt asked for a second
}

// serve runs the engine, twice for a read whose first attempt asked for it
// (retryRead). The first attempt writes into a held writer, so nothing of
// it reaches the client when it is retried.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	r = s.formOverride(r)
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
	default:
		s.engine.ServeHTTP(w, r)
		return
	}
	st := &retryState{}
	r = r.WithContext(context.WithValue(r.Context(), retryKey{}, st))
	s.engine.ServeHTTP(&heldWriter{w: w, st: st, h: http.Header{}}, r)
	if st.again {
		st.retried = true
		s.engine.ServeHTTP(w, r)
	}
}

// retryRead asks for the read's second attempt, if it is a read, is the
// first attempt and has written nothing yet.
func retryRead(c *gin.Context) bool {
	st, _ := c.Request.Context().Value(retryKey{}).(*retryState)
	if st == nil || st.retried || c.Writer.Written() {
		return false
	}
	st.again = true
	c.Abort()
	return true
}

// heldWriter is the first attempt's writer: its headers are its own until
// the status is written, and everything is dropped once a retry is asked.
type heldWriter struct {
	w     http.ResponseWriter
	st    *retryState
	h     http.Header
	wrote bool
}

func (h *heldWriter) Header() http.Header { return h.h }

func (h *heldWriter) WriteHeader(code int) {
	if h.st.again || h.wrote {
		return
	}
	h.wrote = true
	dst := h.w.Header()
	for k, v := range h.h {
		dst[k] = v
	}
	h.w.WriteHeader(code)
}

func (h *heldWriter) Write(b []byte) (int, error) {
	if h.st.again {
		return len(b), nil
	}
	h.WriteHeader(http.StatusOK)
	return h.w.Write(b)
}

func (h *heldWriter) Flush() {
	if f, ok := h.w.(http.Flusher); ok && !h.st.again {
		h.WriteHeader(http.StatusOK)
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (h *heldWriter) Unwrap() http.ResponseWriter { return h.w }
