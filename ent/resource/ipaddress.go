package resource

import (
	"encoding/json"
	"errors"
	"math"
	"net/netip"
	"strconv"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/inventory/inventory/ent/schema/ipnet"
	"github.com/inventory/inventory/filters"
)

// The inet kind (an IP address with its mask) and the filter kinds of IP
// addresses, FHRP groups and services, each on SQLite and PostgreSQL.
// Containment compares the hidden binary columns the model declares
// (api.Model.IP: an address's host and prefix length), never the text.
func init() {
	RegisterKind("inet", func(b []byte, v any) []byte {
		s, _ := v.(string)
		return appendString(b, s)
	}, decodeInet)

	// ip-parent: addresses whose host lies in one of the prefixes (NetBox's
	// parent, net_host_contained: the mask of the address plays no part),
	// in every VRF. One value that does not parse matches nothing.
	FilterKinds["ip-parent"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		if d.IP == nil {
			return nil
		}
		c := d.IP
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				var keys []ipnet.Key
				for _, v := range values {
					v = strings.TrimSpace(v)
					if v == "" {
						continue
					}
					p, ok := ipnet.ParseLoose(v)
					if !ok {
						return none, nil
					}
					keys = append(keys, ipnet.KeyOf(p))
				}
				if len(keys) == 0 {
					return nil, nil
				}
				return func(s *sql.Selector) {
					ors := make([]*sql.Predicate, len(keys))
					for i, k := range keys {
						ors[i] = sql.And(sql.EQ(s.C(c.Family), k.Family),
							sql.GTE(s.C(c.Network), k.Network), sql.LTE(s.C(c.Network), k.Broadcast))
					}
					s.Where(sql.Or(ors...))
				}, nil
			}}
	}
	// ip-address: addresses equal to one of the values, with their mask
	// when the value has one ("10.0.0.1/24"), else by host alone
	// ("10.0.0.1": any mask), as NetBox's net_in. Values that do not parse
	// are skipped; none left matches nothing.
	FilterKinds["ip-address"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		if d.IP == nil {
			return nil
		}
		c := d.IP
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				type want struct {
					p      netip.Prefix
					masked bool
				}
				var ws []want
				for _, v := range values {
					v = strings.TrimSpace(v)
					if p, ok := ipnet.ParseLoose(v); ok {
						ws = append(ws, want{p, strings.Contains(v, "/")})
					}
				}
				return func(s *sql.Selector) {
					if len(ws) == 0 {
						s.Where(sql.False())
						return
					}
					ors := make([]*sql.Predicate, len(ws))
					for i, w := range ws {
						p := sql.And(sql.EQ(s.C(c.Family), ipnet.Family(w.p.Addr())), sql.EQ(s.C(c.Network), ipnet.Bytes16(w.p.Addr())))
						if w.masked {
							p = sql.And(p, sql.EQ(s.C(c.Length), w.p.Bits()))
						}
						ors[i] = p
					}
					s.Where(sql.Or(ors...))
				}, nil
			}}
	}
	// interfaces-of-device: rows whose generic relation Column points at an
	// interface of one of the devices, by id (Attr "id") or name: the
	// device's interfaces, and for a virtual chassis master its members'
	// non-management ones (NetBox's Device.vc_interfaces()).
	FilterKinds["interfaces-of-device"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		tf, idf := d.byName[decl.Column+"_type"], d.byName[decl.Column+"_id"]
		if tf == nil || idf == nil {
			return nil
		}
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				args, err := attrValues(decl.Attr, values)
				if err != nil {
					return nil, err
				}
				return func(s *sql.Selector) {
					b := sql.Dialect(s.Dialect())
					devices := func() *sql.Selector {
						return b.Select("id").From(sql.Table("dcim_device")).Where(sql.In(decl.Attr, args...))
					}
					m, vc := sql.Table("dcim_device").As("m"), sql.Table("dcim_virtualchassis").As("vc")
					members := b.Select(m.C("id")).From(m).Join(vc).On(vc.C("id"), m.C("virtual_chassis_id")).
						Where(sql.In(vc.C("master_id"), devices()))
					ifaces := b.Select("id").From(sql.Table("dcim_interface")).Where(sql.Or(
						sql.In("device_id", devices()),
						sql.And(sql.EQ("mgmt_only", false), sql.In("device_id", members))))
					s.Where(sql.And(sql.EQ(s.C(tf.Column), "dcim.interface"), sql.In(s.C(idf.Column), ifaces)))
				}, nil
			}}
	}
	// generic-id and generic-attr: rows whose generic relation Column
	// points at an object of type Target among the values, by id or by
	// its Attr column (a service's device, fhrpgroup_id).
	FilterKinds["generic-id"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return genericFilter(d, decl, "id")
	}
	FilterKinds["generic-attr"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return genericFilter(d, decl, decl.Attr)
	}
	// assigned-to: a boolean: rows whose generic relation Column points at
	// an object of one of the comma-separated types Target (true), or not.
	FilterKinds["assigned-to"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		tf, idf := d.byName[decl.Column+"_type"], d.byName[decl.Column+"_id"]
		if tf == nil || idf == nil || decl.Target == "" {
			return nil
		}
		types := anyList(strings.Split(decl.Target, ","))
		return boolFilter(decl.Name, func(s *sql.Selector) *sql.Predicate {
			return coalesceFalse(sql.And(sql.In(s.C(tf.Column), types...), sql.NotNull(s.C(idf.Column))))
		})
	}
	// fhrp-related-ip: FHRP groups with an address in the network of one
	// of the given addresses (by id), in that address's VRF (NetBox's
	// related_ip: net_contained_or_equal and the same VRF).
	FilterKinds["fhrp-related-ip"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				ids, err := attrValues("id", values)
				if err != nil {
					return nil, err
				}
				return func(s *sql.Selector) {
					in := strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", ")
					args := append([]any{"ipam.fhrpgroup"}, ids...)
					s.Where(rawPred(s.C("id")+` IN (SELECT a.assigned_object_id FROM "ipam_ipaddress" a, "ipam_ipaddress" r `+
						`WHERE a.assigned_object_type = ? AND r.id IN (`+in+`) AND a.vrf_key = r.vrf_key AND a.family = r.family `+
						`AND a.prefix_length >= r.prefix_length AND a.host >= r._network AND a.host <= r._broadcast)`, args...))
				}, nil
			}}
	}
	// m2m-own: a many-to-many field's filter by related id under a name of
	// its own (a service's ip_address_id); __n: related to none. (By an
	// attribute: m2m-attr.)
	FilterKinds["m2m-own"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		f := d.byName[decl.Column]
		if f == nil || f.Kind != KindM2M {
			return nil
		}
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{"n"},
			Func: m2mMatch(f.Join, f.JoinOwn, f.JoinTarget, f.target.Table, "id", true)}
	}
	// any-set: a boolean: true keeps the rows where one of the
	// comma-separated columns holds a value, false those where none does
	// (a device's has_primary_ip).
	FilterKinds["any-set"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		cols := strings.Split(decl.Column, ",")
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				want, err := boolValue(values)
				if err != nil {
					return nil, err
				}
				return func(s *sql.Selector) {
					ps := make([]*sql.Predicate, len(cols))
					for i, c := range cols {
						if want {
							ps[i] = sql.NotNull(s.C(c))
						} else {
							ps[i] = sql.IsNull(s.C(c))
						}
					}
					if want {
						s.Where(sql.Or(ps...))
					} else {
						s.Where(sql.And(ps...))
					}
				}, nil
			}}
	}
}

