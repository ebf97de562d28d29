package extras

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/hookguard"
	"github.com/inventory/inventory/ent/logic/jinja"
	"github.com/inventory/inventory/ent/schema/api"
)

var schemeRE = regexp.MustCompile(`^(?i)([a-z][a-z0-9+.-]*)://`)

// MinSecretLength is the shortest secret accepted (the HMAC key of
// X-Hook-Signature): 16 characters, 96 bits and more of a random secret.
// NetBox accepts any length.
const MinSecretLength = 16

// ValidatePayloadURL accepts a literal http(s) URL with a host, or a Jinja2
// template whose syntax parses and whose literal leading scheme, if any,
// is http or https (the payload_url field's ent validator). Credentials in
// the URL are refused either way: they would be stored and shown in clear
// and sent to whoever the URL points at.
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
			if strings.Contains(authority(s), "@") {
				return credentialsErr
			}
		}
		return nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.ContainsAny(s, " \t\r\n") {
		return bad
	}
	if u.User != nil || strings.Contains(authority(s), "@") {
		return credentialsErr
	}
	return nil
}

var credentialsErr = &api.FieldError{Field: "payload_url", Message: "Credentials are not allowed in the URL; send them in additional_headers."}

// authority is the part of a URL between "scheme://" and the first /, ?
// or #, as written ("" without a scheme).
func authority(s string) string {
	loc := schemeRE.FindStringIndex(s)
	if loc == nil {
		return ""
	}
	rest := s[loc[1]:]
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// checkTarget refuses a payload_url whose host is written as an address
// the delivery guard would refuse, in any spelling a resolver accepts.
// Host names, and hosts written with template syntax, are left to the
// delivery, which checks every resolved address on its socket (a name can
// resolve differently by then).
func checkTarget(s string, p *hookguard.Policy) error {
	auth := authority(s)
	if auth == "" || jinja.IsTemplate(auth) {
		return nil
	}
	u, err := url.Parse(schemeRE.FindString(s) + auth + "/")
	if err != nil {
		return nil // the field validator reports the malformed URL
	}
	host := u.Hostname()
	if p.Guard.AllowedHost(host) {
		return nil
	}
	if ip, ok := hookguard.LiteralIP(host); ok && !p.Guard.AllowedIP(ip) {
		return &api.FieldError{Field: "payload_url", Message: fmt.Sprintf(
			"%q is an internal address (%s): loopback, private, link-local, multicast and reserved targets are refused unless the operator allows them (INVENTORY_WEBHOOK_ALLOW).",
			host, ip.Unmap().WithZone(""))}
	}
	return nil
}

// ValidateHeaders checks additional_headers: the template parses (with
// header_safe), and every literal line reads "Name: value" with an HTTP
// token for a name that the service does not own. Lines whose name is
// written with template syntax, and lines that are only template tags
// ({% if %}), are judged when rendered.
func ValidateHeaders(s string) error {
	fe := func(msg string) error { return &api.FieldError{Field: "additional_headers", Message: msg} }
	if err := jinja.Check(s, true); err != nil {
		return fe("Invalid template: " + err.Error())
	}
	for i, line := range strings.Split(s, "\n") {
		line = strings.TrimSuffix(line, "\r") // CRLF line ends, as browsers send them
		if strings.TrimSpace(line) == "" {
			continue
		}
		name, _, ok := strings.Cut(line, ":")
		if strings.ContainsAny(name, "\r\x00") || (!ok && strings.ContainsAny(line, "\r\x00")) {
			return fe(fmt.Sprintf("Line %d: control characters are not allowed in a header name.", i+1))
		}
		if !ok {
			if jinja.IsTemplate(line) {
				continue
			}
			return fe(fmt.Sprintf("Line %d: expected \"Name: value\".", i+1))
		}
		name = strings.TrimSpace(name)
		if jinja.IsTemplate(name) {
			continue
		}
		if !hookguard.ValidHeaderName(name) {
			return fe(fmt.Sprintf("Line %d: %q is not a valid header name.", i+1, name))
		}
		if hookguard.Owned(name) {
			return fe(fmt.Sprintf("Line %d: the %s header is set by the service and cannot be overridden.", i+1, name))
		}
	}
	return nil
}

// checkDefinition runs the save-time checks on the fields m sets.
func checkDefinition(ctx context.Context, m ent.Mutation) error {
	p := hookguard.From(ctx)
	if v, ok := m.Field("payload_url"); ok {
		s, _ := v.(string)
		if err := ValidatePayloadURL(s); err != nil {
			return err
		}
		if err := checkTarget(s, p); err != nil {
			return err
		}
	}
	if v, ok := m.Field("additional_headers"); ok {
		if err := ValidateHeaders(v.(string)); err != nil {
			return err
		}
	}
	if v, ok := m.Field("body_template"); ok {
		if err := jinja.Check(v.(string), false); err != nil {
			return &api.FieldError{Field: "body_template", Message: "Invalid template: " + err.Error()}
		}
	}
	if v, ok := m.Field("http_content_type"); ok {
		// HTAB is whitespace within a header value; every other control
		// character (CR and LF first) could end or split the header.
		if strings.ContainsFunc(v.(string), func(r rune) bool { return (r < 0x20 && r != '\t') || r == 0x7f }) {
			return &api.FieldError{Field: "http_content_type", Message: "Control characters (CR, LF, ...) are not allowed."}
		}
	}
	if v, ok := m.Field("secret"); ok {
		if s := v.(string); s != "" && utf8.RuneCountInString(s) < MinSecretLength {
			return &api.FieldError{Field: "secret", Message: fmt.Sprintf("Ensure this field has at least %d characters.", MinSecretLength)}
		}
	}
	if v, ok := m.Field("ca_file_path"); ok {
		if s, _ := v.(string); s != "" {
			if err := hookguard.CAFile(p.CADir, s); err != nil {
				msg := err.Error()
				return &api.FieldError{Field: "ca_file_path", Message: strings.ToUpper(msg[:1]) + msg[1:] + "."}
			}
		}
	}
	return nil
}

// WebhookHooks are the hooks of extras.Webhook: the save-time checks of a
// definition (checkDefinition: what delivery would refuse or could not
// render is refused now, with the field named), and a CA file is refused
// while SSL verification is off (NetBox's Webhook.clean()), judged on the
// row as it will be after the mutation.
func WebhookHooks() []ent.Hook {
	return []ent.Hook{
		func(next ent.Mutator) ent.Mutator {
			return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
				if m.Op().Is(ent.OpDelete | ent.OpDeleteOne) {
					return next.Mutate(ctx, m)
				}
				if m.Op().Is(ent.OpCreate | ent.OpUpdateOne) {
					if err := checkCAWithoutVerification(ctx, m); err != nil {
						return nil, err
					}
				}
				if err := checkDefinition(ctx, m); err != nil {
					return nil, err
				}
				return next.Mutate(ctx, m)
			})
		},
	}
}

// checkCAWithoutVerification is NetBox's Webhook.clean(): no CA file while
// SSL verification is off.
func checkCAWithoutVerification(ctx context.Context, m ent.Mutation) error {
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
		return &api.FieldError{Field: "ca_file_path", Message: "Do not specify a CA certificate file if SSL verification is disabled."}
	}
	return nil
}
