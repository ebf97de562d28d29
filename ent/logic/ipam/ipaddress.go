package ipam

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"regexp"
	"strings"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/ent/schema/ipnet"
)

// IPAddressAssignedTypes are the objects an IP address may be assigned to
// (NetBox's IPADDRESS_ASSIGNMENT_MODELS).
var IPAddressAssignedTypes = []string{"dcim.interface", "ipam.fhrpgroup", "virtualization.vminterface"}

// Content types the rules below compare with.
const (
	ctInterface   = "dcim.interface"
	ctVMInterface = "virtualization.vminterface"
	ctFHRPGroup   = "ipam.fhrpgroup"
	ctDevice      = "dcim.device"
	// ctVirtualMachine is a service's parent beside devices.
	ctVirtualMachine = "virtualization.virtualmachine"
)

// nonUniqueRoles are the roles exempt from unique address enforcement
// (NetBox's IPADDRESS_ROLES_NONUNIQUE).
var nonUniqueRoles = map[string]bool{"anycast": true, "vip": true, "vrrp": true, "hsrp": true, "glbp": true, "carp": true}

// dnsNameRE is NetBox's DNSValidator.
var dnsNameRE = regexp.MustCompile(`^([0-9A-Za-z_-]+|\*)(\.[0-9A-Za-z_-]+)*\.?$`)

// maxNATHops bounds the walk along nat_inside when looking for a loop.
const maxNATHops = 1000

const ipTable = `"ipam_ipaddress"`

// IPAddressHooks are the hooks of ipam.IPAddress.
func IPAddressHooks() []ent.Hook { return []ent.Hook{ipAddressHook} }

// ipColumns are what the hook reads of a stored address.
const ipColumns = `id, address, family, vrf_id, status, role, assigned_object_type, assigned_object_id, nat_inside_id`

// ipAddressHook derives the hidden columns (host, prefix_length, vrf_key,
// _network, _broadcast) and the lower-cased dns_name, applies NetBox's
// IPAddress.clean() to every row a create or update leaves behind, and
// keeps the cached display of the FHRP groups the rows are assigned to
// (their first address) right after the write.
func ipAddressHook(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		sm, err := rawsql.As("ip address hook", m)
		if err != nil {
			return nil, err
		}
		h := newMutSQL(sm)
		var olds []map[string]any
		if !m.Op().Is(ent.OpCreate) {
			ids, err := rawsql.TargetIDs(ctx, sm)
			if err != nil {
				return nil, err
			}
			if olds, err = h.loadIPs(ctx, ids); err != nil {
				return nil, err
			}
		}
		groups := map[int]bool{}
		for _, old := range olds {
			if rawsql.StringOf(old["assigned_object_type"]) == ctFHRPGroup {
				if g, ok := rawsql.IntOf(old["assigned_object_id"]); ok {
					groups[g] = true
				}
			}
		}
		if m.Op().Is(ent.OpDelete | ent.OpDeleteOne) {
			v, err := next.Mutate(ctx, m)
			if err != nil {
				return nil, err
			}
			return v, refreshFHRPGroups(ctx, h, keys(groups))
		}
		if err := h.derive(); err != nil {
			return nil, err
		}
		if m.Op().Is(ent.OpCreate) {
			olds = []map[string]any{nil}
		}
		for _, old := range olds {
			if err := h.clean(ctx, old); err != nil {
				return nil, err
			}
			if rawsql.StringOf(finalValue(sm, old, "assigned_object_type")) == ctFHRPGroup {
				if g, ok := rawsql.IntOf(finalValue(sm, old, "assigned_object_id")); ok {
					groups[g] = true
				}
			}
		}
		v, err := next.Mutate(ctx, m)
		if err != nil {
			return nil, err
		}
		if len(groups) > 0 && (m.Op().Is(ent.OpCreate) || rawsql.Touched(sm, "address", "assigned_object_type", "assigned_object_id")) {
			err = refreshFHRPGroups(ctx, h, keys(groups))
		}
		return v, err
	})
}

