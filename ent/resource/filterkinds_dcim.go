package resource

import (
	"encoding/json"
	"fmt"
	"net"
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
	// assigned-mac: objects of content type Target having one of the MAC
	// addresses assigned (an interface's mac_address filter).
	FilterKinds["assigned-mac"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{"n"},
			Func: func(lookup string, values []string) (func(*sql.Selector), error) {
				macs := macValues(values)
				return func(s *sql.Selector) {
					q := sql.Dialect(s.Dialect()).Select("assigned_object_id").From(sql.Table("dcim_macaddress")).
						Where(sql.And(sql.EQ("assigned_object_type", decl.Target), sql.In("mac_address", macs...)))
					p := sql.In(s.C("id"), q)
					if lookup == "n" {
						p = sql.Not(p)
					}
					s.Where(p)
				}, nil
			}}
	}
	// mac: MAC addresses in any notation, compared as stored.
	FilterKinds["mac"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{"n"},
			Func: func(lookup string, values []string) (func(*sql.Selector), error) {
				macs := macValues(values)
				return func(s *sql.Selector) {
					p := sql.In(s.C("mac_address"), macs...)
					if len(macs) == 0 {
						p = sql.False()
					}
					if lookup == "n" {
						p = sql.Not(p)
					}
					s.Where(p)
				}, nil
			}}
	}
	// assigned-interface: MAC addresses assigned to interfaces matched by
	// Attr: "id", "name", "device_id" or "device" (the device's name).
	FilterKinds["assigned-interface"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
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
						ifaces = b.Select("id").From(sql.Table("dcim_interface")).Where(sql.In("name", args...))
					case "device_id":
						ifaces = b.Select("id").From(sql.Table("dcim_interface")).Where(sql.In("device_id", args...))
					default:
						ifaces = b.Select("id").From(sql.Table("dcim_interface")).Where(sql.In("device_id",
							b.Select("id").From(sql.Table("dcim_device")).Where(sql.In("name", args...))))
					}
					var in *sql.Predicate
					if list, ok := ifaces.([]any); ok {
						in = sql.In(s.C("assigned_object_id"), list...)
					} else {
						in = sql.In(s.C("assigned_object_id"), ifaces.(*sql.Selector))
					}
					p := sql.And(sql.EQ(s.C("assigned_object_type"), "dcim.interface"), in)
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
// holds for, false the others; a value that is no boolean is no filter.
func boolFilter(name string, pred func(*sql.Selector) *sql.Predicate) *filters.Filter {
	return &filters.Filter{Name: name, Kind: filters.Custom, Lookups: []string{},
		Func: func(_ string, values []string) (func(*sql.Selector), error) {
			b, ok := filters.ParseBool(values[len(values)-1])
			if !ok {
				return nil, nil
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
