package resource

import "context"

type userKey struct{}

// WithUser records the id of the user a write acts for, so that fields
// defaulting to the current user (api.Field.CurrentUser: a journal entry's
// created_by) can be filled. The server sets it on every write.
func WithUser(ctx context.Context, id int) context.Context {
	return context.WithValue(ctx, userKey{}, id)
}

// UserFrom is the id WithUser recorded.
func UserFrom(ctx context.Context) (int, bool) {
	id, ok := ctx.Value(userKey{}).(int)
	return id, ok
}
