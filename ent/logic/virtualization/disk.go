package virtualization

import (
	"context"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/rawsql"
)

// VirtualDiskHooks are the hooks of virtualization.VirtualDisk: NetBox's
// update_virtualmachine_disk signal, after every save and delete the
// virtual machine's disk is the sum of its disks (NULL without any), and
// its cluster's allocations follow.
func VirtualDiskHooks() []ent.Hook {
	return []ent.Hook{func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			sm, err := rawsql.As("virtual disk", m)
			if err != nil {
				return nil, err
			}
			vms := map[int]bool{}
			if !m.Op().Is(ent.OpCreate) {
				ids, err := rawsql.TargetIDs(ctx, sm)
				if err != nil {
					return nil, err
				}
				old, err := rawsql.LoadRows(ctx, sm, tableDisk, []string{"virtual_machine_id"}, ids)
				if err != nil {
					return nil, err
				}
				for _, r := range old {
					if id, ok := rawsql.IntOf(rawsql.Plain(r["virtual_machine_id"])); ok {
						vms[id] = true
					}
				}
			}
			v, err := next.Mutate(ctx, m)
			if err != nil {
				return nil, err
			}
			if id, ok := m.Field("virtual_machine_id"); ok {
				if n, ok := rawsql.IntOf(rawsql.Plain(id)); ok {
					vms[n] = true
				}
			}
			ids := make([]int, 0, len(vms))
			for id := range vms {
				ids = append(ids, id)
			}
			return v, refreshDisks(ctx, sm, ids)
		})
	}}
}

// refreshDisks sets the disk of virtual machines ids to the sum of their
// disks, and refreshes their clusters' allocations.
func refreshDisks(ctx context.Context, m rawsql.Mutation, ids []int) error {
	if len(ids) == 0 {
		return nil
	}
	err := rawsql.Chunks(ids, func(ids []int) error {
		a := args(m)
		return rawsql.Exec(ctx, m, `UPDATE "`+tableVM+`" SET disk = (SELECT SUM(d.size) FROM "`+tableDisk+
			`" d WHERE d.virtual_machine_id = "`+tableVM+`".id) WHERE id IN (`+rawsql.In(a, ids)+`)`, a)
	})
	if err != nil {
		return err
	}
	clusters, err := clustersOf(ctx, m, ids)
	if err != nil {
		return err
	}
	return refreshAllocations(ctx, m, clusters)
}
