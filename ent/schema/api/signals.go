package api

import (
	"context"

	"entgo.io/ent"
)

// Some of NetBox's signal handlers call save() on other objects (a new
// virtual chassis makes its master a member; deleting one clears its
// members' positions), and each save() is change-logged. The hooks that
// mirror them rewrite those rows with SQL in the write's transaction, at a
// fixed number of statements; before they do, they name the rows with
// Saving, and the change capture (package webhooks, through WithSaver)
// snapshots them so that the rows that changed get an update record and
// event as NetBox's save() would give them. Rows a hook deletes with SQL
// (a cable's terminations) are named with Removing instead: their full
// representation is kept for the delete event. Handlers that use a
// queryset's update() (NetBox's placement signals) write no records, and
// call nothing.

// Saver snapshots the rows ids of the model contentType before a hook
// rewrites them on m's connection.
type Saver func(ctx context.Context, m ent.Mutation, contentType string, ids []int) error

type saverKey struct{}

// WithSaver returns ctx carrying the change capture's Saver.
func WithSaver(ctx context.Context, s Saver) context.Context {
	return context.WithValue(ctx, saverKey{}, s)
}

// Saving names rows that a hook is about to rewrite as NetBox's save()
// would; without change capture in ctx (a migration, a test of the hook
// alone) it does nothing.
func Saving(ctx context.Context, m ent.Mutation, contentType string, ids []int) error {
	if s, _ := ctx.Value(saverKey{}).(Saver); s != nil && len(ids) > 0 {
		return s(ctx, m, contentType, ids)
	}
	return nil
}

type removingKey struct{}

// WithRemover returns ctx carrying the change capture's Saver for
// Removing.
func WithRemover(ctx context.Context, s Saver) context.Context {
	return context.WithValue(ctx, removingKey{}, s)
}

// Removing names rows that a hook is about to delete with SQL: the
// change capture keeps their last state and representation for their
// delete record and event. Saving takes only what an update record
// needs (the snapshot), once per row and transaction, which keeps a
// bulk write's hooks at a few statements per object; without change
// capture in ctx it does nothing.
func Removing(ctx context.Context, m ent.Mutation, contentType string, ids []int) error {
	if s, _ := ctx.Value(removingKey{}).(Saver); s != nil && len(ids) > 0 {
		return s(ctx, m, contentType, ids)
	}
	return nil
}

type touchingKey struct{}

// WithToucher returns ctx carrying the change capture's Saver for
// Touching.
func WithToucher(ctx context.Context, s Saver) context.Context {
	return context.WithValue(ctx, touchingKey{}, s)
}

// Touching names rows whose representation a hook changed without
// changing their columns (an endpoint's connected_endpoints when its
// cable path is traced again): each gets an update record and event
// even when its snapshot is the same. Without change capture in ctx it
// does nothing.
func Touching(ctx context.Context, m ent.Mutation, contentType string, ids []int) error {
	if s, _ := ctx.Value(touchingKey{}).(Saver); s != nil && len(ids) > 0 {
		return s(ctx, m, contentType, ids)
	}
	return nil
}

type deletingKey struct{}

// WithDeleting returns ctx knowing which objects the delete under way
// removes (the resource layer's deletion set, cascades included).
func WithDeleting(ctx context.Context, in func(contentType string, id int) bool) context.Context {
	return context.WithValue(ctx, deletingKey{}, in)
}

// Deleting reports whether object id of contentType goes in the delete
// under way: a hook of a row whose key the delete clears (SET_NULL) tells
// NetBox's pre_delete handlers' cases apart from a client's update (a
// virtual chassis' master leaves it as the chassis goes, which a client
// may not do).
func Deleting(ctx context.Context, contentType string, id int) bool {
	in, _ := ctx.Value(deletingKey{}).(func(string, int) bool)
	return in != nil && in(contentType, id)
}

// Creator records rows of the model contentType that a hook inserted with
// SQL on m's connection as created (NetBox's save() of a new object: a
// cable's terminations): each gets a create record and event at commit.
type Creator func(ctx context.Context, m ent.Mutation, contentType string, ids []int) error

type creatorKey struct{}

// WithCreator returns ctx carrying the change capture's Creator.
func WithCreator(ctx context.Context, c Creator) context.Context {
	return context.WithValue(ctx, creatorKey{}, c)
}

// Created names rows a hook has just inserted; without change capture in
// ctx it does nothing.
func Created(ctx context.Context, m ent.Mutation, contentType string, ids []int) error {
	if c, _ := ctx.Value(creatorKey{}).(Creator); c != nil && len(ids) > 0 {
		return c(ctx, m, contentType, ids)
	}
	return nil
}
