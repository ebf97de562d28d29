package resource

import (
	"encoding/json"
	"errors"
	"net/netip"
	"strconv"
	"strings"

	"entgo.io/ent/dialect/sql"

	// The prefix hook (derived columns, _depth/_children) is stitched in by
	// ent/runtime; every write through a descriptor needs it.
	_ "github.com/inventory/inventory/ent/runtime"
	"github.com/inventory/inventory/ent/schema/ipnet"
	"github.com/inventory/inventory/filters"
)

// The cidr kind and the containment filters of IP objects. Such rows carry
// hidden columns next to the prefix text (see ent/schema/ipnet): family,
// network and broadcast (16 bytes, IPv4 v4-mapped, so byte order is numeric
// order on both databases) and the prefix length; containment is a
// comparison of those, served by the index (vrf_key, family, network,
// length). Which columns hold them is the model's declaration
// (api.Model.IP, Descriptor.IP): Prefix, Aggregate, IPRange and IPAddress
// share these kinds by declaring their columns; a model that uses one of
// them without declaring IP is refused when the registry is built.

func init() {
	RegisterKind("cidr", func(b []byte, v any) []byte {
		s, _ := v.(string)
		return appendString(b, s)
	}, decodeCIDR)

	ipKind := func(build func(c *IPColumns, decl FilterDecl) *filters.Filter) func(d *Descriptor, decl FilterDecl) *filters.Filter {
		return func(d *Descriptor, decl FilterDecl) *filters.Filter {
			if d.IP == nil {
				return nil // "kind refused": the model declares no IP columns
			}
			return build(d.IP, decl)
		}
	}
	FilterKinds["prefix-within"] = ipKind(func(c *IPColumns, decl FilterDecl) *filters.Filter {
		return lastValueFilter(decl.Name, func(v string) func(*sql.Selector) { return withinPred(c, v, false) })
	})
	FilterKinds["prefix-within-include"] = ipKind(func(c *IPColumns, decl FilterDecl) *filters.Filter {
		return lastValueFilter(decl.Name, func(v string) func(*sql.Selector) { return withinPred(c, v, true) })
	})
	FilterKinds["prefix-contains"] = ipKind(func(c *IPColumns, decl FilterDecl) *filters.Filter {
		return lastValueFilter(decl.Name, func(v string) func(*sql.Selector) { return containsPred(c, v) })
	})
	FilterKinds["prefix-exact"] = ipKind(func(c *IPColumns, decl FilterDecl) *filters.Filter {
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{}, Func: prefixExact(c)}
	})
	FilterKinds["prefix-mask-length"] = ipKind(func(c *IPColumns, decl FilterDecl) *filters.Filter {
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{"gte", "lte"}, Func: maskLength(c)}
	})
	FilterKinds["ip-family"] = ipKind(func(c *IPColumns, decl FilterDecl) *filters.Filter {
		return &filters.Filter{Name: decl.Name, Kind: filters.Custom, Lookups: []string{}, Func: ipFamily(c)}
	})
}

// decodeCIDR validates and canonicalises a prefix: NetBox's IPNetworkField
// messages, host bits refused (prefix_validator), /0 refused (Prefix.clean),
// IPv6 compressed in lower case.
func decodeCIDR(f *Field, raw json.RawMessage) (any, []string) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, []string{"Invalid IP address format: " + strings.Trim(string(raw), `"`)}
	}
	if strings.TrimSpace(s) == "" {
		if f.Required {
			return nil, []string{"This field may not be blank."}
		}
		return nil, []string{"This field may not be null."}
	}
	p, msg := ipnet.Canonical(s, false)
	if msg != "" {
		return nil, []string{msg}
	}
	if p.Bits() == 0 {
		return nil, []string{"Cannot create prefix with /0 mask."}
	}
	return p.String(), nil
}

// CanonicalCIDR is decodeCIDR for Go callers: the canonical text or
// NetBox's message.
func CanonicalCIDR(s string) (string, string) {
	v, msgs := decodeCIDR(&Field{Required: true}, json.RawMessage(strconv.Quote(s)))
	if msgs != nil {
		return "", msgs[0]
	}
	return v.(string), ""
}

var errInvalidChoice = errors.New("Select a valid choice. That choice is not one of the available choices.")

// lastValueFilter is a CharFilter with a custom method: the last value
// counts (Django's QueryDict.get), no lookups.
func lastValueFilter(name string, pred func(v string) func(*sql.Selector)) *filters.Filter {
	return &filters.Filter{Name: name, Kind: filters.Custom, Lookups: []string{},
		Func: func(_ string, values []string) (func(*sql.Selector), error) {
			v := strings.TrimSpace(values[len(values)-1])
			if v == "" {
				return nil, nil
			}
			return pred(v), nil
		}}
}

func none(s *sql.Selector) { s.Where(sql.False()) }

