package resource

import (
	"fmt"
	"strings"
)

// DisplayOf renders the display string of a row: the model's display
// function when it declares one (api.Model.DisplayFunc, living in its logic
// package), else its "{field} ({other})" template.
func (d *Descriptor) DisplayOf(r *Row) string {
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
		if v := d.Value(r, rule[i+1:i+j]); v != nil {
			b.WriteString(fmt.Sprint(v))
		}
		rule = rule[i+j+1:]
	}
}
