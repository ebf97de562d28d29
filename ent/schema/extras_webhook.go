package schema

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/webhooks/jinja"
)

// Webhook is extras.Webhook: where and how to send an event (BEHAVIOUR.md
// §12.2). Which events are sent is decided by EventRules pointing at it.
type Webhook struct{ ent.Schema }

// plainChoice validates a value against choices that NetBox renders as
// plain values (an event rule's event_types).
func plainChoice(fieldName string, choices []string) func(string) error {
	return func(s string) error {
		for _, c := range choices {
			if c == s {
				return nil
			}
		}
		return &api.FieldError{Field: fieldName, Message: fmt.Sprintf("%q is not a valid choice.", s)}
	}
}

func (Webhook) Mixin() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, CustomFields{}}
}

var schemeRE = regexp.MustCompile(`^(?i)([a-z][a-z0-9+.-]*)://`)

// ValidatePayloadURL accepts a literal http(s) URL with a host, or a Jinja2
// template whose syntax parses and whose literal leading scheme, if any,
// is http or https.
func ValidatePayloadURL(s string) error {
	bad := &api.FieldError{Field: "payload_url", Message: "Enter a valid URL, beginning with http:// or https://."}
	if jinja.IsTemplate(s) {
		if err := jinja.Check(s, false); err != nil {
			return &api.FieldError{Field: "payload_url", Message: "Invalid template: " + err.Error()}
		}
		if m := schemeRE.FindStringSubmatch(s); m != nil {
			if sc := strings.ToLower(m[1]); sc != "http" && sc != "https" {
				return bad
			}
		}
		return nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.ContainsAny(s, " \t\r\n") {
		return bad
	}
	return nil
}

func (Webhook) Fields() []ent.Field {
	return []ent.Field{
		UniqueName(150),
		field.String("description").MaxRuneLen(200).Default(""),
		field.String("payload_url").MaxRuneLen(500).NotEmpty().Validate(ValidatePayloadURL),
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

// Hooks refuses a CA file while SSL verification is off (NetBox's clean()).
func (Webhook) Hooks() []ent.Hook {
	return []ent.Hook{
		func(next ent.Mutator) ent.Mutator {
			return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
				if !m.Op().Is(ent.OpCreate | ent.OpUpdateOne) {
					return next.Mutate(ctx, m)
				}
				verify, ca := true, ""
				if m.Op().Is(ent.OpUpdateOne) {
					if v, err := m.OldField(ctx, "ssl_verification"); err == nil {
						verify, _ = v.(bool)
					}
					if v, err := m.OldField(ctx, "ca_file_path"); err == nil {
						if p, ok := v.(*string); ok && p != nil {
							ca = *p
						}
					}
				}
				if v, ok := m.Field("ssl_verification"); ok {
					verify, _ = v.(bool)
				}
				if v, ok := m.Field("ca_file_path"); ok {
					ca, _ = v.(string)
				}
				for _, name := range m.ClearedFields() {
					if name == "ca_file_path" {
						ca = ""
					}
				}
				if !verify && ca != "" {
					return nil, &api.FieldError{Field: "ca_file_path", Message: "Do not specify a CA certificate file if SSL verification is disabled."}
				}
				return next.Mutate(ctx, m)
			})
		},
	}
}

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
			Empty:    map[string]any{"owner": nil},
		},
	}
}
