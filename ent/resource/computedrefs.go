package resource

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect"

	"github.com/inventory/inventory/ent/schema/api"
)

// KindComputedRefs is a read-only field computed for a whole page by a
// RefsFunc (api.Model.Refs) and rendered from the objects it names:
// nested ("objects", a cabled object's link_peers) or as the content type
// of the first ("type", link_peers_type). Fields sharing a RefsFunc share
// one call per page; the objects load with one query per type.
const KindComputedRefs Kind = "computed-refs"

// Render forms of a KindComputedRefs field (Field.RefsRender).
const (
	RefsObjects = "objects"
	RefsType    = "type"
)

// loadComputedRefs calls f's RefsFunc for the page (once for all fields
// naming it) and loads the objects when f renders them.
func (p *Page) loadComputedRefs(ctx context.Context, f *Field, rows []*Row) error {
	if f.Refs == nil {
		return nil
	}
	if p.refs == nil {
		p.refs = map[string]map[int][]api.Ref{}
	}
	got, ok := p.refs[f.RefsKey]
	if !ok {
		q := api.PageQuery{ContentType: p.d.ContentType(), Postgres: p.st.Dialect == dialect.Postgres, Q: p.st.Q,
			IDs: make([]int, len(rows)), Rows: make([]api.Getter, len(rows))}
		for i, r := range rows {
			q.IDs[i] = r.ID
			q.Rows[i] = func(name string) any { return p.d.Value(r, name) }
		}
		q.Cached = func(_ string, load func() (any, error)) (any, error) { return load() }
		var err error
		if got, err = f.Refs(ctx, q); err != nil {
			return fmt.Errorf("refs %s.%s: %w", p.d.Type, f.Name, err)
		}
		p.refs[f.RefsKey] = got
	}
	if f.RefsRender != RefsObjects {
		return nil
	}
	byType := map[string][]int{}
	for _, list := range got {
		for _, r := range list {
			byType[r.Type] = append(byType[r.Type], r.ID)
		}
	}
	return p.loadRefObjects(ctx, f, byType)
}

// encodeComputedRefs renders a KindComputedRefs field of row id.
func (p *Page) encodeComputedRefs(b []byte, f *Field, id int) []byte {
	list := p.refs[f.RefsKey][id]
	if f.RefsRender == RefsType {
		if len(list) == 0 || list[0].Untyped {
			return append(b, "null"...)
		}
		return appendString(b, list[0].Type)
	}
	b = append(b, '[')
	n := 0
	for _, r := range list {
		t := p.generic[f][r.Type][r.ID]
		td := ByContentType(r.Type)
		if t == nil || td == nil {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = p.encode(b, td, t, td.nestedFields(), true)
	}
	return append(b, ']')
}
