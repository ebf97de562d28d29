package extras

import (
	"context"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/jinja"
	"github.com/inventory/inventory/ent/schema/api"
)

// CustomLinkHooks are the hooks of extras.CustomLink: link_text and
// link_url are Jinja templates that clients render with an object, so
// each must parse when saved, refused with NetBox's "Invalid template:"
// message naming the field. NetBox itself does not check them at save:
// a broken one fails only when a page shows the link.
func CustomLinkHooks() []ent.Hook {
	return []ent.Hook{func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if !m.Op().Is(ent.OpCreate | ent.OpUpdate | ent.OpUpdateOne) {
				return next.Mutate(ctx, m)
			}
			for _, f := range []string{"link_text", "link_url"} {
				v, ok := m.Field(f)
				if !ok {
					continue
				}
				s, _ := v.(string)
				if err := jinja.Check(s, false); err != nil {
					return nil, &api.FieldError{Field: f, Message: "Invalid template: " + err.Error()}
				}
			}
			return next.Mutate(ctx, m)
		})
	}}
}
