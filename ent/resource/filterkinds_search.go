package resource

import (
	"fmt"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/inventory/inventory/filters"
)

func init() {
	// search-via: q over the text columns Attr ("name,slug,description")
	// of the row the FK field Via points at (a tagged item's q searches
	// its tag), not over the model's own columns.
	FilterKinds["search-via"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		fk := d.byName[decl.Via]
		if fk == nil || fk.Kind != KindFK || decl.Attr == "" {
			return nil
		}
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(lookup string, values []string) (func(*sql.Selector), error) {
				// The target is resolved per request: it may be prepared
				// after this model.
				td := ByContentType(fk.Target)
				if td == nil {
					return nil, fmt.Errorf("filter %s: %s is not served", decl.Name, fk.Target)
				}
				var related []string
				for _, n := range strings.Split(decl.Attr, ",") {
					related = append(related, td.column(strings.TrimSpace(n)))
				}
				return filters.SearchForeign(fk.Column, td.Table, related)(lookup, values)
			}}
	}
}
