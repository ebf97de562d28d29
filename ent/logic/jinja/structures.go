package jinja

import (
	"fmt"
	"io"
	"reflect"

	"github.com/nikolalohinski/gonja/v2/exec"
	"github.com/nikolalohinski/gonja/v2/nodes"
	"github.com/nikolalohinski/gonja/v2/parser"
	"github.com/nikolalohinski/gonja/v2/tokens"
)

// The control structures that bind or store values, or buffer output,
// written after gonja's (builtins/control_structures) so that the guard
// sees what they keep (see guard.go).

// setNode is {% set name = … %}, {% set ns.attr = … %} and the block form
// {% set name %}…{% endset %}. As in Jinja2, the target is a name or an
// attribute of a namespace (gonja also wrote into any dict, the data
// given to the template included, and into items: x[k]).
type setNode struct {
	g                                  *guard
	location                           *tokens.Token
	name, attr                         string
	expression, condition, alternative nodes.Expression
	body                               *nodes.Wrapper
}

func (s *setNode) Position() *tokens.Token { return s.location }
func (s *setNode) String() string {
	return fmt.Sprintf("SetControlStructure(Line=%d Col=%d)", s.location.Line, s.location.Col)
}

func (g *guard) setParser(p *parser.Parser, args *parser.Parser) (nodes.ControlStructure, error) {
	name := args.Match(tokens.Name)
	if name == nil {
		return nil, args.Error("Expected a name to set.", args.Current())
	}
	s := &setNode{g: g, location: name, name: name.Val}
	if args.Match(tokens.Dot) != nil {
		attr := args.Match(tokens.Name)
		if attr == nil {
			return nil, args.Error("Expected an attribute name after '.'.", args.Current())
		}
		s.attr = attr.Val
	}
	if args.Match(tokens.Assign) == nil {
		if !args.End() {
			return nil, args.Error("Only a name or a namespace attribute (ns.attr) can be set: expected '=', or the end of the tag for a block set.", args.Current())
		}
		wrapper, endargs, err := p.WrapUntil("endset")
		if err != nil {
			return nil, err
		}
		if !endargs.End() {
			return nil, endargs.Error("endset takes no arguments", nil)
		}
		s.body = wrapper
		return s, nil
	}
	expr, err := args.ParseExpression()
	if err != nil {
		return nil, err
	}
	s.expression = expr
	if s.condition, s.alternative, err = args.ParseCondition(); err != nil {
		return nil, err
	}
	if s.condition != nil && s.alternative == nil {
		return nil, args.Error("Malformed 'set' if else condition", args.Current())
	}
	if !args.End() {
		return nil, args.Error("Malformed 'set' tag args.", args.Current())
	}
	return s, nil
}

func (s *setNode) Execute(r *exec.Renderer, _ *nodes.ControlStructureBlock) error {
	if err := s.g.alive(); err != nil {
		return err
	}
	value, err := s.value(r)
	if err != nil {
		return err
	}
	v := value.Interface()
	if s.attr == "" {
		if err := s.g.check(v, false); err != nil {
			return err
		}
		r.Environment.Context.Set(s.name, v)
		return nil
	}
	target, _ := r.Environment.Context.Get(s.name)
	ns, ok := namespaceOf(target)
	if !ok {
		return fmt.Errorf("cannot assign attribute %q of %q: only a namespace's attributes can be set", s.attr, s.name)
	}
	if err := s.g.check(v, true); err != nil {
		return err
	}
	ns[s.attr] = v
	return nil
}

// value evaluates what is set: the body's output (within the size limit),
// or the expression (or its alternative).
func (s *setNode) value(r *exec.Renderer) (*exec.Value, error) {
	if s.body != nil {
		out, err := s.g.capture(r, s.body)
		if err != nil {
			return nil, err
		}
		return exec.AsSafeValue(out), nil
	}
	expr := s.expression
	if s.condition != nil {
		c := r.Eval(s.condition)
		if c.IsError() {
			return nil, c
		}
		if c.IsNil() || !c.IsTrue() {
			expr = s.alternative
		}
	}
	v := r.Eval(expr)
	if v.IsError() {
		return nil, v
	}
	return v, nil
}

