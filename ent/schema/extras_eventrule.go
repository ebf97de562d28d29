package schema

import (
	"context"
	"encoding/json"
	"strconv"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/webhooks/conditions"
)

// EventRule is extras.EventRule (BEHAVIOUR.md §12.1): which events of which
// object types, under which conditions, trigger which action.
type EventRule struct{ ent.Schema }

func (EventRule) Mixin() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, CustomFields{}}
}

// EventTypes are the registered event types.
var EventTypes = []string{"object_created", "object_updated", "object_deleted",
	"job_started", "job_completed", "job_failed", "job_errored"}

// EventRuleActionType are the action types (only webhook actions are
// executed by this service; the others are accepted and stored).
var EventRuleActionType = api.C("webhook", "Webhook", "script", "Script", "notification", "Notification")

func (EventRule) Fields() []ent.Field {
	return []ent.Field{
		field.Strings("object_types").Annotations(api.Field{Kind: "content-types"}),
		UniqueName(150),
		field.Bool("enabled").Default(true),
		field.Strings("event_types"),
		field.JSON("conditions", json.RawMessage{}).Optional(),
		field.String("action_type").MaxRuneLen(30).Default("webhook").
			Annotations(api.Field{Kind: "choice", Choices: EventRuleActionType, Required: true}),
		field.String("action_object_type").
			Annotations(api.Field{Types: []string{"extras.webhook", "extras.script", "extras.notificationgroup"}}),
		field.Int("action_object_id").Optional().Nillable(),
		// action_data is merged into the event data of the action (not
		// exposed by NetBox's REST serializer either).
		field.JSON("action_data", json.RawMessage{}).Optional(),
		field.String("description").MaxRuneLen(200).Default(""),
		field.Text("comments").Default(""),
	}
}

// Hooks validates object_types, event_types and conditions with NetBox's
// messages.
func (EventRule) Hooks() []ent.Hook {
	return []ent.Hook{
		func(next ent.Mutator) ent.Mutator {
			return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
				if !m.Op().Is(ent.OpCreate | ent.OpUpdate | ent.OpUpdateOne) {
					return next.Mutate(ctx, m)
				}
				if v, ok := m.Field("object_types"); ok {
					if list, _ := v.([]string); len(list) == 0 {
						return nil, &api.FieldError{Field: "object_types", Message: "This list may not be empty."}
					}
				}
				if v, ok := m.Field("event_types"); ok {
					list, _ := v.([]string)
					if len(list) == 0 {
						return nil, &api.FieldError{Field: "event_types", Message: "This list may not be empty."}
					}
					for i, et := range list {
						if err := plainChoice("event_types", EventTypes)(et); err != nil {
							fe := err.(*api.FieldError)
							fe.Index = strconv.Itoa(i)
							return nil, fe
						}
					}
				}
				if v, ok := m.Field("conditions"); ok {
					raw, _ := v.(json.RawMessage)
					if err := conditions.Validate(raw); err != nil {
						return nil, &api.FieldError{Field: "conditions", Message: err.Error()}
					}
				}
				return next.Mutate(ctx, m)
			})
		},
	}
}

func (EventRule) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "extras_eventrule"},
		api.Model{
			App: "extras", Path: "event-rules", Verbose: "event rule",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "object_types", "name", "enabled", "event_types",
				"conditions", "action_type", "action_object_type", "action_object_id", "action_object", "description",
				"custom_fields", "owner", "tags", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "name", "description"},
			Display:  "{name}",
			Search:   []string{"name", "description", "comments"},
			Ordering: []string{"name"},
			Empty:    map[string]any{"owner": nil},
			// Rules for a given "app.model", or a given event type.
			Filters: []api.Filter{
				{Name: "object_type", Kind: "content-types-contains", Column: "object_types"},
				{Name: "event_type", Kind: "content-types-contains", Column: "event_types"},
			},
		},
	}
}
