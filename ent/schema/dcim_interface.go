package schema

import (
	"fmt"
	"strconv"
	"strings"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/logic/ipam"
	"github.com/inventory/inventory/ent/logic/vpn"
	"github.com/inventory/inventory/ent/schema/api"
)

// DeviceInterface is dcim.Interface, a device's network interface (ent
// refuses the type name Interface; api.Model.Class keeps NetBox's class
// name). Parent, bridge and LAG are interfaces of the same device; the 802.1Q mode carries
// an untagged VLAN, tagged VLANs and a Q-in-Q service VLAN among those the
// interface may use; MAC addresses are assigned to it (generic relation
// on dcim.MACAddress), one of them primary. The rules are NetBox's
// Interface.clean() and save() (dcim.InterfaceHooks).
type DeviceInterface struct{ ent.Schema }

func (DeviceInterface) Mixin() []ent.Mixin { return append(ComponentMixins(), PathEndpoint{}) }

// Choices of an interface's duplex and 802.1Q mode.
var (
	InterfaceDuplex = api.C("half", "Half", "full", "Full", "auto", "Auto")
	InterfaceMode   = api.C("access", "Access", "tagged", "Tagged", "tagged-all", "Tagged (All)", "q-in-q", "Q-in-Q (802.1ad)")
)

func (DeviceInterface) Fields() []ent.Field {
	return []ent.Field{
		field.String("type").MaxRuneLen(50).Annotations(api.Field{Kind: "choice", Choices: dtInterfaceType}),
		field.Bool("enabled").Default(true),
		FKField("parent"), FKField("bridge"), FKField("lag"),
		field.Int("mtu").Optional().Nillable().Min(1).Max(65536).Annotations(api.Field{Min: api.Int(1), Max: api.Int(65536)}),
		// mac_address is the primary MAC address's text (NetBox's property),
		// cached by the interface and MAC address hooks.
		field.String("mac_address").MaxRuneLen(17).Optional().Nillable().Annotations(api.Field{ReadOnly: true}),
		field.Int("primary_mac_address_id").Optional().Nillable(),
		field.Int("speed").Optional().Nillable().Min(0).Annotations(api.Field{Min: api.Int(0)}),
		field.String("duplex").MaxRuneLen(50).Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: InterfaceDuplex}),
		field.String("wwn").MaxRuneLen(23).Optional().Nillable().Annotations(api.Field{Kind: "wwn"}),
		field.Bool("mgmt_only").Default(false),
		field.String("mode").MaxRuneLen(50).Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: InterfaceMode}),
		field.String("rf_role").MaxRuneLen(30).Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: dtWirelessRole}),
		field.String("rf_channel").MaxRuneLen(50).Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: WirelessChannel}),
		field.String("poe_mode").MaxRuneLen(50).Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: dtInterfacePoEMode}),
		field.String("poe_type").MaxRuneLen(50).Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: dtInterfacePoEType}),
		// NetBox's DecimalFields (7,2) and (7,3): floats hold their values.
		field.Float("rf_channel_frequency").Optional().Nillable().Annotations(api.Field{Decimal: &api.Decimal{Digits: 8, Places: 3}}),
		field.Float("rf_channel_width").Optional().Nillable().Annotations(api.Field{Decimal: &api.Decimal{Digits: 7, Places: 3}}),
		field.Int("tx_power").Optional().Nillable().Min(0).Max(127).Annotations(api.Field{Min: api.Int(0), Max: api.Int(127)}),
		FKField("untagged_vlan"), FKField("qinq_svlan"), FKField("vrf"),
		FKField("vlan_translation_policy"),
		// The wireless link the interface is an end of, kept by the link's
		// hooks (ent/logic/wireless).
		FKField("wireless_link"),
	}
}

// nestedWirelessLink is NetBox's NestedWirelessLinkSerializer (an
// interface's wireless_link).
var nestedWirelessLink = []string{"id", "url", "display_url", "display", "ssid"}

// NestedInterfaceForm is NetBox's NestedInterfaceSerializer (an
// interface's parent, bridge, lag and bridge_interfaces): the device as
// NestedDeviceSerializer, the cable as its bare id (an undeclared FK of a
// nested serializer).
var NestedInterfaceForm = []string{"id", "url", "display_url", "display",
	"device(" + strings.Join(NestedNameForm, ",") + ")", "name", "cable:pk", "_occupied"}