// decodeInet validates an IP address with an optional mask as NetBox's
// IPAddressField does (netaddr.IPNetwork: a bare address is a /32 or
// /128, the host bits are kept) and renders it canonically ("10.0.0.1/24",
// IPv6 compressed in lower case). A /0 is IPAddress.clean()'s refusal.
func decodeInet(f *Field, raw json.RawMessage) (any, []string) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, []string{"Not a valid string."}
	}
	if strings.TrimSpace(s) == "" {
		return nil, []string{"This field may not be blank."}
	}
	p, ok := ipnet.ParseLoose(s)
	if !ok {
		return nil, []string{"Invalid IP address format: " + s}
	}
	if p.Bits() == 0 {
		return nil, []string{"Cannot create IP address with /0 mask."}
	}
	return p.String(), nil
}

// attrValues reads filter values for a column: integers for "id" (or an
// *_id column), text otherwise.
func attrValues(attr string, values []string) ([]any, error) {
	out := make([]any, 0, len(values))
	for _, v := range values {
		if attr == "id" || strings.HasSuffix(attr, "_id") {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return nil, errors.New("“" + v + "” is not a valid value.")
			}
			out = append(out, n)
			continue
		}
		out = append(out, v)
	}
	return out, nil
}

// genericFilter matches rows whose generic relation decl.Column points at
// an object of type decl.Target whose attr is one of the values.
func genericFilter(d *Descriptor, decl FilterDecl, attr string) *filters.Filter {
	tf, idf := d.byName[decl.Column+"_type"], d.byName[decl.Column+"_id"]
	t := byType[decl.Target]
	if tf == nil || idf == nil || t == nil || attr == "" {
		return nil
	}
	col := t.column(attr)
	if f := t.byName[attr]; f != nil && f.Kind == KindInt {
		return genericNumberFilter(decl, tf.Column, idf.Column, t.Table, col)
	}
	return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{"n"},
		Func: func(lookup string, values []string) (func(*sql.Selector), error) {
			args, err := attrValues(attr, values)
			if err != nil {
				return nil, err
			}
			return func(s *sql.Selector) {
				var in *sql.Predicate
				if attr == "id" {
					in = sql.In(s.C(idf.Column), args...)
				} else {
					in = sql.In(s.C(idf.Column), sql.Dialect(s.Dialect()).Select("id").From(sql.Table(t.Table)).Where(sql.In(col, args...)))
				}
				p := sql.And(sql.EQ(s.C(tf.Column), decl.Target), in)
				if lookup == "n" {
					p = sql.Not(coalesceFalse(p))
				}
				s.Where(p)
			}, nil
		}}
}

