package api

import (
	"context"
	"encoding/json"

	"entgo.io/ent"
)

// A write's change records come in the order its objects were first
// named (created, snapshotted, touched). A hook that postpones its writes
// to the end of the write (Postpone) would name its rows after every
// object of the write, and so move their records: a bulk request of
// cables records each cable, then its terminations and the objects they
// terminate, then the next cable, as NetBox saves them one cable at a
// time. Mark keeps the place: rows first named by Created or Placing
// under At(ctx, mark) get their records at the mark, in the order they
// are named there. Rows the write named before keep their place.

// Places are the change capture's side of Mark, At and Placing.
type Places struct {
	// Mark returns the place at the end of the records named so far.
	Mark func(ctx context.Context) any
	// Place names rows at ctx's place (At) without a snapshot yet.
	Place Saver
}

type placesKey struct{}

// WithPlaces returns ctx carrying the change capture's Places.
func WithPlaces(ctx context.Context, p Places) context.Context {
	return context.WithValue(ctx, placesKey{}, p)
}

// Mark returns the place after the change records named so far; nil
// without change capture in ctx.
func Mark(ctx context.Context) any {
	if p, ok := ctx.Value(placesKey{}).(Places); ok && p.Mark != nil {
		return p.Mark(ctx)
	}
	return nil
}

type atKey struct{}

// At returns ctx in which rows first named by Created or Placing get
// their change records at mark (from Mark), not at the end.
func At(ctx context.Context, mark any) context.Context {
	if mark == nil {
		return ctx
	}
	return context.WithValue(ctx, atKey{}, mark)
}

// MarkOf is the place At gave ctx, nil for none.
func MarkOf(ctx context.Context) any { return ctx.Value(atKey{}) }

// Placing names rows that a hook names with Saving later in the write
// (one snapshot for the rows of many places), so that their update
// records come at ctx's place; a row never snapshotted afterwards gets
// no record. Without change capture in ctx it does nothing.
func Placing(ctx context.Context, m ent.Mutation, contentType string, ids []int) error {
	if p, ok := ctx.Value(placesKey{}).(Places); ok && p.Place != nil && len(ids) > 0 {
		return p.Place(ctx, m, contentType, ids)
	}
	return nil
}

type bulkKey struct{}

type bulk struct {
	contentType string
	items       []json.RawMessage
}

// WithBulk returns ctx carrying the items of a bulk create of
// contentType (the request body's objects, as sent), so that a hook can
// read what every item needs at its first (a cable's ends' objects, for
// the checks) instead of once per item.
func WithBulk(ctx context.Context, contentType string, items []json.RawMessage) context.Context {
	return context.WithValue(ctx, bulkKey{}, bulk{contentType, items})
}

// BulkItems are the items of the bulk create of contentType under way
// (WithBulk); nil for none. They are input, not yet checked.
func BulkItems(ctx context.Context, contentType string) []json.RawMessage {
	if b, ok := ctx.Value(bulkKey{}).(bulk); ok && b.contentType == contentType {
		return b.items
	}
	return nil
}
