package extras

import (
	"errors"
	"testing"

	"github.com/inventory/inventory/ent/schema/api"
)

// check compares a validator's result with the expected field error
// message ("" for valid).
func check(t *testing.T, err error, field, msg string) {
	t.Helper()
	if msg == "" {
		if err != nil {
			t.Fatalf("got %v; want valid", err)
		}
		return
	}
	var fe *api.FieldError
	if !errors.As(err, &fe) || fe.Field != field || fe.Message != msg {
		t.Fatalf("got %#v; want %s error %q", err, field, msg)
	}
}

func TestValidateCustomFieldName(t *testing.T) {
	for _, tc := range []struct{ name, msg string }{
		{"site_code", ""},
		{"Site2", ""},
		{"has space", "Only alphanumeric characters and underscores are allowed."},
		{"dash-name", "Only alphanumeric characters and underscores are allowed."},
		{"a__b", "Double underscores are not permitted in custom field names."},
	} {
		t.Run(tc.name, func(t *testing.T) { check(t, ValidateCustomFieldName(tc.name), "name", tc.msg) })
	}
}

func TestValidatePayloadURL(t *testing.T) {
	const bad = "Enter a valid URL, beginning with http:// or https://."
	for _, tc := range []struct{ url, msg string }{
		{"https://example.com/hook", ""},
		{"http://10.0.0.1:8080/", ""},
		{"ftp://example.com/", bad},
		{"https://", bad},
		{"https://exa mple.com/", bad},
		{"example.com/hook", bad},
		{"https://{{ data.site }}.example.com/", ""},
		{"{{ base }}/hook", ""},
		{"ftp://{{ host }}/", bad},
		{"https://{{ host }/", "Invalid template: "},
	} {
		t.Run(tc.url, func(t *testing.T) {
			err := ValidatePayloadURL(tc.url)
			if tc.msg == "Invalid template: " {
				var fe *api.FieldError
				if !errors.As(err, &fe) || fe.Field != "payload_url" || len(fe.Message) <= len(tc.msg) || fe.Message[:len(tc.msg)] != tc.msg {
					t.Fatalf("got %#v; want a payload_url template error", err)
				}
				return
			}
			check(t, err, "payload_url", tc.msg)
		})
	}
}
