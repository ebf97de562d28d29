package resource

import (
	"fmt"
	"slices"
	"strings"
)

// DisplayOf renders the display string of a row: the model's display
// function when it declares one (api.Model.DisplayFunc, living in its logic
// package), else its "{field} ({other})" template. Related objects a
// template names render here as their id (or nothing); a page renders
// them as their display (Page.displayOf).
func (d *Descriptor) DisplayOf(r *Row) string { return d.display(r, nil) }

// display renders the template; related, when given, renders the fields
// of displayRefs.
func (d *Descriptor) display(r *Row, related func(f *Field, r *Row) string) string {
	if d.DisplayFunc != nil {
		return d.DisplayFunc(func(name string) any { return d.Value(r, name) })
	}
	if d.displayField != nil { // the common "{name}" rule
		s, _ := r.Vals[d.displayField.col].(string)
		return s
	}
	var b strings.Builder
	rule := d.Display
	for {
		i := strings.IndexByte(rule, '{')
		if i < 0 {
			b.WriteString(rule)
			return b.String()
		}
		j := strings.IndexByte(rule[i:], '}')
		if j < 0 {
			b.WriteString(rule)
			return b.String()
		}
		b.WriteString(rule[:i])
		name := rule[i+1 : i+j]
		if f := d.byName[name]; related != nil && f != nil && slices.Contains(d.displayRefs, f) {
			b.WriteString(related(f, r))
		} else if v := d.Value(r, name); v != nil {
			b.WriteString(fmt.Sprint(v))
		}
		rule = rule[i+j+1:]
	}
}
