package jinja

import (
	"errors"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/nikolalohinski/gonja/v2/config"
	"github.com/nikolalohinski/gonja/v2/exec"
	"github.com/nikolalohinski/gonja/v2/nodes"
	"github.com/nikolalohinski/gonja/v2/tokens"
)

// Printing is where a small template turns into a large string: a list of
// many references to one kept string ({{ [x, x, x, …] }}, or the same
// passed to join) is a few bytes of references, and gonja builds its whole
// text before the output limit sees a byte of it (900 references to a
// 490 KB string allocated 2.5 GB). So every {{ … }} of a render, and every
// filter that writes a whole list or dict into one string, first measures
// the text it would build (shared values counted each time they are
// printed, data given to the template at its full size) and fails beyond
// the render's output limit, before building it.

// printFilter ends every {{ … }} of a render (guardOutputs).
const printFilter = "__printable"

// flatteners are the filters that write a whole value into one string.
var flatteners = map[string]bool{
	"join": true, "string": true, "tojson": true, "pprint": true, "format": true,
	"urlencode": true, "xmlattr": true, "sum": true, "list": true, "safe": true,
	"escape": true, "e": true, "forceescape": true, "trim": true, "upper": true,
	"lower": true, "title": true, "capitalize": true, "replace": true, "indent": true,
	"center": true, "wordwrap": true, "truncate": true, "striptags": true, "urlize": true,
}

// printable measures v as printed against the render's output limit. A
// failure is also kept as the render's error (gonja would wrap it in the
// text of every enclosing expression).
func (g *guard) printable(v *exec.Value) error {
	if err := g.alive(); err != nil {
		return err
	}
	_, err := g.walk(reflect.ValueOf(v), walkOptions{printed: true})
	if err != nil && g.printErr == nil {
		g.printErr = err
	}
	return err
}

// printFilterFunc is printFilter's function: the value itself, once it is
// known to print within the limit.
func (g *guard) printFilterFunc(_ *exec.Evaluator, in *exec.Value, _ *exec.VarArgs) *exec.Value {
	if err := g.printable(in); err != nil {
		return exec.AsValue(err)
	}
	return in
}

// flattening wraps a flattener: its input is measured first.
func (g *guard) flattening(fn exec.FilterFunction) exec.FilterFunction {
	return func(e *exec.Evaluator, in *exec.Value, params *exec.VarArgs) *exec.Value {
		if err := g.printable(in); err != nil {
			return exec.AsValue(err)
		}
		return fn(e, in, params)
	}
}

var (
	outputPtrType = reflect.TypeOf(&nodes.Output{})
	skippedTypes  = map[reflect.Type]bool{
		reflect.TypeOf(&tokens.Token{}):     true,
		reflect.TypeOf(&guard{}):            true,
		reflect.TypeOf(&exec.Environment{}): true,
		reflect.TypeOf(&config.Config{}):    true,
	}
)

// guardOutputs makes every output node of a parsed template end in
// printFilter. The nodes of gonja's control structures sit in unexported
// fields, so they are found by reflection and changed through their
// address; the walk is iterative, and the tree's depth is bounded by the
// scan (scan.go) anyway.
func guardOutputs(root *nodes.Template) {
	seen := map[uintptr]bool{}
	stack := []reflect.Value{reflect.ValueOf(root)}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch v.Kind() {
		case reflect.Interface:
			if !v.IsNil() {
				stack = append(stack, v.Elem())
			}
		case reflect.Pointer:
			if v.IsNil() || skippedTypes[v.Type()] || seen[v.Pointer()] {
				continue
			}
			seen[v.Pointer()] = true
			if v.Type() == outputPtrType {
				o := (*nodes.Output)(unsafe.Pointer(v.Pointer()))
				o.Expression = printed(o.Expression)
				if o.Alternative != nil {
					o.Alternative = printed(o.Alternative)
				}
				continue // expressions hold no output nodes
			}
			stack = append(stack, v.Elem())
		case reflect.Struct:
			for i := range v.NumField() {
				stack = append(stack, v.Field(i))
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				stack = append(stack, v.Index(i))
			}
		case reflect.Map:
			for it := v.MapRange(); it.Next(); {
				stack = append(stack, it.Value())
			}
		}
	}
}

// printed is expr followed by printFilter.
func printed(expr nodes.Expression) nodes.Expression {
	return &nodes.FilteredExpression{Expression: expr, Filters: []*nodes.FilterCall{{Token: expr.Position(), Name: printFilter}}}
}

func (g *guard) errTooLargeToPrint() error {
	return fmt.Errorf("%w: at most %d bytes may be written", ErrPrintTooLarge, g.maxSize)
}

// ErrPrintTooLarge: a value printed, or written into one string by a
// filter, would be larger than the render's output limit.
var ErrPrintTooLarge = errors.New("value too large to print")
