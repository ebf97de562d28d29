package schema

import (
	"context"
	"fmt"
	"sort"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/schema/api"
)

// VLAN IDs valid in IEEE 802.1Q (NetBox's VLAN_VID_MIN/MAX).
const (
	VLANVIDMin = 1
	VLANVIDMax = 4094
)

// VLANGroup is ipam.VLANGroup: VLANs whose IDs and names are unique within
// the group, optionally scoped to a region, site group, site or location.
// Name and slug are unique per scope, not globally.
type VLANGroup struct{ ent.Schema }

func (VLANGroup) Mixin() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, CustomFields{}, Primary{}}
}

// vlanGroupScopes are the scope types we serve (NetBox also allows
// dcim.rackgroup, dcim.rack, virtualization.clustergroup and
// virtualization.cluster).
var vlanGroupScopes = []string{"dcim.region", "dcim.sitegroup", "dcim.site", "dcim.location"}

func (VLANGroup) Fields() []ent.Field {
	return []ent.Field{
		NaturalName(100), NaturalKeyField("name"), SlugField(),
		field.String("scope_type").Optional().Nillable().Annotations(api.Field{Types: vlanGroupScopes}),
		field.Int("scope_id").Optional().Nillable(),
		field.JSON("vid_ranges", [][]int{}).Default([][]int{{VLANVIDMin, VLANVIDMax}}).
			Annotations(api.Field{Kind: "json"}),
		// total_vlan_ids is kept equal to the number of IDs in vid_ranges by
		// the schema hook.
		field.Int("total_vlan_ids").Default(VLANVIDMax - VLANVIDMin + 1).Annotations(api.Field{ReadOnly: true}),
		FKField("tenant"),
	}
}

func (VLANGroup) Edges() []ent.Edge {
	return []ent.Edge{FK("tenant", Tenant.Type, entsql.Restrict)}
}

func (VLANGroup) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("scope_type", "scope_id"),
		index.Fields("scope_type", "scope_id", "name").Unique(),
		index.Fields("scope_type", "scope_id", "slug").Unique(),
	}
}

// Hooks validates vid_ranges with NetBox's messages and recomputes
// total_vlan_ids whenever vid_ranges is written (create applies the default
// before hooks run, so it is always present then).
func (VLANGroup) Hooks() []ent.Hook {
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
				total, err := vidRangesTotal(ranges)
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

// vidRangesTotal validates inclusive [lower, upper] VLAN ID ranges as
// NetBox does (serializer, then model clean) and counts the IDs they hold.
func vidRangesTotal(ranges [][]int) (int, error) {
	fail := func(msg string) (int, error) {
		return 0, &api.FieldError{Field: "vid_ranges", Message: msg}
	}
	total := 0
	for _, r := range ranges {
		if len(r) != 2 {
			return fail("Ranges must be specified in the form (lower, upper).")
		}
		lo, hi := r[0], r[1]
		if lo < VLANVIDMin {
			return fail(fmt.Sprintf("Starting VLAN ID in range (%d) cannot be less than %d", lo, VLANVIDMin))
		}
		if hi > VLANVIDMax {
			return fail(fmt.Sprintf("Ending VLAN ID in range (%d) cannot exceed %d", hi, VLANVIDMax))
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

func (VLANGroup) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "ipam_vlangroup"},
		api.Model{
			App: "ipam", Path: "vlan-groups", Verbose: "VLAN group",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "scope_type", "scope_id", "scope",
				"vid_ranges", "total_vlan_ids", "tenant", "description", "owner", "comments", "tags", "custom_fields",
				"created", "last_updated", "vlan_count", "utilization"},
			Brief:    []string{"id", "url", "display", "name", "slug", "description", "vlan_count"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description", "comments"},
			Ordering: []string{"name", "id"},
			Unique: []api.Unique{
				{Fields: []string{"scope_type", "scope_id", "name"}},
				{Fields: []string{"scope_type", "scope_id", "slug"}},
			},
			Counts: map[string]api.Count{"vlan_count": {Model: "ipam.vlan", Column: "group_id"}},
			Empty:  map[string]any{"owner": nil, "utilization": ""},
			// NetBox's scope filters take the scope object's id (a
			// NumberFilter each); contains_vid is an ID inside vid_ranges.
			Filters: append(TenancyFilters(),
				api.Filter{Name: "region", Kind: "scope-id", Column: "scope", Target: "dcim.region"},
				api.Filter{Name: "site_group", Kind: "scope-id", Column: "scope", Target: "dcim.sitegroup"},
				api.Filter{Name: "site", Kind: "scope-id", Column: "scope", Target: "dcim.site"},
				api.Filter{Name: "location", Kind: "scope-id", Column: "scope", Target: "dcim.location"},
				api.Filter{Name: "contains_vid", Kind: "int-ranges-contains", Column: "vid_ranges"}),
		},
	}
}
