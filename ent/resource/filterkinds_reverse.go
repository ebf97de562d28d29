package resource

import (
	"fmt"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/inventory/inventory/filters"
)

// Filters through rows of another model that point at this one, on a
// key those rows keep (NetBox's terminations___region: the circuits whose
// terminations are cached under a region or one of its descendants).
func init() {
	// reverse-tree: rows that a row of Target points at through its
	// Column, the Target rows chosen by their key column Attr: by id, or
	// by an attribute of the key's model after a dot ("_region_id.slug").
	// When the key's model is a tree, its descendants match too. __n:
	// rows no such Target row points at.
	FilterKinds["reverse-tree"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		key, attr, _ := strings.Cut(decl.Attr, ".")
		if attr == "" {
			attr = "id"
		}
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{"n"},
			Func: func(lookup string, values []string) (func(*sql.Selector), error) {
				vals, err := attrValues(attr, values)
				if err != nil {
					return nil, err
				}
				return func(s *sql.Selector) {
					td := ByContentType(decl.Target)
					var kf *Field
					if td != nil {
						kf = td.byCol[key]
					}
					var kd *Descriptor
					if kf != nil {
						kd = ByContentType(kf.Target)
					}
					if kd == nil {
						s.AddError(fmt.Errorf("filter %s: %s has no key %s to a served model", decl.Name, decl.Target, key))
						return
					}
					in := strings.TrimSuffix(strings.Repeat("?, ", len(vals)), ", ")
					nodes := `SELECT id FROM ` + quote(kd.Table) + ` WHERE ` + quote(kd.column(attr)) + ` IN (` + in + `)`
					if kd.Tree {
						nodes = `WITH RECURSIVE rtree(id) AS (` + nodes + ` UNION SELECT rt.id FROM ` + quote(kd.Table) +
							` rt JOIN rtree ON rt.parent_id = rtree.id) SELECT id FROM rtree`
					}
					sub := `SELECT ` + quote(decl.Column) + ` FROM ` + quote(td.Table) + ` WHERE ` + quote(key) + ` IN (` + nodes + `)`
					op := " IN "
					if lookup == "n" {
						op = " NOT IN "
					}
					s.Where(rawPred(s.C("id")+op+"("+sub+")", vals...))
				}, nil
			}}
	}
	// search-reverse: a q filter over the text columns Column (comma
	// separated) and over the text columns of the Target rows pointing at
	// the row: Attr is "<their key column>:<col>,<col>" (a circuit's q
	// searches its terminations' xconnect_id, pp_info and description).
	FilterKinds["search-reverse"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		key, cols, ok := strings.Cut(decl.Attr, ":")
		if !ok || decl.Target == "" {
			return nil
		}
		var own []string
		for _, n := range strings.Split(decl.Column, ",") {
			own = append(own, d.column(n))
		}
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(lookup string, values []string) (func(*sql.Selector), error) {
				// The target is resolved per request: it may be prepared
				// after this model.
				td := ByContentType(decl.Target)
				if td == nil {
					return nil, fmt.Errorf("filter %s: %s is not served", decl.Name, decl.Target)
				}
				var related []string
				for _, n := range strings.Split(cols, ",") {
					related = append(related, td.column(n))
				}
				return filters.SearchRelated(own, td.Table, key, related)(lookup, values)
			}}
	}
	// reverse-filter: rows that a row of Target points at through its
	// Column, the Target rows chosen by Target's own custom filter Attr
	// (a provider's region_id: the providers of the circuits that the
	// circuits' region_id matches). __n: rows no such Target row points
	// at.
	FilterKinds["reverse-filter"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{"n"},
			Func: func(lookup string, values []string) (func(*sql.Selector), error) {
				td := ByContentType(decl.Target)
				var tf *filters.Filter
				if td != nil && td.spec != nil {
					for _, f := range td.spec.Filters {
						if f.Name == decl.Attr && f.Kind == filters.Custom && f.Func != nil {
							tf = f
						}
					}
				}
				if tf == nil {
					return nil, fmt.Errorf("filter %s: %s has no custom filter %s", decl.Name, decl.Target, decl.Attr)
				}
				pred, err := tf.Func("", values)
				if err != nil {
					return nil, err
				}
				return func(s *sql.Selector) {
					t := sql.Table(td.Table)
					sub := sql.Dialect(s.Dialect()).Select(t.C(decl.Column)).From(t)
					pred(sub)
					if lookup == "n" {
						s.Where(sql.NotIn(s.C("id"), sub))
						return
					}
					s.Where(sql.In(s.C("id"), sub))
				}, nil
			}}
	}
}

// generic-reverse: rows that a row of Target points at through its
// generic relation Column (its type naming this model), the Target rows
// chosen by their FK column Attr among ids ("l2vpn_id"), or by an
// attribute of the FK's model after a dot ("l2vpn.identifier"): an
// interface's or a VLAN's l2vpn_id and l2vpn, through its L2VPN
// termination. __n: rows no such Target row points at.
func init() {
	FilterKinds["generic-reverse"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		td := byType[decl.Target] // the registry is being resolved: not ByContentType
		if td == nil {
			return nil
		}
		tf, idf := td.byName[decl.Column+"_type"], td.byName[decl.Column+"_id"]
		key, attr, hop := strings.Cut(decl.Attr, ".")
		kf := td.byName[key]
		if tf == nil || idf == nil || kf == nil || kf.Column == "" || hop && (kf.target == nil || kf.target.byName[attr] == nil) {
			return nil
		}
		numeric := !hop || kf.target.byName[attr].Kind == KindInt
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{"n"},
			Func: func(lookup string, values []string) (func(*sql.Selector), error) {
				name := "id"
				if hop && !numeric {
					name = attr
				}
				vals, err := attrValues(name, values)
				if err != nil {
					return nil, err
				}
				return func(s *sql.Selector) {
					b := sql.Dialect(s.Dialect())
					t := sql.Table(td.Table)
					match := sql.In(t.C(kf.Column), vals...)
					if hop {
						match = sql.In(t.C(kf.Column), b.Select("id").From(sql.Table(kf.target.Table)).
							Where(sql.In(kf.target.column(attr), vals...)))
					}
					sub := b.Select(t.C(idf.Column)).From(t).Where(sql.And(sql.EQ(t.C(tf.Column), d.ContentType()), match))
					if lookup == "n" {
						s.Where(sql.NotIn(s.C("id"), sub))
						return
					}
					s.Where(sql.In(s.C("id"), sub))
				}, nil
			}}
	}
}
