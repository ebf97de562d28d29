package api

import "context"

// Many-to-many relations are written by the resource layer after the
// model's own row (a join table per relation), so a schema hook cannot see
// them in its mutation. The resource layer hands the lists the request
// gives to the hooks through the context instead: a hook that validates a
// row against its related set (an interface's tagged VLANs, NetBox's
// serializer validate()) reads them with Related.

type relatedKey struct{}

// WithRelated returns ctx carrying the many-to-many lists of one write, by
// API field name ("tagged_vlans": the ids the request gives).
func WithRelated(ctx context.Context, lists map[string][]int) context.Context {
	return context.WithValue(ctx, relatedKey{}, lists)
}

// Related returns the ids the current write gives for the many-to-many
// field name; ok is false when the request leaves the relation unchanged.
func Related(ctx context.Context, name string) (ids []int, ok bool) {
	lists, _ := ctx.Value(relatedKey{}).(map[string][]int)
	ids, ok = lists[name]
	return ids, ok
}