// interfaceFK is SelfFK rendering NestedInterfaceForm.
func interfaceFK(name string, rule api.OnDelete) ent.Edge {
	return edge.To(name+"_of", DeviceInterface.Type).Annotations(entsql.OnDelete(dbAction(rule))).
		From(name).Unique().Field(name + "_id").Annotations(api.Field{OnDelete: rule, Nested: NestedInterfaceForm})
}

func (DeviceInterface) Edges() []ent.Edge {
	return []ent.Edge{
		interfaceFK("parent", api.Restrict),
		interfaceFK("bridge", api.SetNull),
		interfaceFK("lag", api.SetNull),
		edge.To("primary_mac_address", MACAddress.Type).Field("primary_mac_address_id").Unique().
			Annotations(OnDelete(api.SetNull)...),
		FK("untagged_vlan", VLAN.Type, api.SetNull),
		FK("qinq_svlan", VLAN.Type, api.SetNull),
		FK("vrf", VRF.Type, api.SetNull),
		FK("vlan_translation_policy", VLANTranslationPolicy.Type, api.Protect),
		edge.To("tagged_vlans", VLAN.Type).StorageKey(edge.Table("dcim_interface_tagged_vlans"), edge.Columns("interface_id", "vlan_id")),
		edge.To("vdcs", VirtualDeviceContext.Type).StorageKey(edge.Table("dcim_interface_vdcs"),
			edge.Columns("interface_id", "virtualdevicecontext_id")),
		// related_name='+' in NetBox, and its cascade clears the field by
		// a queryset update: a deleted link leaves no update record of its
		// interfaces (the database's SET NULL clears them).
		edge.To("wireless_link", WirelessLink.Type).Field("wireless_link_id").Unique().
			Annotations(OnDelete(api.SetNull, api.Field{ReadOnly: true, Nested: nestedWirelessLink, NoReverse: true})...),
		edge.To("wireless_lans", WirelessLAN.Type).StorageKey(edge.Table("dcim_interface_wireless_lans"),
			edge.Columns("interface_id", "wirelesslan_id")),
	}
}

// A MAC address is the primary one of one interface at most (NetBox's
// OneToOneField).
func (DeviceInterface) Indexes() []ent.Index {
	return []ent.Index{index.Fields("primary_mac_address_id").Unique()}
}

// Hooks: NetBox's Interface.clean() and save() (ent/logic/dcim); the
// cached display of its FHRP group assignments (ent/logic/ipam) and
// of its L2VPN termination (ent/logic/vpn).
func (DeviceInterface) Hooks() []ent.Hook {
	return append(append(dcim.InterfaceHooks(), ipam.InterfaceHooks()...), vpn.InterfaceHooks("dcim.interface", "name", "label")...)
}

