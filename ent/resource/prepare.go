package resource

import (
	"fmt"
	"strings"
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
	}
	// Tree models keep parent_id selected even when "parent" is an FK field;
	// every model selects the columns its display rule and uniqueness need.
	for _, name := range d.Brief {
		f := d.byName[name]
		if f == nil {
			return fmt.Errorf("brief field %s unknown", name)
		}
		d.brief = append(d.brief, f)
	}
	if d.brief == nil {
		d.brief = d.full
	}
	for _, f := range d.Fields {
		if f.Kind == KindGenericObject {
			d.byName[f.Generic+"_type"].Kind = KindGenericType
			d.byName[f.Generic+"_id"].Kind = KindGenericID
		}
	}
	if _, named := displayRules[d.Display]; named {
		return nil
	}
	for _, name := range displayFields(d.Display) {
		if d.byName[name] == nil || d.byName[name].col < 0 {
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
