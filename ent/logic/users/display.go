package users

import (
	"strings"

	"github.com/inventory/inventory/ent/schema/api"
)

// UserDisplay is a user's display: "username (First Last)" when a full name
// is set, as NetBox's User.__str__ with get_full_name.
func UserDisplay(get api.Getter) string {
	u, _ := get("username").(string)
	first, _ := get("first_name").(string)
	last, _ := get("last_name").(string)
	if full := strings.TrimSpace(first + " " + last); full != "" {
		return u + " (" + full + ")"
	}
	return u
}

// TokenDisplay is a token's display: a v2 token shows its key; a v1 token
// 34 asterisks and the last six characters of the secret (kept at
// creation, since the secret itself is never stored).
func TokenDisplay(get api.Getter) string {
	if v, _ := get("version").(int); v == 2 {
		k, _ := get("key").(string)
		return k
	}
	l6, _ := get("last6").(string)
	return strings.Repeat("*", 34) + l6
}
