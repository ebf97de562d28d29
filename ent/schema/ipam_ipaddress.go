package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/ipam"
	"github.com/inventory/inventory/ent/schema/api"
)

// IPAddress is ipam.IPAddress: an address with its mask ("10.0.0.1/24"),
// optionally in a VRF, assigned to an interface or an FHRP group, and
// pointing at the address it is the NAT outside of.
//
// Besides the API fields it keeps hidden storage columns for containment
// (DESIGN.md §4): host, the address as 16-byte binary (IPv4 v4-mapped, as
// ipnet.Bytes16), prefix_length in the family's bits, vrf_key (the VRF id,
// 0 for the global table), and _network/_broadcast, the bounds of the
// address's network (for FHRP groups' related_ip). The index (vrf_key,
// family, host) serves uniqueness and the allocation of free addresses,
// (family, host, prefix_length) the parent= and address= filters across
// VRFs and the default ordering. The hooks
// (ent/logic/ipam) derive them and apply NetBox's IPAddress.clean().
type IPAddress struct{ ent.Schema }

func (IPAddress) Mixin() []ent.Mixin { return PrimaryMixins() }

// Choices of an IP address's status and role.
var (
	IPAddressStatus = api.C("active", "Active", "reserved", "Reserved", "deprecated", "Deprecated",
		"dhcp", "DHCP", "slaac", "SLAAC")
	IPAddressRole = api.C("loopback", "Loopback", "secondary", "Secondary", "anycast", "Anycast", "vip", "VIP",
		"vrrp", "VRRP", "hsrp", "HSRP", "glbp", "GLBP", "carp", "CARP")
)

func (IPAddress) Fields() []ent.Field {
	return []ent.Field{
		field.Int("family").Annotations(api.Field{Kind: "choice", Choices: IPFamily, ReadOnly: true}),
		field.String("address").NotEmpty().Annotations(api.Field{Kind: "inet"}),
		FKField("vrf"),
		FKField("tenant"),
		field.String("status").MaxRuneLen(50).Default("active").Annotations(api.Field{Kind: "choice", Choices: IPAddressStatus}),
		field.String("role").MaxRuneLen(50).Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: IPAddressRole}),
		field.String("assigned_object_type").Optional().Nillable().
			Annotations(api.Field{Types: ipam.IPAddressAssignedTypes, OnDelete: api.Cascade}),
		field.Int("assigned_object_id").Optional().Nillable(),
		FKField("nat_inside"),
		field.String("dns_name").MaxRuneLen(255).Default(""),
		// Hidden storage columns (not API fields), kept by the hooks.
		field.Bytes("host").MaxLen(16),
		field.Int("prefix_length"),
		field.Int("vrf_key"),
		field.Bytes("_network").MaxLen(16),
		field.Bytes("_broadcast").MaxLen(16),
	}
}

func (IPAddress) Edges() []ent.Edge {
	return []ent.Edge{
		// NetBox's vrf filter matches the route distinguisher.
		edge.To("vrf", VRF.Type).Field("vrf_id").Unique().
			Annotations(OnDelete(api.Protect, api.Field{Lookup: "rd"})...),
		FK("tenant", Tenant.Type, api.Protect),
		natInsideEdge(),
		// The inverse of the services' ipaddresses (ent's many-to-many
		// needs both ends); no API field.
		edge.From("services", Service.Type).Ref("ipaddresses"),
	}
}

func (IPAddress) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("vrf_key", "family", "host"),
		index.Fields("family", "host", "prefix_length"),
		index.Fields("assigned_object_type", "assigned_object_id"),
		index.Fields("nat_inside_id"),
	}
}

// Hooks: the hidden columns, dns_name, and IPAddress.clean() (network and
// broadcast addresses, uniqueness per VRF, a primary or OOB IP staying
// with its device, SLAAC), plus a NAT loop refused; the display caches of
// the FHRP groups the address is assigned to.
func (IPAddress) Hooks() []ent.Hook {
	// First: writes wait for the IP allocations that run (ipam.IPWriteLockHook).
	return append([]ent.Hook{ipam.IPWriteLockHook}, ipam.IPAddressHooks()...)
}

