package api

import (
	"context"
	"sync"
)

// A hook whose work depends on the whole of a write rather than on each
// object (a cable's connection paths, traced again from every endpoint
// the write reached) may postpone it to the end of the write: a bulk
// request of 1000 cables then traces once, batched, instead of 1000
// times. The change capture (package webhooks) opens the list for each
// transaction it tracks and runs it after the write's work, before the
// commit and inside the transaction; without it (a migration, a hook's
// own test) Postpone says so and the hook does its work at once.

// Work is what a hook postpones.
type Work interface {
	Run(ctx context.Context) error
}

type postponed struct {
	mu    sync.Mutex
	order []any
	work  map[any]Work
}

type postponedKey struct{}

// WithPostponed returns ctx with an empty list of postponed work, to be
// run by RunPostponed.
func WithPostponed(ctx context.Context) context.Context {
	return context.WithValue(ctx, postponedKey{}, &postponed{work: map[any]Work{}})
}

// Postpone returns the work postponed under key in ctx's write, made by
// start at the first call; false when ctx postpones nothing, and then the
// caller works at once.
func Postpone[T Work](ctx context.Context, key any, start func() T) (T, bool) {
	var zero T
	p, _ := ctx.Value(postponedKey{}).(*postponed)
	if p == nil {
		return zero, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if w, ok := p.work[key]; ok {
		t, ok := w.(T)
		return t, ok
	}
	t := start()
	p.work[key] = t
	p.order = append(p.order, key)
	return t, true
}

// RunPostponed runs the work postponed in ctx's write, in the order it
// was first postponed, each once; work postponed while it runs (a hook
// of a write the work makes) is done at once.
func RunPostponed(ctx context.Context) error {
	p, _ := ctx.Value(postponedKey{}).(*postponed)
	if p == nil {
		return nil
	}
	ctx = context.WithValue(ctx, postponedKey{}, (*postponed)(nil))
	p.mu.Lock()
	order, work := p.order, p.work
	p.order, p.work = nil, map[any]Work{}
	p.mu.Unlock()
	for _, k := range order {
		if err := work[k].Run(ctx); err != nil {
			return err
		}
	}
	return nil
}
