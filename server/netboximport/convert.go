package netboximport

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/inventory/inventory/ent/media"
	"github.com/inventory/inventory/ent/resource"
)

// key names one object: its content type and id.
type key struct {
	ct string
	id int
}

// slot is one writable part of an object's input that refers to other
// objects: a foreign key, a many-to-many list or a generic pair. It may
// be left out of the object's create and written by an update once the
// objects it names exist (a nullable reference in a cycle, a tree's
// parent with a higher id); fields are the input keys it covers.
type slot struct {
	fields     []string
	refs       []key
	deferrable bool
}

// object is one NetBox object turned into this service's writable input.
type object struct {
	id    int
	in    resource.Input
	slots []slot
}

// converter turns NetBox's representation of one model into the
// descriptor's writable input: nested objects become their id, choices
// {value, label} their value, lists of nested objects lists of ids,
// generic <x>_type/<x>_id pairs and a cable's terminations stay as they
// are written, tags become tag ids, custom fields keep their values with
// object values as ids; read-only and computed fields are dropped.
type converter struct {
	d *resource.Descriptor
	// unknown collects fields of the source that are not imported: this
	// model does not have them at all (not merely read-only), or they
	// refer to a model the import does not write (a template's data
	// file, made again when its data source syncs). Each is reported once.
	unknown map[string]bool
	// imported are the content types the import writes.
	imported map[string]bool
	// files fetches an image attachment's image (nil: the source cannot).
	files FileSource
	ctx   context.Context
}

func newConverter(d *resource.Descriptor) *converter {
	return &converter{d: d, unknown: map[string]bool{}, imported: importedTypes()}
}

// importedTypes are the content types an import writes.
func importedTypes() map[string]bool {
	out := map[string]bool{}
	for _, d := range importable() {
		out[d.ContentType()] = true
	}
	return out
}

// nested is the part of a nested object the conversion needs.
type nested struct {
	ID    *int            `json:"id"`
	Value json.RawMessage `json:"value"`
	Label *string         `json:"label"`
}

func idOf(raw json.RawMessage) (int, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return 0, false
	}
	if raw[0] == '{' {
		var n nested
		if json.Unmarshal(raw, &n) == nil && n.ID != nil {
			return *n.ID, true
		}
		return 0, false
	}
	var id int
	if json.Unmarshal(raw, &id) == nil {
		return id, true
	}
	return 0, false
}

func isNull(raw json.RawMessage) bool {
	s := bytes.TrimSpace(raw)
	return len(s) == 0 || string(s) == "null"
}

