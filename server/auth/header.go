package auth

import (
	"strings"
	"unicode/utf8"
)

// Credential is what an Authorization header carries. The zero value means
// "no credentials": the request is anonymous.
type Credential struct {
	Version int    // 1 or 2; 0 when absent
	Key     string // v2 only
	Secret  string // v2: the secret after the dot; v1: the whole plaintext
}

// ParseAuthorization parses an Authorization header value as NetBox's
// TokenAuthentication does (BEHAVIOUR.md §3.3):
//
//   - empty header, or a scheme other than Token/Bearer (e.g. Basic): no
//     credentials and no error — NetBox silently ignores them;
//   - the scheme is matched ASCII-case-insensitively and must be followed by
//     exactly one further word;
//   - the credential, not the scheme, decides the version: "svc_" or "nbt_"
//     followed by "<key>.<secret>" is v2 (split at the first dot), anything
//     else is v1. So "Token svc_k.s" is v2 and "Bearer <40 chars>" is v1.
//
// Errors are the exact NetBox 403 texts.
func ParseAuthorization(header string) (Credential, error) {
	// Python's bytes.split(): ASCII whitespace only, unlike strings.Fields.
	words := strings.FieldsFunc(header, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f'
	})
	if len(words) == 0 || !(asciiEqualFold(words[0], "token") || asciiEqualFold(words[0], "bearer")) {
		return Credential{}, nil
	}
	if len(words) != 2 {
		return Credential{}, ErrHeaderForm
	}
	value := words[1]
	if !utf8.ValidString(value) {
		return Credential{}, ErrHeaderChars
	}
	rest, ok := strings.CutPrefix(value, Prefix)
	if !ok {
		rest, ok = strings.CutPrefix(value, LegacyPrefix)
	}
	if !ok {
		return Credential{Version: 1, Secret: value}, nil
	}
	key, secret, found := strings.Cut(rest, ".")
	if !found {
		return Credential{}, ErrHeaderV2Key
	}
	return Credential{Version: 2, Key: key, Secret: secret}, nil
}

// asciiEqualFold avoids strings.EqualFold's Unicode folding (the Kelvin
// sign folds to "k"); Python's bytes.lower() only folds ASCII.
func asciiEqualFold(s, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}
