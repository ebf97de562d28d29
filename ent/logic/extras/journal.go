package extras

import (
	"time"

	"github.com/inventory/inventory/ent/schema/api"
)

// JournalEntryKinds is NetBox's JournalEntryKindChoices.
var JournalEntryKinds = api.C("info", "Info", "success", "Success", "warning", "Warning", "danger", "Danger")

// JournalEntryDisplay is NetBox's JournalEntry.__str__: the creation date
// and time to the minute, in UTC (NetBox's default TIME_ZONE), and the
// kind's label: "2026-11-25 06:40 (Info)".
func JournalEntryDisplay(get api.Getter) string {
	var t time.Time
	switch v := get("created").(type) {
	case time.Time:
		t = v
	case *time.Time:
		if v != nil {
			t = *v
		}
	}
	kind, _ := get("kind").(string)
	label := kind
	for _, c := range JournalEntryKinds {
		if c.Value == kind {
			label = c.Label
		}
	}
	return t.UTC().Format("2006-01-02 15:04") + " (" + label + ")"
}
