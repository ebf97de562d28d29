package resource

import (
	"errors"

	"entgo.io/ent/dialect/sql"

	"github.com/inventory/inventory/filters"
)

// Filter kinds of cables and cable terminations (NetBox's CableFilterSet
// and CableTerminationFilterSet), each a subquery on the termination
// rows, on SQLite and PostgreSQL alike.

// terminationTable holds the cable terminations.
const terminationTable = "dcim_cabletermination"

// cablesWhere is "id IN (cables with a termination matching pred)";
// negated, "id NOT IN" the same.
func cablesWhere(s *sql.Selector, pred *sql.Predicate, negate bool) {
	t := sql.Table(terminationTable)
	sub := sql.Dialect(s.Dialect()).Select(t.C("cable_id")).From(t).Where(pred)
	if negate {
		s.Where(sql.NotIn(s.C("id"), sub))
		return
	}
	s.Where(sql.In(s.C("id"), sub))
}

func init() {
	// cable-termination-type: cables with a termination of one of the
	// types (NetBox's termination_a_type and termination_b_type, which
	// both look at either end).
	FilterKinds["cable-termination-type"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{"n"},
			Func: func(lookup string, values []string) (func(*sql.Selector), error) {
				types := make([]any, 0, len(values))
				for _, v := range values {
					if msg := checkContentType(v, nil); msg != "" {
						return nil, errors.New(msg)
					}
					types = append(types, v)
				}
				return func(s *sql.Selector) {
					cablesWhere(s, sql.In(sql.Table(terminationTable).C("termination_type"), types...), lookup == "n")
				}, nil
			}}
	}
	// cable-end-id: cables whose end Attr ("A" or "B") terminates on an
	// object with one of the ids (termination_a_id, termination_b_id).
	FilterKinds["cable-end-id"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				ids, err := attrValues("id", values)
				if err != nil {
					return nil, err
				}
				t := sql.Table(terminationTable)
				return func(s *sql.Selector) {
					cablesWhere(s, sql.And(sql.In(t.C("termination_id"), ids...), sql.EQ(t.C("cable_end"), decl.Attr)), false)
				}, nil
			}}
	}
	// cable-termination: cables terminating on an object of type Target
	// with one of the ids (interface_id, frontport_id, ...).
	FilterKinds["cable-termination"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				ids, err := attrValues("id", values)
				if err != nil {
					return nil, err
				}
				t := sql.Table(terminationTable)
				return func(s *sql.Selector) {
					cablesWhere(s, sql.And(sql.EQ(t.C("termination_type"), decl.Target), sql.In(t.C("termination_id"), ids...)), false)
				}, nil
			}}
	}
	// cable-cached: cables with a termination whose cached Column
	// (_device_id, _rack_id, _location_id, _site_id) is one of the ids,
	// or, with Target, names an object whose Attr is one of the values
	// (NetBox's filter_by_termination).
	FilterKinds["cable-cached"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		var target *Descriptor
		if decl.Target != "" {
			// byType: ByContentType would wait for the resolution under way.
			if target = byType[decl.Target]; target == nil {
				return nil
			}
		}
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				attr := "id"
				if target != nil {
					attr = decl.Attr
				}
				vals, err := attrValues(attr, values)
				if err != nil {
					return nil, err
				}
				t := sql.Table(terminationTable)
				return func(s *sql.Selector) {
					if target == nil {
						cablesWhere(s, sql.In(t.C(decl.Column), vals...), false)
						return
					}
					o := sql.Table(target.Table)
					objs := sql.Dialect(s.Dialect()).Select(o.C("id")).From(o).Where(sql.In(o.C(target.column(decl.Attr)), vals...))
					cablesWhere(s, sql.In(t.C(decl.Column), objs), false)
				}, nil
			}}
	}
	// cable-unterminated: true for cables missing an end, false for
	// cables with both (NetBox's _unterminated).
	FilterKinds["cable-unterminated"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return boolFilter(decl.Name, func(s *sql.Selector) *sql.Predicate {
			t := sql.Table(terminationTable)
			b := sql.Dialect(s.Dialect())
			both := sql.And(
				sql.In(s.C("id"), b.Select(t.C("cable_id")).From(t).Where(sql.EQ(t.C("cable_end"), "A"))),
				sql.In(s.C("id"), b.Select(t.C("cable_id")).From(t).Where(sql.EQ(t.C("cable_end"), "B"))))
			return sql.Not(both)
		})
	}
	// termination-of: termination rows of an object of type Target with
	// one of the ids (a cable termination's interface_id, ...).
	FilterKinds["termination-of"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				ids, err := attrValues("id", values)
				if err != nil {
					return nil, err
				}
				return func(s *sql.Selector) {
					s.Where(sql.And(sql.EQ(s.C("termination_type"), decl.Target), sql.In(s.C("termination_id"), ids...)))
				}, nil
			}}
	}
}
