package resource

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/inventory/inventory/ent/schema/api"
	"sort"
	"strconv"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/inventory/inventory/filters"
)

// This file is the resource layer's part of the change log: the
// changelog_message handed to the change-capture hook, NetBox's snapshot
// format, the object-change representation and the request-correlation
// filters. The hook itself lives in package webhooks.

type messageKey struct{}

// WithMessage attaches the changelog_message of the object being written
// to ctx; Create, Update and Delete set it for the change-capture hook.
func WithMessage(ctx context.Context, msg string) context.Context {
	return context.WithValue(ctx, messageKey{}, msg)
}

// MessageFrom is the changelog_message put in ctx by WithMessage.
func MessageFrom(ctx context.Context) string {
	s, _ := ctx.Value(messageKey{}).(string)
	return s
}

// withInputMessage attaches in's (already validated) changelog_message.
func withInputMessage(ctx context.Context, in Input) context.Context {
	msg, _ := in.Message()
	return WithMessage(ctx, msg)
}

// ObjectChangeTable is the table of change records.
const ObjectChangeTable = "core_objectchange"

// AppLabels are the verbose names of the applications, for content type
// labels such as "DCIM | site".
var AppLabels = map[string]string{
	"circuits": "Circuits", "core": "Core", "dcim": "DCIM", "extras": "Extras", "ipam": "IPAM",
	"tenancy": "Tenancy", "users": "Users", "virtualization": "Virtualization", "vpn": "VPN", "wireless": "Wireless",
}

// ContentTypeLabel is NetBox's label of a content type, "DCIM | site".
func ContentTypeLabel(ct string) string {
	app, model, _ := strings.Cut(ct, ".")
	label := AppLabels[app]
	if label == "" {
		label = app
	}
	if d := ByContentType(ct); d != nil && d.Verbose != "" {
		model = d.Verbose
	}
	return label + " | " + model
}

// changelogNoise are the snapshot keys the API hides (besides "_*").
var changelogNoise = map[string]bool{"created": true, "last_updated": true, "level": true, "lft": true, "rght": true, "tree_id": true}

// ObjectChangeDisplay is a change record's display: "<App> | <Model>
// <repr> <action label> by <user>". Change capture belongs to this layer,
// so core.objectchange names this function (api.Model.DisplayFunc).
func ObjectChangeDisplay(get api.Getter) string {
	ct, _ := get("changed_object_type").(string)
	repr, _ := get("object_repr").(string)
	action, _ := get("action").(string)
	user, _ := get("user_name").(string)
	label := action
	if d := ByContentType("core.objectchange"); d != nil {
		if f := d.byName["action"]; f != nil {
			label = strings.ToLower(f.label(action))
		}
	}
	return ContentTypeLabel(ct) + " " + repr + " " + label + " by " + user
}

func init() {
	// Stored snapshots render with bookkeeping removed, null as {}.
	RegisterKind("changelog-data", func(b []byte, v any) []byte {
		raw, _ := v.(json.RawMessage)
		return append(b, CleanSnapshot(raw)...)
	}, nil)
	FilterKinds["uuid"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		col := decl.Column
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{}, Func: func(_ string, values []string) (func(*sql.Selector), error) {
			ids, err := parseUUIDs(values)
			if err != nil {
				return nil, err
			}
			return func(s *sql.Selector) { s.Where(sql.In(s.C(col), ids...)) }, nil
		}}
	}
	FilterKinds["datetime-after"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return &filters.Filter{Name: decl.Name, Kind: filters.DateTime, Column: decl.Column, Fixed: "gte", Lookups: []string{}}
	}
	FilterKinds["datetime-before"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return &filters.Filter{Name: decl.Name, Kind: filters.DateTime, Column: decl.Column, Fixed: "lte", Lookups: []string{}}
	}
}

func parseUUIDs(values []string) ([]any, error) {
	out := make([]any, 0, len(values))
	for _, v := range values {
		u, err := uuid.Parse(strings.TrimSpace(v))
		if err != nil {
			return nil, errors.New("Enter a valid UUID.")
		}
		out = append(out, u.String())
	}
	return out, nil
}

// requestFilters are created_by_request, updated_by_request and
// modified_by_request (BEHAVIOUR.md §7.6) on a change-logged model.
func (d *Descriptor) requestFilters() []*filters.Filter {
	ct := d.ContentType()
	mk := func(name string, actions ...any) *filters.Filter {
		return &filters.Filter{Name: name, Kind: filters.Custom, Lookups: []string{}, Func: func(_ string, values []string) (func(*sql.Selector), error) {
			ids, err := parseUUIDs(values[len(values)-1:])
			if err != nil {
				return nil, err
			}
			return func(s *sql.Selector) {
				t := sql.Table(ObjectChangeTable)
				sub := sql.Dialect(s.Dialect()).Select(t.C("changed_object_id")).From(t).Where(sql.And(
					sql.EQ(t.C("changed_object_type"), ct), sql.In(t.C("request_id"), ids...), sql.In(t.C("action"), actions...)))
				s.Where(sql.In(s.C("id"), sub))
			}, nil
		}}
	}
	return []*filters.Filter{
		mk("created_by_request", "create"),
		mk("updated_by_request", "update"),
		mk("modified_by_request", "create", "update"),
	}
}

