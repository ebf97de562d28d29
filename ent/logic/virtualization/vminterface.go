package virtualization

import (
	"context"
	"fmt"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/ipam"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// The join table of a VM interface's tagged VLANs.
const taggedVLANTable, taggedVLANOwn = "virtualization_vminterface_tagged_vlans", "vminterface_id"

var vmInterfaceColumns = []string{"virtual_machine_id", "parent_id", "bridge_id", "mode", "untagged_vlan_id",
	"qinq_svlan_id", "primary_mac_address_id"}

// VMInterfaceHooks are the hooks of virtualization.VMInterface:
// VMInterface.clean() and the serializer's VLAN check before the write;
// the cached mac_address and the tagged VLANs of an interface out of
// tagged mode (BaseInterface.save()); the cached display of its FHRP
// group assignments (ent/logic/ipam).
func VMInterfaceHooks() []ent.Hook {
	return append([]ent.Hook{
		rawsql.RowHook(tableInterface, vmInterfaceColumns, checkVMInterface),
		vmInterfaceAfterHook,
	}, ipam.VMInterfaceHooks()...)
}

func checkVMInterface(ctx context.Context, m rawsql.Mutation, id int, row, _ map[string]any) error {
	for c, v := range row {
		row[c] = plain(v)
	}
	vm, _ := rawsql.IntOf(row["virtual_machine_id"])
	for _, rel := range []struct{ field, self, other string }{
		{"parent", "An interface cannot be its own parent.", "The selected parent interface (%s) belongs to a different virtual machine (%s)."},
		{"bridge", "An interface cannot be bridged to itself.", "The selected bridge interface (%s) belongs to a different virtual machine (%s)."},
	} {
		other, ok := rawsql.IntOf(row[rel.field+"_id"])
		if !ok {
			continue
		}
		if other == id {
			return &api.FieldError{Field: rel.field, Message: rel.self}
		}
		r, err := lookup(ctx, m, tableInterface, other, "name", "virtual_machine_id")
		if err != nil {
			return err
		}
		if ovm, _ := rawsql.IntOf(r["virtual_machine_id"]); r != nil && ovm != vm {
			return &api.FieldError{Field: rel.field, Message: fmt.Sprintf(rel.other, rawsql.StringOf(r["name"]), name(ctx, m, tableVM, ovm))}
		}
	}
	if err := checkVMVLANs(ctx, m, id, vm, row); err != nil {
		return err
	}
	if mac, ok := rawsql.IntOf(row["primary_mac_address_id"]); ok {
		r, err := lookup(ctx, m, "dcim_macaddress", mac, "mac_address", "assigned_object_type", "assigned_object_id")
		if err != nil {
			return err
		}
		other, assigned := rawsql.IntOf(r["assigned_object_id"])
		if r != nil && assigned && (rawsql.StringOf(r["assigned_object_type"]) != "virtualization.vminterface" || other != id) {
			return &api.FieldError{Field: "primary_mac_address", Message: fmt.Sprintf(
				"MAC address %s is assigned to a different interface (%s).", rawsql.StringOf(r["mac_address"]),
				interfaceName(ctx, m, rawsql.StringOf(r["assigned_object_type"]), other))}
		}
	}
	return nil
}

// checkVMVLANs: a mode carries the VLANs it supports (the serializer's
// check, as for device interfaces), and every VLAN belongs to the virtual
// machine's site or to none (VMInterface.clean() and the serializer).
func checkVMVLANs(ctx context.Context, m rawsql.Mutation, id, vm int, row map[string]any) error {
	mode := rawsql.StringOf(row["mode"])
	tagged, given := api.Related(ctx, "tagged_vlans")
	hasTagged := len(tagged) > 0
	if !given && id != 0 {
		a := args(m)
		n, err := rawsql.Int(ctx, m, `SELECT COUNT(*) FROM `+taggedVLANTable+` WHERE `+taggedVLANOwn+` = `+a.P(id), a)
		if err != nil {
			return err
		}
		hasTagged = n > 0
	}
	untagged, hasUntagged := rawsql.IntOf(row["untagged_vlan_id"])
	_, hasSVLAN := rawsql.IntOf(row["qinq_svlan_id"])
	switch {
	case mode != "q-in-q" && hasSVLAN:
		return &api.FieldError{Field: "qinq_svlan", Message: "Interface mode does not support q-in-q service vlan"}
	case mode == "" && hasUntagged:
		return &api.FieldError{Field: "untagged_vlan", Message: "Interface mode does not support untagged vlan"}
	case (mode == "" || mode == "access" || mode == "tagged-all") && hasTagged:
		return &api.FieldError{Field: "tagged_vlans", Message: "Interface mode does not support tagged vlans"}
	}
	v, err := lookup(ctx, m, tableVM, vm, "site_id")
	if err != nil {
		return err
	}
	site, _ := rawsql.IntOf(v["site_id"])
	ok := func(vlan int) (string, bool, error) {
		r, err := lookup(ctx, m, "ipam_vlan", vlan, "name", "site_id")
		if err != nil || r == nil {
			return "", true, err
		}
		s, hasSite := rawsql.IntOf(r["site_id"])
		return rawsql.StringOf(r["name"]), !hasSite || s == site, nil
	}
	if hasUntagged {
		n, fine, err := ok(untagged)
		if err != nil {
			return err
		}
		if !fine {
			return &api.FieldError{Field: "untagged_vlan", Message: fmt.Sprintf("The untagged VLAN (%s) must belong to the same "+
				"site as the interface's parent virtual machine, or it must be global.", n)}
		}
	}
	if given {
		for _, t := range tagged {
			n, fine, err := ok(t)
			if err != nil {
				return err
			}
			if !fine {
				return &api.FieldError{Field: "tagged_vlans", Message: fmt.Sprintf("VLAN %s must belong to the same site as "+
					"the interface's parent virtual machine, or it must be global.", n)}
			}
		}
	}
	return nil
}

// vmInterfaceAfterHook keeps the cached mac_address with the primary MAC
// address, and drops the tagged VLANs of an interface that leaves tagged
// mode (BaseInterface.save()).
func vmInterfaceAfterHook(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		if !m.Op().Is(ent.OpCreate | ent.OpUpdate | ent.OpUpdateOne) {
			return next.Mutate(ctx, m)
		}
		sm, err := rawsql.As("vm interface", m)
		if err != nil {
			return nil, err
		}
		if rawsql.Touched(m, "primary_mac_address_id") {
			var text any
			if v, ok := m.Field("primary_mac_address_id"); ok {
				mac, _ := rawsql.IntOf(plain(v))
				r, err := lookup(ctx, sm, "dcim_macaddress", mac, "mac_address")
				if err != nil {
					return nil, err
				}
				text = r["mac_address"]
			}
			if text == nil {
				err = m.ClearField("mac_address")
			} else {
				err = m.SetField("mac_address", rawsql.StringOf(text))
			}
			if err != nil {
				return nil, err
			}
		}
		v, err := next.Mutate(ctx, m)
		if err != nil || !rawsql.Touched(m, "mode") {
			return v, err
		}
		if mode, _ := m.Field("mode"); plain(mode) == "tagged" {
			return v, nil
		}
		ids, err := rawsql.TargetIDs(ctx, sm)
		if err != nil {
			return nil, err
		}
		a := args(sm)
		return v, rawsql.Exec(ctx, sm, `DELETE FROM `+taggedVLANTable+` WHERE `+taggedVLANOwn+` IN (`+rawsql.In(a, ids)+`)`, a)
	})
}

// interfaceName is the name of the interface (of either kind) a MAC
// address is assigned to, for messages.
func interfaceName(ctx context.Context, m rawsql.Mutation, ct string, id int) string {
	table := tableInterface
	if ct == "dcim.interface" {
		table = "dcim_interface"
	}
	if n := name(ctx, m, table, id); n != "" {
		return n
	}
	return fmt.Sprint(id)
}
