package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/vpn"
	"github.com/inventory/inventory/ent/schema/api"
)

// L2VPNTermination is vpn.L2VPNTermination: a VLAN, interface or VM
// interface taking part in an L2VPN (a generic relation). An object
// terminates one L2VPN at most, and a point-to-point L2VPN has two
// terminations at most (ent/logic/vpn). Deleting the L2VPN or the object
// deletes it. The display "<object> <> <l2vpn>" is cached on the row.
type L2VPNTermination struct{ ent.Schema }

// Mixin: NetBox's NetBoxModel without description or comments.
// l2vpnTermination is the l2vpn_termination of the objects an L2VPN
// terminates on (interfaces, VM interfaces, VLANs): their one termination
// (the unique generic relation), nested as NetBox's
// L2VPNTerminationSerializer(nested=True) renders it (id, url, display,
// l2vpn), or null.
var l2vpnTermination = api.Reverse{Model: "vpn.l2vpntermination", Column: "assigned_object_id", TypeColumn: "assigned_object_type"}

// l2vpnFilters are the l2vpn_id and l2vpn (by identifier) filters of the
// objects an L2VPN terminates on, through their termination.
func l2vpnFilters() []api.Filter {
	return []api.Filter{
		{Name: "l2vpn_id", Kind: "generic-reverse", Target: "vpn.l2vpntermination", Column: "assigned_object", Attr: "l2vpn"},
		{Name: "l2vpn", Kind: "generic-reverse", Target: "vpn.l2vpntermination", Column: "assigned_object", Attr: "l2vpn.identifier"},
	}
}

func (L2VPNTermination) Mixin() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, CustomFields{}}
}

func (L2VPNTermination) Fields() []ent.Field {
	return []ent.Field{
		field.Int("l2vpn_id"),
		field.String("assigned_object_type").Annotations(api.Field{Types: vpn.L2VPNTerminationTypes, OnDelete: api.Cascade}),
		field.Int("assigned_object_id").Min(0),
		field.String("_display").Default("").Annotations(api.Field{Kind: "hidden"}),
	}
}

func (L2VPNTermination) Edges() []ent.Edge {
	return []ent.Edge{FKRequired("l2vpn", L2VPN.Type, api.Cascade)}
}

func (L2VPNTermination) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("assigned_object_type", "assigned_object_id").Unique(),
		index.Fields("l2vpn_id"),
	}
}

func (L2VPNTermination) Hooks() []ent.Hook { return vpn.L2VPNTerminationHooks() }

func (L2VPNTermination) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "vpn_l2vpntermination"},
		api.Model{
			App: "vpn", Path: "l2vpn-terminations", Model: "l2vpntermination", Verbose: "L2VPN termination",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "l2vpn", "assigned_object_type", "assigned_object_id",
				"assigned_object", "tags", "custom_fields", "created", "last_updated"},
			Brief:       []string{"id", "url", "display", "l2vpn"},
			DisplayFunc: api.Func(api.LogicPkg("vpn"), "L2VPNTerminationDisplay"),
			Search:      []string{"_display"},
			Ordering:    []string{"l2vpn", "id"},
			Filters: []api.Filter{
				// NetBox's search(): the L2VPN's name only.
				{Name: "q", Kind: "search-via", Via: "l2vpn", Attr: "name"},
				{Name: "interface_id", Kind: "generic-id", Column: "assigned_object", Target: "dcim.interface"},
				{Name: "interface", Kind: "generic-attr", Column: "assigned_object", Target: "dcim.interface", Attr: "name"},
				{Name: "vminterface_id", Kind: "generic-id", Column: "assigned_object", Target: "virtualization.vminterface"},
				{Name: "vminterface", Kind: "generic-attr", Column: "assigned_object", Target: "virtualization.vminterface", Attr: "name"},
				{Name: "vlan_id", Kind: "generic-id", Column: "assigned_object", Target: "ipam.vlan"},
				{Name: "vlan", Kind: "generic-attr", Column: "assigned_object", Target: "ipam.vlan", Attr: "name"},
				{Name: "vlan_vid", Kind: "generic-attr", Column: "assigned_object", Target: "ipam.vlan", Attr: "vid"},
				// NetBox's interface__device: the device's own interfaces.
				{Name: "device_id", Kind: "assigned-interface", Column: "assigned_object", Attr: "device_id"},
				{Name: "device", Kind: "assigned-interface", Column: "assigned_object", Attr: "device"},
				{Name: "site_id", Kind: "termination-site", Column: "assigned_object", Target: "site", Attr: "id"},
				{Name: "site", Kind: "termination-site", Column: "assigned_object", Target: "site", Attr: "slug"},
				{Name: "region_id", Kind: "termination-site", Column: "assigned_object", Target: "region", Attr: "id"},
				{Name: "region", Kind: "termination-site", Column: "assigned_object", Target: "region", Attr: "slug"},
				{Name: "virtual_machine_id", Kind: "assigned-interface", Column: "assigned_object", Attr: "device_id", Target: "virtualization.vminterface"},
				{Name: "virtual_machine", Kind: "assigned-interface", Column: "assigned_object", Attr: "device", Target: "virtualization.vminterface"},
			},
		},
	}
}
