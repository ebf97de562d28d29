package resource

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/filters"
)

// Filter kinds of the device components and MAC addresses, each on SQLite
// and PostgreSQL.
func init() {
	// A MAC address in any notation net.ParseMAC reads, stored as NetBox
	// renders it (upper case, colons).
	RegisterKind("mac", nil, func(f *Field, raw json.RawMessage) (any, []string) {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, []string{"Not a valid string."}
		}
		mac := dcim.NormalizeMAC(s)
		if mac == "" {
			return nil, []string{"Invalid MAC address format: " + s}
		}
		return mac, nil
	})
	// A WWN (EUI-64), stored as NetBox renders it.
	RegisterKind("wwn", nil, func(f *Field, raw json.RawMessage) (any, []string) {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, []string{"Not a valid string."}
		}
		hw, err := net.ParseMAC(strings.TrimSpace(s))
		if err != nil || len(hw) != 8 {
			return nil, []string{"Invalid WWN format: " + s}
		}
		return strings.ToUpper(hw.String()), nil
	})
	// interface-kind: physical, virtual or wireless types (NetBox's kind
	// filter; the last value counts, an unknown kind matches all).
	FilterKinds["interface-kind"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				kind := strings.ToLower(strings.TrimSpace(values[len(values)-1]))
				virtual, wireless := anyList(dcim.InterfaceKindTypes("virtual")), anyList(dcim.InterfaceKindTypes("wireless"))
				return func(s *sql.Selector) {
					switch kind {
					case "physical":
						s.Where(sql.And(sql.NotIn(s.C("type"), virtual...), sql.NotIn(s.C("type"), wireless...)))
					case "virtual":
						s.Where(sql.In(s.C("type"), virtual...))
					case "wireless":
						s.Where(sql.In(s.C("type"), wireless...))
					}
				}, nil
			}}
	}
	// interface-vlan: interfaces carrying a VLAN untagged or tagged, by its
	// id (Attr "id": NetBox's vlan_id) or VLAN ID (Attr "vid": vlan). The
	// last value counts.
	FilterKinds["interface-vlan"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		f := d.byName["tagged_vlans"]
		if f == nil || f.Kind != KindM2M {
			return nil
		}
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				n, err := strconv.Atoi(strings.TrimSpace(values[len(values)-1]))
				if err != nil {
					return nil, fmt.Errorf("Enter a number.")
				}
				return func(s *sql.Selector) {
					b := sql.Dialect(s.Dialect())
					var vlans any = n
					if decl.Attr == "vid" {
						vlans = b.Select("id").From(sql.Table("ipam_vlan")).Where(sql.EQ("vid", n))
					}
					tagged := b.Select(f.JoinOwn).From(sql.Table(f.Join))
					untagged := sql.EQ(s.C("untagged_vlan_id"), vlans)
					if q, ok := vlans.(*sql.Selector); ok {
						tagged.Where(sql.In(f.JoinTarget, q))
						untagged = sql.In(s.C("untagged_vlan_id"), b.Select("id").From(sql.Table("ipam_vlan")).Where(sql.EQ("vid", n)))
					} else {
						tagged.Where(sql.EQ(f.JoinTarget, n))
					}
					s.Where(sql.Or(untagged, sql.In(s.C("id"), tagged)))
				}, nil
			}}
	}
	// assigned-mac: objects of content type Target having a MAC address
	// assigned that matches (an interface's mac_address filter). With
	// Column, the rows whose id is that column of such Target objects (a
	// device's mac_address: the devices of those interfaces, NetBox's
	// interfaces__mac_addresses__mac_address).
	FilterKinds["assigned-mac"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		t := byType[decl.Target]
		if t == nil {
			return nil
		}
		return macFilter(decl.Name, func(s *sql.Selector, match filters.Cond) *sql.Predicate {
			q := sql.Dialect(s.Dialect()).Select("assigned_object_id").From(sql.Table("dcim_macaddress"))
			q.Where(sql.And(sql.EQ(q.C("assigned_object_type"), decl.Target), match(q)))
			if decl.Column != "" {
				q = sql.Dialect(s.Dialect()).Select(decl.Column).From(sql.Table(t.Table)).Where(sql.In("id", q))
			}
			return sql.In(s.C("id"), q)
		})
	}
	// vc-interfaces: NetBox's virtual_chassis_member(_or_master)(_id):
	// the interfaces of the devices named (Attr "name") or given by id
	// (Attr "id"), and, when such a device is in a virtual chassis, the
	// other members' interfaces that are not management-only (Device.
	// vc_interfaces). With Target "master" only a chassis' master brings
	// its members' interfaces along.
	FilterKinds["vc-interfaces"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				args := anyList(values)
				if decl.Attr == "id" {
					for i, v := range values {
						n, err := strconv.Atoi(strings.TrimSpace(v))
						if err != nil {
							return nil, fmt.Errorf("Enter a number.")
						}
						args[i] = n
					}
				}
				return func(s *sql.Selector) {
					b := sql.Dialect(s.Dialect())
					devices := b.Select("id").From(sql.Table("dcim_device")).Where(sql.In(decl.Attr, args...))
					chassisOf := b.Select("virtual_chassis_id").From(sql.Table("dcim_device")).
						Where(sql.And(sql.In(decl.Attr, args...), sql.NotNull("virtual_chassis_id")))
					if decl.Target == "master" {
						chassisOf.Where(sql.In("id", b.Select("master_id").From(sql.Table("dcim_virtualchassis"))))
					}
					members := b.Select("id").From(sql.Table("dcim_device")).Where(sql.In("virtual_chassis_id", chassisOf))
					s.Where(sql.Or(sql.In(s.C("device_id"), devices),
						sql.And(sql.EQ(s.C("mgmt_only"), false), sql.In(s.C("device_id"), members))))
				}, nil
			}}
	}
	// mac: the row's own MAC address.
	FilterKinds["mac"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return macFilter(decl.Name, func(s *sql.Selector, match filters.Cond) *sql.Predicate { return match(s) })
	}
	// assigned-interface: MAC addresses assigned to interfaces matched by
	// Attr: "id", "name", "device_id" or "device" (the device's name).
	FilterKinds["assigned-interface"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		// Target is the interface model (dcim.interface unless given: a VM
		// interface's owner is its virtual machine, Attr "device_id" and
		// "device" then read virtual_machine_id and the VM's name).
		ct, table, owner, ownerTable := "dcim.interface", "dcim_interface", "device_id", "dcim_device"
		if decl.Target == "virtualization.vminterface" {
			ct, table, owner, ownerTable = decl.Target, "virtualization_vminterface", "virtual_machine_id", "virtualization_virtualmachine"
		}
		// Column is the generic relation's name (assigned_object unless
		// given: an FHRP group assignment's interface).
		tcol, icol := "assigned_object_type", "assigned_object_id"
		if decl.Column != "" {
			tcol, icol = decl.Column+"_type", decl.Column+"_id"
		}
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{"n"},
			Func: func(lookup string, values []string) (func(*sql.Selector), error) {
				args := make([]any, 0, len(values))
				for _, v := range values {
					if decl.Attr == "id" || decl.Attr == "device_id" {
						n, err := strconv.Atoi(strings.TrimSpace(v))
						if err != nil {
							return nil, fmt.Errorf("“%s” is not a valid value.", v)
						}
						args = append(args, n)
					} else {
						args = append(args, v)
					}
				}
				return func(s *sql.Selector) {
					b := sql.Dialect(s.Dialect())
					var ifaces any
					switch decl.Attr {
					case "id":
						ifaces = args
					case "name":
						ifaces = b.Select("id").From(sql.Table(table)).Where(sql.In("name", args...))
					case "device_id":
						ifaces = b.Select("id").From(sql.Table(table)).Where(sql.In(owner, args...))
					default:
						ifaces = b.Select("id").From(sql.Table(table)).Where(sql.In(owner,
							b.Select("id").From(sql.Table(ownerTable)).Where(sql.In("name", args...))))
					}
					var in *sql.Predicate
					if list, ok := ifaces.([]any); ok {
						in = sql.In(s.C(icol), list...)
					} else {
						in = sql.In(s.C(icol), ifaces.(*sql.Selector))
					}
					p := sql.And(sql.EQ(s.C(tcol), ct), in)
					if lookup == "n" {
						p = sql.Not(coalesceFalse(p))
					}
					s.Where(p)
				}, nil
			}}
	}
	// mac-assigned: MAC addresses assigned to an object (true) or not.
	FilterKinds["mac-assigned"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return boolFilter(decl.Name, func(s *sql.Selector) *sql.Predicate { return sql.NotNull(s.C("assigned_object_id")) })
	}
	// mac-primary: MAC addresses that are an interface's primary one.
	FilterKinds["mac-primary"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return boolFilter(decl.Name, func(s *sql.Selector) *sql.Predicate {
			return sql.In(s.C("id"), sql.Dialect(s.Dialect()).Select("primary_mac_address_id").From(sql.Table("dcim_interface")).
				Where(sql.NotNull("primary_mac_address_id")))
		})
	}
}

