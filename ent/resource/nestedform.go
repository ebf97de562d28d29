package resource

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// The brief and nested forms follow NetBox 4.6's BaseModelSerializer:
//
//   - ?brief=true passes Meta.brief_fields as the serializer's fields, and
//     a related object is its serializer with nested=True, which takes the
//     same brief_fields. Either way the fields property keeps the
//     serializer's own field order (Meta.fields) and drops the others, so
//     a brief object's keys come in the full form's order, not in
//     brief_fields' (a site's brief is name, slug, description although
//     brief_fields lists description before slug): briefForm.
//   - A nested object drops every RelatedObjectCountField (NetBox #22154:
//     those counts are annotations of the list's queryset, which a related
//     object never gets). A nested group's counts are IntegerFields with
//     default=0 instead: they stay, and render 0. A CounterCacheField (a
//     device type's device_count, api.Count.Cached) is a column of
//     NetBox's model: it stays with its real value, read with the nested
//     rows. Reverse one-to-one objects (a module bay's installed_module)
//     are loaded for a page's own rows only and are left out as well:
//     computeNested.
//   - A relation whose serializer names its own fields (fields=...) or
//     that uses one of NetBox's hand-written Nested<Model>Serializer
//     classes declares that form (api.Field.Nested): prepareForms below.

// A relation may render its related objects in a form of their own rather
// than their brief one (api.Field.Nested): NetBox's hand-written
// Nested<Model>Serializer classes, such as NestedIPAddressSerializer for an
// address's nat_inside and nat_outside (id, url, display_url, display,
// family as a bare integer, address), which clients decode strictly.

// prepareForms resolves the Nested forms of d's relations; it runs once
// every descriptor is prepared (the targets' fields are indexed).
func (d *Descriptor) prepareForms() error {
	// Relations declaring the same form share it (a device's primary_ip4,
	// primary_ip6 and oob_ip): a page loads what it needs once.
	shared := map[string][]*Field{}
	for _, f := range d.Fields {
		if len(f.Nested) == 0 {
			continue
		}
		if f.target == nil {
			return fmt.Errorf("field %s: a nested form needs a related model", f.Name)
		}
		on := f.target
		if f.Kind == KindReverse && f.Reverse.Through != "" {
			// Nested is the Through object's form, AsNested the row's.
			tf := f.target.byName[f.Reverse.Through]
			if tf == nil || tf.target == nil {
				return fmt.Errorf("field %s: %s has no relation %s", f.Name, f.target.ContentType(), f.Reverse.Through)
			}
			on = tf.target
			as, err := resolveForm(f.target, f.Reverse.AsNested)
			if err != nil {
				return fmt.Errorf("field %s: as form: %w", f.Name, err)
			}
			f.asForm = as
		}
		key := on.ContentType() + "|" + strings.Join(f.Nested, ",")
		form, ok := shared[key]
		if !ok {
			var err error
			if form, err = resolveForm(on, f.Nested); err != nil {
				return fmt.Errorf("field %s: nested form: %w", f.Name, err)
			}
			shared[key] = form
		}
		f.form = form
	}
	// A coalesce field (a device's primary_ip) renders the form of the
	// field it shows; they share one.
	for _, f := range d.Fields {
		if f.Kind == KindCoalesce && len(f.Of) > 0 {
			if of := d.byName[f.Of[0]]; of != nil && of.form != nil {
				f.form = of.form
			}
		}
	}
	return nil
}

