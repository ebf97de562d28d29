package resource

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/inventory/inventory/filters"
)

// NetBox features that reach across models: a generic relation open to
// every model with a registry feature (a contact assignment's object: the
// models with "contacts"), and the filters NetBox's filterset mixins give
// those models (ContactModelFilterSet). Both follow the registry: a model
// with the feature takes part as soon as it is served, without a list to
// keep.

// openGenericTypes gives the generic relations declared with ObjectTypes
// instead of Types their allowed types: the served models with that
// feature, in content-type order.
func openGenericTypes() {
	for _, d := range all {
		for _, f := range d.Fields {
			if f.Kind != KindGenericObject || f.ObjectTypes == "" || f.Types != nil {
				continue
			}
			types := []string{}
			for _, t := range all {
				if ct := t.ContentType(); ObjectTypeAccepted(f.ObjectTypes, ct) {
					types = append(types, ct)
				}
			}
			sort.Strings(types)
			f.Types = types
			for _, tf := range d.Fields {
				if tf.Name == f.Generic+"_type" {
					tf.Types = types
				}
			}
		}
	}
}

// featureFilter is a filter that every model with Feature gets: rows that
// a row of Model points at through its generic relation Generic, chosen
// by the filter Kind on Path: an FK field of Model ("contact"), or an FK
// field then a many-to-many field of its target ("contact.groups", whose
// tree target also matches descendants).
type featureFilter struct {
	Feature, Name, Model, Generic, Path string
}

// featureFilters are NetBox's ContactModelFilterSet.
var featureFilters = []featureFilter{
	{"contacts", "contact", "tenancy.contactassignment", "object", "contact"},
	{"contacts", "contact_role", "tenancy.contactassignment", "object", "role"},
	{"contacts", "contact_group", "tenancy.contactassignment", "object", "contact.groups"},
}

// featureFiltersOf builds the feature filters d takes.
func (d *Descriptor) featureFiltersOf() ([]*filters.Filter, error) {
	var out []*filters.Filter
	for _, ff := range featureFilters {
		m := byType[ff.Model]
		if m == nil || !ObjectTypeAccepted(ff.Feature, d.ContentType()) {
			continue
		}
		g := m.byName[ff.Generic]
		if g == nil || g.Kind != KindGenericObject {
			return nil, fmt.Errorf("filter %s: %s has no generic relation %s", ff.Name, ff.Model, ff.Generic)
		}
		first := filters.Hop{Table: m.Table, Key: m.byName[ff.Generic+"_id"].Column,
			TypeColumn: m.byName[ff.Generic+"_type"].Column, Type: d.ContentType()}
		f, err := pathFilter(ff.Name, m, ff.Path, "", first)
		if err != nil {
			return nil, err
		}
		f.Column = "id"
		out = append(out, f)
	}
	return out, nil
}

// pathFilter is an Into filter named name on path from d: an FK field of
// d, optionally followed by a many-to-many field of its target and the
// attribute the values name (".slug"; by id when absent). lead are hops
// that reach d's rows first.
func pathFilter(name string, d *Descriptor, path, attr string, lead ...filters.Hop) (*filters.Filter, error) {
	parts := strings.Split(path, ".")
	fk := d.byName[parts[0]]
	if fk == nil || fk.Kind != KindFK || fk.target == nil {
		return nil, fmt.Errorf("filter %s: %s is not an FK field of %s", name, parts[0], d.ContentType())
	}
	hops := lead
	target := fk.target
	if len(lead) > 0 {
		hops[len(hops)-1].Column = fk.Column
	}
	if len(parts) > 1 {
		mf := fk.target.byName[parts[1]]
		if mf == nil || mf.Kind != KindM2M || mf.target == nil {
			return nil, fmt.Errorf("filter %s: %s is not a many-to-many field of %s", name, parts[1], fk.target.ContentType())
		}
		hops = append(hops, filters.Hop{Table: mf.Join, Key: mf.JoinOwn, Column: mf.JoinTarget})
		target = mf.target
	}
	f := &filters.Filter{Name: name, Kind: filters.ForeignID, RelTable: target.Table, RelParent: "parent_id", Into: hops}
	if len(lead) == 0 {
		// The hops start at d's own FK column.
		f.Column = fk.Column
		if len(hops) == 0 {
			return nil, fmt.Errorf("filter %s: %s leads nowhere", name, path)
		}
	}
	if attr != "" {
		af := target.byName[attr]
		if af == nil || af.Column == "" {
			return nil, fmt.Errorf("filter %s: %s has no field %s", name, target.ContentType(), attr)
		}
		f.Kind, f.RelColumn = filters.ForeignAttr, af.Column
	}
	if target.Tree {
		if f.Kind == filters.ForeignID {
			f.Kind = filters.TreeID
		} else {
			f.Kind = filters.TreeAttr
		}
	}
	return f, nil
}

