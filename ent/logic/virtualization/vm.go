package virtualization

import (
	"context"
	"fmt"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/ipam"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// vmColumns are what VirtualMachine.clean() reads of a virtual machine.
var vmColumns = []string{"site_id", "cluster_id", "device_id", "disk"}

// VirtualMachineHooks are the hooks of virtualization.VirtualMachine:
// clean() and save() before each row is written (placement, site, type
// defaults, disk, config context), the primary IP addresses, and the
// clusters' allocations after the write.
func VirtualMachineHooks() []ent.Hook {
	return append([]ent.Hook{
		allocationsHook,
		rawsql.RowHook(tableVM, vmColumns, checkVM),
		vmSaveHook,
	}, ipam.VirtualMachinePrimaryIPHooks()...)
}

// checkVM is VirtualMachine.clean() and the site save() fills in.
func checkVM(ctx context.Context, m rawsql.Mutation, id int, row, _ map[string]any) error {
	for c, v := range row {
		row[c] = rawsql.Plain(v)
	}
	site, hasSite := rawsql.IntOf(row["site_id"])
	cluster, hasCluster := rawsql.IntOf(row["cluster_id"])
	device, hasDevice := rawsql.IntOf(row["device_id"])
	if !hasSite && !hasCluster && !hasDevice {
		return &api.FieldError{Field: "__all__", Message: "A virtual machine must be assigned to a site, cluster, or device."}
	}
	var c, d map[string]any
	var err error
	if hasCluster {
		if c, err = rawsql.Lookup(ctx, m, tableCluster, cluster, "name", "_site_id"); err != nil {
			return err
		}
	}
	if hasDevice {
		if d, err = rawsql.Lookup(ctx, m, tableDevice, device, "name", "site_id", "cluster_id"); err != nil {
			return err
		}
	}
	if cs, ok := rawsql.IntOf(c["_site_id"]); ok && hasSite && cs != site {
		return &api.FieldError{Field: "cluster", Message: fmt.Sprintf("The selected cluster (%s) is not assigned to this site (%s).",
			rawsql.StringOf(c["name"]), name(ctx, m, tableSite, site))}
	}
	if ds, ok := rawsql.IntOf(d["site_id"]); ok && hasSite && ds != site {
		return &api.FieldError{Field: "site", Message: fmt.Sprintf("The selected device (%s) is not assigned to this site (%s).",
			rawsql.StringOf(d["name"]), name(ctx, m, tableSite, site))}
	}
	dc, deviceClustered := rawsql.IntOf(d["cluster_id"])
	if hasDevice && !hasCluster && deviceClustered {
		return &api.FieldError{Field: "cluster", Message: fmt.Sprintf(
			"Must specify the assigned device's cluster (%s) when assigning host device %s.",
			name(ctx, m, tableCluster, dc), rawsql.StringOf(d["name"]))}
	}
	if hasDevice && hasCluster && (!deviceClustered || dc != cluster) {
		return &api.FieldError{Field: "device", Message: fmt.Sprintf("The selected device (%s) is not assigned to this cluster (%s).",
			rawsql.StringOf(d["name"]), rawsql.StringOf(c["name"]))}
	}
	if id != 0 {
		// The disk is the sum of the virtual disks, when there are any.
		a := args(m)
		total, err := rawsql.Int(ctx, m, `SELECT COALESCE(SUM(size), 0) FROM "`+tableDisk+`" WHERE virtual_machine_id = `+a.P(id), a)
		if err != nil {
			return err
		}
		disk, hasDisk := rawsql.IntOf(row["disk"])
		switch {
		case total != 0 && !hasDisk:
			if err := m.SetField("disk", total); err != nil {
				return err
			}
		case total != 0 && disk != total:
			return &api.FieldError{Field: "disk", Message: fmt.Sprintf(
				"The specified disk size (%d) must match the aggregate size of assigned virtual disks (%d).", disk, total)}
		}
	}
	// save(): the site follows the cluster, else the device.
	if !hasSite {
		if cs, ok := rawsql.IntOf(c["_site_id"]); ok {
			return m.SetField("site_id", cs)
		}
		if ds, ok := rawsql.IntOf(d["site_id"]); ok {
			return m.SetField("site_id", ds)
		}
	}
	return nil
}

// vmSaveHook is the rest of save(): a new virtual machine takes its
// type's defaults where it leaves them empty (apply_type_defaults), and
// the config context follows the local context data.
func vmSaveHook(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		if !m.Op().Is(ent.OpCreate | ent.OpUpdate | ent.OpUpdateOne) {
			return next.Mutate(ctx, m)
		}
		sm, err := rawsql.As("virtual machine", m)
		if err != nil {
			return nil, err
		}
		creating := m.Op().Is(ent.OpCreate)
		if t, ok := m.Field("virtual_machine_type_id"); ok && creating {
			tid, _ := rawsql.IntOf(rawsql.Plain(t))
			typ, err := rawsql.Lookup(ctx, sm, "virtualization_virtualmachinetype", tid, "default_platform_id", "default_vcpus", "default_memory")
			if err != nil {
				return nil, err
			}
			for field, def := range map[string]string{"platform_id": "default_platform_id", "vcpus": "default_vcpus", "memory": "default_memory"} {
				v, set := m.Field(field)
				if (set && rawsql.Plain(v) != nil) || typ[def] == nil {
					continue
				}
				val := typ[def]
				if field == "vcpus" {
					if n, isInt := val.(int); isInt {
						val = float64(n)
					}
				} else {
					val, _ = rawsql.IntOf(val)
				}
				if err := m.SetField(field, val); err != nil {
					return nil, err
				}
			}
		}
		return next.Mutate(ctx, m)
	})
}

