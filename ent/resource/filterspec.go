package resource

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/inventory/inventory/filters"
)

// FilterKinds are named filter builders that schemas reference from
// api.Filter.Kind for model-specific filters (prefix containment, ...).
var FilterKinds = map[string]func(d *Descriptor, decl FilterDecl) *filters.Filter{}

type storeKey struct{}

// WithStore puts the request's Store in ctx, for filters that read at
// request time (custom fields).
func WithStore(ctx context.Context, st Store) context.Context {
	return context.WithValue(ctx, storeKey{}, st)
}

// StoreFrom returns the Store put in ctx by WithStore.
func StoreFrom(ctx context.Context) (Store, bool) {
	st, ok := ctx.Value(storeKey{}).(Store)
	return st, ok
}

// buildFilters derives the model's filter spec from its fields, the way
// NetBox's filtersets derive theirs from model fields, then applies the
// schema's declared filters.
func (d *Descriptor) buildFilters() error {
	s := &filters.Spec{Table: d.Table, Ordering: map[string]string{}}
	add := func(f *filters.Filter) {
		for i, old := range s.Filters {
			if old.Name == f.Name {
				s.Filters[i] = f
				return
			}
		}
		s.Filters = append(s.Filters, f)
	}
	for _, f := range d.Fields {
		if f.Kind == KindHidden || f.Kind == KindSecret {
			continue
		}
		if f.Column != "" && f.Kind != KindCustomFields && f.Kind != KindJSON && f.Kind != KindGenericRefs && f.Kind != KindStrings && f.Kind != KindContentTypes {
			s.Ordering[f.Name] = f.Column
		}
		if f.Natural != "" {
			// Natural order: the companion sort key, byte-wise.
			s.Ordering[f.Name] = f.Natural
			s.Text = append(s.Text, f.Natural)
		}
		if f.WriteOnly {
			continue
		}
		switch f.Kind {
		case KindID, KindInt:
			if len(f.Choices) > 0 {
				// An integer rendered bare but with choices (a token's
				// version): NetBox's MultipleChoiceFilter, as KindChoice.
				add(choiceFilter(f))
				break
			}
			add(&filters.Filter{Name: f.Name, Kind: filters.Integer, Column: f.Column})
		case KindFloat:
			add(&filters.Filter{Name: f.Name, Kind: filters.Decimal, Column: f.Column})
		case KindString, KindSlug, "timezone", "color":
			add(&filters.Filter{Name: f.Name, Kind: filters.String, Column: f.Column, Nullable: true})
		default:
			// Kinds with their own codec but plain text storage
			// (username, email, ...) filter as strings, as NetBox's
			// CharFields do; without this users had no username filter.
			// (Not on the codec: the server registers some codecs, and the
			// filters must not depend on what is linked in.)
			if f.Kind != KindText && f.GoType == "string" && f.Column != "" {
				add(&filters.Filter{Name: f.Name, Kind: filters.String, Column: f.Column, Nullable: true})
			}
		case KindBool:
			add(&filters.Filter{Name: f.Name, Kind: filters.Boolean, Column: f.Column})
		case KindTime:
			add(&filters.Filter{Name: f.Name, Kind: filters.DateTime, Column: f.Column})
		case KindChoice:
			add(choiceFilter(f))
		case KindM2M:
			for _, mf := range d.m2mFilters(f) {
				add(mf)
			}
		case KindGenericType:
			add(genericTypeFilter(f.Name, f.Column))
		case KindGenericID:
			add(&filters.Filter{Name: f.Name, Kind: filters.Integer, Column: f.Column})
		case KindFK:
			t := f.target
			idKind, attrKind := filters.ForeignID, filters.ForeignAttr
			if t.Tree && t != d {
				idKind, attrKind = filters.TreeID, filters.TreeAttr
			}
			add(&filters.Filter{Name: f.Name + "_id", Kind: idKind, Column: f.Column, RelTable: t.Table, RelParent: "parent_id"})
			if attr := defaultLookup(f); attr != "" {
				add(&filters.Filter{Name: f.Name, Kind: attrKind, Column: f.Column, RelTable: t.Table, RelColumn: t.byName[attr].Column, RelParent: "parent_id"})
			}
		}
	}
	if d.Tree {
		// ancestor filters: the node itself and everything below it.
		add(&filters.Filter{Name: "ancestor_id", Kind: filters.TreeID, Column: "id", RelTable: d.Table, RelParent: "parent_id"})
		add(&filters.Filter{Name: "ancestor", Kind: filters.TreeAttr, Column: "id", RelTable: d.Table, RelColumn: "slug", RelParent: "parent_id"})
	}
	if len(d.Search) > 0 {
		add(&filters.Filter{Name: "q", Kind: filters.Custom, Lookups: []string{}, Search: d.Search, Func: filters.Search(d.Search...)})
	}
	if d.Tagged {
		add(&filters.Filter{Name: "tag", Kind: filters.TagSlug})
		add(&filters.Filter{Name: "tag_id", Kind: filters.TagID})
		s.TagTable, s.TagsTable, s.ObjectType = "extras_taggeditem", "extras_tag", d.ContentType()
	}
	if d.Custom {
		ct := d.ContentType()
		s.CustomFieldColumn = customFieldColumn
		s.CustomFields = func(ctx context.Context) ([]filters.CustomField, error) {
			st, ok := StoreFrom(ctx)
			if !ok {
				return nil, nil
			}
			defs, err := CustomFieldsFor(ctx, st, ct)
			out := make([]filters.CustomField, len(defs))
			for i, cf := range defs {
				out[i] = filters.CustomField{Name: cf.Name, Type: cf.Type, FilterLogic: cf.FilterLogic}
			}
			return out, err
		}
	}
	if d.Logged {
		for _, f := range d.requestFilters() {
			add(f)
		}
	}
	ffs, err := d.featureFiltersOf()
	if err != nil {
		return err
	}
	for _, f := range ffs {
		add(f)
	}
	declared := map[string]bool{}
	for _, decl := range d.FilterDecl {
		f, err := d.declared(decl)
		if err != nil {
			return err
		}
		add(f)
		declared[decl.Name] = true
	}
	drop := map[string]bool{}
	for _, n := range d.NoFilters {
		drop[n] = true
	}
	kept := s.Filters[:0]
	for _, f := range s.Filters {
		if !drop[f.Name] {
			kept = append(kept, f)
		}
	}
	// NetBox's "<type filter>_id" twins (object_type_id beside
	// object_type): the same match, the object types named by their ids.
	if nb, ok := NetBoxFilters(d.ContentType()); ok {
		for _, f := range kept {
			if _, twin := nb[f.Name+"_id"]; twin && !slices.ContainsFunc(kept, func(k *filters.Filter) bool { return k.Name == f.Name+"_id" }) {
				if idf := contentTypeIDTwin(f); idf != nil {
					kept = append(kept, idf)
				}
			}
		}
	}
	s.Filters = d.netboxOnly(kept, declared)
	for _, o := range d.Ordering {
		desc := strings.HasPrefix(o, "-")
		name := strings.TrimPrefix(o, "-")
		col := name
		if f := d.byName[name]; f != nil && f.Natural != "" {
			col = f.Natural
		} else if f != nil && f.Column != "" {
			col = f.Column
		} else if expr, text, ok := d.orderVia(name); ok {
			col = expr
			if text {
				s.Text = append(s.Text, expr)
			}
		}
		if desc {
			col = "-" + col
		}
		s.Default = append(s.Default, col)
	}
	d.spec = s
	return nil
}

