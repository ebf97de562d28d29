package resource

import (
	"entgo.io/ent/dialect/sql"

	"github.com/inventory/inventory/filters"
)

func init() {
	// path-connected: NetBox's PathEndpointFilterSet.connected: true for
	// endpoints whose stored path (_path_id) is complete and active, false
	// for the others (no path, or one that is not).
	FilterKinds["path-connected"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				want, err := boolValue(values)
				if err != nil {
					return nil, err
				}
				return func(s *sql.Selector) {
					col := s.C("_path_id")
					if want {
						s.Where(rawPred(col + " IN (SELECT cp.id FROM dcim_cablepath cp WHERE cp.is_active AND cp.is_complete)"))
					} else {
						s.Where(rawPred("(" + col + " IS NULL OR " + col +
							" IN (SELECT cp.id FROM dcim_cablepath cp WHERE NOT cp.is_active OR NOT cp.is_complete))"))
					}
				}, nil
			}}
	}
}
