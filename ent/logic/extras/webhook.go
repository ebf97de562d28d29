package extras

import (
	"context"
	"net/url"
	"regexp"
	"strings"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/jinja"
	"github.com/inventory/inventory/ent/schema/api"
)

var schemeRE = regexp.MustCompile(`^(?i)([a-z][a-z0-9+.-]*)://`)

// ValidatePayloadURL accepts a literal http(s) URL with a host, or a Jinja2
// template whose syntax parses and whose literal leading scheme, if any,
// is http or https (the payload_url field's ent validator).
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

// WebhookHooks are the hooks of extras.Webhook: a CA file is refused while
// SSL verification is off (NetBox's Webhook.clean()), judged on the row as
// it will be after the mutation.
func WebhookHooks() []ent.Hook {
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
				if m.FieldCleared("ca_file_path") {
					ca = ""
				}
				if !verify && ca != "" {
					return nil, &api.FieldError{Field: "ca_file_path", Message: "Do not specify a CA certificate file if SSL verification is disabled."}
				}
				return next.Mutate(ctx, m)
			})
		},
	}
}
