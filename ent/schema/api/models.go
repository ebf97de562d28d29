package api

import "context"

// ModelInfo is what a hook needs to reach a served model it does not know
// by type: its table and its label ("DCIM | site", Django's ContentType
// string). A custom field choice set checks every model its custom fields
// cover this way.
type ModelInfo struct {
	Table, Label string
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