func (DeviceInterface) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_interface"},
		api.Model{
			App: "dcim", Path: "interfaces", Model: "interface", Class: "Interface", Verbose: "interface",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults: map[string]any{"wwn": nil},
			Unique:   []api.Unique{{Fields: []string{"device", "name"}}, {Fields: []string{"primary_mac_address"}}},
			Fields: []string{"id", "url", "display_url", "display", "device", "vdcs", "module", "name", "label", "type",
				"enabled", "parent", "bridge", "bridge_interfaces", "lag", "mtu", "mac_address", "primary_mac_address",
				"mac_addresses", "speed", "duplex", "wwn", "mgmt_only", "description", "mode", "rf_role", "rf_channel",
				"poe_mode", "poe_type", "rf_channel_frequency", "rf_channel_width", "tx_power", "untagged_vlan",
				"tagged_vlans", "qinq_svlan", "vlan_translation_policy", "mark_connected", "cable", "cable_end",
				"wireless_link", "link_peers", "link_peers_type", "wireless_lans", "vrf", "l2vpn_termination",
				"connected_endpoints", "connected_endpoints_type", "connected_endpoints_reachable", "owner", "tags",
				"custom_fields", "created", "last_updated", "count_ipaddresses", "count_fhrp_groups", "_occupied"},
			// The interface's L2VPN termination; the interfaces bridged to
			// this one (NetBox's related name); its MAC addresses.
			Reverse: map[string]api.Reverse{
				"l2vpn_termination": l2vpnTermination,
				"bridge_interfaces": {Model: "dcim.interface", Column: "bridge_id", Many: true, Nested: NestedInterfaceForm},
				"mac_addresses": {Model: "dcim.macaddress", Column: "assigned_object_id", Many: true,
					TypeColumn: "assigned_object_type"},
			},
			// The IP addresses and FHRP group assignments of the interface
			// (generic relations).
			Counts: map[string]api.Count{
				"count_ipaddresses": {Model: "ipam.ipaddress", Column: "assigned_object_id", TypeColumn: "assigned_object_type"},
				"count_fhrp_groups": {Model: "ipam.fhrpgroupassignment", Column: "interface_id", TypeColumn: "interface_type"},
			},
			Endpoints: []api.Endpoint{traceEndpoint("TraceInterface")},
			Empty:     componentEmpty(true, nil),
			Filters: append([]api.Filter{
				{Name: "kind", Kind: "interface-kind"},
				{Name: "vlan_id", Kind: "interface-vlan", Attr: "id"},
				{Name: "vlan", Kind: "interface-vlan", Attr: "vid"},
				{Name: "mac_address", Kind: "assigned-mac", Target: "dcim.interface"},
				{Name: "vrf", Kind: "fk-attr", Column: "vrf_id", Target: "ipam.vrf", Attr: "rd"},
				{Name: "primary_mac_address", Kind: "fk-attr", Column: "primary_mac_address_id", Target: "dcim.macaddress", Attr: "mac_address"},
				{Name: "speed", Kind: "integer", Column: "speed"},
				{Name: "vdc", Kind: "m2m-attr", Column: "vdcs", Attr: "name"},
				{Name: "vdc_identifier", Kind: "m2m-attr", Column: "vdcs", Attr: "identifier"},
				{Name: "virtual_chassis_member", Kind: "vc-interfaces", Attr: "name"},
				{Name: "virtual_chassis_member_id", Kind: "vc-interfaces", Attr: "id"},
				{Name: "virtual_chassis_member_or_master", Kind: "vc-interfaces", Attr: "name", Target: "master"},
				{Name: "virtual_chassis_member_or_master_id", Kind: "vc-interfaces", Attr: "id", Target: "master"},
				{Name: "virtual_circuit_termination_id", Kind: "reverse-id", Target: "circuits.virtualcircuittermination", Column: "interface_id"},
				{Name: "virtual_circuit_id", Kind: "reverse-id", Target: "circuits.virtualcircuittermination", Column: "interface_id",
					Attr: "virtual_circuit_id"},
			}, l2vpnFilters()...),
			NoFilters: []string{"tagged_vlan_id"},
		},
	}
}

