package resource

import (
	"fmt"
	"slices"
	"strings"
)

// A relation may render its related objects in a form of their own rather
// than their brief one (api.Field.Nested): NetBox's hand-written
// Nested<Model>Serializer classes, such as NestedIPAddressSerializer for an
// address's nat_inside and nat_outside (id, url, display_url, display,
// family as a bare integer, address), which clients decode strictly.

// prepareForms resolves the Nested forms of d's relations; it runs once
// every descriptor is prepared (the targets' fields are indexed).
func (d *Descriptor) prepareForms() error {
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
		form, err := resolveForm(on, f.Nested)
		if err != nil {
			return fmt.Errorf("field %s: nested form: %w", f.Name, err)
		}
		f.form = form
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
			return nil, fmt.Errorf("%s.%s is not read for nested objects (add it to the brief fields)", t.ContentType(), name)
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