func init() {
	// m2m-via: rows whose FK field Column points at a row with a
	// many-to-many field matching: Attr is the field, with the attribute
	// the values name after a dot ("groups.slug"; by id when absent). A
	// contact assignment's group: its contact's groups, descendants
	// included (NetBox's TreeNodeMultipleChoiceFilter on contact__groups).
	FilterKinds["m2m-via"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		m2m, attr, _ := strings.Cut(decl.Attr, ".")
		f, err := pathFilter(decl.Name, d, decl.Column+"."+m2m, attr)
		if err != nil {
			return nil
		}
		return f
	}
	// search-related: q over fields of the rows FK fields point at, Attr
	// listing "fk.field" pairs (a contact assignment's contact's and
	// role's names): a case-insensitive substring of any.
	FilterKinds["search-related"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		type part struct{ col, table, attr string }
		var parts []part
		for _, p := range strings.Fields(decl.Attr) {
			fk, attr, _ := strings.Cut(p, ".")
			f := d.byName[fk]
			if f == nil || f.Kind != KindFK || f.target == nil || f.target.byName[attr] == nil {
				return nil
			}
			parts = append(parts, part{f.Column, f.target.Table, f.target.byName[attr].Column})
		}
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(lookup string, values []string) (func(*sql.Selector), error) {
				if strings.TrimSpace(values[len(values)-1]) == "" {
					return nil, nil
				}
				return func(s *sql.Selector) {
					var ps []*sql.Predicate
					for _, p := range parts {
						sub := sql.Dialect(s.Dialect()).Select("id").From(sql.Table(p.table))
						pred, err := filters.Search(p.attr)("", values)
						if err != nil || pred == nil {
							return
						}
						pred(sub)
						ps = append(ps, sql.In(s.C(p.col), sub))
					}
					s.Where(sql.Or(ps...))
				}, nil
			}}
	}
}

// refreshDisplayCopies renews the copies of an updated object's display
// that rows pointing at it through a generic relation keep
// (_<name>_display, written by decodeGeneric): a renamed site renames
// itself in its contact assignments' displays, as NetBox's live str()
// would show. Nothing runs when the display does not change.
func (d *Descriptor) refreshDisplayCopies(ctx context.Context, tx *Tx, existing *Row, ch *change) error {
	var rels []relation
	for _, r := range referencing(d) {
		if r.f.Kind != KindGenericObject {
			continue
		}
		if cf := r.d.byName["_"+r.f.Generic+"_display"]; cf != nil && cf.Kind == KindHidden {
			rels = append(rels, r)
		}
	}
	if len(rels) == 0 {
		return nil
	}
	row := &Row{ID: existing.ID, Vals: slices.Clone(existing.Vals)}
	for f, v := range ch.set {
		if f.col >= 0 {
			row.Vals[f.col] = v
		}
	}
	now := d.DisplayOf(row)
	if now == d.DisplayOf(existing) {
		return nil
	}
	for _, r := range rels {
		cf := r.d.byName["_"+r.f.Generic+"_display"]
		tf, idf := r.d.byName[r.f.Generic+"_type"], r.d.byName[r.f.Generic+"_id"]
		q := fmt.Sprintf(`UPDATE %s SET %s = %s WHERE %s = %s AND %s = %s`, quote(r.d.Table), quote(cf.Column),
			placeholders(tx.Dialect, 1, 1), quote(tf.Column), placeholders(tx.Dialect, 2, 1), quote(idf.Column),
			placeholders(tx.Dialect, 3, 1))
		if _, err := tx.Client.ExecContext(ctx, q, now, d.ContentType(), existing.ID); err != nil {
			tx.fail(err)
			return err
		}
	}
	return nil
}
