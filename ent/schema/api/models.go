package api

import (
	"context"
	"database/sql"
	"net/url"
)

// ModelInfo is what a hook needs to reach a served model it does not know
// by type: its table and its label ("DCIM | site", Django's ContentType
// string). A custom field choice set checks every model its custom fields
// cover this way.
type ModelInfo struct {
	Table, Label string
	// CheckFilters judges filter parameters as the model's list takes
	// them from a query string: every key one of its filters (with a
	// lookup it has), every value one the filter accepts, related objects
	// looked up through q (on PostgreSQL when pg). It answers the refused
	// parameters with their messages (a saved filter is checked this way
	// when saved); nil when the lookup cannot judge.
	CheckFilters func(ctx context.Context, q Querier, pg bool, params url.Values) (map[string][]string, error)
}

// Querier runs queries: a generated mutation, a *sql.Tx.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

type modelsKey struct{}

// WithModels returns ctx carrying the lookup of served models by content
// type (the server puts the registry's in every request's context; the
// schema cannot import the registry, which imports the generated code).
func WithModels(ctx context.Context, lookup func(contentType string) (ModelInfo, bool)) context.Context {
	return context.WithValue(ctx, modelsKey{}, lookup)
}

// ModelOf finds a served model by content type; false when ctx carries no
// lookup (a write outside a request) or the model is not served.
func ModelOf(ctx context.Context, contentType string) (ModelInfo, bool) {
	if f, ok := ctx.Value(modelsKey{}).(func(string) (ModelInfo, bool)); ok {
		return f(contentType)
	}
	return ModelInfo{}, false
}
