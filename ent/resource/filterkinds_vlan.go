package resource

import (
	"errors"
	"strconv"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/inventory/inventory/filters"
)

// vlan-available: the VLANs NetBox's VLANQuerySet offers to one site, site
// group, device or virtual machine (the filters available_at_site,
// available_at_site_group, available_on_device and
// available_on_virtualmachine; Attr names which). A VLAN is available
// when it is global (no group and no site, or in a group without scope),
// at the object's site, or in a group scoped to something the object sits
// in: its region or site group or any of their ancestors, its site, its
// location or an ancestor, its rack, its cluster or cluster group. Each is
// one SQL predicate (recursive CTEs for the ancestors), so the filter
// costs no query of its own and pages as any other.
//
// The value names one object (Django's ModelChoiceFilter: an unknown id is
// a 400, several values keep the last).
func init() {
	FilterKinds["vlan-available"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		anchor := map[string]string{"site": "dcim.site", "sitegroup": "dcim.sitegroup",
			"device": "dcim.device", "virtualmachine": "virtualization.virtualmachine"}[decl.Attr]
		t := byType[anchor] // ByContentType would wait for the registry being resolved
		if t == nil {
			return nil
		}
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Exists: &filters.Through{Table: t.Table, Column: "id"},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				n, err := strconv.Atoi(strings.TrimSpace(values[len(values)-1]))
				if err != nil {
					return nil, errors.New("Select a valid choice. That choice is not one of the available choices.")
				}
				return func(s *sql.Selector) {
					s.Where(sql.P(func(b *sql.Builder) {
						vlanAvailable(b, s, decl.Attr, n)
					}))
				}, nil
			}}
	}
}

// vlanAvailable writes the predicate on the VLAN table selected by s.
func vlanAvailable(b *sql.Builder, s *sql.Selector, anchor string, n int) {
	q := newScopeSQL(b, n)
	groups := q.groups(anchor)
	b.WriteString("(" + s.C("group_id") + " IN (SELECT id FROM " + q.table("ipam.vlangroup") + " WHERE ")
	groups()
	b.WriteString(")")
	// Q(site=<the object's site>), but not for a site group.
	if anchor != "sitegroup" {
		b.WriteString(" OR " + s.C("site_id") + " = ")
		q.site(anchor)
	}
	// Global VLANs: in a group without scope, or in none, and at no site.
	b.WriteString(" OR (" + s.C("site_id") + " IS NULL AND (" + s.C("group_id") + " IS NULL OR " + s.C("group_id") +
		" IN (SELECT id FROM " + q.table("ipam.vlangroup") + " WHERE scope_id IS NULL))))")
}

// scopeSQL writes the subqueries that find, for one anchor object, its
// site, cluster and the scopes a VLAN group may have.
type scopeSQL struct {
	b *sql.Builder
	n int
}

func newScopeSQL(b *sql.Builder, n int) *scopeSQL { return &scopeSQL{b: b, n: n} }

func (q *scopeSQL) table(ct string) string { return q.b.Quote(ByContentType(ct).Table) }

// col writes "(SELECT <expr> FROM <table of ct> WHERE id = n)".
func (q *scopeSQL) col(ct, expr string) {
	q.b.WriteString("(SELECT " + expr + " FROM " + q.table(ct) + " WHERE id = ").Arg(q.n).WriteString(")")
}

// site writes the anchor's site as a scalar subquery: a VM without a site
// takes its cluster's (NetBox: the cluster's site or location's site).
func (q *scopeSQL) site(anchor string) {
	switch anchor {
	case "site":
		q.b.Arg(q.n)
	case "device":
		q.col("dcim.device", "site_id")
	case "virtualmachine":
		q.b.WriteString("(SELECT COALESCE(vm.site_id, c._site_id) FROM " + q.table("virtualization.virtualmachine") +
			" vm LEFT JOIN " + q.table("virtualization.cluster") + " c ON c.id = vm.cluster_id WHERE vm.id = ").Arg(q.n).WriteString(")")
	}
}

// ancestors writes the ids of the rows of tree ct from the node(s) that
// seed writes up to the root, the node included (get_ancestors(include_self=True)).
func (q *scopeSQL) ancestors(ct string, seed func()) {
	t := q.table(ct)
	q.b.WriteString("WITH RECURSIVE anc(id, parent_id) AS (SELECT id, parent_id FROM " + t + " WHERE id IN (")
	seed()
	q.b.WriteString(") UNION SELECT t.id, t.parent_id FROM " + t + " t JOIN anc ON t.id = anc.parent_id) SELECT id FROM anc")
}

// scope writes "(scope_type = 'ct' AND scope_id IN (ids))".
func (q *scopeSQL) scope(ct string, ids func()) {
	q.b.WriteString("(scope_type = ").Arg(ct).WriteString(" AND scope_id IN (")
	ids()
	q.b.WriteString("))")
}

// groups returns a writer of the VLAN group condition for the anchor.
func (q *scopeSQL) groups(anchor string) func() {
	siteAttr := func(attr string) func() { // the anchor's site's region or group
		return func() {
			q.b.WriteString("SELECT " + attr + " FROM " + q.table("dcim.site") + " WHERE id = ")
			q.site(anchor)
		}
	}
	var conds []func()
	add := func(ct string, ids func()) { conds = append(conds, func() { q.scope(ct, ids) }) }
	tree := func(ct string, seed func()) func() { return func() { q.ancestors(ct, seed) } }
	switch anchor {
	case "sitegroup":
		add("dcim.sitegroup", tree("dcim.sitegroup", func() { q.b.Arg(q.n) }))
	case "site", "device", "virtualmachine":
		add("dcim.site", func() { q.site(anchor) })
		add("dcim.region", tree("dcim.region", siteAttr("region_id")))
		add("dcim.sitegroup", tree("dcim.sitegroup", siteAttr("group_id")))
	}
	switch anchor {
	case "device":
		add("dcim.location", tree("dcim.location", func() { q.col("dcim.device", "location_id") }))
		add("dcim.rack", func() { q.col("dcim.device", "rack_id") })
		add("virtualization.cluster", func() { q.col("dcim.device", "cluster_id") })
		add("virtualization.clustergroup", func() {
			q.b.WriteString("SELECT group_id FROM " + q.table("virtualization.cluster") + " WHERE id = ")
			q.col("dcim.device", "cluster_id")
		})
	case "virtualmachine":
		cluster := func(expr, scopeType string) func() { // an attribute of the VM's cluster
			return func() {
				q.b.WriteString("SELECT " + expr + " FROM " + q.table("virtualization.cluster") + " WHERE id = ")
				q.col("virtualization.virtualmachine", "cluster_id")
				if scopeType != "" {
					q.b.WriteString(" AND scope_type = ").Arg(scopeType)
				}
			}
		}
		add("virtualization.cluster", func() { q.col("virtualization.virtualmachine", "cluster_id") })
		add("virtualization.clustergroup", cluster("group_id", ""))
		// The cluster's own scope and its ancestors (its site is the
		// VM's site when the VM has none, covered above).
		add("dcim.location", tree("dcim.location", cluster("scope_id", "dcim.location")))
		add("dcim.site", cluster("scope_id", "dcim.site"))
		add("dcim.sitegroup", tree("dcim.sitegroup", cluster("scope_id", "dcim.sitegroup")))
		add("dcim.region", tree("dcim.region", cluster("scope_id", "dcim.region")))
	}
	return func() {
		for i, c := range conds {
			if i > 0 {
				q.b.WriteString(" OR ")
			}
			c()
		}
	}
}
