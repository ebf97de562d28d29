package filters

import (
	"strings"

	"entgo.io/ent/dialect/sql"
)

// SearchForeign is a q filter over the row an FK column points at: it
// matches the rows whose column key refers to a row of table one of whose
// columns related contains the value, case-insensitively (a tagged item's
// q: NetBox's tag__name__icontains | tag__slug__icontains |
// tag__description__icontains). A blank value filters nothing, as
// Search.
func SearchForeign(key, table string, related []string) func(lookup string, values []string) (func(*sql.Selector), error) {
	return func(_ string, values []string) (func(*sql.Selector), error) {
		v := values[len(values)-1]
		if strings.TrimSpace(v) == "" {
			return nil, nil
		}
		return where(func(sel *sql.Selector, pg bool) frag {
			rs := make([]frag, len(related))
			for i, c := range related {
				rs[i] = cmp(pg, fr(`r.`+quoteIdent(c)), "ic", v)
			}
			return cat(fr(sel.C(key)+` IN (SELECT r.id FROM `+quoteIdent(table)+` r WHERE `), join(" OR ", rs), fr(")"))
		}), nil
	}
}
