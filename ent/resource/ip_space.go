package resource

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/inventory/inventory/ent/schema/ipnet"
	"github.com/inventory/inventory/filters"
)

// The field kinds and filters of IPAM's address space beyond prefixes:
// aggregates (cidr-aggregate, prefix-cidr), IP ranges (ip-with-mask and
// the range-* filters over their hidden start_host/end_host columns), the
// VRF visibility of prefixes (present-in-vrf), and two kinds other models
// share: dates (an aggregate's date_added) and filters through a
// many-to-many to a tree (an ASN's site_group).

func init() {
	// cidr-aggregate: the cidr kind with Aggregate.clean()'s /0 message.
	text := func(b []byte, v any) []byte {
		s, _ := v.(string)
		return appendString(b, s)
	}
	RegisterKind("cidr-aggregate", text, func(f *Field, raw json.RawMessage) (any, []string) {
		v, msgs := decodeCIDR(f, raw)
		if len(msgs) == 1 && msgs[0] == "Cannot create prefix with /0 mask." {
			return nil, []string{"Cannot create aggregate with /0 mask."}
		}
		return v, msgs
	})
	RegisterKind("ip-with-mask", text, decodeIPWithMask)
	RegisterKind("date", func(b []byte, v any) []byte {
		t, ok := v.(time.Time)
		if !ok {
			return append(b, "null"...)
		}
		return appendString(b, t.UTC().Format(time.DateOnly))
	}, decodeDate)

	// prefix-cidr: NetBox's filter_prefix of aggregates: one value (the
	// last), host bits cleared, an exact match; a value that does not
	// parse matches nothing.
	FilterKinds["prefix-cidr"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		c := d.IP
		if c == nil {
			return nil
		}
		return lastValueFilter(decl.Name, func(v string) func(*sql.Selector) {
			p, ok := ipnet.ParseLoose(v)
			if !ok {
				return none
			}
			k := ipnet.KeyOf(p)
			return func(s *sql.Selector) {
				s.Where(sql.And(sql.EQ(s.C(c.Family), k.Family), sql.EQ(s.C(c.Network), k.Network),
					sql.EQ(s.C(c.Length), k.Length)))
			}
		})
	}
	// range-address: NetBox's net_in on an address field: a value with a
	// mask matches the address and mask (the text column Column), one
	// without the host alone (the binary column Attr); values are OR-ed,
	// those that do not parse ignored (none left: nothing matches).
	FilterKinds["range-address"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		text, host := d.column(decl.Column), d.column(decl.Attr)
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				var texts, hosts []any
				for _, v := range values {
					v = strings.TrimSpace(v)
					if strings.Contains(v, "/") {
						if p, ok := ipnet.ParseLoose(v); ok {
							texts = append(texts, p.String())
						}
					} else if a, err := netip.ParseAddr(v); err == nil && a.Zone() == "" {
						hosts = append(hosts, ipnet.Bytes16(a))
					}
				}
				return func(s *sql.Selector) {
					var ors []*sql.Predicate
					if len(texts) > 0 {
						ors = append(ors, sql.In(s.C(text), texts...))
					}
					if len(hosts) > 0 {
						ors = append(ors, sql.In(s.C(host), hosts...))
					}
					if len(ors) == 0 {
						s.Where(sql.False())
						return
					}
					s.Where(sql.Or(ors...))
				}, nil
			}}
	}
	// range-contains: ranges holding the address (a mask is ignored), in
	// every VRF; the last value counts.
	FilterKinds["range-contains"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		c := d.IP
		if c == nil {
			return nil
		}
		return lastValueFilter(decl.Name, func(v string) func(*sql.Selector) {
			p, ok := ipnet.ParseLoose(v)
			if !ok {
				return none
			}
			a := p.Addr()
			return func(s *sql.Selector) {
				b := ipnet.Bytes16(a)
				s.Where(sql.And(sql.EQ(s.C(c.Family), ipnet.Family(a)), sql.LTE(s.C(c.Network), b), sql.GTE(s.C(c.Broadcast), b)))
			}
		})
	}
	// range-parent: ranges lying inside one of the prefixes (host bits of
	// the values cleared); one value that does not parse matches nothing,
	// as NetBox's search_by_parent.
	FilterKinds["range-parent"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		c := d.IP
		if c == nil {
			return nil
		}
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				var keys []ipnet.Key
				for _, v := range values {
					p, ok := ipnet.ParseLoose(v)
					if !ok {
						return none, nil
					}
					keys = append(keys, ipnet.KeyOf(p))
				}
				return func(s *sql.Selector) {
					ors := make([]*sql.Predicate, len(keys))
					for i, k := range keys {
						ors[i] = sql.And(sql.EQ(s.C(c.Family), k.Family), sql.GTE(s.C(c.Network), k.Network),
							sql.LTE(s.C(c.Broadcast), k.Broadcast))
					}
					s.Where(sql.Or(ors...))
				}, nil
			}}
	}
	// present-in-vrf: NetBox's filter_present_in_vrf: the rows of the VRF
	// (by id, or by its Attr: rd) and of every VRF exporting a route
	// target that it imports. One value, the last, naming an existing VRF
	// (a 400 otherwise). Column is the model's VRF column.
	FilterKinds["present-in-vrf"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		vrf := byType["ipam.vrf"]
		if vrf == nil || vrf.byName["import_targets"] == nil || vrf.byName["export_targets"] == nil {
			return nil
		}
		col := d.column(decl.Column)
		imp, exp := vrf.byName["import_targets"], vrf.byName["export_targets"]
		attr := ""
		if decl.Attr != "" {
			if f := vrf.byName[decl.Attr]; f != nil && f.Column != "" {
				attr = f.Column
			} else {
				return nil
			}
		}
		exists := &filters.Through{Table: vrf.Table, Column: "id"}
		if attr != "" {
			exists.Column = attr
		}
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{}, Exists: exists,
			Func: func(_ string, values []string) (func(*sql.Selector), error) {
				v := strings.TrimSpace(values[len(values)-1])
				var key any = v
				if attr == "" {
					n, err := strconv.Atoi(v)
					if err != nil {
						return nil, errors.New("Select a valid choice. That choice is not one of the available choices.")
					}
					key = n
				}
				return func(s *sql.Selector) {
					// The VRF's id, as a scalar subquery when named by rd.
					id := "?"
					if attr != "" {
						id = "(SELECT v.id FROM " + s.Quote(vrf.Table) + " v WHERE v." + s.Quote(attr) + " = ?)"
					}
					s.Where(rawPred(s.C(col)+" = "+id+" OR "+s.C(col)+" IN (SELECT e."+s.Quote(exp.JoinOwn)+
						" FROM "+s.Quote(exp.Join)+" e WHERE e."+s.Quote(exp.JoinTarget)+" IN (SELECT i."+
						s.Quote(imp.JoinTarget)+" FROM "+s.Quote(imp.Join)+" i WHERE i."+s.Quote(imp.JoinOwn)+" = "+id+"))",
						key, key))
				}, nil
			}}
	}
	// search-or-number: a q filter over the text columns Attr (comma
	// separated) that also matches the integer columns Column (comma
	// separated) equal to the value.
	FilterKinds["search-or-number"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		var text, nums []string
		for _, n := range strings.Split(decl.Attr, ",") {
			text = append(text, d.column(n))
		}
		for _, n := range strings.Split(decl.Column, ",") {
			nums = append(nums, d.column(n))
		}
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{},
			Func: filters.SearchOrNumber(text, nums)}
	}
	// m2m-tree: NetBox's TreeNodeMultipleChoiceFilter through a
	// many-to-many: Column "<m2m field>.<fk field of its target>" (an
	// ASN's sites.group): rows related to an object whose FK lies in the
	// subtree of one of the values, by id or by the Attr column (slug) of
	// the tree's nodes. __n: none of them.
	FilterKinds["m2m-tree"] = func(d *Descriptor, decl FilterDecl) *filters.Filter {
		m2m, fk, _ := strings.Cut(decl.Column, ".")
		mf := d.byName[m2m]
		if mf == nil || mf.Kind != KindM2M || mf.target == nil {
			return nil
		}
		ff := mf.target.byName[fk]
		if ff == nil || ff.Kind != KindFK || ff.target == nil || !ff.target.Tree {
			return nil
		}
		tree, attr := ff.target, "id"
		if decl.Attr != "" {
			if af := tree.byName[decl.Attr]; af != nil && af.Column != "" {
				attr = af.Column
			} else {
				return nil
			}
		}
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{"n"},
			Func: func(lookup string, values []string) (func(*sql.Selector), error) {
				args := make([]any, 0, len(values))
				for _, v := range values {
					if attr != "id" {
						args = append(args, v)
						continue
					}
					n, err := strconv.Atoi(strings.TrimSpace(v))
					if err != nil {
						return nil, fmt.Errorf("“%s” is not a valid value.", v)
					}
					args = append(args, n)
				}
				return func(s *sql.Selector) {
					t := s.Quote(tree.Table)
					in := strings.TrimSuffix(strings.Repeat("?, ", len(args)), ", ")
					sub := "SELECT j." + s.Quote(mf.JoinOwn) + " FROM " + s.Quote(mf.Join) + " j JOIN " + s.Quote(mf.target.Table) +
						" o ON o.id = j." + s.Quote(mf.JoinTarget) + " WHERE o." + s.Quote(ff.Column) +
						" IN (WITH RECURSIVE m2m_tree(id) AS (SELECT id FROM " + t + " WHERE " + s.Quote(attr) + " IN (" + in +
						") UNION SELECT mt.id FROM " + t + " mt JOIN m2m_tree ON mt.parent_id = m2m_tree.id) SELECT id FROM m2m_tree)"
					p := rawPred(s.C("id")+" IN ("+sub+")", args...)
					if lookup == "n" {
						p = sql.Not(p)
					}
					s.Where(p)
				}, nil
			}}
	}
}

// decodeIPWithMask validates an address with an optional mask, NetBox's
// IPAddressField: host bits are kept, a bare address gets the family's
// full mask (/32, /128), IPv6 is compressed in lower case.
func decodeIPWithMask(f *Field, raw json.RawMessage) (any, []string) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, []string{"Invalid IP address format: " + strings.Trim(string(raw), `"`)}
	}
	if strings.TrimSpace(s) == "" {
		return nil, []string{"This field may not be blank."}
	}
	p, ok := ipnet.ParseLoose(s)
	if !ok {
		return nil, []string{"Invalid IP address format: " + s}
	}
	return p.String(), nil
}

// decodeDate reads DRF's DateField: an ISO 8601 date, stored as midnight
// UTC.
func decodeDate(f *Field, raw json.RawMessage) (any, []string) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		if t, err := time.Parse(time.DateOnly, strings.TrimSpace(s)); err == nil {
			return t, nil
		}
	}
	return nil, []string{"Date has wrong format. Use one of these formats instead: YYYY-MM-DD."}
}
