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

// VMInterfaceHooks are the hooks of virtualization.VMInterface:
// VMInterface.clean() and the serializer's VLAN check before the write;
// the cached mac_address and the tagged VLANs of an interface out of
// tagged mode (BaseInterface.save()); the cached display of its FHRP
// group assignments (ent/logic/ipam).
func VMInterfaceHooks() []ent.Hook {
	return append([]ent.Hook{
		rawsql.RowHook(tableInterface, vmInterfaceColumns, checkVMInterface),
		dcim.InterfaceAfterHook(taggedVLANTable, taggedVLANOwn),
	}, ipam.VMInterfaceHooks()...)
}

func checkVMInterface(ctx context.Context, m rawsql.Mutation, id int, row, _ map[string]any) error {
	for c, v := range row {
		row[c] = rawsql.Plain(v)
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
	vlans, err := dcim.CheckVLANMode(ctx, m, id, row, taggedVLANTable, taggedVLANOwn)
	if err != nil {
		return err
	}
	untagged, hasUntagged, tagged, given := vlans.Untagged, vlans.HasUntagged, vlans.Tagged, vlans.TaggedGiven
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
