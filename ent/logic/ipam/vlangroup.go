package ipam

import (
	"context"
	"fmt"
	"sort"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/schema/api"
)

// VLAN IDs valid in IEEE 802.1Q (NetBox's VLAN_VID_MIN/MAX).
const (
	VIDMin = 1
	VIDMax = 4094
)

// VLANGroupHooks are the hooks of ipam.VLANGroup: vid_ranges is validated
// with NetBox's messages and total_vlan_ids recomputed whenever vid_ranges
// is written (a create applies the default before hooks run, so it is
// always present then).
func VLANGroupHooks() []ent.Hook {
	return []ent.Hook{
		func(next ent.Mutator) ent.Mutator {
			return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
				if !m.Op().Is(ent.OpCreate | ent.OpUpdate | ent.OpUpdateOne) {
					return next.Mutate(ctx, m)
				}
				v, ok := m.Field("vid_ranges")
				if !ok {
					return next.Mutate(ctx, m)
				}
				ranges, _ := v.([][]int)
				total, err := VIDRangesTotal(ranges)
				if err != nil {
					return nil, err
				}
				if err := m.SetField("total_vlan_ids", total); err != nil {
					return nil, err
				}
				return next.Mutate(ctx, m)
			})
		},
	}
}

// VIDRangesTotal validates inclusive [lower, upper] VLAN ID ranges as
// NetBox does (serializer, then model clean) and counts the IDs they hold.
// Errors are *api.FieldError on vid_ranges.
func VIDRangesTotal(ranges [][]int) (int, error) {
	fail := func(msg string) (int, error) {
		return 0, &api.FieldError{Field: "vid_ranges", Message: msg}
	}
	total := 0
	for _, r := range ranges {
		if len(r) != 2 {
			return fail("Ranges must be specified in the form (lower, upper).")
		}
		lo, hi := r[0], r[1]
		if lo < VIDMin {
			return fail(fmt.Sprintf("Starting VLAN ID in range (%d) cannot be less than %d", lo, VIDMin))
		}
		if hi > VIDMax {
			return fail(fmt.Sprintf("Ending VLAN ID in range (%d) cannot exceed %d", hi, VIDMax))
		}
		if lo > hi {
			return fail(fmt.Sprintf("Ending VLAN ID in range must be greater than or equal to the starting VLAN ID (%d-%d)", lo, hi))
		}
		total += hi - lo + 1
	}
	sorted := append([][]int(nil), ranges...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i][0] < sorted[j][0] })
	for i := 1; i < len(sorted); i++ {
		if sorted[i][0] <= sorted[i-1][1] {
			return fail("Ranges cannot overlap.")
		}
	}
	return total, nil
}
