package dcim

import (
	"fmt"
	"reflect"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// MaxSchemaSteps bounds the work of one JSON Schema validation (a profile
// schema against a module type's attributes or a config context's data):
// the evaluations of a subschema against a value it would take, counted
// before it runs. Subschemas may use one another any number of times, so
// the validator's work can grow exponentially with a schema's size: 20
// levels of {"allOf": [a, a]} took 3 s, 30 would take an hour, inside a
// write's transaction. The library has no budget of its own; NetBox's
// jsonschema would take as long. Real profile schemas take a few steps per
// value.
const MaxSchemaSteps = 100000

// maxStepsDepth bounds the counting's own recursion (subschemas nested in
// place, times the value's depth).
const maxStepsDepth = 10000

// schemaSteps counts the evaluations validating v against s takes at most
// (every branch of anyOf, oneOf and if/then/else counted), up to
// MaxSchemaSteps: ok is false beyond. Each subschema is counted once per
// value (a memo), so the counting itself takes polynomial time. A cycle of
// references that consumes no part of the value counts nothing more: the
// validator refuses it.
func schemaSteps(s *jsonschema.Schema, v any) (steps int, ok bool) {
	c := &stepCounter{memo: map[stepKey]int{}, onPath: map[stepKey]bool{}}
	n := c.count(s, v, 0)
	return n, n <= MaxSchemaSteps
}

type stepKey struct {
	s *jsonschema.Schema
	v uintptr // the value's identity (0: any scalar)
	n int
}

type stepCounter struct {
	memo   map[stepKey]int
	onPath map[stepKey]bool
}

func (c *stepCounter) count(s *jsonschema.Schema, v any, depth int) int {
	if s == nil {
		return 0
	}
	if depth > maxStepsDepth {
		return MaxSchemaSteps + 1
	}
	key := stepKey{s: s}
	switch x := v.(type) {
	case map[string]any:
		key.v, key.n = reflect.ValueOf(x).Pointer(), -1
	case []any:
		if len(x) > 0 {
			key.v, key.n = reflect.ValueOf(x).Pointer(), len(x)
		}
	}
	if n, ok := c.memo[key]; ok {
		return n
	}
	if c.onPath[key] {
		return 0
	}
	c.onPath[key] = true
	n := 1
	add := func(sub *jsonschema.Schema, v any) {
		if n <= MaxSchemaSteps {
			n += c.count(sub, v, depth+1)
		}
	}
	for _, sub := range inPlace(s) {
		add(sub, v)
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			add(s.Properties[k], e)
			for re, sub := range s.PatternProperties {
				if re.MatchString(k) {
					add(sub, e)
				}
			}
			add(schemaOf(s.AdditionalProperties), e)
			add(s.UnevaluatedProperties, e)
			add(s.PropertyNames, k)
		}
	case []any:
		for i, e := range x {
			switch items := s.Items.(type) {
			case *jsonschema.Schema:
				add(items, e)
			case []*jsonschema.Schema:
				if i < len(items) {
					add(items[i], e)
				} else {
					add(schemaOf(s.AdditionalItems), e)
				}
			}
			if i < len(s.PrefixItems) {
				add(s.PrefixItems[i], e)
			} else {
				add(s.Items2020, e)
			}
			add(s.Contains, e)
			add(s.UnevaluatedItems, e)
		}
	}
	delete(c.onPath, key)
	n = min(n, MaxSchemaSteps+1)
	c.memo[key] = n
	return n
}

// inPlace are the subschemas s applies to the value itself.
func inPlace(s *jsonschema.Schema) []*jsonschema.Schema {
	out := []*jsonschema.Schema{s.Ref, s.RecursiveRef, s.Not, s.If, s.Then, s.Else}
	if s.DynamicRef != nil {
		out = append(out, s.DynamicRef.Ref)
	}
	out = append(out, s.AllOf...)
	out = append(out, s.AnyOf...)
	out = append(out, s.OneOf...)
	for _, sub := range s.DependentSchemas {
		out = append(out, sub)
	}
	for _, d := range s.Dependencies {
		if sub, ok := d.(*jsonschema.Schema); ok {
			out = append(out, sub)
		}
	}
	return out
}

// schemaOf is an "additional..." keyword's schema (nil for a boolean).
func schemaOf(v any) *jsonschema.Schema {
	s, _ := v.(*jsonschema.Schema)
	return s
}

// errTooComplex is a validation that would take more than MaxSchemaSteps.
var errTooComplex = fmt.Errorf("the schema is too complex: validating one value would take more than %d steps", MaxSchemaSteps)
