package extras

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/inventory/inventory/ent/schema/api"
)

// ChoiceSetChoices serves GET /api/extras/custom-field-choice-sets/{id}/choices/
// (NetBox's CustomFieldChoiceSetViewSet.choices): the set's choices as
// {"id": value, "display": label}, ordered by value when the set orders
// alphabetically, narrowed by ?q= (case-insensitive, on value or label),
// paginated. Base choice sets (IATA, ISO 3166, UN/LOCODE) are not bundled,
// so only the extra choices are served (as choices_count counts them).
func ChoiceSetChoices(r api.Request) (any, error) {
	obj := r.Object()
	var pairs [][]any
	if raw, ok := obj("extra_choices").(json.RawMessage); ok && len(raw) > 0 {
		if err := json.Unmarshal(raw, &pairs); err != nil {
			return nil, fmt.Errorf("extra_choices: %w", err)
		}
	}
	type choice struct{ value, label string }
	choices := make([]choice, 0, len(pairs))
	for _, p := range pairs {
		if len(p) == 2 {
			choices = append(choices, choice{fmt.Sprint(p[0]), fmt.Sprint(p[1])})
		}
	}
	if alpha, _ := obj("order_alphabetically").(bool); alpha {
		sort.SliceStable(choices, func(i, j int) bool { return choices[i].value < choices[j].value })
	}
	q := strings.ToLower(r.Query("q"))
	page := api.Page{}
	for _, c := range choices {
		if q == "" || strings.Contains(strings.ToLower(c.value), q) || strings.Contains(strings.ToLower(c.label), q) {
			page = append(page, map[string]string{"id": c.value, "display": c.label})
		}
	}
	return page, nil
}