// choiceFilter is the filter of a choice field: NetBox's
// MultipleChoiceFilter, its values checked against the choices.
func choiceFilter(f *Field) *filters.Filter {
	var vals []string
	for _, c := range f.Choices {
		vals = append(vals, fmt.Sprint(c.Value))
	}
	return &filters.Filter{Name: f.Name, Kind: filters.Choice, Column: f.Column, Choices: vals, Nullable: true}
}

// declared builds a filter the schema declares explicitly.
func (d *Descriptor) declared(decl FilterDecl) (*filters.Filter, error) {
	if b, ok := FilterKinds[decl.Kind]; ok {
		f := b(d, decl)
		if f == nil {
			return nil, fmt.Errorf("filter %s: kind %s refused", decl.Name, decl.Kind)
		}
		return f, nil
	}
	kinds := map[string]filters.Kind{
		"string": filters.String, "choice": filters.Choice, "integer": filters.Integer, "decimal": filters.Decimal,
		"boolean": filters.Boolean, "datetime": filters.DateTime, "date": filters.Date,
		"fk-id": filters.ForeignID, "fk-attr": filters.ForeignAttr, "tree-id": filters.TreeID, "tree-attr": filters.TreeAttr,
	}
	k, ok := kinds[decl.Kind]
	if !ok {
		return nil, fmt.Errorf("filter %s: unknown kind %q", decl.Name, decl.Kind)
	}
	f := &filters.Filter{Name: decl.Name, Kind: k, Column: decl.Column, Choices: decl.Choices, Lookups: decl.Lookups, RelParent: "parent_id"}
	target, attr := decl.Target, decl.Attr
	if decl.Via != "" {
		// The filter reads a field of the row the FK field Via points at;
		// "rack.site" follows one FK after another.
		var chain []*Field
		cur := d
		for _, hop := range strings.Split(decl.Via, ".") {
			// An FK field, or a hidden key column with a target (a
			// tag's owner_id, which NetBox's serializer does not show).
			v := cur.byName[hop]
			if v == nil || v.Kind != KindFK && v.Kind != KindHidden || v.target == nil {
				return nil, fmt.Errorf("filter %s: via %q: %s is not an FK field of %s", decl.Name, decl.Via, hop, cur.ContentType())
			}
			chain = append(chain, v)
			cur = v.target
		}
		via := chain[len(chain)-1]
		on := via.target.byName[decl.Column]
		if on == nil || on.Column == "" {
			return nil, fmt.Errorf("filter %s: %s has no field %q", decl.Name, via.target.ContentType(), decl.Column)
		}
		// Hop i reads, in its target's table, the FK of hop i+1 (the
		// last hop: the filtered field).
		hops := make([]filters.Through, len(chain))
		for i, v := range chain {
			hops[i] = filters.Through{Table: v.target.Table, Column: on.Column}
			if i+1 < len(chain) {
				hops[i].Column = chain[i+1].Column
			}
		}
		f.Column, f.Through = chain[0].Column, &hops[0]
		if len(hops) > 1 {
			f.Beyond = hops[1:]
		}
		switch k {
		case filters.ForeignID, filters.ForeignAttr, filters.TreeID, filters.TreeAttr:
			if on.Kind != KindFK {
				return nil, fmt.Errorf("filter %s: %s.%s is not an FK field", decl.Name, via.target.ContentType(), decl.Column)
			}
			if target == "" {
				target = on.Target
			}
			if attr == "" && (k == filters.ForeignAttr || k == filters.TreeAttr) {
				attr = defaultLookup(on)
			}
		case filters.String, filters.Choice:
			f.Nullable = true
		}
	}
	if target != "" {
		t := byType[target]
		if t == nil {
			return nil, fmt.Errorf("filter %s: unknown target %s", decl.Name, target)
		}
		f.RelTable, f.RelColumn = t.Table, attr
		if a := t.byName[attr]; a != nil && a.Column != "" {
			f.RelColumn = a.Column
		}
		if (k == filters.ForeignAttr || k == filters.TreeAttr) && f.RelColumn == "" {
			return nil, fmt.Errorf("filter %s: no attribute on %s", decl.Name, target)
		}
	}
	return f, nil
}

