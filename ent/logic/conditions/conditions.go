package conditions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/inventory/inventory/ent/logic/jsonlimit"
	"github.com/inventory/inventory/ent/logic/pyrepr"
)

// Operators in NetBox's order (used in its error message).
var Operators = []string{"eq", "gt", "gte", "lt", "lte", "in", "contains", "regex"}

// opsByType are the operators allowed for each JSON value type of "value".
var opsByType = map[string][]string{
	"str":      {"eq", "contains", "regex"},
	"bool":     {"eq", "contains"},
	"int":      {"eq", "gt", "gte", "lt", "lte", "contains"},
	"float":    {"eq", "gt", "gte", "lt", "lte", "contains"},
	"list":     {"eq", "in", "contains"},
	"NoneType": {"eq"},
}

// Error is a validation failure with NetBox's message.
type Error string

func (e Error) Error() string { return string(e) }

// InvalidCondition means a condition could not be evaluated (missing key,
// null intermediate, type error). NetBox then treats the whole rule as not
// matching.
type InvalidCondition struct{ Msg string }

func (e *InvalidCondition) Error() string { return e.Msg }

// node is a parsed ruleset: a group or a condition.
type node struct {
	logic string // "and" | "or" for a group
	items []*node
	// condition
	attr   []string
	value  any
	op     string
	negate bool
	re     *regexp.Regexp
}

func decode(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, Error("Value must be valid JSON.")
	}
	return v, nil
}

// falsy is Python's truthiness test: empty or zero conditions mean "no
// conditions" (always true), as NetBox skips them.
func falsy(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case bool:
		return !x
	case string:
		return x == ""
	case json.Number:
		f, _ := x.Float64()
		return f == 0
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

// Parse validates a ruleset. A nil result with a nil error means "no
// conditions".
func Parse(raw []byte) (*node, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	// parseGroup, normalize and pyEq recurse: a ruleset nests at most
	// jsonlimit.MaxDepth levels (31 nested groups), checked before it is
	// decoded, on save and on every evaluation of a stored rule.
	if _, over := jsonlimit.Scan(raw, jsonlimit.MaxDepth); over {
		return nil, Error(jsonlimit.Message())
	}
	v, err := decode(raw)
	if err != nil {
		return nil, err
	}
	if falsy(v) {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, Error(fmt.Sprintf("Ruleset must be a dictionary, not <class '%s'>.", pyrepr.Type(v)))
	}
	if len(m) == 1 {
		for k, items := range m {
			logic := strings.ToLower(k)
			if logic != "and" && logic != "or" {
				return nil, Error("Invalid logic type: must be 'AND' or 'OR'. Please check documentation.")
			}
			return parseGroup(logic, items)
		}
	}
	return parseCondition(m)
}

// Validate checks a ruleset as NetBox does on save.
func Validate(raw []byte) error {
	_, err := Parse(raw)
	return err
}

func parseGroup(logic string, items any) (*node, error) {
	list, ok := items.([]any)
	if !ok {
		return nil, Error(fmt.Sprintf("Invalid ruleset: the value of '%s' must be a list, not <class '%s'>.", logic, pyrepr.Type(items)))
	}
	g := &node{logic: logic}
	for _, it := range list {
		m, ok := it.(map[string]any)
		if !ok {
			return nil, Error(fmt.Sprintf("Ruleset must be a dictionary, not <class '%s'>.", pyrepr.Type(it)))
		}
		if len(m) == 1 {
			var key string
			var sub any
			for k, v := range m {
				key, sub = k, v
			}
			if l := strings.ToLower(key); l == "and" || l == "or" {
				n, err := parseGroup(l, sub)
				if err != nil {
					return nil, err
				}
				g.items = append(g.items, n)
				continue
			}
		}
		n, err := parseCondition(m)
		if err != nil {
			return nil, err
		}
		g.items = append(g.items, n)
	}
	return g, nil
}

func parseCondition(m map[string]any) (*node, error) {
	for k := range m {
		switch k {
		case "attr", "value", "op", "negate":
		default:
			return nil, Error("Incorrect key(s) informed. Please check documentation.")
		}
	}
	attrV, okA := m["attr"]
	value, okV := m["value"]
	if !okA || !okV {
		return nil, Error("Incorrect key(s) informed. Please check documentation.")
	}
	attr, ok := attrV.(string)
	if !ok || attr == "" {
		return nil, Error("Invalid attribute: attr must be a non-empty string.")
	}
	op := "eq"
	if o, given := m["op"]; given {
		s, ok := o.(string)
		if !ok {
			return nil, Error(fmt.Sprintf("Unknown operator: %v. Must be one of: %s", pyrepr.Str(o), strings.Join(Operators, ", ")))
		}
		op = s
	}
	known := false
	for _, o := range Operators {
		known = known || o == op
	}
	if !known {
		return nil, Error(fmt.Sprintf("Unknown operator: %s. Must be one of: %s", op, strings.Join(Operators, ", ")))
	}
	t := pyrepr.Type(value)
	allowed, ok := opsByType[t]
	if !ok {
		return nil, Error(fmt.Sprintf("Unsupported value type: <class '%s'>", t))
	}
	valid := false
	for _, o := range allowed {
		valid = valid || o == op
	}
	if !valid {
		return nil, Error(fmt.Sprintf("Invalid type for %s operation: <class '%s'>", op, t))
	}
	n := &node{attr: strings.Split(attr, "."), value: value, op: op}
	if neg, given := m["negate"]; given {
		n.negate = !falsy(neg)
	}
	if op == "regex" {
		if _, err := regexp.Compile(value.(string)); err != nil {
			return nil, Error(fmt.Sprintf("Invalid regular expression: %v", err))
		}
		// Python's re.match anchors at the start only.
		n.re = regexp.MustCompile(`\A(?:` + value.(string) + `)`)
	}
	return n, nil
}

// Evaluate parses raw and evaluates it against data (the event's
// serialized object, as decoded JSON). No conditions is true. An invalid
// condition reached during evaluation makes the result false with an
// *InvalidCondition error (callers log it), as in NetBox.
func Evaluate(raw []byte, data any) (bool, error) {
	n, err := Parse(raw)
	if err != nil || n == nil {
		return err == nil, err
	}
	return n.eval(normalize(data))
}

// EvaluateJSON is Evaluate with the data given as JSON.
func EvaluateJSON(raw, data []byte) (bool, error) {
	d, err := decode(data)
	if err != nil {
		return false, err
	}
	return Evaluate(raw, d)
}

// normalize turns float64s from a plain json.Unmarshal into json.Number so
// both decodings compare alike.
func normalize(v any) any {
	switch x := v.(type) {
	case float64:
		return json.Number(fmt.Sprint(x))
	case int:
		return json.Number(fmt.Sprint(x))
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normalize(e)
		}
		return out
	}
	return v
}

