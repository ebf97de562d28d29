package webhooks

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/logic/hookguard"
)

// ClientValue attaches, per client, the value last installed for it to
// the context of every write of one model: how the save-time checks of
// the schema hooks (which cannot see the running service's settings)
// learn them. The hook is registered once per client; a later Install
// over the same client replaces the value.
type ClientValue[T any] struct {
	byClient sync.Map // *ent.Client → *atomic.Pointer[T]
	// With returns ctx carrying the value.
	With func(context.Context, *T) context.Context
}

// Install makes the writes use hooks carry v (use is the model's hook
// list on c, as c.Webhook.Use).
func (cv *ClientValue[T]) Install(c *ent.Client, use func(...ent.Hook), v *T) {
	ptr := &atomic.Pointer[T]{}
	if old, loaded := cv.byClient.LoadOrStore(c, ptr); loaded {
		old.(*atomic.Pointer[T]).Store(v)
		return
	}
	ptr.Store(v)
	use(func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			return next.Mutate(cv.With(ctx, ptr.Load()), m)
		})
	})
}

// policies holds the save-time policy of the engine last built over each
// client.
var policies = &ClientValue[hookguard.Policy]{With: hookguard.WithPolicy}

// installPolicy makes every write of a webhook through c carry p in its
// context, where the extras.Webhook schema hooks check payload_url's
// literal address and ca_file_path against the same allow-list and CA
// directory the deliveries use.
func installPolicy(c *ent.Client, p *hookguard.Policy) { policies.Install(c, c.Webhook.Use, p) }
