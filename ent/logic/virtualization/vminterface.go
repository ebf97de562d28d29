package virtualization

import (
	"context"
	"fmt"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/logic/ipam"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// The join table of a VM interface's tagged VLANs.
const taggedVLANTable, taggedVLANOwn = "virtualization_vminterface_tagged_vlans", "vminterface_id"

var vmInterfaceColumns = []string{"virtual_machine_id", "parent_id", "bridge_id", "mode", "untagged_vlan_id",
	"qinq_svlan_id", "primary_mac_address_id"}

// VMInterfaceHooks are the hooks of virtualization.VMInterface, in
// NetBox's order: the serializer's check of the tagged VLANs, then
// BaseInterface.clean() and VMInterface.clean() before the write; then
// BaseInterface.save() (no untagged VLAN without a mode; tagged VLANs only
// in tagged mode) and the cached mac_address; the cached display of its
// FHRP group assignments (ent/logic/ipam).
//
// NetBox's VM interface serializer makes none of the 802.1Q mode checks
// its device interface serializer makes ("Interface mode does not support
// tagged vlans"): a VM interface without a mode takes tagged VLANs, and an
// untagged VLAN given without a mode is dropped by save(), not refused.
func VMInterfaceHooks() []ent.Hook {
	return append([]ent.Hook{
		rawsql.RowHook(tableInterface, vmInterfaceColumns, checkVMInterface),
		untaggedNeedsMode,
		dcim.InterfaceAfterHook(taggedVLANTable, taggedVLANOwn, true, tableInterface),
		dcim.PrimaryMACHook("virtualization.vminterface"),
	}, ipam.VMInterfaceHooks()...)
}

func checkVMInterface(ctx context.Context, m rawsql.Mutation, id int, row, _ map[string]any) error {
	for c, v := range row {
		row[c] = rawsql.Plain(v)
	}
	vm, _ := rawsql.IntOf(row["virtual_machine_id"])
	v, err := rawsql.Lookup(ctx, m, tableVM, vm, "site_id")
	if err != nil {
		return err
	}
	site, _ := rawsql.IntOf(v["site_id"])
	// The VLAN belongs to the virtual machine's site or to none.
	atSite := func(vlan int) (string, bool, error) {
		r, err := rawsql.Lookup(ctx, m, "ipam_vlan", vlan, "name", "vid", "site_id")
		if err != nil || r == nil {
			return "", true, err
		}
		s, hasSite := rawsql.IntOf(r["site_id"])
		return dcim.VLANString(r), !hasSite || s == site, nil
	}
	// VMInterfaceSerializer.validate(): the tagged VLANs the request sets.
	tagged, _ := api.Related(ctx, "tagged_vlans")
	for _, t := range tagged {
		n, fine, err := atSite(t)
		if err != nil {
			return err
		}
		if !fine {
			return &api.FieldError{Field: "tagged_vlans", Message: fmt.Sprintf("VLAN %s must belong to the same site as "+
				"the interface's parent virtual machine, or it must be global.", n)}
		}
	}
	// BaseInterface.clean().
	if row["qinq_svlan_id"] != nil && rawsql.StringOf(row["mode"]) != "q-in-q" {
		return &api.FieldError{Field: "qinq_svlan", Message: "Only Q-in-Q interfaces may specify a service VLAN."}
	}
	if mac, ok := rawsql.IntOf(row["primary_mac_address_id"]); ok {
		r, err := rawsql.Lookup(ctx, m, "dcim_macaddress", mac, "mac_address", "assigned_object_type", "assigned_object_id")
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
	// VMInterface.clean(): parent and bridge, then the untagged VLAN.
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
		r, err := rawsql.Lookup(ctx, m, tableInterface, other, "name", "virtual_machine_id")
		if err != nil {
			return err
		}
		if ovm, _ := rawsql.IntOf(r["virtual_machine_id"]); r != nil && ovm != vm {
			return &api.FieldError{Field: rel.field, Message: fmt.Sprintf(rel.other, rawsql.StringOf(r["name"]), name(ctx, m, tableVM, ovm))}
		}
	}
	if untagged, ok := rawsql.IntOf(row["untagged_vlan_id"]); ok {
		n, fine, err := atSite(untagged)
		if err != nil {
			return err
		}
		if !fine {
			return &api.FieldError{Field: "untagged_vlan", Message: fmt.Sprintf("The untagged VLAN (%s) must belong to the same "+
				"site as the interface's parent virtual machine, or it must be global.", n)}
		}
	}
	return nil
}

// untaggedNeedsMode is BaseInterface.save()'s "remove untagged VLAN
// assignment for non-802.1Q interfaces": a VM interface left without a
// mode loses its untagged VLAN (after clean() has checked it, as NetBox
// saves after validating). Device interfaces never get here with one: their
// serializer refuses an untagged VLAN without a mode.
func untaggedNeedsMode(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		if !m.Op().Is(ent.OpCreate | ent.OpUpdateOne) {
			return next.Mutate(ctx, m)
		}
		sm, err := rawsql.As("vm interface untagged VLAN", m)
		if err != nil {
			return nil, err
		}
		var old map[string]any
		if m.Op().Is(ent.OpUpdateOne) {
			ids, err := rawsql.TargetIDs(ctx, sm)
			if err != nil {
				return nil, err
			}
			rows, err := rawsql.LoadRows(ctx, sm, tableInterface, []string{"mode", "untagged_vlan_id"}, ids)
			if err != nil {
				return nil, err
			}
			for _, r := range rows {
				old = r
			}
		}
		row := rawsql.Overlay(m, []string{"mode", "untagged_vlan_id"}, old)
		if rawsql.StringOf(rawsql.Plain(row["mode"])) == "" && rawsql.Plain(row["untagged_vlan_id"]) != nil {
			if err := m.ClearField("untagged_vlan_id"); err != nil {
				return nil, err
			}
		}
		return next.Mutate(ctx, m)
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