// loadIPs reads the stored rows ids.
func (h *mutSQL) loadIPs(ctx context.Context, ids []int) ([]map[string]any, error) {
	var out []map[string]any
	err := rawsql.Chunks(ids, func(ids []int) error {
		a := h.args()
		rows, err := h.rows(ctx, `SELECT `+ipColumns+` FROM `+ipTable+` WHERE id IN (`+rawsql.In(a, ids)+`)`, a)
		out = append(out, rows...)
		return err
	})
	return out, err
}

// derive sets the columns derived from what the mutation writes: from the
// address its canonical text, family, host, prefix length and network
// bounds; from the VRF the vrf_key; dns_name in lower case (IPAddress.save()).
// A many-row update writes the same values to every row, so the derived
// ones are the same too.
func (h *mutSQL) derive() error {
	m := h.m
	if v, ok := m.Field("address"); ok {
		p, ok := ipnet.ParseLoose(rawsql.StringOf(v))
		if !ok {
			return &api.FieldError{Field: "address", Message: "Invalid IP address format: " + rawsql.StringOf(v)}
		}
		k := ipnet.KeyOf(p)
		for name, v := range map[string]any{"address": p.String(), "family": k.Family, "host": ipnet.Bytes16(p.Addr()),
			"prefix_length": p.Bits(), "_network": k.Network, "_broadcast": k.Broadcast} {
			if err := m.SetField(name, v); err != nil {
				return err
			}
		}
	}
	if m.FieldCleared("vrf_id") {
		if err := m.SetField("vrf_key", 0); err != nil {
			return err
		}
	} else if v, ok := m.Field("vrf_id"); ok {
		if err := m.SetField("vrf_key", v); err != nil {
			return err
		}
	} else if m.Op().Is(ent.OpCreate) {
		if err := m.SetField("vrf_key", 0); err != nil {
			return err
		}
	}
	if v, ok := m.Field("dns_name"); ok {
		name := rawsql.StringOf(v)
		if name != "" && !dnsNameRE.MatchString(name) {
			return &api.FieldError{Field: "dns_name",
				Message: "Only alphanumeric characters, asterisks, hyphens, periods, and underscores are allowed in DNS names"}
		}
		if err := m.SetField("dns_name", strings.ToLower(name)); err != nil {
			return err
		}
	}
	return nil
}

// nonField is a ValidationError without a field: NetBox's clean() raising
// a plain message (rendered under "__all__").
func nonField(format string, args ...any) error {
	return &api.FieldError{Field: "__all__", Message: fmt.Sprintf(format, args...)}
}

// clean is IPAddress.clean() for one row the write leaves behind (old is
// the stored row, nil on create), plus a NAT loop refused.
func (h *mutSQL) clean(ctx context.Context, old map[string]any) error {
	m := h.m
	self, _ := rawsql.IntOf(old["id"])
	p, ok := ipnet.ParseLoose(rawsql.StringOf(finalValue(m, old, "address")))
	if !ok {
		return &api.FieldError{Field: "address", Message: "Invalid IP address format: " + rawsql.StringOf(finalValue(m, old, "address"))}
	}
	addr, family := p.Addr(), ipnet.Family(p.Addr())
	if p.Bits() == 0 {
		return &api.FieldError{Field: "address", Message: "Cannot create IP address with /0 mask."}
	}

	// A network ID or broadcast address may not be assigned to an
	// interface (nor to any object: NetBox tests assigned_object).
	assignedType := rawsql.StringOf(finalValue(m, old, "assigned_object_type"))
	assignedID, assigned := rawsql.IntOf(finalValue(m, old, "assigned_object_id"))
	if assignedType != "" && assigned {
		if addr == p.Masked().Addr() && (family == 4 && p.Bits() < 31 || family == 6 && p.Bits() < 127) {
			return nonField("%s is a network ID, which may not be assigned to an interface.", addr)
		}
		if family == 4 && addr == ipnet.Last(p) && p.Bits() < 31 {
			return nonField("%s is a broadcast address, which may not be assigned to an interface.", addr)
		}
	}

	// Unique within the VRF, or the global table, when enforced.
	if old == nil || rawsql.Touched(m, "address", "vrf_id", "role") {
		if err := h.checkUnique(ctx, self, p, finalValue(m, old, "vrf_id"), rawsql.StringOf(finalValue(m, old, "role"))); err != nil {
			return err
		}
	}

	// A new address may not fall inside a range marked populated (its
	// addresses count as used) of its VRF.
	if old == nil {
		if err := h.checkPopulated(ctx, p, finalValue(m, old, "vrf_id")); err != nil {
			return err
		}
	}

	// A device's primary or OOB address stays with the device.
	if old != nil && rawsql.Touched(m, "assigned_object_type", "assigned_object_id") {
		if err := h.checkReassign(ctx, self, family, old, assignedType, assignedID, assigned); err != nil {
			return err
		}
	}

	if rawsql.StringOf(finalValue(m, old, "status")) == "slaac" && family != 6 {
		return &api.FieldError{Field: "status", Message: "Only IPv6 addresses can be assigned SLAAC status"}
	}

	if rawsql.Touched(m, "nat_inside_id") {
		if inside, ok := rawsql.IntOf(finalValue(m, old, "nat_inside_id")); ok {
			return h.checkNAT(ctx, self, inside)
		}
	}
	return nil
}

