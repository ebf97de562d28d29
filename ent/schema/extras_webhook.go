package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/extras"
	"github.com/inventory/inventory/ent/schema/api"
)

// Webhook is extras.Webhook: where and how to send an event (BEHAVIOUR.md
// §12.2). Which events are sent is decided by EventRules pointing at it.
type Webhook struct{ ent.Schema }

func (Webhook) Mixin() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, CustomFields{}, Owned{}}
}

func (Webhook) Fields() []ent.Field {
	return []ent.Field{
		UniqueName(150),
		field.String("description").MaxRuneLen(200).Default(""),
		field.String("payload_url").MaxRuneLen(500).NotEmpty().Validate(extras.ValidatePayloadURL),
		// A choice rendered as its plain value, as NetBox does.
		field.String("http_method").MaxRuneLen(30).Default("POST").
			Annotations(api.Field{Choices: api.C("GET", "GET", "POST", "POST", "PUT", "PUT", "PATCH", "PATCH", "DELETE", "DELETE")}),
		field.String("http_content_type").MaxRuneLen(100).Default("application/json"),
		field.Text("additional_headers").Default(""),
		field.Text("body_template").Default(""),
		field.String("secret").MaxRuneLen(255).Default(""),
		field.Bool("ssl_verification").Default(true),
		field.String("ca_file_path").MaxRuneLen(4096).Optional().Nillable(),
	}
}

// Hooks refuses a CA file while SSL verification is off (NetBox's clean())
// and, beyond NetBox, definitions delivery would refuse or could not render
// (internal literal targets, templates, owned headers, short secrets, CA
// files outside the configured directory).
func (Webhook) Hooks() []ent.Hook { return extras.WebhookHooks() }

func (Webhook) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "extras_webhook"},
		api.Model{
			App: "extras", Path: "webhooks", Verbose: "webhook",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "description", "payload_url", "http_method",
				"http_content_type", "additional_headers", "body_template", "secret", "ssl_verification", "ca_file_path",
				"custom_fields", "owner", "tags", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "name", "description"},
			Display:  "{name}",
			Search:   []string{"name", "description", "payload_url"},
			Ordering: []string{"name"},
		},
	}
}
