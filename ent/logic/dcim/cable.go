package dcim

import (
	"fmt"

	"github.com/inventory/inventory/ent/schema/api"
)

// CableDisplay is NetBox's Cable.__str__: the label, else "#<id>".
func CableDisplay(get api.Getter) string {
	if l, _ := get("label").(string); l != "" {
		return l
	}
	return fmt.Sprintf("#%v", get("id"))
}

// CableTerminationDisplay is NetBox's CableTermination.__str__, "Cable
// <cable> to <object>", cached on the row by the cable hooks (it names two
// other objects).
func CableTerminationDisplay(get api.Getter) string {
	s, _ := get("_display").(string)
	return s
}