func (IPAddress) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "ipam_ipaddress"},
		api.Model{
			App: "ipam", Path: "ip-addresses", Verbose: "IP address",
			ChangeRelated: []string{"assigned_object"}, // NetBox's to_objectchange()
			GenericOnly:   true,
			Fields: []string{"id", "url", "display_url", "display", "family", "address", "vrf", "tenant", "status",
				"role", "assigned_object_type", "assigned_object_id", "assigned_object", "nat_inside", "nat_outside",
				"dns_name", "description", "owner", "comments", "tags", "custom_fields", "created", "last_updated"},
			Brief:   []string{"id", "url", "display", "family", "address", "description"},
			Display: "{address}",
			IP:      &api.IPColumns{Family: "family", Network: "host", Broadcast: "host", Length: "prefix_length", VRFKey: "vrf_key"},
			Search:  []string{"dns_name", "description", "address"},
			// NetBox orders by the inet: family, address, mask.
			Ordering: []string{"family", "host", "prefix_length", "id"},
			Reverse: map[string]api.Reverse{
				"nat_outside": {Model: "ipam.ipaddress", Column: "nat_inside_id", Many: true, Nested: nestedIPAddress},
			},
			Filters: append(TenancyFilters(),
				api.Filter{Name: "family", Kind: "ip-family"},
				api.Filter{Name: "parent", Kind: "ip-parent"},
				api.Filter{Name: "address", Kind: "ip-address"},
				api.Filter{Name: "mask_length", Kind: "prefix-mask-length"},
				// The VRF and the VRFs exporting a route target it imports.
				api.Filter{Name: "present_in_vrf_id", Kind: "present-in-vrf", Column: "vrf_id"},
				api.Filter{Name: "present_in_vrf", Kind: "present-in-vrf", Column: "vrf_id", Attr: "rd"},
				api.Filter{Name: "device_id", Kind: "interfaces-of-device", Column: "assigned_object", Attr: "id"},
				api.Filter{Name: "device", Kind: "interfaces-of-device", Column: "assigned_object", Attr: "name"},
				api.Filter{Name: "interface_id", Kind: "assigned-interface", Attr: "id"},
				api.Filter{Name: "interface", Kind: "assigned-interface", Attr: "name"},
				api.Filter{Name: "fhrpgroup_id", Kind: "generic-id", Column: "assigned_object", Target: "ipam.fhrpgroup"},
				api.Filter{Name: "vminterface_id", Kind: "assigned-interface", Attr: "id", Target: "virtualization.vminterface"},
				api.Filter{Name: "vminterface", Kind: "assigned-interface", Attr: "name", Target: "virtualization.vminterface"},
				api.Filter{Name: "virtual_machine_id", Kind: "assigned-interface", Attr: "device_id", Target: "virtualization.vminterface"},
				api.Filter{Name: "virtual_machine", Kind: "assigned-interface", Attr: "device", Target: "virtualization.vminterface"},
				api.Filter{Name: "assigned_to_interface", Kind: "assigned-to", Column: "assigned_object",
					Target: "dcim.interface,virtualization.vminterface"},
				api.Filter{Name: "assigned", Kind: "mac-assigned"},
				api.Filter{Name: "service_id", Kind: "m2m-reverse", Target: "ipam.service", Column: "ipaddresses"},
			),
		},
	}
}

// nestedIPAddress is NetBox's NestedIPAddressSerializer, the form of
// nat_inside and nat_outside: family as a bare integer, no description.
var nestedIPAddress = []string{"id", "url", "display_url", "display", "family", "address"}

// natInsideEdge is SelfFK("nat_inside", ...) rendering nestedIPAddress.
func natInsideEdge() ent.Edge {
	return edge.To("nat_inside_of", IPAddress.Type).Annotations(entsql.OnDelete(dbAction(api.SetNull))).
		From("nat_inside").Unique().Field("nat_inside_id").Annotations(api.Field{OnDelete: api.SetNull, Nested: nestedIPAddress})
}