// namespaceOf returns the namespace v holds, if it holds one.
func namespaceOf(v any) (namespace, bool) {
	rv := resolve(reflect.ValueOf(v))
	if !rv.IsValid() || rv.Type() != namespaceType {
		return nil, false
	}
	return rv.Interface().(namespace), true
}

// capture renders a block's body into a string of at most the size limit.
func (g *guard) capture(r *exec.Renderer, body *nodes.Wrapper) (string, error) {
	sub := r.Inherit()
	w := &limitedWriter{max: g.maxSize, stopped: &g.stopped}
	sub.Output = w
	if err := sub.ExecuteWrapper(body); err != nil {
		return "", err
	}
	return w.buf.String(), nil
}

// withNode is {% with a = …, b = … %}…{% endwith %}.
type withNode struct {
	g        *guard
	location *tokens.Token
	names    []string
	values   []nodes.Expression
	body     *nodes.Wrapper
}

func (w *withNode) Position() *tokens.Token { return w.location }
func (w *withNode) String() string {
	return fmt.Sprintf("WithControlStructure(Line=%d Col=%d)", w.location.Line, w.location.Col)
}

func (g *guard) withParser(p *parser.Parser, args *parser.Parser) (nodes.ControlStructure, error) {
	w := &withNode{g: g, location: p.Current()}
	for !args.End() {
		key := args.Match(tokens.Name)
		if key == nil {
			return nil, args.Error("Expected an identifier", args.Current())
		}
		if args.Match(tokens.Assign) == nil {
			return nil, args.Error("Expected '='.", args.Current())
		}
		value, err := args.ParseExpression()
		if err != nil {
			return nil, err
		}
		w.names, w.values = append(w.names, key.Val), append(w.values, value)
		if args.Match(tokens.Comma) == nil {
			break
		}
	}
	if !args.End() {
		return nil, args.Error("Malformed 'with' tag args.", args.Current())
	}
	body, endargs, err := p.WrapUntil("endwith")
	if err != nil {
		return nil, err
	}
	if !endargs.End() {
		return nil, endargs.Error("Arguments not allowed here.", nil)
	}
	w.body = body
	return w, nil
}

func (w *withNode) Execute(r *exec.Renderer, _ *nodes.ControlStructureBlock) error {
	sub := r.Inherit()
	for i, name := range w.names {
		v := r.Eval(w.values[i])
		if v.IsError() {
			return fmt.Errorf("unable to evaluate parameter %s: %w", w.values[i], v)
		}
		if err := w.g.check(v, false); err != nil {
			return err
		}
		sub.Environment.Context.Set(name, v)
	}
	return sub.ExecuteWrapper(w.body)
}

// filterNode is {% filter f|g %}…{% endfilter %}.
type filterNode struct {
	g        *guard
	location *tokens.Token
	chain    []*nodes.FilterCall
	body     *nodes.Wrapper
}

func (f *filterNode) Position() *tokens.Token { return f.location }
func (f *filterNode) String() string {
	return fmt.Sprintf("FilterControlStructure(Line=%d Col=%d)", f.location.Line, f.location.Col)
}

func (g *guard) filterParser(p *parser.Parser, args *parser.Parser) (nodes.ControlStructure, error) {
	f := &filterNode{g: g, location: p.Current()}
	body, _, err := p.WrapUntil("endfilter")
	if err != nil {
		return nil, err
	}
	f.body = body
	for !args.End() {
		call, err := args.ParseFilter()
		if err != nil {
			return nil, err
		}
		f.chain = append(f.chain, call)
		if args.Match(tokens.Pipe) == nil {
			break
		}
	}
	if !args.End() {
		return nil, args.Error("Malformed filter-tag args.", args.Current())
	}
	return f, nil
}

func (f *filterNode) Execute(r *exec.Renderer, _ *nodes.ControlStructureBlock) error {
	out, err := f.g.capture(r, f.body)
	if err != nil {
		return err
	}
	value := exec.AsValue(out)
	for _, call := range f.chain {
		value = r.Evaluator().ExecuteFilter(call, value)
		if value.IsError() {
			return fmt.Errorf("Unable to apply filter %s (Line: %d Col: %d, near %s): %w",
				call.Name, call.Token.Line, call.Token.Col, call.Token.Val, value)
		}
	}
	_, err = io.WriteString(r.Output, value.String())
	return err
}