// checkUnique refuses a duplicate of p in the VRF (or the global table)
// when the VRF's enforce_unique (or ENFORCE_GLOBAL_UNIQUE) says so, unless
// this address and every duplicate have a role exempt from it (anycast,
// VIP and the FHRP roles).
func (h *mutSQL) checkUnique(ctx context.Context, self int, p netip.Prefix, vrf any, role string) error {
	table := "global table"
	vrfID, inVRF := rawsql.IntOf(vrf)
	if inVRF {
		a := h.args()
		r, err := h.row(ctx, `SELECT name, rd, enforce_unique FROM "ipam_vrf" WHERE id = `+a.P(vrfID), a)
		if err != nil || r == nil {
			return err // a missing VRF was refused by the resource layer
		}
		if !truth(r["enforce_unique"]) {
			return nil
		}
		table = "VRF " + VRFDisplay(func(f string) any { return r[f] })
	} else if !api.SettingsFrom(ctx).EnforceGlobalUnique {
		return nil
	}
	a := h.args()
	dups, err := h.rows(ctx, `SELECT address, role FROM `+ipTable+` WHERE vrf_key = `+a.P(vrfID)+` AND family = `+
		a.P(ipnet.Family(p.Addr()))+` AND host = `+a.P(ipnet.Bytes16(p.Addr()))+` AND id <> `+a.P(self)+
		` ORDER BY prefix_length, id`, a)
	if err != nil || len(dups) == 0 {
		return err
	}
	exempt := nonUniqueRoles[role]
	for _, d := range dups {
		exempt = exempt && nonUniqueRoles[rawsql.StringOf(d["role"])]
	}
	if exempt {
		return nil
	}
	return &api.FieldError{Field: "address",
		Message: fmt.Sprintf("Duplicate IP address found in %s: %s", table, rawsql.StringOf(dups[0]["address"]))}
}

// checkPopulated refuses an address inside an IP range of its VRF marked
// populated (the index (vrf_key, family, start_host) finds the candidates).
func (h *mutSQL) checkPopulated(ctx context.Context, p netip.Prefix, vrf any) error {
	vrfID, _ := rawsql.IntOf(vrf)
	host := ipnet.Bytes16(p.Addr())
	a := h.args()
	r, err := h.row(ctx, `SELECT start_address, end_address FROM "ipam_iprange" WHERE vrf_key = `+a.P(vrfID)+
		` AND family = `+a.P(ipnet.Family(p.Addr()))+` AND start_host <= `+a.P(host)+` AND end_host >= `+a.P(host)+
		` AND mark_populated = `+a.P(true)+` ORDER BY start_host, id LIMIT 1`, a)
	if err != nil || r == nil {
		return err
	}
	return &api.FieldError{Field: "address", Message: fmt.Sprintf("Cannot create IP address %s inside range %s.",
		p, IPRangeName(rawsql.StringOf(r["start_address"]), rawsql.StringOf(r["end_address"])))}
}

