package hookguard

import "context"

// Policy is what the running service allows webhooks: the address guard
// built from the operator's allow-list and the CA file directory. The
// webhooks engine attaches it to every write of a webhook (a client hook),
// where the schema hooks read it.
type Policy struct {
	Guard *Guard
	CADir string
}

type policyKey struct{}

// WithPolicy returns ctx carrying p.
func WithPolicy(ctx context.Context, p *Policy) context.Context {
	return context.WithValue(ctx, policyKey{}, p)
}

// strict is the policy of a write no engine configured: nothing internal
// is allowed and CA files are disabled.
var strict = &Policy{Guard: &Guard{hosts: map[string]bool{}}}

// From returns the policy in ctx, or the strict one.
func From(ctx context.Context) *Policy {
	if p, ok := ctx.Value(policyKey{}).(*Policy); ok && p != nil && p.Guard != nil {
		return p
	}
	return strict
}
