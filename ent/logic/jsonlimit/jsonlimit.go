package jsonlimit

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// MaxDepth is the deepest nesting of arrays and objects in a JSON value
// the API accepts for one field (the value's own array or object is level
// 1): config context data, local_context_data, custom field data, JSON
// Schemas, event-rule conditions and action_data, saved filter parameters,
// environment_params... NetBox sets no limit (Python's recursion limit
// answers 500); nobody nests data 64 levels deep.
const MaxDepth = 64

// Message is the error a value nested deeper than MaxDepth gets.
func Message() string {
	return fmt.Sprintf("Nested too deeply: at most %d levels of lists and objects are allowed.", MaxDepth)
}

// Scan reports whether the JSON text raw nests arrays and objects deeper
// than max levels, and where: the path (object keys as strings, array
// indexes as ints) from the top to the first array or object opened
// beyond max. Scan does not validate raw: on text that is no JSON its
// answer means little, but it is still given in one pass over the bytes,
// without recursion.
func Scan(raw []byte, max int) (path []any, exceeded bool) {
	type frame struct {
		object   bool
		index    int    // arrays: the current element
		key      []byte // objects: the current member's key, as written
		wantsKey bool
	}
	var stack []frame
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; c {
		case '"':
			start := i
			for i++; i < len(raw) && raw[i] != '"'; i++ {
				if raw[i] == '\\' {
					i++
				}
			}
			if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].wantsKey {
				stack[n-1].key, stack[n-1].wantsKey = raw[start:min(i+1, len(raw))], false
			}
		case '{', '[':
			if len(stack) == max {
				path = make([]any, len(stack))
				for j, f := range stack {
					if f.object {
						path[j] = unquote(f.key)
					} else {
						path[j] = f.index
					}
				}
				return path, true
			}
			stack = append(stack, frame{object: c == '{', wantsKey: c == '{'})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if n := len(stack); n > 0 {
				if stack[n-1].object {
					stack[n-1].wantsKey = true
				} else {
					stack[n-1].index++
				}
			}
		}
	}
	return nil, false
}

// unquote decodes a JSON string as written (its quotes included).
func unquote(b []byte) string {
	var s string
	if json.Unmarshal(b, &s) != nil {
		return string(b)
	}
	return s
}

// Exceeds reports whether a decoded JSON value (maps, slices and scalars,
// as encoding/json produces them, or any Go value of maps, slices, arrays
// and pointers) nests deeper than max levels of maps, slices and arrays.
// It walks without recursion and stops at the first level beyond max.
func Exceeds(v any, max int) bool {
	type item struct {
		v     reflect.Value
		level int
	}
	stack := []item{{reflect.ValueOf(v), 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x := it.v
		for x.IsValid() && (x.Kind() == reflect.Interface || x.Kind() == reflect.Pointer) {
			if x.IsNil() {
				x = reflect.Value{}
				break
			}
			x = x.Elem()
		}
		if !x.IsValid() {
			continue
		}
		switch x.Kind() {
		case reflect.Map, reflect.Slice, reflect.Array:
		default:
			continue
		}
		if x.Kind() == reflect.Slice && x.Type().Elem().Kind() == reflect.Uint8 {
			continue // bytes (json.RawMessage is text, not structure)
		}
		level := it.level + 1
		if level > max {
			return true
		}
		if x.Kind() == reflect.Map {
			for iter := x.MapRange(); iter.Next(); {
				stack = append(stack, item{iter.Value(), level})
			}
			continue
		}
		for i := 0; i < x.Len(); i++ {
			stack = append(stack, item{x.Index(i), level})
		}
	}
	return false
}
