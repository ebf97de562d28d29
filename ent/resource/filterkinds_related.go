package resource

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/inventory/inventory/filters"
)

// Filters on related-object counts, which NetBox keeps in counter-cache
// columns (a device type's interface_template_count) and filters like any
// number, plus its "has any" booleans (interfaces=true). We count at read
// time, so both filter on a correlated subquery over the count's
// relation; Column names the count field (api.Model.Counts) of the model.
func init() {
	// related-count: the count compared with the value(s): exact (any of
	// them), n (none of them), lt, lte, gt, gte; empty, as on NetBox's
	// counter column (never null): true matches no row, false every row.
	FilterKinds["related-count"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{"n", "lt", "lte", "gt", "gte", "empty"},
			Func: func(lookup string, values []string) (func(*sql.Selector), error) {
				if lookup == "empty" {
					empty, err := filters.BoolValue(values[len(values)-1])
					if err != nil {
						return nil, err
					}
					return func(s *sql.Selector) {
						if empty {
							s.Where(sql.False())
						}
					}, nil
				}
				ns := make([]any, 0, len(values))
				for _, v := range values {
					n, err := strconv.Atoi(strings.TrimSpace(v))
					if err != nil {
						return nil, errors.New("Enter a number.")
					}
					ns = append(ns, n)
				}
				return func(s *sql.Selector) {
					sub, err := countSubquery(d, decl.Column, s)
					if err != nil {
						s.AddError(err)
						return
					}
					ops := map[string]string{"lt": "<", "lte": "<=", "gt": ">", "gte": ">="}
					if op, ok := ops[lookup]; ok {
						s.Where(rawPred(sub+" "+op+" ?", ns[len(ns)-1]))
						return
					}
					in := strings.TrimSuffix(strings.Repeat("?, ", len(ns)), ", ")
					p := rawPred(sub+" IN ("+in+")", ns...)
					if lookup == "n" {
						p = sql.Not(p)
					}
					s.Where(p)
				}, nil
			}}
	}
	// related-exists: true for rows with at least one related row, false
	// for rows with none.
	FilterKinds["related-exists"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				var want bool
				switch strings.ToLower(strings.TrimSpace(values[len(values)-1])) {
				case "true", "1", "yes", "on":
					want = true
				case "false", "0", "no", "off":
				default:
					return nil, errors.New("Select a valid choice. " + values[len(values)-1] + " is not one of the available choices.")
				}
				return func(s *sql.Selector) {
					sub, err := countSubquery(d, decl.Column, s)
					if err != nil {
						s.AddError(err)
						return
					}
					if want {
						s.Where(rawPred(sub + " > 0"))
					} else {
						s.Where(rawPred(sub + " = 0"))
					}
				}, nil
			}}
	}
}

func init() {
	// null-or-same: rows whose FK Column is null or equals the Attr column
	// of the Target row named by the value (NetBox's platforms
	// available_for_device_type: no manufacturer, or the device type's).
	FilterKinds["null-or-same"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		t := byType[decl.Target] // filters are built while the registry resolves
		if t == nil {
			return nil
		}
		col := d.column(decl.Column)
		return numberFilter(decl.Name, func(id int64) func(*sql.Selector) {
			return func(s *sql.Selector) {
				s.Where(sql.Or(sql.IsNull(s.C(col)), rawPred(s.C(col)+" IN (SELECT t."+s.Quote(decl.Attr)+
					" FROM "+s.Quote(t.Table)+" t WHERE t."+s.Quote("id")+" = ?)", id)))
			}
		})
	}
}

// countSubquery renders the correlated COUNT of the count field name of d
// for the selector's current row; names may list several count fields
// separated by commas, which are summed (NetBox's pass_through_ports: front
// or rear port templates).
func countSubquery(d *Descriptor, names string, s *sql.Selector) (string, error) {
	var parts []string
	for _, name := range strings.Split(names, ",") {
		p, err := countOne(d, name, s)
		if err != nil {
			return "", err
		}
		parts = append(parts, p)
	}
	return "(" + strings.Join(parts, " + ") + ")", nil
}

func countOne(d *Descriptor, name string, s *sql.Selector) (string, error) {
	f := d.byName[name]
	if f == nil || f.Count == nil {
		return "", fmt.Errorf("filter: %s is no count field of %s", name, d.ContentType())
	}
	table := f.Count.Table
	if f.Count.Model != "" {
		t := ByContentType(f.Count.Model)
		if t == nil {
			return "", fmt.Errorf("filter: unknown model %s", f.Count.Model)
		}
		table = t.Table
	}
	typed := ""
	if tc := f.Count.TypeColumn; tc != "" {
		// A generic relation: only rows pointing at this model (content
		// types are plain names, safe to inline quoted).
		typed = " AND rc." + s.Quote(tc) + " = '" + d.ContentType() + "'"
	}
	return "(SELECT COUNT(*) FROM " + s.Quote(table) + " rc WHERE rc." + s.Quote(f.Count.Column) + " = " + s.C("id") + typed + ")", nil
}

// boolValue reads a BooleanFilter value (the last one counts).
func boolValue(values []string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(values[len(values)-1])) {
	case "true", "1", "yes", "on":
		return true, nil
	case "false", "0", "no", "off":
		return false, nil
	}
	return false, errors.New("Select a valid choice. " + values[len(values)-1] + " is not one of the available choices.")
}