// convert turns one NetBox object into an input.
func (c *converter) convert(raw json.RawMessage) (*object, error) {
	var src map[string]json.RawMessage
	if err := json.Unmarshal(raw, &src); err != nil {
		return nil, fmt.Errorf("not an object: %w", err)
	}
	o := &object{in: resource.Input{}}
	id, ok := idOf(src["id"])
	if !ok {
		return nil, fmt.Errorf("object without an id")
	}
	o.id = id
	o.in["id"] = src["id"]
	for _, f := range c.d.Fields {
		// The timestamps (resource.importStamps keeps them).
		if v, ok := src[f.Name]; ok && f.Kind == resource.KindTime && f.ReadOnly && f.Column != "" {
			o.in[f.Name] = v
		}
	}
	d := c.d
	generic := map[string]*resource.Field{} // <x>_type and <x>_id → the generic object field
	for _, f := range d.Fields {
		if f.Kind == resource.KindGenericObject {
			generic[f.Generic+"_type"], generic[f.Generic+"_id"] = f, f
		}
	}
	seenGeneric := map[string]bool{}
	for name, v := range src {
		f := d.Field(name)
		if f == nil {
			if !c.unknown[name] && !ignoredSource[name] {
				c.unknown[name] = true
			}
			continue
		}
		if g := generic[name]; g != nil {
			if seenGeneric[g.Generic] {
				continue
			}
			seenGeneric[g.Generic] = true
			tf, idf := g.Generic+"_type", g.Generic+"_id"
			rawT, rawID := src[tf], src[idf]
			o.in[tf], o.in[idf] = rawT, rawID
			s := slot{fields: []string{tf, idf}, deferrable: d.Field(tf).Nullable}
			var ct string
			if id, ok := idOf(rawID); ok && json.Unmarshal(rawT, &ct) == nil && ct != "" {
				s.refs = []key{{ct, id}}
			}
			o.slots = append(o.slots, s)
			continue
		}
		if m, ok := portMappings[d.ContentType()]; ok && m.field == name {
			if m.target == "" {
				continue // the other side writes it, and the mirror this
			}
			var list []map[string]json.RawMessage
			if err := json.Unmarshal(v, &list); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			s := slot{fields: []string{name}}
			for _, e := range list {
				if id, ok := idOf(e[m.key]); ok {
					s.refs = append(s.refs, key{m.target, id})
				}
			}
			o.in[name] = v
			o.slots = append(o.slots, s)
			continue
		}
		if isNull(v) && !f.Nullable && f.HasDefault && f.Column != "" {
			// NetBox renders an empty choice as null (a cable without a
			// profile); here the column is not nullable and its default
			// is the empty value: leave it to the default.
			continue
		}
		switch {
		case f.Kind == resource.KindTags:
			ids, err := idList(v)
			if err != nil {
				return nil, fmt.Errorf("tags: %w", err)
			}
			o.in[name] = mustJSON(ids)
		case f.Kind == resource.KindCustomFields:
			cf, objects := customFields(v)
			o.in[name] = cf
			if objects {
				// Object values may name objects written later (or this
				// model's own): written in the second pass, always.
				o.slots = append(o.slots, slot{fields: []string{name}, refs: []key{{"", 0}}, deferrable: true})
			}
		case f.ReadOnly || f.Column == "" && f.Kind != resource.KindM2M && f.Kind != resource.KindReverse:
			// computed, counted, rendered: the copy computes its own
		case (isRef(f) || f.Kind == resource.KindM2M) && !c.imported[f.Target]:
			if !isNull(v) && string(v) != "[]" {
				c.unknown[name+" (refers to "+f.Target+", not imported)"] = true
			}
		case f.Kind == resource.KindImage:
			if isNull(v) {
				continue
			}
			var u string
			if err := json.Unmarshal(v, &u); err != nil {
				return nil, fmt.Errorf("%s: not a URL: %s", name, v)
			}
			if c.files == nil {
				return nil, fmt.Errorf("%s: the source cannot fetch %s", name, u)
			}
			data, err := c.files.File(c.ctx, u)
			if err != nil {
				return nil, fmt.Errorf("%s: fetching %s: %w", name, u, err)
			}
			// The file goes in as an upload would, under its own name:
			// without the "<model>_<id>_" NetBox's image_upload put in
			// front of it, which storing it here puts back.
			pu, _ := url.Parse(u)
			base := path.Base(pu.Path)
			var ot string
			if json.Unmarshal(src["object_type"], &ot) == nil {
				if oid, ok := idOf(src["object_id"]); ok {
					_, model, _ := strings.Cut(ot, ".")
					base = strings.TrimPrefix(base, fmt.Sprintf("%s_%d_", model, oid))
				}
			}
			o.in[name] = mustJSON(media.DataURI(base, data))
		case isRef(f):
			if isNull(v) {
				o.in[name] = json.RawMessage("null")
				continue
			}
			id, ok := idOf(v)
			if !ok {
				return nil, fmt.Errorf("%s: not a related object: %s", name, v)
			}
			o.in[name] = mustJSON(id)
			o.slots = append(o.slots, slot{fields: []string{name}, refs: []key{{f.Target, id}}, deferrable: f.Nullable})
		case f.Kind == resource.KindM2M || f.Kind == resource.KindReverse:
			if f.Inverse {
				continue // the other side owns the join table and writes it
			}
			if f.ByLookup {
				o.in[name] = v
				continue
			}
			ids, err := idList(v)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			o.in[name] = mustJSON(ids)
			s := slot{fields: []string{name}, deferrable: true}
			for _, id := range ids {
				s.refs = append(s.refs, key{f.Target, id})
			}
			o.slots = append(o.slots, s)
		case string(f.Kind) == "generic-refs":
			// A cable's terminations: [{object_type, object_id, object}]
			// in, [{object_type, object_id}] written.
			var terms []struct {
				Type string `json:"object_type"`
				ID   int    `json:"object_id"`
			}
			if err := json.Unmarshal(v, &terms); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			out := make([]map[string]any, len(terms))
			s := slot{fields: []string{name}}
			for i, t := range terms {
				out[i] = map[string]any{"object_type": t.Type, "object_id": t.ID}
				s.refs = append(s.refs, key{t.Type, t.ID})
			}
			o.in[name] = mustJSON(out)
			o.slots = append(o.slots, s)
		case len(f.Choices) > 0 && bytes.HasPrefix(bytes.TrimSpace(v), []byte("{")):
			var n nested
			if json.Unmarshal(v, &n) == nil && n.Value != nil {
				o.in[name] = n.Value
			} else {
				o.in[name] = v
			}
		default:
			o.in[name] = v
		}
	}
	if f := d.Field("password"); f != nil && f.WriteOnly && f.Required {
		// Passwords cannot be read through NetBox's API: the user gets a
		// random one nobody knows (no usable password) until an
		// administrator sets one (inventory user set-password).
		o.in["password"] = mustJSON(unusablePassword())
	}
	return o, nil
}

