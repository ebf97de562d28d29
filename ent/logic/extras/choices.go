package extras

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/inventory/inventory/ent/logic/choicesets"
	"github.com/inventory/inventory/ent/schema/api"
)

// ChoiceSetChoices serves GET /api/extras/custom-field-choice-sets/{id}/choices/
// (NetBox's CustomFieldChoiceSetViewSet.choices): the set's choices
// (CustomFieldChoiceSet.choices: the base set's, then the extra ones, all
// sorted by value when the set orders alphabetically) as {"id": value,
// "display": label}, narrowed by ?q= (case-insensitive, on value or label),
// paginated. The base set is the shared decoded slice of choicesets: a
// request builds only its page's items (and, with ?q=, the matching
// indexes).
func ChoiceSetChoices(r api.Request) (any, error) {
	obj := r.Object()
	var extra []choicesets.Choice
	var pairs [][]any
	if raw, ok := obj("extra_choices").(json.RawMessage); ok && len(raw) > 0 {
		if err := json.Unmarshal(raw, &pairs); err != nil {
			return nil, fmt.Errorf("extra_choices: %w", err)
		}
	}
	for _, p := range pairs {
		if len(p) == 2 {
			extra = append(extra, choicesets.Choice{Value: fmt.Sprint(p[0]), Label: fmt.Sprint(p[1])})
		}
	}
	base := ""
	switch v := obj("base_choices").(type) {
	case string:
		base = v
	case *string:
		if v != nil {
			base = *v
		}
	}
	alpha, _ := obj("order_alphabetically").(bool)
	l := newChoiceList(base, extra, alpha)
	q := strings.ToLower(r.Query("q"))
	if q == "" {
		return l, nil
	}
	lowerBase := choicesets.Lower(base)
	var hits []int32
	k := 0 // extra choices passed, in the alphabetical merge
	for i := range l.Len() {
		var c choicesets.Choice
		switch {
		case l.alpha && k < len(l.pos) && l.pos[k] == i:
			c = lowerChoice(l.extra[k])
			k++
		case l.alpha:
			c = lowerBase[i-k]
		case i < len(l.base):
			c = lowerBase[i]
		default:
			c = lowerChoice(l.extra[i-len(l.base)])
		}
		if strings.Contains(c.Value, q) || strings.Contains(c.Label, q) {
			hits = append(hits, int32(i))
		}
	}
	return filtered{l, hits}, nil
}

// choiceList is a set's choices in NetBox's order, indexed without
// copying the base set: base then extra, or, when alphabetical, the two
// merged by value (Python's stable sort of base+extra: a base choice
// before an extra one of the same value). pos[k] is the index in the
// merged list of extra[k] (extra sorted), for the alphabetical case.
type choiceList struct {
	base, extra []choicesets.Choice
	alpha       bool
	pos         []int
}

func newChoiceList(base string, extra []choicesets.Choice, alpha bool) *choiceList {
	l := &choiceList{base: choicesets.Get(base), extra: extra, alpha: alpha}
	if alpha {
		sort.SliceStable(l.extra, func(i, j int) bool { return l.extra[i].Value < l.extra[j].Value })
		l.pos = make([]int, len(l.extra))
		for k, c := range l.extra {
			// Base choices up to and including this value come first.
			n := sort.Search(len(l.base), func(i int) bool { return l.base[i].Value > c.Value })
			l.pos[k] = n + k
		}
	}
	return l
}

func (l *choiceList) Len() int { return len(l.base) + len(l.extra) }

// at is the i-th choice.
func (l *choiceList) at(i int) choicesets.Choice {
	if !l.alpha {
		if i < len(l.base) {
			return l.base[i]
		}
		return l.extra[i-len(l.base)]
	}
	// pos is increasing: k extra choices come before i.
	k := sort.SearchInts(l.pos, i)
	if k < len(l.pos) && l.pos[k] == i {
		return l.extra[k]
	}
	return l.base[i-k]
}

func lowerChoice(c choicesets.Choice) choicesets.Choice {
	return choicesets.Choice{Value: strings.ToLower(c.Value), Label: strings.ToLower(c.Label)}
}

func (l *choiceList) Item(i int) any {
	c := l.at(i)
	return map[string]string{"id": c.Value, "display": c.Label}
}

// filtered is the ?q= matches of a choice list, by index.
type filtered struct {
	l    *choiceList
	hits []int32
}

func (f filtered) Len() int       { return len(f.hits) }
func (f filtered) Item(i int) any { return f.l.Item(int(f.hits[i])) }
