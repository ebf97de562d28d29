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
}
