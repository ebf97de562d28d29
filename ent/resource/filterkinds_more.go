package resource

import (
	"strconv"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/inventory/inventory/filters"
)

// Filter kinds of the dcim rack models, each on SQLite and PostgreSQL.
func init() {
	// json-ints-contain: a JSON list of integers (Column) holds the value,
	// as NetBox's NumericArrayFilter (a reservation's unit).
	FilterKinds["json-ints-contain"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		col := d.column(decl.Column)
		return numberFilter(decl.Name, func(n int64) func(*sql.Selector) {
			return func(s *sql.Selector) {
				if s.Dialect() == dialect.Postgres {
					s.Where(rawPred("EXISTS (SELECT 1 FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof("+s.C(col)+
						"::jsonb) = 'array' THEN "+s.C(col)+"::jsonb ELSE '[]'::jsonb END) e WHERE e.value = ?)", strconv.FormatInt(n, 10)))
					return
				}
				s.Where(rawPred("EXISTS (SELECT 1 FROM json_each("+s.C(col)+") e WHERE e.value = ?)", n))
			}
		})
	}
	// int-min and int-max: an integer column at least or at most the
	// value, Django's NumberFilter with lookup_expr gte / lte under its own
	// name (unit_count_min).
	FilterKinds["int-min"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		col := d.column(decl.Column)
		return numberFilter(decl.Name, func(n int64) func(*sql.Selector) {
			return func(s *sql.Selector) { s.Where(sql.GTE(s.C(col), n)) }
		})
	}
	FilterKinds["int-max"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		col := d.column(decl.Column)
		return numberFilter(decl.Name, func(n int64) func(*sql.Selector) {
			return func(s *sql.Selector) { s.Where(sql.LTE(s.C(col), n)) }
		})
	}
	// related-count: a count field (Column) compared with the value, as
	// NetBox's filters on counter caches (a rack type's rack_count): exact
	// and n, lt, lte, gt, gte. The count is a correlated subquery over the
	// counted model's FK column.
	FilterKinds["related-count"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		f := d.byName[decl.Column]
		if f == nil || f.Count == nil || f.Count.Cumulative {
			return nil
		}
		table := f.Count.Table
		if table == "" {
			t := byType[f.Count.Model]
			if t == nil {
				return nil
			}
			table = t.Table
		}
		fk := f.Count.Column
		ops := map[string]string{"": "=", "n": "<>", "lt": "<", "lte": "<=", "gt": ">", "gte": ">="}
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{"n", "lt", "lte", "gt", "gte"},
			Func: func(lookup string, values []string) (func(*sql.Selector), error) {
				var ns []any
				for _, v := range values {
					n, err := strconv.ParseInt(v, 10, 64)
					if err != nil {
						return nil, filters.Errors{decl.Name + suffix(lookup): {"Enter a number."}}
					}
					ns = append(ns, n)
				}
				op := ops[lookup]
				return func(s *sql.Selector) {
					sub := "(SELECT COUNT(*) FROM \"" + table + "\" rc WHERE rc.\"" + fk + "\" = " + s.C("id") + ")"
					var preds []*sql.Predicate
					for _, n := range ns {
						preds = append(preds, rawPred(sub+" "+op+" ?", n))
					}
					if lookup == "n" {
						s.Where(sql.And(preds...))
					} else {
						s.Where(sql.Or(preds...))
					}
				}, nil
			}}
	}
}

func suffix(lookup string) string {
	if lookup == "" {
		return ""
	}
	return "__" + lookup
}