func (n *node) eval(data any) (bool, error) {
	if n.logic != "" {
		for _, it := range n.items {
			ok, err := it.eval(data)
			if err != nil {
				return false, err
			}
			if n.logic == "or" && ok {
				return true, nil
			}
			if n.logic == "and" && !ok {
				return false, nil
			}
		}
		return n.logic == "and", nil
	}
	v := data
	for _, key := range n.attr {
		var err error
		if v, err = step(v, key); err != nil {
			return false, &InvalidCondition{"Invalid key path: " + strings.Join(n.attr, ".")}
		}
	}
	res, ok := n.apply(v)
	if !ok {
		return false, &InvalidCondition{fmt.Sprintf("Invalid data type at '%s' for '%s' evaluation", strings.Join(n.attr, "."), n.op)}
	}
	if n.negate {
		res = !res
	}
	return res, nil
}

var errKey = Error("key")

// step indexes obj by key; over an array it maps over the elements. A null
// object counts as empty (so the key is missing), as in NetBox.
func step(obj any, key string) (any, error) {
	if list, ok := obj.([]any); ok {
		out := make([]any, len(list))
		for i, e := range list {
			v, err := step1(e, key)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	return step1(obj, key)
}

func step1(obj any, key string) (any, error) {
	switch x := obj.(type) {
	case nil:
		return nil, errKey
	case map[string]any:
		v, ok := x[key]
		if !ok {
			return nil, errKey
		}
		return v, nil
	}
	return nil, errKey // Python raises TypeError here; either way invalid
}

// apply runs the operator; ok is false on a Python TypeError.
func (n *node) apply(v any) (result, ok bool) {
	switch n.op {
	case "eq":
		return pyEq(v, n.value), true
	case "gt", "gte", "lt", "lte":
		a, okA := num(v)
		b, okB := num(n.value)
		if !okA || !okB {
			return false, false
		}
		switch n.op {
		case "gt":
			return a > b, true
		case "gte":
			return a >= b, true
		case "lt":
			return a < b, true
		}
		return a <= b, true
	case "in":
		for _, e := range n.value.([]any) {
			if pyEq(v, e) {
				return true, true
			}
		}
		return false, true
	case "contains":
		switch x := v.(type) {
		case string:
			s, ok := n.value.(string)
			if !ok {
				return false, false
			}
			return strings.Contains(x, s), true
		case []any:
			for _, e := range x {
				if pyEq(e, n.value) {
					return true, true
				}
			}
			return false, true
		case map[string]any:
			switch k := n.value.(type) {
			case string:
				_, found := x[k]
				return found, true
			case []any:
				return false, false // unhashable
			}
			return false, true
		}
		return false, false
	case "regex":
		s, ok := v.(string)
		if !ok {
			return false, false
		}
		return n.re.MatchString(s), true
	}
	return false, false
}

// num converts numbers and booleans (Python's bool is an int).
func num(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil && !math.IsNaN(f)
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// pyEq is Python's == on JSON values: numbers and booleans compare
// numerically (1 == 1.0 == True), lists and dicts element-wise.
func pyEq(a, b any) bool {
	if fa, ok := num(a); ok {
		fb, ok := num(b)
		return ok && fa == fb
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !pyEq(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !pyEq(e, f) {
				return false
			}
		}
		return true
	}
	return false
}