// WirelessChannel are NetBox's WirelessChannelChoices: the value names the
// band, channel, centre frequency and width in MHz; the label shows the
// channel and its frequency (and width, beyond 2.4 GHz), in GHz at 60 GHz.
var WirelessChannel = wirelessChannels(
	"2.4g-1-2412-22", "2.4g-2-2417-22", "2.4g-3-2422-22", "2.4g-4-2427-22", "2.4g-5-2432-22", "2.4g-6-2437-22",
	"2.4g-7-2442-22", "2.4g-8-2447-22", "2.4g-9-2452-22", "2.4g-10-2457-22", "2.4g-11-2462-22", "2.4g-12-2467-22",
	"2.4g-13-2472-22",
	"5g-32-5160-20", "5g-34-5170-40", "5g-36-5180-20", "5g-38-5190-40", "5g-40-5200-20", "5g-42-5210-80",
	"5g-44-5220-20", "5g-46-5230-40", "5g-48-5240-20", "5g-50-5250-160", "5g-52-5260-20", "5g-54-5270-40",
	"5g-56-5280-20", "5g-58-5290-80", "5g-60-5300-20", "5g-62-5310-40", "5g-64-5320-20", "5g-100-5500-20",
	"5g-102-5510-40", "5g-104-5520-20", "5g-106-5530-80", "5g-108-5540-20", "5g-110-5550-40", "5g-112-5560-20",
	"5g-114-5570-160", "5g-116-5580-20", "5g-118-5590-40", "5g-120-5600-20", "5g-122-5610-80", "5g-124-5620-20",
	"5g-126-5630-40", "5g-128-5640-20", "5g-132-5660-20", "5g-134-5670-40", "5g-136-5680-20", "5g-138-5690-80",
	"5g-140-5700-20", "5g-142-5710-40", "5g-144-5720-20", "5g-149-5745-20", "5g-151-5755-40", "5g-153-5765-20",
	"5g-155-5775-80", "5g-157-5785-20", "5g-159-5795-40", "5g-161-5805-20", "5g-163-5815-160", "5g-165-5825-20",
	"5g-167-5835-40", "5g-169-5845-20", "5g-171-5855-80", "5g-173-5865-20", "5g-175-5875-40", "5g-177-5885-20",
	"6g-1-5955-20", "6g-3-5965-40", "6g-5-5975-20", "6g-7-5985-80", "6g-9-5995-20", "6g-11-6005-40",
	"6g-13-6015-20", "6g-15-6025-160", "6g-17-6035-20", "6g-19-6045-40", "6g-21-6055-20", "6g-23-6065-80",
	"6g-25-6075-20", "6g-27-6085-40", "6g-29-6095-20", "6g-31-6105-320", "6g-33-6115-20", "6g-35-6125-40",
	"6g-37-6135-20", "6g-39-6145-80", "6g-41-6155-20", "6g-43-6165-40", "6g-45-6175-20", "6g-47-6185-160",
	"6g-49-6195-20", "6g-51-6205-40", "6g-53-6215-20", "6g-55-6225-80", "6g-57-6235-20", "6g-59-6245-40",
	"6g-61-6255-20", "6g-65-6275-20", "6g-67-6285-40", "6g-69-6295-20", "6g-71-6305-80", "6g-73-6315-20",
	"6g-75-6325-40", "6g-77-6335-20", "6g-79-6345-160", "6g-81-6355-20", "6g-83-6365-40", "6g-85-6375-20",
	"6g-87-6385-80", "6g-89-6395-20", "6g-91-6405-40", "6g-93-6415-20", "6g-95-6425-320", "6g-97-6435-20",
	"6g-99-6445-40", "6g-101-6455-20", "6g-103-6465-80", "6g-105-6475-20", "6g-107-6485-40", "6g-109-6495-20",
	"6g-111-6505-160", "6g-113-6515-20", "6g-115-6525-40", "6g-117-6535-20", "6g-119-6545-80", "6g-121-6555-20",
	"6g-123-6565-40", "6g-125-6575-20", "6g-129-6595-20", "6g-131-6605-40", "6g-133-6615-20", "6g-135-6625-80",
	"6g-137-6635-20", "6g-139-6645-40", "6g-141-6655-20", "6g-143-6665-160", "6g-145-6675-20", "6g-147-6685-40",
	"6g-149-6695-20", "6g-151-6705-80", "6g-153-6715-20", "6g-155-6725-40", "6g-157-6735-20", "6g-159-6745-320",
	"6g-161-6755-20", "6g-163-6765-40", "6g-165-6775-20", "6g-167-6785-80", "6g-169-6795-20", "6g-171-6805-40",
	"6g-173-6815-20", "6g-175-6825-160", "6g-177-6835-20", "6g-179-6845-40", "6g-181-6855-20", "6g-183-6865-80",
	"6g-185-6875-20", "6g-187-6885-40", "6g-189-6895-20", "6g-193-6915-20", "6g-195-6925-40", "6g-197-6935-20",
	"6g-199-6945-80", "6g-201-6955-20", "6g-203-6965-40", "6g-205-6975-20", "6g-207-6985-160", "6g-209-6995-20",
	"6g-211-7005-40", "6g-213-7015-20", "6g-215-7025-80", "6g-217-7035-20", "6g-219-7045-40", "6g-221-7055-20",
	"6g-225-7075-20", "6g-227-7085-40", "6g-229-7095-20", "6g-233-7115-20",
	"60g-1-58320-2160", "60g-2-60480-2160", "60g-3-62640-2160", "60g-4-64800-2160", "60g-5-66960-2160",
	"60g-6-69120-2160", "60g-9-59400-4320", "60g-10-61560-4320", "60g-11-63720-4320", "60g-12-65880-4320",
	"60g-13-68040-4320", "60g-17-60480-6480", "60g-18-62640-6480", "60g-19-64800-6480", "60g-20-66960-6480",
	"60g-25-61560-6480", "60g-26-63720-6480", "60g-27-65880-6480",
)

// wirelessChannels labels channel values as NetBox does: "1 (2412 MHz)",
// "36 (5180/20 MHz)", "1 (58.32/2.16 GHz)".
func wirelessChannels(values ...string) []api.Choice {
	out := make([]api.Choice, len(values))
	for i, v := range values {
		p := strings.Split(v, "-")
		label := fmt.Sprintf("%s (%s/%s MHz)", p[1], p[2], p[3])
		switch p[0] {
		case "2.4g":
			label = fmt.Sprintf("%s (%s MHz)", p[1], p[2])
		case "60g":
			f, _ := strconv.Atoi(p[2])
			w, _ := strconv.Atoi(p[3])
			label = fmt.Sprintf("%s (%.2f/%.2f GHz)", p[1], float64(f)/1000, float64(w)/1000)
		}
		out[i] = api.Choice{Value: v, Label: label}
	}
	return out
}