// withinPred: prefixes inside v (net_contained, or net_contained_or_equal
// with include), in every VRF. An invalid value matches nothing, as in
// NetBox.
func withinPred(c *IPColumns, v string, include bool) func(*sql.Selector) {
	p, ok := ipnet.ParseLoose(v)
	if !ok {
		return none
	}
	k := ipnet.KeyOf(p)
	return func(s *sql.Selector) {
		length := sql.GT(s.C(c.Length), k.Length)
		if include {
			length = sql.GTE(s.C(c.Length), k.Length)
		}
		s.Where(sql.And(sql.EQ(s.C(c.Family), k.Family),
			sql.GTE(s.C(c.Network), k.Network), sql.LTE(s.C(c.Network), k.Broadcast), length))
	}
}

// containsPred: with a mask, prefixes containing or equal to v; without,
// prefixes strictly containing the address v (net_contains), in every VRF.
func containsPred(c *IPColumns, v string) func(*sql.Selector) {
	if strings.Contains(v, "/") {
		p, ok := ipnet.ParseLoose(v)
		if !ok {
			return none
		}
		return supernetPred(c, ipnet.KeyOf(p), true)
	}
	a, err := netip.ParseAddr(v)
	if err != nil || a.Zone() != "" {
		return none
	}
	return supernetPred(c, ipnet.KeyOf(netip.PrefixFrom(a, a.BitLen())), false)
}

// supernetPred matches the prefixes containing k (equal ones too when
// orEqual). The network IN list of the possible supernets keeps it an index
// lookup (DESIGN.md §8).
func supernetPred(c *IPColumns, k ipnet.Key, orEqual bool) func(*sql.Selector) {
	sup := ipnet.Supernets(k)
	if orEqual {
		sup = append(sup, k.Network)
	}
	nets := make([]any, len(sup))
	for i, n := range sup {
		nets[i] = n
	}
	return func(s *sql.Selector) {
		if len(nets) == 0 {
			s.Where(sql.False())
			return
		}
		length := sql.LT(s.C(c.Length), k.Length)
		if orEqual {
			length = sql.LTE(s.C(c.Length), k.Length)
		}
		s.Where(sql.And(sql.EQ(s.C(c.Family), k.Family), sql.In(s.C(c.Network), nets...),
			length, sql.GTE(s.C(c.Broadcast), k.Broadcast)))
	}
}

// prefixExact: prefix=<cidr>, repeated = OR; values that do not parse are
// ignored (all invalid: nothing matches), as NetBox's filter_prefix does.
func prefixExact(c *IPColumns) customFunc {
	return func(_ string, values []string) (func(*sql.Selector), error) { return prefixExactPred(c, values), nil }
}

func prefixExactPred(c *IPColumns, values []string) func(*sql.Selector) {
	var keys []ipnet.Key
	for _, v := range values {
		p, ok := ipnet.ParseLoose(v)
		if !ok || p.Masked() != p {
			continue // a stored prefix never has host bits
		}
		keys = append(keys, ipnet.KeyOf(p))
	}
	return func(s *sql.Selector) {
		if len(keys) == 0 {
			s.Where(sql.False())
			return
		}
		ors := make([]*sql.Predicate, len(keys))
		for i, k := range keys {
			ors[i] = sql.And(sql.EQ(s.C(c.Family), k.Family), sql.EQ(s.C(c.Network), k.Network),
				sql.EQ(s.C(c.Length), k.Length))
		}
		s.Where(sql.Or(ors...))
	}
}

// maskLength: mask_length=<n> (repeated = OR), mask_length__gte/__lte.
func maskLength(c *IPColumns) customFunc {
	return func(lookup string, values []string) (func(*sql.Selector), error) {
		return maskLengthPred(c, lookup, values)
	}
}

func maskLengthPred(c *IPColumns, lookup string, values []string) (func(*sql.Selector), error) {
	ns := make([]any, len(values))
	for i, v := range values {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return nil, errors.New("Enter a whole number.")
		}
		ns[i] = n
	}
	return func(s *sql.Selector) {
		switch lookup {
		case "gte":
			s.Where(sql.GTE(s.C(c.Length), ns[len(ns)-1]))
		case "lte":
			s.Where(sql.LTE(s.C(c.Length), ns[len(ns)-1]))
		default:
			s.Where(sql.In(s.C(c.Length), ns...))
		}
	}, nil
}

// ipFamily: family=4|6 (a NumberFilter: the last value counts).
func ipFamily(c *IPColumns) customFunc {
	return func(_ string, values []string) (func(*sql.Selector), error) { return ipFamilyPred(c, values) }
}

func ipFamilyPred(c *IPColumns, values []string) (func(*sql.Selector), error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(values[len(values)-1]), 64)
	if err != nil {
		return nil, errors.New("Enter a number.")
	}
	if f != float64(int(f)) {
		return none, nil
	}
	return func(s *sql.Selector) { s.Where(sql.EQ(s.C(c.Family), int(f))) }, nil
}

// customFunc is the Func of a filters.Custom filter.
type customFunc = func(lookup string, values []string) (func(*sql.Selector), error)