// checkReassign refuses to move an address off the device it is the
// primary (of its family) or OOB address of: the new assignment's parent
// (an interface's device; none for an FHRP group or no assignment) must be
// the original one.
func (h *mutSQL) checkReassign(ctx context.Context, self, family int, old map[string]any, newType string, newID int, assigned bool) error {
	oldID, ok := rawsql.IntOf(old["assigned_object_id"])
	oldType := rawsql.StringOf(old["assigned_object_type"])
	if (oldType != ctInterface && oldType != ctVMInterface) || !ok {
		return nil // only interfaces have a parent with primary IPs
	}
	// The parent of an interface: a device, or a virtual machine (which
	// has no OOB address).
	iface, owner, parentTable, oob := `"dcim_interface"`, "device_id", `"dcim_device"`, "d.oob_ip_id"
	if oldType == ctVMInterface {
		iface, owner, parentTable, oob = `"virtualization_vminterface"`, "virtual_machine_id", `"virtualization_virtualmachine"`, "NULL"
	}
	a := h.args()
	dev, err := h.row(ctx, `SELECT d.id, d.primary_ip4_id, d.primary_ip6_id, `+oob+` AS oob_ip_id FROM `+iface+` i `+
		`JOIN `+parentTable+` d ON d.id = i.`+owner+` WHERE i.id = `+a.P(oldID), a)
	if err != nil || dev == nil {
		return err
	}
	devID, _ := rawsql.IntOf(dev["id"])
	parent := 0
	if newType == oldType && assigned {
		a := h.args()
		r, err := h.row(ctx, `SELECT `+owner+` AS owner FROM `+iface+` WHERE id = `+a.P(newID), a)
		if err != nil {
			return err
		}
		parent, _ = rawsql.IntOf(r["owner"])
	}
	if parent == devID {
		return nil
	}
	primary := "primary_ip6_id"
	if family == 4 {
		primary = "primary_ip4_id"
	}
	if id, ok := rawsql.IntOf(dev[primary]); ok && id == self {
		return nonField("Cannot reassign IP address while it is designated as the primary IP for the parent object")
	}
	if id, ok := rawsql.IntOf(dev["oob_ip_id"]); ok && id == self {
		return nonField("Cannot reassign IP address while it is designated as the OOB IP for the parent object")
	}
	return nil
}

// checkNAT refuses an address as its own NAT inside, and a chain of NAT
// inside addresses leading back to it (NetBox accepts both; the issue asks
// for them to be refused).
func (h *mutSQL) checkNAT(ctx context.Context, self, inside int) error {
	if self != 0 && inside == self {
		return &api.FieldError{Field: "nat_inside", Message: "An IP address cannot be its own NAT inside address."}
	}
	if self == 0 {
		return nil // a new address is no one's NAT inside yet
	}
	seen := map[int]bool{}
	for cur, hops := inside, 0; hops < maxNATHops; hops++ {
		a := h.args()
		r, err := h.row(ctx, `SELECT address, nat_inside_id FROM `+ipTable+` WHERE id = `+a.P(cur), a)
		if err != nil || r == nil {
			return err
		}
		next, ok := rawsql.IntOf(r["nat_inside_id"])
		if !ok || seen[next] {
			return nil
		}
		if next == self {
			return &api.FieldError{Field: "nat_inside",
				Message: fmt.Sprintf("NAT loop: %s has this address as its NAT inside address (directly or through others).", rawsql.StringOf(r["address"]))}
		}
		seen[cur] = true
		cur = next
	}
	return errors.New("nat_inside: chain too long")
}

// truth reads a boolean stored as bool or integer (SQLite).
func truth(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case int:
		return x != 0
	case string:
		return x == "1" || x == "true" || x == "t"
	}
	return false
}

// keys lists the keys of a set.
func keys(s map[int]bool) []int {
	out := make([]int, 0, len(s))
	for k := range s {
		out = append(out, k)
	}
	return out
}