// defaultLookup is the attribute an FK's <rel> filter matches: the field's
// Lookup, else the target's slug, else its name, else the target's natural
// key: its first unique text column (a user's username, as NetBox's user
// filter); "" when it has none.
func defaultLookup(f *Field) string {
	if f.Lookup != "" {
		return f.Lookup
	}
	t := f.target
	for _, a := range []string{"slug", "name"} {
		if t.byName[a] != nil {
			return a
		}
	}
	for _, tf := range t.Fields {
		if tf.Unique && tf.GoType == "string" && tf.Column != "" && !tf.ReadOnly {
			return tf.Name
		}
	}
	return ""
}

// orderVia reads a default ordering term "fk__attr" (Django's
// tag__weight): a field of the row the FK field fk points at, as a
// correlated subquery on the model's own table. text says whether the
// field is text (compared byte-wise, as every text ordering).
func (d *Descriptor) orderVia(name string) (expr string, text bool, ok bool) {
	fk, attr, cut := strings.Cut(name, "__")
	f := d.byName[fk]
	if !cut || f == nil || f.Kind != KindFK || f.target == nil {
		return "", false, false
	}
	af := f.target.byName[attr]
	if af == nil || af.Column == "" {
		return "", false, false
	}
	expr = "(SELECT r." + quote(af.Column) + " FROM " + quote(f.target.Table) + " r WHERE r.id = " +
		quote(d.Table) + "." + quote(f.Column) + ")"
	return expr, af.GoType == "string", true
}
