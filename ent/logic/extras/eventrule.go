package extras

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/conditions"
	"github.com/inventory/inventory/ent/schema/api"
)

// EventTypes are the registered event types an event rule may name.
var EventTypes = []string{"object_created", "object_updated", "object_deleted",
	"job_started", "job_completed", "job_failed", "job_errored"}

// EventRuleHooks are the hooks of extras.EventRule: object_types,
// event_types, conditions and action_data are validated with NetBox's
// messages.
func EventRuleHooks() []ent.Hook {
	return []ent.Hook{
		func(next ent.Mutator) ent.Mutator {
			return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
				if !m.Op().Is(ent.OpCreate | ent.OpUpdate | ent.OpUpdateOne) {
					return next.Mutate(ctx, m)
				}
				if err := validateEventRule(m); err != nil {
					return nil, err
				}
				return next.Mutate(ctx, m)
			})
		},
	}
}

// validateEventRule checks the fields an event rule mutation sets; the
// error is an *api.FieldError.
func validateEventRule(m ent.Mutation) error {
	if v, ok := m.Field("object_types"); ok {
		if list, _ := v.([]string); len(list) == 0 {
			return &api.FieldError{Field: "object_types", Message: "This list may not be empty."}
		}
	}
	if v, ok := m.Field("event_types"); ok {
		list, _ := v.([]string)
		if len(list) == 0 {
			return &api.FieldError{Field: "event_types", Message: "This list may not be empty."}
		}
		for i, et := range list {
			if !slices.Contains(EventTypes, et) {
				// NetBox renders these choices as plain values.
				return &api.FieldError{Field: "event_types", Index: strconv.Itoa(i),
					Message: fmt.Sprintf("%q is not a valid choice.", et)}
			}
		}
	}
	if v, ok := m.Field("conditions"); ok {
		raw, _ := v.(json.RawMessage)
		if err := conditions.Validate(raw); err != nil {
			return &api.FieldError{Field: "conditions", Message: err.Error()}
		}
	}
	if v, ok := m.Field("action_data"); ok {
		// EventRule.clean(): the action's data is merged into the event
		// data as a dict ({**action_data, **data}).
		raw, _ := v.(json.RawMessage)
		if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] != '{' && string(t) != "null" {
			return &api.FieldError{Field: "action_data", Message: "Action data must be a JSON object or null."}
		}
	}
	return nil
}