// CleanSnapshot is a stored snapshot as the API shows it: {} for null,
// without created, last_updated, MPTT bookkeeping and "_" keys; the
// remaining keys keep their order.
func CleanSnapshot(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return raw
	}
	b := []byte{'{'}
	n := 0
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return raw
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return raw
		}
		if changelogNoise[key] || strings.HasPrefix(key, "_") {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = appendString(b, key)
		b = append(b, ':')
		b = append(b, v...)
	}
	return append(b, '}')
}

// Snapshots returns NetBox's serialize_object form of rows (BEHAVIOUR.md
// §11.3), by id: the model's columns under their API names (no id, no
// last_updated, no "_" keys), foreign keys as raw ids, then the
// many-to-many fields as lists of ids (Django's serializer puts them after
// the columns, in the related manager's order), custom_fields raw, then
// tags as sorted names. It is derived from the descriptor alone; the
// many-to-many ids come from page, rows' full representation (Load).
func (d *Descriptor) Snapshots(ctx context.Context, st Store, rows []*Row, page *Page) (map[int]json.RawMessage, error) {
	out := make(map[int]json.RawMessage, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	var tags map[int][]string
	if d.Tagged {
		ids := make([]int, len(rows))
		for i, r := range rows {
			ids[i] = r.ID
		}
		var err error
		if tags, err = d.tagNames(ctx, st, ids); err != nil {
			return nil, err
		}
	}
	var cf *Field
	// Rows of one model make snapshots of about one size: each starts
	// with room for the last one's, not grown from nothing (ten
	// reallocations a row otherwise).
	size := 64
	for _, r := range rows {
		b := append(make([]byte, 0, size+size/8), '{')
		n := 0
		key := func(k string) {
			if n > 0 {
				b = append(b, ',')
			}
			n++
			b = appendString(b, k)
			b = append(b, ':')
		}
		for _, f := range d.Fields {
			if f.col < 0 || f.Name == "id" || f.Name == "last_updated" || strings.HasPrefix(f.Name, "_") ||
				f.WriteOnly || f.Kind == KindHidden || f.Kind == KindSecret {
				continue
			}
			if f.Kind == KindCustomFields {
				cf = f
				continue // last but one, as NetBox moves it
			}
			key(f.Name)
			b = appendSnapshotValue(b, r.Vals[f.col])
		}
		for _, f := range d.Fields {
			if f.Kind != KindM2M || f.Join == "" || f.Inverse {
				continue
			}
			key(f.Name)
			b = append(b, '[')
			for i, t := range page.m2m[f][r.ID] {
				if i > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, int64(t.ID), 10)
			}
			b = append(b, ']')
		}
		if cf != nil {
			key("custom_fields")
			v := r.Vals[cf.col]
			if raw, ok := v.(json.RawMessage); !ok || len(raw) == 0 || string(raw) == "null" {
				v = json.RawMessage("{}")
			}
			b = appendSnapshotValue(b, v)
		}
		if d.Tagged {
			key("tags")
			names := tags[r.ID]
			b = append(b, '[')
			for i, name := range names {
				if i > 0 {
					b = append(b, ',')
				}
				b = appendString(b, name)
			}
			b = append(b, ']')
		}
		b = append(b, '}')
		size = len(b)
		out[r.ID] = b
	}
	return out, nil
}

