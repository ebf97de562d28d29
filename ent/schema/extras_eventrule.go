package schema

import (
	"encoding/json"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/extras"
	"github.com/inventory/inventory/ent/schema/api"
)

// EventRule is extras.EventRule (BEHAVIOUR.md §12.1): which events of which
// object types, under which conditions, trigger which action.
type EventRule struct{ ent.Schema }

func (EventRule) Mixin() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, CustomFields{}, Owned{}}
}

// EventRuleActionType are the action types (only webhook actions are
// executed by this service; the others are accepted and stored).
var EventRuleActionType = api.C("webhook", "Webhook", "script", "Script", "notification", "Notification")

func (EventRule) Fields() []ent.Field {
	return []ent.Field{
		field.Strings("object_types").Annotations(api.Field{Kind: "content-types", ObjectTypes: "event_rules"}),
		UniqueName(150),
		field.Bool("enabled").Default(true),
		field.Strings("event_types"),
		field.JSON("conditions", json.RawMessage{}).Optional(),
		field.String("action_type").MaxRuneLen(30).Default("webhook").
			Annotations(api.Field{Kind: "choice", Choices: EventRuleActionType}),
		field.String("action_object_type").
			Annotations(api.Field{Types: []string{"extras.webhook", "extras.script", "extras.notificationgroup"}, OnDelete: api.Cascade}),
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
func (EventRule) Hooks() []ent.Hook { return extras.EventRuleHooks() }

func (EventRule) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "extras_eventrule"},
		api.Model{
			// NetBox's ChoiceField without required=False, a default here.
			Metadata: map[string]api.Meta{"action_type": {Required: true}},
			App:      "extras", Path: "event-rules", Verbose: "event rule",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "object_types", "name", "enabled", "event_types",
				"conditions", "action_type", "action_object_type", "action_object_id", "action_object", "description",
				"custom_fields", "owner", "tags", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "name", "description"},
			Display:  "{name}",
			Search:   []string{"name", "description", "comments"},
			Ordering: []string{"name"},
			// Rules for a given "app.model", or a given event type.
			Filters: []api.Filter{
				{Name: "object_type", Kind: "content-types-contains", Column: "object_types"},
				{Name: "event_type", Kind: "content-types-contains", Column: "event_types"},
			},
		},
	}
}
