package jinja

import (
	"errors"
	"fmt"
	"reflect"
	"sync/atomic"

	"github.com/nikolalohinski/gonja/v2/builtins"
	controlStructures "github.com/nikolalohinski/gonja/v2/builtins/control_structures"
	"github.com/nikolalohinski/gonja/v2/exec"
	"github.com/nikolalohinski/gonja/v2/nodes"
	"github.com/nikolalohinski/gonja/v2/parser"
	"github.com/nikolalohinski/gonja/v2/tokens"
)

// A guard watches one render: it stops every loop once the render timed
// out (the goroutine of a render that timed out is abandoned, and must not
// run on), and it measures every value the template keeps (set, with,
// list.append) against MaxDataDepth and the size limit, so that no value
// a template builds can overflow the stack of whatever walks it later
// (printing, comparing, filters) or exhaust memory by doubling. See
// limits.go.
//
// The control structures that bind or store values (set, with, the
// namespace() function) are this package's own, written after gonja's:
// gonja's keep their targets in unexported fields, and its set writes into
// any dict, including the data given to the template, which let a
// template build a value containing itself.
type guard struct {
	stopped atomic.Bool
	maxSize int
	// input holds the depth of every list and dict of the data given to
	// the render (computed once; the template cannot change them: only
	// namespaces can be written to), which count as one unit of size.
	input map[ident]measure
	// finished is closed when the render's goroutine has returned.
	finished chan struct{}
	// printErr is the first value refused for printing (printguard.go),
	// written by the render's goroutine, read after it has returned.
	printErr error
}

// ident is the identity of a list, dict or pointer: values sharing one are
// measured once (a list appended to itself is a DAG, not a tree).
type ident struct {
	ptr uintptr
	n   int
}

type measure struct{ depth, size int }

// namespace is the value of namespace(): the only value a template can
// change in place ({% set ns.attr = … %}, as Jinja2 allows).
type namespace map[string]any

var (
	valueType     = reflect.TypeOf(exec.Value{})
	valuePtrType  = reflect.TypeOf(&exec.Value{})
	reflectType   = reflect.TypeOf(reflect.Value{})
	namespaceType = reflect.TypeOf(namespace{})
)

var errTooDeep = fmt.Errorf("value nested too deeply: at most %d levels of lists and dicts are allowed", MaxDataDepth)

// ErrNestedNamespace is returned when a namespace would hold a namespace.
var ErrNestedNamespace = errors.New("a namespace cannot hold another namespace")

func newGuard(data map[string]any, lim Limits) *guard {
	g := &guard{maxSize: lim.MaxOutput, input: map[ident]measure{}, finished: make(chan struct{})}
	for _, v := range data {
		g.learn(v)
	}
	return g
}

// alive fails once the render timed out.
func (g *guard) alive() error {
	if g.stopped.Load() {
		return ErrTimeout
	}
	return nil
}

// learn records the depth of every list and dict of a value given to the
// render (iteratively: legacy data may be deep).
func (g *guard) learn(v any) {
	_, _ = g.walk(reflect.ValueOf(v), walkOptions{learn: true})
}

// check measures a value the template is about to keep.
func (g *guard) check(v any, noNamespace bool) error {
	if err := g.alive(); err != nil {
		return err
	}
	_, err := g.walk(reflect.ValueOf(v), walkOptions{noNamespace: noNamespace})
	return err
}

type walkOptions struct {
	learn       bool // record containers in g.input, no limits
	noNamespace bool // refuse a namespace anywhere in the value
	// printed measures the text printing would build: data given to
	// the template counts its full size (printguard.go).
	printed bool
}

// frame is one container being walked.
type frame struct {
	v     reflect.Value
	id    ident
	level int // containers on the path, this one included
	i     int
	iter  *reflect.MapIter
	depth int // deepest child
	size  int
}

// walk measures v without recursion: the depth in lists, dicts and
// namespaces, and the size as printed (see limits.go), each shared
// container once.
func (g *guard) walk(root reflect.Value, o walkOptions) (measure, error) {
	memo := map[ident]measure{}
	onPath := map[ident]bool{}
	var stack []frame
	var total measure
	// add accounts for a child (or the root) of the frame on top.
	add := func(m measure) error {
		if len(stack) == 0 {
			total = m
		} else {
			f := &stack[len(stack)-1]
			f.depth = max(f.depth, m.depth)
			f.size += m.size
			m.size = f.size
		}
		if o.learn {
			return nil
		}
		if m.size > g.maxSize {
			if o.printed {
				return g.errTooLargeToPrint()
			}
			return fmt.Errorf("value too large: at most %d bytes may be kept", g.maxSize)
		}
		if m.depth > MaxDataDepth {
			return errTooDeep
		}
		return nil
	}
	visit := func(v reflect.Value) error {
		v = resolve(v)
		if !v.IsValid() {
			return add(measure{size: 1})
		}
		if o.noNamespace && v.Type() == namespaceType {
			return ErrNestedNamespace
		}
		switch v.Kind() {
		case reflect.String:
			return add(measure{size: len(v.String())})
		case reflect.Slice, reflect.Array, reflect.Map, reflect.Pointer, reflect.Struct:
		default:
			return add(measure{size: 1})
		}
		id := identity(v)
		if id.ptr != 0 {
			if m, ok := g.input[id]; ok && !o.learn {
				if o.printed {
					return add(m)
				}
				return add(measure{depth: m.depth, size: 1})
			}
			if m, ok := memo[id]; ok {
				return add(m)
			}
			if onPath[id] {
				return errors.New("a value cannot contain itself")
			}
			onPath[id] = true
		}
		level := 0
		if len(stack) > 0 {
			level = stack[len(stack)-1].level
		}
		if container(v) {
			level++
		}
		if !o.learn && level > MaxDataDepth {
			return errTooDeep
		}
		f := frame{v: v, id: id, level: level}
		if v.Kind() == reflect.Map {
			f.iter = v.MapRange()
		}
		stack = append(stack, f)
		return nil
	}
	if err := visit(root); err != nil {
		return total, err
	}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if child, ok := f.next(); ok {
			if err := visit(child); err != nil {
				return total, err
			}
			continue
		}
		m := measure{depth: f.depth, size: f.size + 1}
		if container(f.v) {
			m.depth++
		}
		id := f.id
		stack = stack[:len(stack)-1]
		if id.ptr != 0 {
			delete(onPath, id)
			memo[id] = m
			if o.learn {
				g.input[id] = m
			}
		}
		if err := add(m); err != nil {
			return total, err
		}
	}
	return total, nil
}

