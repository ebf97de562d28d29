package webhooks

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/logic/hookguard"
	"github.com/inventory/inventory/ent/logic/jinja"
)

// Header names added to every delivery.
const (
	HeaderSignature  = hookguard.HeaderSignature
	HeaderDeliveryID = hookguard.HeaderDeliveryID
	HeaderRequestID  = "X-Request-ID"
)

// Sign is the X-Hook-Signature value: lowercase hex HMAC-SHA512 of the
// exact body bytes keyed with the webhook's secret.
func Sign(secret string, body []byte) string {
	m := hmac.New(sha512.New, []byte(secret))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// Outgoing is a rendered request.
type Outgoing struct {
	Method string
	URL    string
	Header http.Header
	Body   []byte
}

// TemplateError marks a failure to render (not retried: it would fail
// again the same way).
type TemplateError struct {
	Part string
	Err  error
}

func (e *TemplateError) Error() string { return fmt.Sprintf("%s template: %v", e.Part, e.Err) }
func (e *TemplateError) Unwrap() error { return e.Err }

// Render builds the request of a delivery for webhook w from the stored
// template context (SPEC.md §6.2), as NetBox's send_webhook does.
func Render(w *ent.Webhook, contextJSON []byte, deliveryID, requestID, userAgent string, lim jinja.Limits) (*Outgoing, error) {
	plain, err := jinja.Plain(contextJSON)
	if err != nil {
		return nil, &TemplateError{"context", err}
	}
	ctx, _ := plain.(map[string]any)
	out := &Outgoing{Method: w.HTTPMethod, Header: http.Header{}}

	// Headers: Content-Type, then the rendered additional headers (later
	// duplicates win, Content-Type may be overridden). Control characters
	// are stripped from every rendered header, header_safe or not: the
	// header template sees the context with control characters removed from
	// every string (so no value can start a new header line), and each
	// resulting name and value is cleaned again.
	out.Header.Set("Content-Type", jinja.HeaderSafe(w.HTTPContentType))
	if strings.TrimSpace(w.AdditionalHeaders) != "" {
		safe, _ := headerSafeData(ctx).(map[string]any)
		text, err := jinja.Render(w.AdditionalHeaders, safe, true, lim)
		if err != nil {
			return nil, &TemplateError{"additional_headers", err}
		}
		for _, line := range strings.Split(text, "\n") {
			name, value, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			name = strings.TrimSpace(jinja.HeaderSafe(name))
			value = strings.TrimSpace(jinja.HeaderSafe(value))
			// A definition saved before the save-time checks may still
			// name an owned header: it is skipped, as an invalid name is.
			if !hookguard.ValidHeaderName(name) || hookguard.Owned(name) {
				continue
			}
			out.Header.Set(name, value)
		}
	}

	// Body: the body template, or the context as Python's json.dumps would
	// write it.
	if strings.TrimSpace(w.BodyTemplate) != "" {
		text, err := jinja.Render(w.BodyTemplate, ctx, false, lim)
		if err != nil {
			return nil, &TemplateError{"body", err}
		}
		out.Body = []byte(text)
	} else {
		b, err := PythonJSON(contextJSON)
		if err != nil {
			return nil, &TemplateError{"body", err}
		}
		out.Body = b
	}

	// URL: always rendered.
	u, err := jinja.Render(w.PayloadURL, ctx, false, lim)
	if err != nil {
		return nil, &TemplateError{"payload_url", err}
	}
	out.URL = strings.TrimSpace(u)
	if !strings.HasPrefix(strings.ToLower(out.URL), "http://") && !strings.HasPrefix(strings.ToLower(out.URL), "https://") {
		return nil, &TemplateError{"payload_url", fmt.Errorf("rendered URL %q is not http(s)", out.URL)}
	}

	out.Header.Set("User-Agent", userAgent)
	out.Header.Set(HeaderDeliveryID, deliveryID)
	if requestID != "" {
		out.Header.Set(HeaderRequestID, requestID)
	}
	if w.Secret != "" {
		out.Header.Set(HeaderSignature, Sign(w.Secret, out.Body))
	}
	return out, nil
}

// headerSafeData is a copy of v with control characters removed from every
// string (keys included).
func headerSafeData(v any) any {
	switch x := v.(type) {
	case string:
		return jinja.HeaderSafe(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = headerSafeData(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[jinja.HeaderSafe(k)] = headerSafeData(e)
		}
		return out
	}
	return v
}

// PythonJSON re-encodes JSON as Python's json.dumps does by default:
// ", " and ": " separators, non-ASCII escaped as \uXXXX, key order kept.
func PythonJSON(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var b bytes.Buffer
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if err := pyValue(&b, dec, tok); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func pyValue(b *bytes.Buffer, dec *json.Decoder, tok json.Token) error {
	switch t := tok.(type) {
	case json.Delim:
		closing := json.Delim('}')
		if t == '[' {
			closing = ']'
		}
		b.WriteByte(byte(t))
		first := true
		for dec.More() {
			if !first {
				b.WriteString(", ")
			}
			first = false
			next, err := dec.Token()
			if err != nil {
				return err
			}
			if t == '{' {
				key, ok := next.(string)
				if !ok {
					return errors.New("invalid object key")
				}
				pyString(b, key)
				b.WriteString(": ")
				if next, err = dec.Token(); err != nil {
					return err
				}
			}
			if err := pyValue(b, dec, next); err != nil {
				return err
			}
		}
		end, err := dec.Token()
		if err != nil || end != closing {
			return errors.New("invalid JSON")
		}
		b.WriteByte(byte(closing))
	case string:
		pyString(b, t)
	case json.Number:
		b.WriteString(t.String())
	case bool:
		if t {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case nil:
		b.WriteString("null")
	default:
		return fmt.Errorf("unexpected token %v", tok)
	}
	return nil
}

func pyString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		s = s[size:]
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			switch {
			case r >= 0x20 && r < 0x7f:
				b.WriteRune(r)
			case r > 0xffff:
				r -= 0x10000
				fmt.Fprintf(b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
			default:
				fmt.Fprintf(b, `\u%04x`, r)
			}
		}
	}
	b.WriteByte('"')
}

// pyTimestamp formats t as Python's datetime.isoformat() of an aware UTC
// time: 2026-03-06T15:11:23.503186+00:00.
func pyTimestamp(t time.Time) string {
	t = t.UTC()
	if t.Nanosecond()/1000 == 0 {
		return t.Format("2006-01-02T15:04:05") + "+00:00"
	}
	return t.Format("2006-01-02T15:04:05.000000") + "+00:00"
}
