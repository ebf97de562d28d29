package netboxtest

import (
	"context"
	"encoding/json"
	"slices"
)

// Without is src without the objects of these ids of the endpoint: a
// half-finished source, whose other objects may still refer to them.
func Without(src Source, endpoint string, ids ...int) Source {
	return &edited{Source: src, endpoint: endpoint, fn: func(obj json.RawMessage) (json.RawMessage, error) {
		id, err := ObjectID(obj)
		if err != nil || slices.Contains(ids, id) {
			return nil, err
		}
		return obj, nil
	}}
}

// Edit is src with fn applied to every object of the endpoint, as a map
// (a field NetBox 4.6 does not have added, a value changed).
func Edit(src Source, endpoint string, fn func(obj map[string]any)) Source {
	return &edited{Source: src, endpoint: endpoint, fn: func(obj json.RawMessage) (json.RawMessage, error) {
		var m map[string]any
		if err := json.Unmarshal(obj, &m); err != nil {
			return nil, err
		}
		fn(m)
		return json.Marshal(m)
	}}
}

// With is src with more endpoints, read from extra (a model this service
// does not know, such as a plugin's "plugins/acme/widgets"); extra's
// endpoints replace src's of the same name.
func With(src Source, extra *Memory) Source {
	return &edited{Source: src, extra: extra}
}

type edited struct {
	Source
	endpoint string
	fn       func(json.RawMessage) (json.RawMessage, error) // nil drops the object
	extra    *Memory
}

func (e *edited) has(ctx context.Context, endpoint string) bool {
	if e.extra == nil {
		return false
	}
	eps, _ := e.extra.Endpoints(ctx)
	return slices.Contains(eps, endpoint)
}

func (e *edited) Endpoints(ctx context.Context) ([]string, error) {
	set := map[string]bool{}
	if l, ok := e.Source.(Lister); ok {
		eps, err := l.Endpoints(ctx)
		if err != nil {
			return nil, err
		}
		for _, ep := range eps {
			set[ep] = true
		}
	}
	if e.extra != nil {
		eps, _ := e.extra.Endpoints(ctx)
		for _, ep := range eps {
			set[ep] = true
		}
	}
	return sortedKeys(set), nil
}

func (e *edited) Count(ctx context.Context, endpoint string) (int, error) {
	if e.has(ctx, endpoint) {
		return e.extra.Count(ctx, endpoint)
	}
	if endpoint != e.endpoint {
		return e.Source.Count(ctx, endpoint)
	}
	n := 0
	err := e.Pages(ctx, endpoint, func(objs []json.RawMessage) error { n += len(objs); return nil })
	return n, err
}

func (e *edited) Pages(ctx context.Context, endpoint string, fn func([]json.RawMessage) error) error {
	return e.PagesAfter(ctx, endpoint, 0, fn)
}

func (e *edited) PagesAfter(ctx context.Context, endpoint string, after int, fn func([]json.RawMessage) error) error {
	if e.has(ctx, endpoint) {
		return e.extra.PagesAfter(ctx, endpoint, after, fn)
	}
	if endpoint != e.endpoint {
		return pagesAfter(ctx, e.Source, endpoint, after, fn)
	}
	return pagesAfter(ctx, e.Source, endpoint, after, func(objs []json.RawMessage) error {
		out := make([]json.RawMessage, 0, len(objs))
		for _, o := range objs {
			o, err := e.fn(o)
			if err != nil {
				return err
			}
			if o != nil {
				out = append(out, o)
			}
		}
		if len(out) == 0 {
			return nil
		}
		return fn(out)
	})
}
