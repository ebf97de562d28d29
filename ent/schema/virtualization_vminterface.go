package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/virtualization"
	"github.com/inventory/inventory/ent/logic/vpn"
	"github.com/inventory/inventory/ent/schema/api"
)

// VMInterface is virtualization.VMInterface: a virtual machine's network
// interface. Parent and bridge are interfaces of the same virtual machine;
// the 802.1Q mode carries an untagged VLAN, tagged VLANs and a Q-in-Q
// service VLAN of the VM's site or global ones; MAC addresses and IP
// addresses are assigned to it (generic relations on dcim.MACAddress and
// ipam.IPAddress, deleted with it), one MAC address primary. The rules are
// NetBox's VMInterface.clean() and BaseInterface.save()
// (virtualization.VMInterfaceHooks).
type VMInterface struct{ ent.Schema }

func (VMInterface) Mixin() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, CustomFields{}, Owned{}}
}

func (VMInterface) Fields() []ent.Field {
	return []ent.Field{
		field.Int("virtual_machine_id"),
		NaturalName(64), NaturalKeyField("name"),
		field.String("description").MaxRuneLen(200).Default(""),
		field.Bool("enabled").Default(true),
		FKField("parent"), FKField("bridge"),
		field.Int("mtu").Optional().Nillable().Min(1).Max(65536).Annotations(api.Field{Min: api.Int(1), Max: api.Int(65536)}),
		// mac_address is the primary MAC address's text (NetBox's property),
		// cached by the interface and MAC address hooks.
		field.String("mac_address").MaxRuneLen(17).Optional().Nillable().Annotations(api.Field{ReadOnly: true}),
		field.Int("primary_mac_address_id").Optional().Nillable(),
		field.String("mode").MaxRuneLen(50).Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: InterfaceMode}),
		FKField("untagged_vlan"), FKField("qinq_svlan"), FKField("vrf"),
		FKField("vlan_translation_policy"),
	}
}

func (VMInterface) Edges() []ent.Edge {
	nested := []string{"id", "url", "display_url", "display", "virtual_machine", "name"}
	return []ent.Edge{
		FKRequired("virtual_machine", VirtualMachine.Type, api.Cascade),
		// NetBox's NestedVMInterfaceSerializer: the VM and the name.
		edge.To("parent_of", VMInterface.Type).Annotations(entsql.OnDelete(dbAction(api.Restrict))).
			From("parent").Unique().Field("parent_id").Annotations(api.Field{OnDelete: api.Restrict, Nested: nested}),
		edge.To("bridge_of", VMInterface.Type).Annotations(entsql.OnDelete(dbAction(api.SetNull))).
			From("bridge").Unique().Field("bridge_id").Annotations(api.Field{OnDelete: api.SetNull, Nested: nested}),
		edge.To("primary_mac_address", MACAddress.Type).Field("primary_mac_address_id").Unique().
			Annotations(OnDelete(api.SetNull)...),
		FK("untagged_vlan", VLAN.Type, api.SetNull),
		FK("qinq_svlan", VLAN.Type, api.SetNull),
		FK("vrf", VRF.Type, api.SetNull),
		FK("vlan_translation_policy", VLANTranslationPolicy.Type, api.Protect),
		edge.To("tagged_vlans", VLAN.Type).StorageKey(edge.Table("virtualization_vminterface_tagged_vlans"),
			edge.Columns("vminterface_id", "vlan_id")),
	}
}

func (VMInterface) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("virtual_machine_id", "name").Unique(),
		index.Fields("primary_mac_address_id").Unique(),
	}
}

func (VMInterface) Hooks() []ent.Hook {
	return append(virtualization.VMInterfaceHooks(), vpn.InterfaceHooks("virtualization.vminterface", "name")...)
}

func (VMInterface) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "virtualization_vminterface"},
		api.Model{
			App: "virtualization", Path: "interfaces", Verbose: "interface", Class: "VMInterface",
			ChangeRelated: []string{"virtual_machine"}, // NetBox's to_objectchange()
			GenericOnly:   true,
			Fields: []string{"id", "url", "display_url", "display", "virtual_machine", "name", "enabled", "parent",
				"bridge", "mtu", "mac_address", "primary_mac_address", "mac_addresses", "description", "mode",
				"untagged_vlan", "tagged_vlans", "qinq_svlan", "vlan_translation_policy", "vrf", "l2vpn_termination",
				"owner", "tags", "custom_fields", "created", "last_updated", "count_ipaddresses", "count_fhrp_groups"},
			Brief:    []string{"id", "url", "display", "virtual_machine", "name", "description"},
			Display:  "{name}",
			Search:   []string{"name", "description"},
			Ordering: []string{"virtual_machine", "name"},
			Unique:   []api.Unique{{Fields: []string{"virtual_machine", "name"}}, {Fields: []string{"primary_mac_address"}}},
			Reverse: map[string]api.Reverse{
				"l2vpn_termination": l2vpnTermination,
				"mac_addresses": {Model: "dcim.macaddress", Column: "assigned_object_id", Many: true,
					TypeColumn: "assigned_object_type"},
			},
			Counts: map[string]api.Count{
				"count_ipaddresses": {Model: "ipam.ipaddress", Column: "assigned_object_id", TypeColumn: "assigned_object_type"},
				"count_fhrp_groups": {Model: "ipam.fhrpgroupassignment", Column: "interface_id", TypeColumn: "interface_type"},
			},
			Filters: append([]api.Filter{
				{Name: "vlan_id", Kind: "interface-vlan", Attr: "id"},
				{Name: "vlan", Kind: "interface-vlan", Attr: "vid"},
				{Name: "mac_address", Kind: "assigned-mac", Target: "virtualization.vminterface"},
				{Name: "vrf", Kind: "fk-attr", Column: "vrf_id", Target: "ipam.vrf", Attr: "rd"},
				{Name: "primary_mac_address", Kind: "fk-attr", Column: "primary_mac_address_id", Target: "dcim.macaddress", Attr: "mac_address"},
				{Name: "cluster_id", Kind: "fk-id", Via: "virtual_machine", Column: "cluster"},
				{Name: "cluster", Kind: "fk-attr", Via: "virtual_machine", Column: "cluster", Attr: "name"},
				{Name: "virtual_machine", Kind: "fk-attr", Column: "virtual_machine_id", Target: "virtualization.virtualmachine", Attr: "name"},
			}, l2vpnFilters()...),
			NoFilters: []string{"tagged_vlan_id"},
		},
	}
}
