package server

import (
	"context"
	"log/slog"
)

// LogHandler wraps h so that every line logged with a request's context
// (slog.InfoContext(ctx, ...) or a logger's ...Context methods) carries
// that request's id as request_id, the id its X-Request-ID header and
// any 5xx body name: one structured logger for the access log and the
// application's own lines, in the format the operator chose.
func LogHandler(h slog.Handler) slog.Handler { return requestIDHandler{h} }

type requestIDHandler struct{ slog.Handler }

func (h requestIDHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := RequestID(ctx); id != "" {
		has := false
		r.Attrs(func(a slog.Attr) bool {
			has = a.Key == "request_id"
			return !has
		})
		if !has {
			r.AddAttrs(slog.String("request_id", id))
		}
	}
	return h.Handler.Handle(ctx, r)
}

func (h requestIDHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return requestIDHandler{h.Handler.WithAttrs(as)}
}

func (h requestIDHandler) WithGroup(name string) slog.Handler {
	return requestIDHandler{h.Handler.WithGroup(name)}
}