// SnapshotsOf is Snapshots for rows whose representation is not loaded:
// it reads only the many-to-many lists the snapshots hold (the change
// capture's snapshot of a row a hook is about to rewrite).
func (d *Descriptor) SnapshotsOf(ctx context.Context, st Store, rows []*Row) (map[int]json.RawMessage, error) {
	p := &Page{d: d, st: st, nested: true}
	ids := make([]int, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	for _, f := range d.Fields {
		if f.Kind != KindM2M || f.Join == "" || f.Inverse || len(ids) == 0 {
			continue
		}
		if err := p.loadM2M(ctx, f, ids); err != nil {
			return nil, err
		}
	}
	return d.Snapshots(ctx, st, rows, p)
}

// appendSnapshotValue renders a value as Django's JSON encoder does:
// datetimes with milliseconds and Z, decimals as strings.
func appendSnapshotValue(b []byte, v any) []byte {
	switch x := v.(type) {
	case time.Time:
		x = x.UTC()
		if x.Nanosecond()/1000 != 0 {
			return appendString(b, x.Format("2006-01-02T15:04:05.000Z"))
		}
		return appendString(b, x.Format("2006-01-02T15:04:05Z"))
	case float64:
		return appendString(b, strconv.FormatFloat(x, 'f', -1, 64))
	}
	return appendAny(b, v)
}

// tagNames are the sorted tag names of objects of d.
func (d *Descriptor) tagNames(ctx context.Context, st Store, ids []int) (map[int][]string, error) {
	out := map[int][]string{}
	tag := ByContentType("extras.tag")
	for _, chunk := range chunks(ids) {
		t := sql.Table(tag.Table).As("t")
		ti := sql.Table("extras_taggeditem").As("ti")
		s := sql.Dialect(st.Dialect).Select(ti.C("object_id"), t.C("name")).From(ti).Join(t).On(ti.C("tag_id"), t.C("id")).
			Where(sql.And(sql.EQ(ti.C("object_type"), d.ContentType()), sql.InInts(ti.C("object_id"), chunk...)))
		q, args := s.Query()
		rs, err := st.Q.QueryContext(ctx, q, args...)
		if err != nil {
			return nil, fmt.Errorf("tag names: %w", err)
		}
		for rs.Next() {
			var id int
			var name string
			if err := rs.Scan(&id, &name); err != nil {
				rs.Close()
				return nil, err
			}
			out[id] = append(out[id], name)
		}
		rs.Close()
		if err := rs.Err(); err != nil {
			return nil, err
		}
	}
	for _, names := range out {
		sort.Strings(names)
	}
	return out, nil
}

// Dependant is a set of rows of a change-logged model that a delete
// changes without a mutation of their own: the objects carrying a deleted
// tag, or linking to the deleted object through a many-to-many field, lose
// the link, and NetBox records an update of each (its pre_delete handler
// removes the reverse M2M link, RELATIONS.md rule 5).
type Dependant struct {
	D       *Descriptor
	IDs     []int
	Cascade bool
}

// Dependants lists, for a delete of ids of d, the rows that change without
// their own mutation: for tags the objects carrying them, and the rows of
// change-logged models linking to ids through a many-to-many field. Rows
// that a delete cascades to or clears go through their own mutations
// (Delete in ondelete.go) and are captured then.
func (d *Descriptor) Dependants(ctx context.Context, st Store, ids []int) ([]Dependant, error) {
	var out []Dependant
	for _, od := range All() {
		if !od.Logged || od == d {
			continue
		}
		for _, f := range od.Fields {
			if f.Kind != KindM2M || f.target != d || f.Join == "" || f.Inverse {
				continue
			}
			var found []int
			for _, chunk := range chunks(ids) {
				t := sql.Table(f.Join)
				s := sql.Dialect(st.Dialect).Select(t.C(f.JoinOwn)).From(t).Where(sql.InInts(t.C(f.JoinTarget), chunk...))
				got, err := queryIDs(ctx, st, s)
				if err != nil {
					return nil, err
				}
				found = append(found, got...)
			}
			if len(found) > 0 {
				out = append(out, Dependant{D: od, IDs: dedupe(found)})
			}
		}
	}
	if d.ContentType() == "extras.tag" {
		byType := map[string][]int{}
		for _, chunk := range chunks(ids) {
			t := sql.Table("extras_taggeditem")
			s := sql.Dialect(st.Dialect).Select(t.C("object_type"), t.C("object_id")).From(t).Where(sql.InInts(t.C("tag_id"), chunk...))
			q, args := s.Query()
			rs, err := st.Q.QueryContext(ctx, q, args...)
			if err != nil {
				return nil, err
			}
			for rs.Next() {
				var ct string
				var id int
				if err := rs.Scan(&ct, &id); err != nil {
					rs.Close()
					return nil, err
				}
				byType[ct] = append(byType[ct], id)
			}
			rs.Close()
		}
		cts := make([]string, 0, len(byType))
		for ct := range byType {
			cts = append(cts, ct)
		}
		sort.Strings(cts)
		for _, ct := range cts {
			if od := ByContentType(ct); od != nil && od.Logged {
				out = append(out, Dependant{D: od, IDs: dedupe(byType[ct])})
			}
		}
	}
	return out, nil
}

func queryIDs(ctx context.Context, st Store, s *sql.Selector) ([]int, error) {
	q, args := s.Query()
	rs, err := st.Q.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var out []int
	for rs.Next() {
		var id int
		if err := rs.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rs.Err()
}

// RelatedObject is the object a change record of row r of this model
// names as its related object (api.Model.ChangeRelated: the first of
// those fields that is set), read from the row the record's snapshot was
// made of, so that creates, updates and deletes all find it. (It was read
// back from the snapshot's JSON: a tenth of creating a device of 10 000
// interfaces went to decoding the snapshots again.)
func (d *Descriptor) RelatedObject(r *Row) (ct string, id int, ok bool) {
	if r == nil {
		return "", 0, false
	}
	for _, name := range d.ChangeRelated {
		f := d.byName[name]
		if f == nil {
			continue // a modular template's module_type on a plain one
		}
		idf := f
		ct = ""
		if f.Kind == KindGenericObject {
			tf := d.byName[f.Generic+"_type"]
			idf = d.byName[f.Generic+"_id"]
			if tf == nil || idf == nil || tf.col < 0 {
				continue
			}
			ct, _ = r.Vals[tf.col].(string)
		} else if f.target != nil {
			ct = f.target.ContentType()
		}
		if idf.col < 0 || ct == "" {
			continue
		}
		if n, isInt := r.Vals[idf.col].(int); isInt {
			return ct, n, true
		}
	}
	return "", 0, false
}
