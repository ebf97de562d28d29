package resource

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"strings"
)

// ValidationError is a 400 with NetBox's body: a map of field names to lists
// of messages ("__all__" for model-level errors, "non_field_errors" for
// serializer-level ones). Values are []string, or a map for custom_fields.
//
// Order is the serializer's field order: DRF reports field errors in that
// order, and clients diffing answers against NetBox see the same body.
// Keys it does not name follow, alphabetically. The model's write path
// sets it (Descriptor.Create and Update), so helpers building errors with
// Invalid need not know it.
type ValidationError struct {
	Fields map[string]any
	Order  []string
}

// MarshalJSON writes Fields in Order, then the other keys sorted.
func (e *ValidationError) MarshalJSON() ([]byte, error) {
	keys := make([]string, 0, len(e.Fields))
	for k := range e.Fields {
		keys = append(keys, k)
	}
	pos := func(k string) int {
		if i := slices.Index(e.Order, k); i >= 0 {
			return i
		}
		return len(e.Order)
	}
	sort.Slice(keys, func(i, j int) bool {
		pi, pj := pos(keys[i]), pos(keys[j])
		if pi != pj {
			return pi < pj
		}
		return keys[i] < keys[j]
	})
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // messages quote user input as the server's encoder does
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := enc.Encode(k); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1) // Encode's newline
		b.WriteByte(':')
		if err := enc.Encode(e.Fields[k]); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// inOrder gives a ValidationError within err the descriptor's field
// order, unless it has one.
func (d *Descriptor) inOrder(err error) error {
	var ve *ValidationError
	if errors.As(err, &ve) && ve.Order == nil {
		ve.Order = make([]string, len(d.Fields))
		for i, f := range d.Fields {
			ve.Order[i] = f.Name
		}
	}
	return err
}

func (e *ValidationError) Error() string {
	keys := make([]string, 0, len(e.Fields))
	for k := range e.Fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return "validation failed: " + strings.Join(keys, ", ")
}

// add records msgs for key.
func (e *ValidationError) add(key string, msgs ...string) {
	if e.Fields == nil {
		e.Fields = map[string]any{}
	}
	prev, _ := e.Fields[key].([]string)
	e.Fields[key] = append(prev, msgs...)
}

// addItem records msgs for element index of the list field key
// ({key: {index: msgs}}, DRF's ListField); an empty index is the list's
// own error.
func (e *ValidationError) addItem(key, index string, msgs ...string) {
	if index == "" {
		e.add(key, msgs...)
		return
	}
	if e.Fields == nil {
		e.Fields = map[string]any{}
	}
	e.Fields[key] = map[string][]string{index: msgs}
}

func (e *ValidationError) empty() bool { return e == nil || len(e.Fields) == 0 }

// orNil returns e as an error, or nil when it holds nothing.
func (e *ValidationError) orNil() error {
	if e.empty() {
		return nil
	}
	return e
}

// Invalid builds a ValidationError for one key.
func Invalid(key string, msgs ...string) *ValidationError {
	e := &ValidationError{}
	e.add(key, msgs...)
	return e
}

// DetailError is a 4xx with a {"detail": ...} body.
type DetailError struct {
	Status int
	Detail string
}

func (e *DetailError) Error() string { return e.Detail }

// Conflict is NetBox's 409 for protected deletes.
func Conflict(detail string) *DetailError { return &DetailError{Status: 409, Detail: detail} }

// ErrNotFound means the object does not exist (or is invisible).
var ErrNotFound = errors.New("not found")