// resolveForm resolves the entries of a nested form (api.Field.Nested) on
// its model t: a field name; "name(a,b,...)", a relation rendered in a
// nested form of its own (NestedInterfaceSerializer's device is a
// NestedDeviceSerializer); "name:pk", a relation rendered as the bare id
// (a nested serializer's undeclared FK, DRF's PrimaryKeyRelatedField).
// Choices render as their bare value (the model field's plain
// ChoiceField), unless "name:choice" (a declared NetBox ChoiceField:
// {value, label}, as a circuit's assignments render their priority). Each entry that changes how a field
// renders is a copy: the target's own field is untouched.
func resolveForm(t *Descriptor, entries []string) ([]*Field, error) {
	var form []*Field
	for _, entry := range entries {
		name, sub, hasSub := strings.Cut(entry, "(")
		name, pk := strings.CutSuffix(name, ":pk")
		name, labelled := strings.CutSuffix(name, ":choice")
		tf := t.byName[name]
		if tf == nil {
			return nil, fmt.Errorf("%s has no field %s", t.ContentType(), name)
		}
		if tf.col >= 0 && !slices.Contains(t.narrow, tf.col) {
			// A form may name a column the brief form lacks (a module
			// bay's installed_module shows the module's serial): nested
			// rows of t read it too.
			t.narrow = append(t.narrow, tf.col)
			slices.Sort(t.narrow)
		}
		switch {
		case pk && tf.Kind == KindEmpty:
			// A relation to a model not built yet renders its value (null)
			// either way.
		case hasSub || pk:
			if tf.Kind != KindFK {
				return nil, fmt.Errorf("%s.%s: a sub-form or :pk needs a relation", t.ContentType(), name)
			}
			own := *tf
			if pk {
				own.Kind, own.target = KindInt, nil
			} else {
				own.Nested = strings.Split(strings.TrimSuffix(sub, ")"), ",")
				subForm, err := resolveForm(tf.target, own.Nested)
				if err != nil {
					return nil, err
				}
				own.form = subForm
			}
			tf = &own
		case tf.Kind == KindReverse && tf.Reverse.Many:
			// The related rows' list (an address's nat_outside) renders
			// as objects in their own form here too, not as the bare ids
			// of a nested row's many-to-many (encodeM2M): the page loads
			// it for the rows this form renders (loadRelated).
			own := *tf
			own.inForm = true
			if own.form == nil && len(own.Nested) > 0 {
				// t's own forms may not be resolved yet (prepareForms
				// runs model by model): the copy resolves its own.
				form, err := resolveForm(own.target, own.Nested)
				if err != nil {
					return nil, err
				}
				own.form = form
			}
			tf = &own
		case tf.Kind == KindChoice && !labelled:
			plain := *tf // the bare value: appendAny renders it
			plain.Kind = KindInt
			if tf.GoType == "string" {
				plain.Kind = KindString
			}
			tf = &plain
		}
		form = append(form, tf)
	}
	return form, nil
}

// RelatedForm is how the relation f renders each related object (for the
// OpenAPI document).
func (f *Field) RelatedForm() []*Field { return f.relatedForm() }

// relatedForm is how the relation f renders each related object.
func (f *Field) relatedForm() []*Field {
	if f.form != nil {
		return f.form
	}
	return f.target.nestedFields()
}

// briefForm is the brief representation: the brief fields in the full
// form's order (see above); the full form when the model declares none.
func (d *Descriptor) briefForm() ([]*Field, error) {
	if d.Brief == nil {
		return d.full, nil
	}
	in := map[string]bool{}
	for _, name := range d.Brief {
		if f := d.byName[name]; f == nil || f.WriteOnly || f.Kind == KindHidden {
			return nil, fmt.Errorf("brief field %s unknown", name)
		}
		in[name] = true
	}
	var out []*Field
	for _, f := range d.full {
		if in[f.Name] {
			out = append(out, f)
		}
	}
	return out, nil
}

// computeNested derives the nested representation from the brief one.
func (d *Descriptor) computeNested() {
	d.nested, d.cachedCounts = nil, nil
	for _, f := range d.brief {
		switch {
		case f.Kind == KindReverse:
			continue
		case f.Kind == KindCount && f.Count.Cached:
			d.cachedCounts = append(d.cachedCounts, f)
		case f.Kind == KindCount && !d.Tree:
			continue // a RelatedObjectCountField
		}
		d.nested = append(d.nested, f)
	}
}

// appendNestedCount renders the count f of a nested row: its cached
// value for a CounterCacheField, else the 0 of a nested group's
// IntegerField(default=0).
func appendNestedCount(b []byte, d *Descriptor, f *Field, r *Row) []byte {
	if i := slices.Index(d.cachedCounts, f); i >= 0 && i < len(r.cached) {
		return appendAny(b, r.cached[i])
	}
	return append(b, '0')
}

// readCachedCounts reads the cached counts of nested rows, one statement
// per count whatever the number of rows.
func (d *Descriptor) readCachedCounts(ctx context.Context, st Store, rows []*Row) error {
	ids := make([]int, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
		r.cached = make([]int, len(d.cachedCounts))
	}
	for i, f := range d.cachedCounts {
		first := placeholders(st.Dialect, 1, 1)
		q := fmt.Sprintf(`SELECT %[2]s, COUNT(*) FROM %[1]s WHERE %[3]s GROUP BY %[2]s`,
			quote(countTable(f.Count)), quote(f.Count.Column), idsMatch(st.Dialect, quote(f.Count.Column), first))
		got, err := queryIntPairs(ctx, st, q, idsParam(st.Dialect, ids))
		if err != nil {
			return fmt.Errorf("count %s: %w", f.Name, err)
		}
		for _, r := range rows {
			r.cached[i] = got[r.ID]
		}
	}
	return nil
}

// queryIntPairs runs q and maps its rows' first integer to their second.
func queryIntPairs(ctx context.Context, st Store, q string, args ...any) (map[int]int, error) {
	rs, err := st.Q.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	m := map[int]int{}
	for rs.Next() {
		var k, v int
		if err := rs.Scan(&k, &v); err != nil {
			return nil, err
		}
		m[k] = v
	}
	return m, rs.Err()
}
