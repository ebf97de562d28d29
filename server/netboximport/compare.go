package netboximport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"
	"sort"
	"strings"
)

// Difference is one field of one object whose value in the copy is not
// NetBox's.
type Difference struct {
	Endpoint string
	ID       int
	Field    string // a path: "tags[0].name", "custom_fields.x"
	NetBox   string // the value in NetBox, as JSON ("" when absent)
	Ours     string // the value here, as JSON ("" when absent)
	// Departure names the deliberate departure from NetBox (DESIGN.md §7)
	// that explains the difference; "" for a difference to fix.
	Departure string
}

func (d Difference) String() string {
	s := fmt.Sprintf("%s %d %s: netbox %s, ours %s", d.Endpoint, d.ID, d.Field, orAbsent(d.NetBox), orAbsent(d.Ours))
	if d.Departure != "" {
		s += " (" + d.Departure + ")"
	}
	return s
}

func orAbsent(s string) string {
	if s == "" {
		return "(absent)"
	}
	return s
}

// departure is a value that legitimately differs between NetBox and this
// service: a deliberate departure (DESIGN.md §7) or a value that belongs
// to the instance, not to the data.
type departure struct {
	name     string
	endpoint string // "" for every endpoint
	field    string // the field path, or its prefix ending in "."
	// values, when set, must hold for the two values (as JSON, "" when
	// absent).
	values func(netbox, ours string) bool
	why    string
}

// departures are set aside by the comparison. Each names why.
var departures = []departure{
	{
		name: "VLAN display_name (SPEC.md §2.3)", endpoint: "ipam/vlans", field: "display_name",
		values: func(netbox, _ string) bool { return netbox == "" },
		why:    "SPEC.md lists display_name among a VLAN's fields; NetBox 4.6 no longer renders it",
	},
	{
		name: "empty custom field value stored as null", field: "custom_fields.",
		values: func(netbox, ours string) bool { return netbox == `""` && ours == "null" },
		why: "this service's API stores an empty custom field value as null on every write " +
			"(ent/resource/customfields.go); a NetBox whose database holds \"\" shows it",
	},
}

func (dp departure) covers(endpoint, field, netbox, ours string) bool {
	if dp.endpoint != "" && dp.endpoint != endpoint {
		return false
	}
	if dp.values != nil && !dp.values(netbox, ours) {
		return false
	}
	if strings.HasSuffix(dp.field, ".") {
		return strings.HasPrefix(field, dp.field) || field == strings.TrimSuffix(dp.field, ".")
	}
	return field == dp.field
}

// compareObject compares NetBox's representation of one object with
// this service's, field by field. URLs compare by path (the hosts
// differ), numbers by value.
func compareObject(endpoint string, id int, netbox, ours json.RawMessage) ([]Difference, error) {
	var a, b any
	if err := decodeNumbers(netbox, &a); err != nil {
		return nil, fmt.Errorf("netbox: %w", err)
	}
	if err := decodeNumbers(ours, &b); err != nil {
		return nil, fmt.Errorf("ours: %w", err)
	}
	var out []Difference
	walk("", a, b, func(field string, x, y any) {
		d := Difference{Endpoint: endpoint, ID: id, Field: field, NetBox: show(x), Ours: show(y)}
		for _, dp := range departures {
			if dp.covers(endpoint, field, d.NetBox, d.Ours) {
				d.Departure = dp.name
				break
			}
		}
		out = append(out, d)
	})
	return out, nil
}

// absent marks a key one side lacks.
type absentValue struct{}

var absent = absentValue{}

func show(v any) string {
	if v == absent {
		return ""
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func decodeNumbers(raw json.RawMessage, v *any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(v)
}

// walk calls diff for every leaf (or subtree of another shape) where a
// and b differ.
func walk(at string, a, b any, diff func(field string, x, y any)) {
	join := func(k string) string {
		if at == "" {
			return k
		}
		return at + "." + k
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			diff(at, a, b)
			return
		}
		keys := make([]string, 0, len(x)+len(y))
		for k := range x {
			keys = append(keys, k)
		}
		for k := range y {
			if _, ok := x[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			xv, xok := x[k]
			yv, yok := y[k]
			switch {
			case !xok:
				diff(join(k), absent, yv)
			case !yok:
				diff(join(k), xv, absent)
			default:
				walk(join(k), xv, yv, diff)
			}
		}
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			diff(at, a, b)
			return
		}
		for i := range x {
			walk(fmt.Sprintf("%s[%d]", at, i), x[i], y[i], diff)
		}
	case json.Number:
		y, ok := b.(json.Number)
		if !ok || !sameNumber(x, y) {
			diff(at, a, b)
		}
	case string:
		y, ok := b.(string)
		if !ok || !sameString(x, y) {
			diff(at, a, b)
		}
	default:
		if a != b {
			diff(at, a, b)
		}
	}
}

func sameNumber(x, y json.Number) bool {
	if x == y {
		return true
	}
	a, ok1 := new(big.Float).SetString(string(x))
	b, ok2 := new(big.Float).SetString(string(y))
	return ok1 && ok2 && a.Cmp(b) == 0
}

// sameString compares two strings, absolute URLs by their path and query
// (NetBox's host is not ours).
func sameString(x, y string) bool {
	if x == y {
		return true
	}
	if !isURL(x) || !isURL(y) {
		return false
	}
	u, err1 := url.Parse(x)
	v, err2 := url.Parse(y)
	return err1 == nil && err2 == nil && u.Path == v.Path && u.RawQuery == v.RawQuery
}

func isURL(s string) bool { return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") }