func init() {
	// is-set: true for rows whose Column holds a value, false for rows
	// where it is null (NetBox's exclude(field__isnull=value) methods: a
	// device's local_context_data, virtual_chassis_member).
	FilterKinds["is-set"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		col := d.column(decl.Column)
		placeholder := d.byName[decl.Column]
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				want, err := boolValue(values)
				if err != nil {
					return nil, err
				}
				if placeholder != nil && placeholder.Kind == KindEmpty {
					// A placeholder (api.Model.Empty: a device type's
					// front_image, not stored) always renders its value:
					// every row has it set, or none has.
					set := placeholder.Empty != nil
					return func(s *sql.Selector) {
						if want != set {
							s.Where(sql.False())
						}
					}, nil
				}
				return func(s *sql.Selector) {
					if want {
						s.Where(sql.NotNull(s.C(col)))
					} else {
						s.Where(sql.IsNull(s.C(col)))
					}
				}, nil
			}}
	}
	// generic-via: rows whose generic relation Column points at an object
	// that leads, through its FK fields, to a row whose Attr is among the
	// values. Target lists "type:fk.fk..." for each member type: a circuit
	// group assignment's provider is its circuit's provider or its
	// virtual circuit's provider network's provider (NetBox's
	// CircuitGroupAssignmentFilterSet.filter_provider). Attr "id" takes
	// numbers (MultiValueNumberFilter: "Enter a number."), others text.
	FilterKinds["generic-via"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		tf, idf := d.byName[decl.Column+"_type"], d.byName[decl.Column+"_id"]
		if tf == nil || idf == nil || decl.Target == "" || decl.Attr == "" {
			return nil
		}
		type path struct {
			ct    string
			hops  []*Field
			attr  string
			table string
		}
		var paths []path
		for _, spec := range strings.Split(decl.Target, ",") {
			ct, via, _ := strings.Cut(spec, ":")
			cur := byType[ct]
			if cur == nil || via == "" {
				return nil
			}
			p := path{ct: ct, table: cur.Table}
			for _, hop := range strings.Split(via, ".") {
				f := cur.byName[hop]
				if f == nil || f.Kind != KindFK {
					return nil
				}
				p.hops = append(p.hops, f)
				cur = byType[f.Target]
			}
			a := cur.byName[decl.Attr]
			if a == nil || a.Column == "" {
				return nil
			}
			p.attr = a.Column
			paths = append(paths, p)
		}
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				args := make([]any, 0, len(values))
				for _, v := range values {
					if decl.Attr != "id" {
						args = append(args, v)
						continue
					}
					f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
					if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
						return nil, errors.New("Enter a number.")
					}
					args = append(args, int64(f))
				}
				return func(s *sql.Selector) {
					b := sql.Dialect(s.Dialect())
					ors := make([]*sql.Predicate, len(paths))
					for i, p := range paths {
						// Innermost first: the rows of the last hop's target
						// with the attribute, then each hop back to the member.
						last := p.hops[len(p.hops)-1]
						inner := b.Select("id").From(sql.Table(byType[last.Target].Table)).Where(sql.In(p.attr, args...))
						for j := len(p.hops) - 1; j >= 0; j-- {
							table := p.table
							if j > 0 {
								table = byType[p.hops[j-1].Target].Table
							}
							inner = b.Select("id").From(sql.Table(table)).Where(sql.In(p.hops[j].Column, inner))
						}
						ors[i] = sql.And(sql.EQ(s.C(tf.Column), p.ct), sql.In(s.C(idf.Column), inner))
					}
					s.Where(sql.Or(ors...))
				}, nil
			}}
	}
	// reverse-exists: true for rows that a row of the Target model points
	// at through its FK field Column, false for rows none points at (a
	// device's has_virtual_device_context).
	FilterKinds["reverse-exists"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				want, err := boolValue(values)
				if err != nil {
					return nil, err
				}
				return func(s *sql.Selector) {
					t := ByContentType(decl.Target)
					if t == nil {
						s.AddError(fmt.Errorf("filter %s: unknown model %s", decl.Name, decl.Target))
						return
					}
					sub := "EXISTS (SELECT 1 FROM " + s.Quote(t.Table) + " rx WHERE rx." + s.Quote(t.column(decl.Column)) + " = " + s.C("id") + ")"
					if !want {
						sub = "NOT " + sub
					}
					s.Where(rawPred(sub))
				}, nil
			}}
	}
}

// reverse-id: rows that a row of Target points at through its Column,
// the Target rows chosen by their Attr column (id when empty) among the
// values: a module bay's installed_module_id (the bays whose module has
// one of the ids); a device's parent_device_id (Attr "device_id": the
// devices installed in bays of those devices).
func init() {
	FilterKinds["reverse-id"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{"n"},
			Func: func(lookup string, values []string) (func(*sql.Selector), error) {
				ids := make([]int, 0, len(values))
				for _, v := range values {
					n, err := strconv.Atoi(strings.TrimSpace(v))
					if err != nil {
						return nil, errors.New("Enter a number.")
					}
					ids = append(ids, n)
				}
				return func(s *sql.Selector) {
					td := ByContentType(decl.Target)
					if td == nil {
						s.AddError(fmt.Errorf("filter %s: unknown target %s", decl.Name, decl.Target))
						return
					}
					t := sql.Table(td.Table)
					match := decl.Attr
					if match == "" {
						match = "id"
					}
					sub := sql.Dialect(s.Dialect()).Select(t.C(decl.Column)).From(t).Where(sql.InInts(t.C(match), ids...))
					p := sql.In(s.C("id"), sub)
					if lookup == "n" {
						p = sql.NotIn(s.C("id"), sub)
					}
					s.Where(p)
				}, nil
			}}
	}
}
