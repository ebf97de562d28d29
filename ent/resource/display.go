package resource

import (
	"fmt"
	"strings"
)

// displayRules are the display rules that are more than a "{field}"
// template. A schema names one in api.Model.Display.
var displayRules = map[string]func(d *Descriptor, r *Row) string{
	// VRF: "name (rd)" when a route distinguisher is set.
	"vrf": func(d *Descriptor, r *Row) string {
		name, _ := d.Value(r, "name").(string)
		if rd, _ := d.Value(r, "rd").(string); rd != "" {
			return name + " (" + rd + ")"
		}
		return name
	},
	// User: "username (First Last)" when a full name is set.
	"user": func(d *Descriptor, r *Row) string {
		u, _ := d.Value(r, "username").(string)
		first, _ := d.Value(r, "first_name").(string)
		last, _ := d.Value(r, "last_name").(string)
		if full := strings.TrimSpace(first + " " + last); full != "" {
			return u + " (" + full + ")"
		}
		return u
	},
	// Token: v2 shows its key; v1 34 asterisks and the last six characters
	// of the secret (kept at creation, since the secret is never stored).
	"token": func(d *Descriptor, r *Row) string {
		if v, _ := d.Value(r, "version").(int); v == 2 {
			k, _ := d.Value(r, "key").(string)
			return k
		}
		l6, _ := d.Value(r, "last6").(string)
		return strings.Repeat("*", 34) + l6
	},
	// Custom field: its label, else the name with underscores as spaces and
	// the first letter capitalised.
	"customfield": func(d *Descriptor, r *Row) string {
		if l, _ := d.Value(r, "label").(string); l != "" {
			return l
		}
		n, _ := d.Value(r, "name").(string)
		n = strings.ToLower(strings.ReplaceAll(n, "_", " "))
		if n == "" {
			return n
		}
		return strings.ToUpper(n[:1]) + n[1:]
	},
}

// DisplayOf renders the display string of a row.
func (d *Descriptor) DisplayOf(r *Row) string {
	if rule, ok := displayRules[d.Display]; ok {
		return rule(d, r)
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