// next returns the frame's next child value.
func (f *frame) next() (reflect.Value, bool) {
	switch f.v.Kind() {
	case reflect.Slice, reflect.Array:
		if f.i < f.v.Len() {
			f.i++
			return f.v.Index(f.i - 1), true
		}
	case reflect.Map:
		if f.iter.Next() {
			if k := resolve(f.iter.Key()); k.Kind() == reflect.String {
				f.size += len(k.String())
			}
			return f.iter.Value(), true
		}
	case reflect.Pointer:
		if f.i == 0 {
			f.i++
			return f.v.Elem(), true
		}
	case reflect.Struct:
		for f.i < f.v.NumField() {
			f.i++
			if fv := f.v.Field(f.i - 1); fv.CanInterface() {
				return fv, true
			}
		}
	}
	return reflect.Value{}, false
}

// resolve unwraps interfaces, gonja's Values and reflect.Values down to
// the value they hold.
func resolve(v reflect.Value) reflect.Value {
	for v.IsValid() {
		switch {
		case v.Kind() == reflect.Interface:
			if v.IsNil() {
				return reflect.Value{}
			}
			v = v.Elem()
		case v.Type() == valuePtrType:
			if v.IsNil() {
				return reflect.Value{}
			}
			v = v.Interface().(*exec.Value).Val
		case v.Type() == valueType && v.CanInterface():
			v = v.Interface().(exec.Value).Val
		case v.Type() == reflectType && v.CanInterface():
			v = v.Interface().(reflect.Value)
		case v.Kind() == reflect.Pointer && v.IsNil():
			return reflect.Value{}
		default:
			return v
		}
	}
	return v
}

// container says whether v counts as a level of nesting.
func container(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		return true
	}
	return false
}

// identity is a list's, dict's or pointer's identity (zero for values
// that have none).
func identity(v reflect.Value) ident {
	switch v.Kind() {
	case reflect.Slice:
		if v.Len() > 0 {
			return ident{ptr: v.Pointer(), n: v.Len()}
		}
	case reflect.Map, reflect.Pointer:
		if !v.IsNil() {
			return ident{ptr: v.Pointer(), n: -1}
		}
	}
	return ident{}
}

// tick is the first node of every loop body: a loop stops once the
// render timed out.
type tick struct {
	g        *guard
	location *tokens.Token
}

func (t *tick) Position() *tokens.Token { return t.location }
func (t *tick) String() string          { return "tick" }
func (t *tick) Execute(*exec.Renderer, *nodes.ControlStructureBlock) error {
	return t.g.alive()
}

// forParser wraps gonja's for: recursive loops are refused (unbounded
// recursion), and every iteration first checks that the render is alive.
func (g *guard) forParser(inner parser.ControlStructureParser) parser.ControlStructureParser {
	return func(p *parser.Parser, args *parser.Parser) (nodes.ControlStructure, error) {
		cs, err := inner(p, args)
		if err != nil {
			return nil, err
		}
		f, ok := cs.(*controlStructures.ForControlStructure)
		if !ok {
			return cs, nil
		}
		if f.Recursive {
			return nil, errors.New("recursive loops are not allowed")
		}
		if g != nil && f.BodyWrapper != nil {
			t := &nodes.ControlStructureBlock{Location: f.BodyWrapper.Location, Name: "tick",
				ControlStructure: &tick{g: g, location: f.BodyWrapper.Location}}
			f.BodyWrapper.Nodes = append([]nodes.Node{t}, f.BodyWrapper.Nodes...)
		}
		return f, nil
	}
}

// namespaceFunc is namespace(): a namespace holding the keyword arguments,
// none of them a namespace.
func (g *guard) namespaceFunc(_ *exec.Evaluator, params *exec.VarArgs) (namespace, error) {
	ns := namespace{}
	for key, value := range params.KwArgs {
		if err := g.check(value, true); err != nil {
			return nil, err
		}
		ns[key] = value
	}
	return ns, nil
}

// methods are gonja's methods with list.append measured (it rebinds the
// variable to the longer list, which may share the old one: appending a
// list to itself doubles its printed size).
func (g *guard) methods() exec.Methods {
	b := builtins.Methods
	m := exec.Methods{Bool: b.Bool, Int: b.Int, Float: b.Float, Str: b.Str, Dict: b.Dict}
	list := map[string]exec.Method[[]any]{}
	for _, name := range []string{"append", "reverse", "copy"} {
		if fn, ok := b.List.Get(name); ok {
			list[name] = fn
		}
	}
	if app, ok := list["append"]; ok {
		list["append"] = func(self []any, selfValue *exec.Value, args *exec.VarArgs) (any, error) {
			if err := g.alive(); err != nil {
				return nil, err
			}
			out, err := app(self, selfValue, args)
			if err != nil {
				return out, err
			}
			return out, g.check(selfValue, false)
		}
	}
	m.List = exec.NewMethodSet(list)
	return m
}
