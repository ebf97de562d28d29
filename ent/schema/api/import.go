package api

import "context"

type importingKey struct{}

// WithImport marks ctx as an import of another system's objects (a
// NetBox's, issue 35): the objects come as they are in the source, so a
// create keeps the input's id, created and last_updated, a device or
// module does not get its type's components (the source's own are
// imported), no change records or outbox events are written (the import
// is not a change of this service), and cable paths are not traced per
// cable (the importer traces every path once at the end, as NetBox's
// trace_paths does). Everything else (decoding, validation, uniqueness,
// the schema hooks) runs as for an API create, so that a value this
// service refuses is refused.
func WithImport(ctx context.Context) context.Context {
	return context.WithValue(ctx, importingKey{}, true)
}

// Importing reports whether ctx is an import (WithImport).
func Importing(ctx context.Context) bool {
	v, _ := ctx.Value(importingKey{}).(bool)
	return v
}
