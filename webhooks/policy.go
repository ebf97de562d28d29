package webhooks

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/logic/hookguard"
)

// policies holds, per client, the save-time policy of the engine last
// built over it (*atomic.Pointer[hookguard.Policy]).
var policies sync.Map

// installPolicy makes every write of a webhook through c carry p in its
// context, where the extras.Webhook schema hooks check payload_url's
// literal address and ca_file_path against the same allow-list and CA
// directory the deliveries use. The hook is registered once per client; a
// later engine over the same client replaces the policy.
func installPolicy(c *ent.Client, p *hookguard.Policy) {
	ptr := &atomic.Pointer[hookguard.Policy]{}
	if old, loaded := policies.LoadOrStore(c, ptr); loaded {
		old.(*atomic.Pointer[hookguard.Policy]).Store(p)
		return
	}
	ptr.Store(p)
	c.Webhook.Use(func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			return next.Mutate(hookguard.WithPolicy(ctx, ptr.Load()), m)
		})
	})
}