// boolFilter is a BooleanFilter with a method: true keeps the rows pred
// holds for, false the others; a value that is no boolean is a 400
// (filters.BoolValue).
func boolFilter(name string, pred func(*sql.Selector) *sql.Predicate) *filters.Filter {
	return &filters.Filter{Name: name, Kind: filters.Custom, Lookups: []string{},
		Func: func(_ string, values []string) (func(*sql.Selector), error) {
			b, err := filters.BoolValue(values[len(values)-1])
			if err != nil {
				return nil, err
			}
			return func(s *sql.Selector) {
				p := pred(s)
				if !b {
					p = sql.Not(p)
				}
				s.Where(p)
			}, nil
		}}
}

// macValues are the MAC addresses among values, as stored.
// macLookups are NetBox's MultiValueMACAddressFilter lookups: exact
// (values in any notation) and the text lookups, which compare with the
// stored form (upper case, colons) case-insensitively; regex reads that
// form too.
var macLookups = map[string]string{"": "in", "ic": "icontains", "isw": "istartswith", "iew": "iendswith",
	"ie": "iexact", "regex": "regex", "iregex": "iregex"}

// macFilter is a MAC address filter with NetBox's lookups and their
// negations: where builds the predicate from a condition on the
// mac_address column of the selector it is given.
func macFilter(name string, where func(s *sql.Selector, match filters.Cond) *sql.Predicate) *filters.Filter {
	lookups := []string{"n"}
	for l := range macLookups {
		if l != "" {
			lookups = append(lookups, l, "n"+l)
		}
	}
	slices.Sort(lookups)
	return &filters.Filter{Name: name, Kind: filters.Custom, Lookups: lookups,
		Func: func(lookup string, values []string) (func(*sql.Selector), error) {
			base, neg := lookup, false
			if _, ok := macLookups[base]; !ok {
				base, neg = strings.TrimPrefix(lookup, "n"), true
			}
			var match filters.Cond
			if base == "" {
				macs := macValues(values)
				match = func(s *sql.Selector) *sql.Predicate {
					if len(macs) == 0 {
						return sql.False()
					}
					return sql.In(s.C("mac_address"), macs...)
				}
			} else {
				var conds []filters.Cond
				for _, v := range values {
					c, err := filters.Lookup("mac_address", macLookups[base], v)
					if err != nil {
						return nil, err
					}
					conds = append(conds, c)
				}
				match = filters.OrConds(conds...)
			}
			return func(s *sql.Selector) {
				p := where(s, match)
				if neg {
					p = sql.Not(p)
				}
				s.Where(p)
			}, nil
		}}
}

