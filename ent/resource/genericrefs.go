package resource

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/inventory/inventory/ent/logic/pyrepr"
)

// KindGenericRefs is a JSON column holding a list of generic references,
// [{"object_type": "dcim.interface", "object_id": 7}] (a cable's
// a_terminations: NetBox's GenericObjectSerializer(many=True)). Written as
// such, each type checked against Field.Types (whether the objects exist,
// and may be used, is the model's hooks' to say: they read them anyway);
// rendered with each object nested under "object", the objects of a whole
// page loaded with one query per type.
const KindGenericRefs Kind = "generic-refs"

// GenericRef is one element of a KindGenericRefs value.
type GenericRef struct {
	Type string
	ID   int
}

func init() {
	RegisterKind(KindGenericRefs, nil, decodeGenericRefs)
}

// decodeGenericRefs checks the shape and the types of a list of
// references, answering as DRF does for a list of nested serializers.
func decodeGenericRefs(f *Field, raw json.RawMessage) (any, []string) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, []string{fmt.Sprintf("Expected a list of items but got type %q.", pyrepr.TypeOfJSON(raw))}
	}
	out := make([]any, 0, len(items))
	for i, item := range items {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(item, &obj); err != nil || obj == nil {
			return nil, []string{fmt.Sprintf("Item %d: Invalid data. Expected a dictionary, but got %s.", i, pyrepr.TypeOfJSON(item))}
		}
		rawT, okT := obj["object_type"]
		rawID, okID := obj["object_id"]
		if !okT || !okID {
			missing := "object_type"
			if okT {
				missing = "object_id"
			}
			return nil, []string{fmt.Sprintf("Item %d: %s: This field is required.", i, missing)}
		}
		var ct string
		if err := json.Unmarshal(rawT, &ct); err != nil {
			return nil, []string{fmt.Sprintf("Item %d: object_type: Invalid value. Specify a content type as '<app_label>.<model_name>'.", i)}
		}
		if msg := checkContentType(ct, f.Types); msg != "" {
			return nil, []string{fmt.Sprintf("Item %d: object_type: %s", i, msg)}
		}
		id, msgs := decodeInt(&Field{Name: "object_id"}, rawID)
		if msgs != nil {
			return nil, []string{fmt.Sprintf("Item %d: object_id: %s", i, msgs[0])}
		}
		out = append(out, map[string]any{"object_type": ct, "object_id": id})
	}
	return out, nil
}

// ParseGenericRefs reads a stored KindGenericRefs value (JSON text or the
// decoded list).
func ParseGenericRefs(v any) []GenericRef {
	var items []map[string]any
	switch x := v.(type) {
	case json.RawMessage:
		_ = json.Unmarshal(x, &items)
	case []byte:
		_ = json.Unmarshal(x, &items)
	case string:
		_ = json.Unmarshal([]byte(x), &items)
	case []any:
		for _, it := range x {
			if m, ok := it.(map[string]any); ok {
				items = append(items, m)
			}
		}
	}
	out := make([]GenericRef, 0, len(items))
	for _, it := range items {
		ct, _ := it["object_type"].(string)
		var id int
		switch n := it["object_id"].(type) {
		case float64:
			id = int(n)
		case int:
			id = n
		case json.Number:
			i, _ := strconv.Atoi(string(n))
			id = i
		}
		if ct != "" && id != 0 {
			out = append(out, GenericRef{Type: ct, ID: id})
		}
	}
	return out
}

// loadGenericRefs loads the objects a KindGenericRefs field of the page's
// rows names: one query per type, whatever the page size.
func (p *Page) loadGenericRefs(ctx context.Context, f *Field, rows []*Row) error {
	byType := map[string][]int{}
	for _, r := range rows {
		for _, ref := range ParseGenericRefs(r.Vals[f.col]) {
			byType[ref.Type] = append(byType[ref.Type], ref.ID)
		}
	}
	return p.loadRefObjects(ctx, f, byType)
}

// loadRefObjects loads objects by type into p.generic[f], their own FKs
// (an interface's device) queued for loadRelated.
func (p *Page) loadRefObjects(ctx context.Context, f *Field, byType map[string][]int) error {
	if p.generic == nil {
		p.generic = map[*Field]map[string]map[int]*Row{}
	}
	m := p.generic[f]
	if m == nil {
		m = map[string]map[int]*Row{}
		p.generic[f] = m
	}
	types := make([]string, 0, len(byType))
	for ct := range byType {
		types = append(types, ct)
	}
	sort.Strings(types)
	for _, ct := range types {
		td := ByContentType(ct)
		if td == nil {
			continue
		}
		got, err := td.getNested(ctx, p.st, dedupe(byType[ct]))
		if err != nil {
			return err
		}
		if m[ct] == nil {
			m[ct] = map[int]*Row{}
		}
		for _, r := range got {
			m[ct][r.ID] = r
		}
		var fks []*Field
		for _, nf := range td.nestedFields() {
			if nf.Kind == KindFK {
				fks = append(fks, nf)
			}
		}
		if len(fks) > 0 && len(got) > 0 {
			p.more = append(p.more, relatedWant{fks, got})
		}
	}
	return nil
}

// encodeGenericRefs renders a KindGenericRefs value: each reference with
// its object nested (null when it is gone).
func (p *Page) encodeGenericRefs(b []byte, f *Field, v any) []byte {
	b = append(b, '[')
	for i, ref := range ParseGenericRefs(v) {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"object_type":`...)
		b = appendString(b, ref.Type)
		b = append(b, `,"object_id":`...)
		b = strconv.AppendInt(b, int64(ref.ID), 10)
		b = append(b, `,"object":`...)
		if t := p.generic[f][ref.Type][ref.ID]; t != nil {
			td := ByContentType(ref.Type)
			b = p.encode(b, td, t, td.nestedFields(), true)
		} else {
			b = append(b, "null"...)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}
