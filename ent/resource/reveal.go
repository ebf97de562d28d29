package resource

import (
	"context"
	"sync"
)

// Reveal holds write-once secrets created during one request, so that the
// response to that request (and only that one) can show them: a token's
// plaintext is never stored, yet NetBox returns it once on creation.
type Reveal struct {
	mu sync.Mutex
	m  map[string]map[int]string // content type → id → secret
}

type revealKey struct{}

// WithReveal returns ctx carrying an empty Reveal.
func WithReveal(ctx context.Context) (context.Context, *Reveal) {
	r := &Reveal{m: map[string]map[int]string{}}
	return context.WithValue(ctx, revealKey{}, r), r
}

// RevealFrom returns the Reveal in ctx, or nil.
func RevealFrom(ctx context.Context) *Reveal {
	r, _ := ctx.Value(revealKey{}).(*Reveal)
	return r
}

// Put records the secret of object id of content type ct.
func (r *Reveal) Put(ct string, id int, secret string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m[ct] == nil {
		r.m[ct] = map[int]string{}
	}
	r.m[ct][id] = secret
}

func (r *Reveal) get(ct string, id int) (string, bool) {
	if r == nil {
		return "", false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.m[ct][id]
	return s, ok
}
