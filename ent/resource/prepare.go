package resource

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// prepare indexes a descriptor's fields, fixes the column list that every
// read selects, and links FK fields to their targets.
func (d *Descriptor) prepare() error {
	d.byName = map[string]*Field{}
	d.byCol = map[string]*Field{}
	for _, f := range d.Fields {
		d.byName[f.Name] = f
		f.col = -1
		if f.Column != "" {
			f.col = len(d.columns)
			d.columns = append(d.columns, f.Column)
			d.colFields = append(d.colFields, f)
			d.byCol[f.Column] = f
		}
		if f.Target != "" {
			if f.target = byType[f.Target]; f.target == nil {
				return fmt.Errorf("field %s: unknown target %s", f.Name, f.Target)
			}
		}
		if c, ok := codecs[f.Kind]; ok {
			f.codec = c
		}
		if !f.WriteOnly && f.Kind != KindHidden {
			d.full = append(d.full, f)
		}
		d.tagged = d.tagged || f.Kind == KindTags
	}
	// Tree models keep parent_id selected even when "parent" is an FK field;
	// every model selects the columns its display rule and uniqueness need.
	brief, err := d.briefForm()
	if err != nil {
		return err
	}
	d.brief = brief
	d.narrowColumns()
	d.computeNested()
	if names := displayFields(d.Display); len(names) == 1 && d.Display == "{"+names[0]+"}" {
		if f := d.byName[names[0]]; f != nil && f.col >= 0 && f.GoType == "string" {
			d.displayField = f
		}
	}
	d.computeTagForm()
	for _, f := range d.Fields {
		if f.NullWhen != "" {
			name, val, _ := strings.Cut(f.NullWhen, "=")
			if f.nullWhen = d.byName[name]; f.nullWhen == nil || f.nullWhen.col < 0 {
				return fmt.Errorf("field %s: null_when names no column %s", f.Name, name)
			}
			f.nullWhenVal = val
			if !slices.Contains(d.narrow, f.nullWhen.col) {
				d.narrow = append(d.narrow, f.nullWhen.col)
				slices.Sort(d.narrow)
			}
		}
		if f.Kind == KindGenericObject {
			d.byName[f.Generic+"_type"].Kind = KindGenericType
			d.byName[f.Generic+"_id"].Kind = KindGenericID
		}
	}
	if d.DisplayFunc != nil {
		return nil
	}
	d.displayRefs = nil
	for _, name := range displayFields(d.Display) {
		f := d.byName[name]
		switch {
		case f != nil && (f.Kind == KindFK || f.Kind == KindGenericObject):
			d.displayRefs = append(d.displayRefs, f)
		case f == nil || f.col < 0:
			return fmt.Errorf("display rule %q: %s is not a column", d.Display, name)
		}
	}
	return nil
}

// displayFields lists the {names} used by a display rule.
func displayFields(rule string) []string {
	var out []string
	for {
		i := strings.IndexByte(rule, '{')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(rule[i:], '}')
		if j < 0 {
			return out
		}
		out = append(out, rule[i+1:i+j])
		rule = rule[i+j+1:]
	}
}

// narrowColumns fixes the columns a nested representation reads: the id,
// the brief fields, and what the display rule needs (display functions read any
// plain column, but never timestamps or JSON).
func (d *Descriptor) narrowColumns() {
	d.allCols = make([]int, len(d.columns))
	d.allColList = &sync.Map{}
	for i := range d.columns {
		d.allCols[i] = i
	}
	want := map[int]bool{d.byName["id"].col: true}
	for _, f := range d.brief {
		if f.col >= 0 {
			want[f.col] = true
		}
	}
	// The default ordering's columns too: nested lists (tags) are sorted
	// by them.
	for _, o := range d.Ordering {
		if f := d.byName[strings.TrimPrefix(o, "-")]; f != nil && f.col >= 0 {
			want[f.col] = true
		}
	}
	if d.DisplayFunc != nil {
		for _, f := range d.Fields {
			if f.col >= 0 && f.Kind != KindTime && f.Kind != KindJSON && f.Kind != KindGenericRefs && f.Kind != KindCustomFields && f.Kind != KindStrings && f.Kind != KindContentTypes {
				want[f.col] = true
			}
		}
	} else {
		for _, name := range displayFields(d.Display) {
			if f := d.byName[name]; f != nil && f.col >= 0 {
				want[f.col] = true
			}
		}
	}
	for i := range d.columns {
		if want[i] {
			d.narrow = append(d.narrow, i)
		}
	}
}
