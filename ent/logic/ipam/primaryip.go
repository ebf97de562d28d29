package ipam

import (
	"context"
	"fmt"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// The primary and out-of-band IP addresses of devices and virtual device
// contexts (NetBox's Device.clean() and VirtualDeviceContext.clean()): an
// address of the right family, assigned to an interface of the device (or
// of a member of its virtual chassis), or the NAT outside address of one.

// DevicePrimaryIPHooks check a device's primary_ip4, primary_ip6 and
// oob_ip whenever they or its virtual chassis change.
func DevicePrimaryIPHooks() []ent.Hook {
	return []ent.Hook{primaryIPHook("dcim_device", []string{"primary_ip4_id", "primary_ip6_id", "oob_ip_id", "virtual_chassis_id"},
		func(ctx context.Context, h *mutSQL, old map[string]any) error {
			self, _ := rawsql.IntOf(old["id"])
			vc, inVC := rawsql.IntOf(finalValue(h.m, old, "virtual_chassis_id"))
			for _, c := range []struct {
				field  string
				family int
			}{{"primary_ip4", 4}, {"primary_ip6", 6}, {"oob_ip", 0}} {
				id, ok := rawsql.IntOf(finalValue(h.m, old, c.field+"_id"))
				if !ok {
					continue
				}
				ip, err := h.primaryCandidate(ctx, id, self, vc, inVC)
				if err != nil || ip == nil {
					return err
				}
				if c.family != 0 && ip.family != c.family {
					return &api.FieldError{Field: c.field, Message: fmt.Sprintf("%s is not an IPv%d address.", ip.address, c.family)}
				}
				if !ip.onDevice {
					return &api.FieldError{Field: c.field, Message: fmt.Sprintf("The specified IP address (%s) is not assigned to this device.", ip.address)}
				}
			}
			return nil
		})}
}

// VirtualDeviceContextPrimaryIPHooks check a virtual device context's
// primary_ip4 and primary_ip6: on an interface of its device.
func VirtualDeviceContextPrimaryIPHooks() []ent.Hook {
	return []ent.Hook{primaryIPHook("dcim_virtualdevicecontext", []string{"primary_ip4_id", "primary_ip6_id", "device_id"},
		func(ctx context.Context, h *mutSQL, old map[string]any) error {
			device, _ := rawsql.IntOf(finalValue(h.m, old, "device_id"))
			a := h.args()
			d, err := h.row(ctx, `SELECT virtual_chassis_id FROM "dcim_device" WHERE id = `+a.P(device), a)
			if err != nil {
				return err
			}
			vc, inVC := rawsql.IntOf(d["virtual_chassis_id"])
			for _, family := range []int{4, 6} {
				field := fmt.Sprintf("primary_ip%d", family)
				id, ok := rawsql.IntOf(finalValue(h.m, old, field+"_id"))
				if !ok {
					continue
				}
				ip, err := h.primaryCandidate(ctx, id, device, vc, inVC)
				if err != nil || ip == nil {
					return err
				}
				if ip.family != family {
					return &api.FieldError{Field: field, Message: fmt.Sprintf("%s is not an IPv%d address.", ip.address, family)}
				}
				// NetBox's VDC check knows no NAT: the address itself.
				if !ip.direct {
					return &api.FieldError{Field: field, Message: "Primary IP address must belong to an interface on the assigned device."}
				}
			}
			return nil
		})}
}

// primaryIPHook runs check for every row a create or update leaves behind
// when the write touches one of cols (old is the stored row, holding only
// its id; nil on create).
func primaryIPHook(table string, cols []string, check func(ctx context.Context, h *mutSQL, old map[string]any) error) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if !m.Op().Is(ent.OpCreate|ent.OpUpdate|ent.OpUpdateOne) || !rawsql.Touched(m, cols...) {
				return next.Mutate(ctx, m)
			}
			sm, err := rawsql.As(table+" primary ip hook", m)
			if err != nil {
				return nil, err
			}
			h := newMutSQL(sm)
			olds := []map[string]any{nil}
			if !m.Op().Is(ent.OpCreate) {
				ids, err := rawsql.TargetIDs(ctx, sm)
				if err != nil {
					return nil, err
				}
				olds = nil
				err = rawsql.Chunks(ids, func(ids []int) error {
					a := h.args()
					var sel string
					for _, c := range cols {
						sel += `, "` + c + `"`
					}
					rows, err := h.rows(ctx, `SELECT id`+sel+` FROM "`+table+`" WHERE id IN (`+rawsql.In(a, ids)+`)`, a)
					olds = append(olds, rows...)
					return err
				})
				if err != nil {
					return nil, err
				}
			}
			for _, old := range olds {
				if err := check(ctx, h, old); err != nil {
					return nil, err
				}
			}
			return next.Mutate(ctx, m)
		})
	}
}