// genericNumberFilter is NetBox's NumberFilter across a generic relation
// (an L2VPN termination's vlan_vid: vlan__vid): the last value counts and
// must be a number ("Enter a number.", never a database error on an
// integer column); lt, lte, gt and gte compare it (a fraction rounded to
// the integer that compares alike), a fraction or an out-of-range value is
// equal to nothing; __n keeps the rows whose object is not such a match
// (objects of other types included, as Django's exclude() across a
// nullable join); __empty=true the rows not on an object of the type.
func genericNumberFilter(decl FilterDecl, typeCol, idCol, table, col string) *filters.Filter {
	return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{"n", "lt", "lte", "gt", "gte", "empty"},
		Func: func(lookup string, values []string) (func(*sql.Selector), error) {
			raw := strings.TrimSpace(values[len(values)-1])
			on := func(s *sql.Selector, where *sql.Predicate) *sql.Predicate {
				sub := sql.Dialect(s.Dialect()).Select("id").From(sql.Table(table))
				if where != nil {
					sub.Where(where)
				}
				return sql.And(sql.EQ(s.C(typeCol), decl.Target), sql.In(s.C(idCol), sub))
			}
			if lookup == "empty" {
				want, err := boolValue(values)
				if err != nil {
					return nil, err
				}
				return func(s *sql.Selector) {
					if p := coalesceFalse(on(s, sql.NotNull(col))); want {
						s.Where(sql.Not(p))
					} else {
						s.Where(p)
					}
				}, nil
			}
			f, err := strconv.ParseFloat(raw, 64)
			if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
				return nil, errors.New("Enter a number.")
			}
			const bound = 1 << 40 // far beyond any integer column's values here
			f = math.Max(-bound, math.Min(bound, f))
			var where *sql.Predicate
			switch lookup {
			case "lt", "gte":
				where = map[string]func(string, any) *sql.Predicate{"lt": sql.LT, "gte": sql.GTE}[lookup](col, int64(math.Ceil(f)))
			case "lte", "gt":
				where = map[string]func(string, any) *sql.Predicate{"lte": sql.LTE, "gt": sql.GT}[lookup](col, int64(math.Floor(f)))
			default:
				if f != math.Trunc(f) {
					where = sql.False()
				} else {
					where = sql.EQ(col, int64(f))
				}
			}
			return func(s *sql.Selector) {
				p := on(s, where)
				if lookup == "n" {
					p = sql.Not(coalesceFalse(p))
				}
				s.Where(p)
			}, nil
		}}
}