// portMappings are the port mapping lists (NetBox 4.6's PortMapping
// rows, rendered on both ports): the front ports' lists are written and
// name their rear ports; the rear ports' lists are the mirror the front
// ports' writes keep (ent/logic/dcim), so they are not written.
var portMappings = map[string]struct{ field, target, key string }{
	"dcim.frontport":         {"rear_ports", "dcim.rearport", "rear_port"},
	"dcim.frontporttemplate": {"rear_ports", "dcim.rearporttemplate", "rear_port"},
	"dcim.rearport":          {"front_ports", "", ""},
	"dcim.rearporttemplate":  {"front_ports", "", ""},
}

// ignoredSource are fields NetBox renders that no model here has as a
// field and that carry nothing to import (the object's own links).
var ignoredSource = map[string]bool{"url": true, "display_url": true, "display": true}

// idList turns a list of nested objects (or ids) into ids.
func idList(raw json.RawMessage) ([]int, error) {
	if isNull(raw) {
		return []int{}, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("not a list: %s", raw)
	}
	ids := make([]int, 0, len(items))
	for _, it := range items {
		id, ok := idOf(it)
		if !ok {
			return nil, fmt.Errorf("not a related object: %s", it)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// customFields keeps custom field values, object values (NetBox renders
// an object custom field's value as the nested object) as their ids.
// objects says whether any value was an object (or list of objects).
func customFields(raw json.RawMessage) (_ json.RawMessage, objects bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return raw, false
	}
	for k, v := range m {
		t := bytes.TrimSpace(v)
		switch {
		case len(t) > 0 && t[0] == '{':
			if id, ok := idOf(t); ok {
				m[k], objects = mustJSON(id), true
			}
		case len(t) > 0 && t[0] == '[' && bytes.Contains(t, []byte(`"id"`)):
			if ids, err := idList(t); err == nil {
				m[k], objects = mustJSON(ids), true
			}
		}
	}
	return mustJSON(m), objects
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// isRef says whether f is a foreign key: nested (NetBox's serializer
// relations) or a bare id (a PrimaryKeyRelatedField, a vlan translation
// rule's policy).
func isRef(f *resource.Field) bool {
	return f.Column != "" && (f.Kind == resource.KindFK || f.Kind == resource.KindInt && f.Target != "")
}

// endpointOf is a descriptor's list endpoint, "dcim/sites".
func endpointOf(d *resource.Descriptor) string { return d.App + "/" + d.Path }

// typeOf is NetBox's content type of an endpoint's model.
func typeOf(d *resource.Descriptor) string { return d.ContentType() }

var _ = strings.TrimSpace