// candidate is what the checks need of a primary IP address.
type candidate struct {
	address string
	family  int
	// direct: assigned to an interface of the device or its virtual
	// chassis; onDevice: that, or the NAT outside of such an address.
	direct, onDevice bool
}

// primaryCandidate reads address id and where it sits relative to device
// (0 when the device is being created) and its virtual chassis vc:
// NetBox's vc_interfaces(if_master=False), the device's interfaces and
// every member's non-management ones. nil when the address is missing
// (the resource layer refused that already).
func (h *mutSQL) primaryCandidate(ctx context.Context, id, device, vc int, inVC bool) (*candidate, error) {
	onInterfaces := func(a *rawsql.Args, alias string) string {
		s := alias + `.assigned_object_type = ` + a.P(ctInterface) + ` AND ` + alias + `.assigned_object_id IN ` +
			`(SELECT i.id FROM "dcim_interface" i WHERE i.device_id = ` + a.P(device)
		if inVC {
			s += ` OR (i.mgmt_only = ` + a.P(false) + ` AND i.device_id IN (SELECT m.id FROM "dcim_device" m WHERE m.virtual_chassis_id = ` + a.P(vc) + `))`
		}
		return s + `)`
	}
	a := h.args()
	q := `SELECT ip.address, ip.family, ` +
		`CASE WHEN ` + onInterfaces(a, "ip") + ` THEN 1 ELSE 0 END AS direct, ` +
		`CASE WHEN EXISTS (SELECT 1 FROM ` + ipTable + ` n WHERE n.id = ip.nat_inside_id AND ` + onInterfaces(a, "n") + `) THEN 1 ELSE 0 END AS nat ` +
		`FROM ` + ipTable + ` ip WHERE ip.id = ` + a.P(id)
	r, err := h.row(ctx, q, a)
	if err != nil || r == nil {
		return nil, err
	}
	fam, _ := rawsql.IntOf(r["family"])
	direct, _ := rawsql.IntOf(r["direct"])
	nat, _ := rawsql.IntOf(r["nat"])
	return &candidate{address: rawsql.StringOf(r["address"]), family: fam, direct: direct == 1, onDevice: direct == 1 || nat == 1}, nil
}

// VirtualMachinePrimaryIPHooks check a virtual machine's primary_ip4 and
// primary_ip6 (VirtualMachine.clean()): an address of the family, assigned
// to one of its interfaces or the NAT outside of one that is.
func VirtualMachinePrimaryIPHooks() []ent.Hook {
	return []ent.Hook{primaryIPHook("virtualization_virtualmachine", []string{"primary_ip4_id", "primary_ip6_id"},
		func(ctx context.Context, h *mutSQL, old map[string]any) error {
			self, _ := rawsql.IntOf(old["id"])
			for _, family := range []int{4, 6} {
				field := fmt.Sprintf("primary_ip%d", family)
				id, ok := rawsql.IntOf(finalValue(h.m, old, field+"_id"))
				if !ok {
					continue
				}
				onVM := func(a *rawsql.Args, alias string) string {
					return alias + `.assigned_object_type = ` + a.P(ctVMInterface) + ` AND ` + alias + `.assigned_object_id IN ` +
						`(SELECT i.id FROM "virtualization_vminterface" i WHERE i.virtual_machine_id = ` + a.P(self) + `)`
				}
				a := h.args()
				r, err := h.row(ctx, `SELECT ip.address, ip.family, `+
					`CASE WHEN `+onVM(a, "ip")+` OR EXISTS (SELECT 1 FROM `+ipTable+` n WHERE n.id = ip.nat_inside_id AND `+onVM(a, "n")+`) `+
					`THEN 1 ELSE 0 END AS here FROM `+ipTable+` ip WHERE ip.id = `+a.P(id), a)
				if err != nil || r == nil {
					return err
				}
				address := rawsql.StringOf(r["address"])
				if fam, _ := rawsql.IntOf(r["family"]); fam != family {
					return &api.FieldError{Field: field, Message: fmt.Sprintf("Must be an IPv%d address. (%s is an IPv%d address.)", family, address, fam)}
				}
				if here, _ := rawsql.IntOf(r["here"]); here != 1 {
					return &api.FieldError{Field: field, Message: fmt.Sprintf("The specified IP address (%s) is not assigned to this VM.", address)}
				}
			}
			return nil
		})}
}
