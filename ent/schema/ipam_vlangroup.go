package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/ipam"
	"github.com/inventory/inventory/ent/schema/api"
)

// VLAN IDs valid in IEEE 802.1Q (NetBox's VLAN_VID_MIN/MAX).
const (
	VLANVIDMin = ipam.VIDMin
	VLANVIDMax = ipam.VIDMax
)

// VLANGroup is ipam.VLANGroup: VLANs whose IDs and names are unique within
// the group, optionally scoped to a region, site group, site or location.
// Name and slug are unique per scope, not globally.
type VLANGroup struct{ ent.Schema }

func (VLANGroup) Mixin() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, CustomFields{}, Primary{}}
}

// vlanGroupScopes are the scope types of a VLAN group (VLANGROUP_SCOPE_TYPES).
var vlanGroupScopes = []string{"dcim.region", "dcim.sitegroup", "dcim.site", "dcim.location", "dcim.rackgroup", "dcim.rack",
	"virtualization.clustergroup", "virtualization.cluster"}

func (VLANGroup) Fields() []ent.Field {
	return []ent.Field{
		NaturalName(100), NaturalKeyField("name"), SlugField(),
		field.String("scope_type").Optional().Nillable().Annotations(api.Field{Types: vlanGroupScopes, OnDelete: api.Cascade}),
		field.Int("scope_id").Optional().Nillable(),
		field.JSON("vid_ranges", [][]int{}).Default([][]int{{VLANVIDMin, VLANVIDMax}}).
			Annotations(api.Field{Kind: "json", NoBlank: true}),
		// total_vlan_ids is kept equal to the number of IDs in vid_ranges by
		// the schema hook.
		field.Int("total_vlan_ids").Default(VLANVIDMax - VLANVIDMin + 1).Annotations(api.Field{ReadOnly: true}),
		FKField("tenant"),
	}
}

func (VLANGroup) Edges() []ent.Edge {
	return []ent.Edge{FK("tenant", Tenant.Type, api.Protect)}
}

func (VLANGroup) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("scope_type", "scope_id"),
		index.Fields("scope_type", "scope_id", "name").Unique(),
		index.Fields("scope_type", "scope_id", "slug").Unique(),
	}
}

// Hooks validates vid_ranges and keeps total_vlan_ids.
func (VLANGroup) Hooks() []ent.Hook { return ipam.VLANGroupHooks() }

func (VLANGroup) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "ipam_vlangroup"},
		api.Model{
			App: "ipam", Path: "vlan-groups", Verbose: "VLAN group",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"scope_type": nil, "scope_id": nil},
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
			// utilization is NetBox's annotation: the group's VLANs as a
			// percentage of its total_vlan_ids.
			Counts: map[string]api.Count{"vlan_count": {Model: "ipam.vlan", Column: "group_id"},
				"utilization": {Model: "ipam.vlan", Column: "group_id", Percent: "total_vlan_ids"}},
			// NetBox's scope filters take the scope object's id (a
			// NumberFilter each); contains_vid is an ID inside vid_ranges.
			Filters: append(TenancyFilters(),
				api.Filter{Name: "region", Kind: "scope-id", Column: "scope", Target: "dcim.region"},
				api.Filter{Name: "site_group", Kind: "scope-id", Column: "scope", Target: "dcim.sitegroup"},
				api.Filter{Name: "site", Kind: "scope-id", Column: "scope", Target: "dcim.site"},
				api.Filter{Name: "location", Kind: "scope-id", Column: "scope", Target: "dcim.location"},
				api.Filter{Name: "rack_group", Kind: "scope-id", Column: "scope", Target: "dcim.rackgroup"},
				api.Filter{Name: "rack", Kind: "scope-id", Column: "scope", Target: "dcim.rack"},
				api.Filter{Name: "cluster_group", Kind: "scope-id", Column: "scope", Target: "virtualization.clustergroup"},
				api.Filter{Name: "cluster", Kind: "scope-id", Column: "scope", Target: "virtualization.cluster"},
				api.Filter{Name: "contains_vid", Kind: "int-ranges-contains", Column: "vid_ranges"}),
			Endpoints: []api.Endpoint{
				allocation("vlan-groups", "available-vlans", "ipam.vlan", "VLAN", "AvailableVLANs", "AllocateVLANs",
					api.Shape{Name: "AvailableVLAN", Props: []api.Prop{{Name: "vid", Type: "integer"}, {Name: "group", Type: "object"}}},
					nil, true),
			},
		},
	}
}
