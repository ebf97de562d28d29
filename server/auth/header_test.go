package auth

import (
	"strings"
	"testing"
)

func TestParseAuthorization(t *testing.T) {
	v1 := strings.Repeat("a", 39) + "Z"
	tests := []struct {
		name   string
		header string
		want   Credential
		err    error
	}{
		{"absent", "", Credential{}, nil},
		{"only spaces", "   \t ", Credential{}, nil},
		{"basic ignored", "Basic dXNlcjpwYXNz", Credential{}, nil},
		{"unknown scheme with many words ignored", "Digest a b c", Credential{}, nil},
		{"v1 under Token", "Token " + v1, Credential{Version: 1, Secret: v1}, nil},
		{"v1 under Bearer", "Bearer " + v1, Credential{Version: 1, Secret: v1}, nil},
		{"keyword case-insensitive", "tOKEN " + v1, Credential{Version: 1, Secret: v1}, nil},
		{"bearer lower case", "bearer " + v1, Credential{Version: 1, Secret: v1}, nil},
		{"extra whitespace tolerated", "  Token\t\t" + v1 + "  ", Credential{Version: 1, Secret: v1}, nil},
		{"v2 svc under Bearer", "Bearer svc_abcdefABCDEF.secret", Credential{2, "abcdefABCDEF", "secret"}, nil},
		{"v2 svc under Token", "Token svc_abcdefABCDEF.secret", Credential{2, "abcdefABCDEF", "secret"}, nil},
		{"v2 nbt under Bearer", "Bearer nbt_key123.s3cr3t", Credential{2, "key123", "s3cr3t"}, nil},
		{"v2 nbt under Token", "Token nbt_key123.s3cr3t", Credential{2, "key123", "s3cr3t"}, nil},
		{"v2 split at first dot", "Bearer svc_k.a.b.c", Credential{2, "k", "a.b.c"}, nil},
		{"v2 empty key and secret still v2", "Bearer svc_.", Credential{Version: 2}, nil},
		{"prefix is case-sensitive", "Bearer SVC_k.s", Credential{Version: 1, Secret: "SVC_k.s"}, nil},
		{"dot without prefix is v1", "Bearer key.secret", Credential{Version: 1, Secret: "key.secret"}, nil},
		{"Token alone", "Token", Credential{}, ErrHeaderForm},
		{"Bearer alone with spaces", "Bearer   ", Credential{}, ErrHeaderForm},
		{"three words", "Token a b", Credential{}, ErrHeaderForm},
		{"Bearer three words", "Bearer svc_k.s extra", Credential{}, ErrHeaderForm},
		{"invalid utf-8", "Token abc\xff\xfe", Credential{}, ErrHeaderChars},
		{"svc without dot", "Bearer svc_abcdef", Credential{}, ErrHeaderV2Key},
		{"nbt without dot under Token", "Token nbt_abcdef", Credential{}, ErrHeaderV2Key},
		// Python's bytes.lower() does not fold the Kelvin sign to "k".
		{"unicode fold not a keyword", "To\u212Aen " + v1, Credential{}, nil},
		// NBSP is not a separator for bytes.split(); it stays in the value.
		{"nbsp is not whitespace", "Token a\u00a0b", Credential{Version: 1, Secret: "a\u00a0b"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseAuthorization(tt.header)
			if err != tt.err {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if got != tt.want {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestErrorTexts(t *testing.T) {
	// Exact NetBox 403 texts (BEHAVIOUR.md §2.3); changing them breaks clients.
	texts := map[Error]string{
		ErrHeaderForm:         `Invalid authorization header: Must be in the form "Bearer <key>.<token>" or "Token <token>"`,
		ErrHeaderChars:        `Invalid authorization header: Token contains invalid characters`,
		ErrHeaderV2Key:        `Invalid authorization header: Could not parse key from v2 token. Did you mean to use 'Token' instead of 'Bearer'?`,
		ErrInvalidV1:          "Invalid v1 token",
		ErrInvalidV2:          "Invalid v2 token",
		ErrTokenDisabled:      "Token disabled",
		ErrTokenExpired:       "Token expired",
		ErrUserInactive:       "User inactive",
		ErrClientIPUnknown:    "Client IP address could not be determined for validation. Check that the HTTP server is correctly configured to pass the required header(s).",
		ErrNotAuthenticated:   "Authentication credentials were not provided.",
		ErrPermissionDenied:   "You do not have permission to perform this action.",
		ErrInvalidCredentials: "Invalid username/password",
		ErrNoPeppers:          "Unable to save v2 tokens: API_TOKEN_PEPPERS is not defined.",
	}
	for e, want := range texts {
		if e.Error() != want {
			t.Errorf("got %q, want %q", e.Error(), want)
		}
	}
}