func macValues(values []string) []any {
	var out []any
	for _, v := range values {
		if m := dcim.NormalizeMAC(v); m != "" {
			out = append(out, m)
		}
	}
	return out
}

func anyList(vals []string) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = v
	}
	return out
}

// termination-site: rows whose generic relation Column (assigned_object
// unless given) points at a VLAN, an interface or a VM interface at one
// of the sites (Target "site") or in one of the regions (Target
// "region", the region itself: no descendants), chosen by Attr ("id" or
// "slug"): the VLAN's site, the interface's device's, the VM interface's
// virtual machine's (NetBox's L2VPNTerminationFilterSet.filter_site and
// filter_region).
func init() {
	FilterKinds["termination-site"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		tcol, icol := "assigned_object_type", "assigned_object_id"
		if decl.Column != "" {
			tcol, icol = decl.Column+"_type", decl.Column+"_id"
		}
		if decl.Target != "site" && decl.Target != "region" || decl.Attr != "id" && decl.Attr != "slug" {
			return nil
		}
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				args := make([]any, 0, len(values))
				for _, v := range values {
					if decl.Attr == "slug" {
						args = append(args, v)
						continue
					}
					n, err := strconv.Atoi(strings.TrimSpace(v))
					if err != nil {
						return nil, errors.New("Enter a number.")
					}
					args = append(args, n)
				}
				return func(s *sql.Selector) {
					b := sql.Dialect(s.Dialect())
					sites := func() *sql.Selector {
						if decl.Target == "region" {
							return b.Select("id").From(sql.Table("dcim_site")).Where(sql.In("region_id",
								b.Select("id").From(sql.Table("dcim_region")).Where(sql.In(decl.Attr, args...))))
						}
						return b.Select("id").From(sql.Table("dcim_site")).Where(sql.In(decl.Attr, args...))
					}
					// Each object type reaches its site through its own
					// owner (table, key to the owner, owner table).
					var ps []*sql.Predicate
					for _, o := range []struct{ ct, table, key, owner string }{
						{"ipam.vlan", "ipam_vlan", "", ""},
						{"dcim.interface", "dcim_interface", "device_id", "dcim_device"},
						{"virtualization.vminterface", "virtualization_vminterface", "virtual_machine_id", "virtualization_virtualmachine"},
					} {
						objs := b.Select("id").From(sql.Table(o.table)).Where(sql.In("site_id", sites()))
						if o.key != "" {
							objs = b.Select("id").From(sql.Table(o.table)).Where(sql.In(o.key,
								b.Select("id").From(sql.Table(o.owner)).Where(sql.In("site_id", sites()))))
						}
						ps = append(ps, sql.And(sql.EQ(s.C(tcol), o.ct), sql.In(s.C(icol), objs)))
					}
					s.Where(sql.Or(ps...))
				}, nil
			}}
	}
}
