package resource

import (
	"entgo.io/ent/dialect/sql"

	"github.com/inventory/inventory/filters"
)

func init() {
	// interface-vlans: VLANs an interface of type Target carries, tagged or
	// untagged (NetBox's VLAN filters interface_id and vminterface_id:
	// interfaces_as_tagged and interfaces_as_untagged).
	FilterKinds["interface-vlans"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return numberFilter(decl.Name, func(n int64) func(*sql.Selector) {
			return func(s *sql.Selector) {
				t := ByContentType(decl.Target)
				if t == nil || t.byName["tagged_vlans"] == nil {
					s.Where(sql.False())
					return
				}
				f := t.byName["tagged_vlans"]
				b := sql.Dialect(s.Dialect())
				tagged := b.Select(f.JoinTarget).From(sql.Table(f.Join)).Where(sql.EQ(f.JoinOwn, n))
				untagged := b.Select("untagged_vlan_id").From(sql.Table(t.Table)).Where(sql.EQ("id", n))
				s.Where(sql.Or(sql.In(s.C("id"), tagged), sql.In(s.C("id"), untagged)))
			}
		})
	}
}
