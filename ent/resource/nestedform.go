package resource

import (
	"fmt"
	"slices"
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
		t := f.target
		if t == nil {
			return fmt.Errorf("field %s: a nested form needs a related model", f.Name)
		}
		f.form = nil
		for _, name := range f.Nested {
			tf := t.byName[name]
			if tf == nil {
				return fmt.Errorf("field %s: nested form: %s has no field %s", f.Name, t.ContentType(), name)
			}
			if tf.col >= 0 && !slices.Contains(t.narrow, tf.col) {
				return fmt.Errorf("field %s: nested form: %s.%s is not read for nested objects (add it to the brief fields)", f.Name, t.ContentType(), name)
			}
			if tf.Kind == KindChoice {
				plain := *tf // the bare value: appendAny renders it
				plain.Kind = KindInt
				if tf.GoType == "string" {
					plain.Kind = KindString
				}
				tf = &plain
			}
			f.form = append(f.form, tf)
		}
	}
	return nil
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
