package extras

import (
	"strings"

	"github.com/inventory/inventory/ent/schema/api"
)

// CustomFieldDisplay is a custom field's display: its label, else the name
// with underscores as spaces and the first letter capitalised (NetBox's
// CustomField.__str__ via label or name.replace('_', ' ').capitalize()).
func CustomFieldDisplay(get api.Getter) string {
	if l, _ := get("label").(string); l != "" {
		return l
	}
	n, _ := get("name").(string)
	n = strings.ToLower(strings.ReplaceAll(n, "_", " "))
	if n == "" {
		return n
	}
	return strings.ToUpper(n[:1]) + n[1:]
}