// allocationsHook keeps the clusters' cached allocations: after a
// virtual machine is created, changed or deleted, the clusters it was and
// is in sum their virtual machines again.
func allocationsHook(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		del := m.Op().Is(ent.OpDelete | ent.OpDeleteOne)
		if !del && !rawsql.Touched(m, "cluster_id", "vcpus", "memory", "disk") {
			return next.Mutate(ctx, m)
		}
		sm, err := rawsql.As("virtual machine allocations", m)
		if err != nil {
			return nil, err
		}
		clusters := map[int]bool{}
		if !m.Op().Is(ent.OpCreate) {
			ids, err := rawsql.TargetIDs(ctx, sm)
			if err != nil {
				return nil, err
			}
			old, err := rawsql.LoadRows(ctx, sm, tableVM, []string{"cluster_id"}, ids)
			if err != nil {
				return nil, err
			}
			for _, r := range old {
				if c, ok := rawsql.IntOf(rawsql.Plain(r["cluster_id"])); ok {
					clusters[c] = true
				}
			}
		}
		v, err := next.Mutate(ctx, m)
		if err != nil {
			return nil, err
		}
		if c, ok := m.Field("cluster_id"); ok {
			if id, ok := rawsql.IntOf(rawsql.Plain(c)); ok {
				clusters[id] = true
			}
		}
		ids := make([]int, 0, len(clusters))
		for id := range clusters {
			ids = append(ids, id)
		}
		return v, refreshAllocations(ctx, sm, ids)
	})
}

// clustersOf are the clusters of virtual machines vms.
func clustersOf(ctx context.Context, m rawsql.Mutation, vms []int) ([]int, error) {
	rows, err := rawsql.LoadRows(ctx, m, tableVM, []string{"cluster_id"}, vms)
	if err != nil {
		return nil, err
	}
	var out []int
	for _, r := range rows {
		if c, ok := rawsql.IntOf(rawsql.Plain(r["cluster_id"])); ok {
			out = append(out, c)
		}
	}
	return out, nil
}
