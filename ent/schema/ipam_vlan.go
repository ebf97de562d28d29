package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/ipam"
	"github.com/inventory/inventory/ent/logic/vpn"
	"github.com/inventory/inventory/ent/schema/api"
)

// VLAN is ipam.VLAN.
type VLAN struct{ ent.Schema }

func (VLAN) Mixin() []ent.Mixin { return PrimaryMixins() }

// VLANStatus are the choices of a VLAN's status.
var VLANStatus = api.C("active", "Active", "reserved", "Reserved", "deprecated", "Deprecated")

// VLANQinQRole are the Q-in-Q roles of a VLAN.
var VLANQinQRole = api.C("svlan", "Service", "cvlan", "Customer")

func (VLAN) Fields() []ent.Field {
	return []ent.Field{
		FKField("site"), FKField("group"),
		field.Int("vid").Min(VLANVIDMin).Max(VLANVIDMax).
			Annotations(api.Field{Min: api.Int(VLANVIDMin), Max: api.Int(VLANVIDMax)}),
		NameField(64),
		FKField("tenant"),
		field.String("status").MaxRuneLen(50).Default("active").Annotations(api.Field{Kind: "choice", Choices: VLANStatus}),
		FKField("role"),
		field.String("qinq_role").MaxRuneLen(50).Optional().Nillable().
			Annotations(api.Field{Kind: "choice", Choices: VLANQinQRole, NoBlank: true}), // allow_null, not allow_blank
		FKField("qinq_svlan"),
	}
}

func (VLAN) Edges() []ent.Edge {
	return []ent.Edge{
		FK("site", Site.Type, api.Protect),
		FK("group", VLANGroup.Type, api.Protect),
		FK("tenant", Tenant.Type, api.Protect),
		FK("role", Role.Type, api.SetNull),
		SelfFK("qinq_svlan", VLAN.Type, api.Protect),
		// The inverse of the interfaces' tagged_vlans (ent's many-to-many
		// needs both ends); no API field.
		edge.From("tagged_interfaces", DeviceInterface.Type).Ref("tagged_vlans"),
		edge.From("tagged_vminterfaces", VMInterface.Type).Ref("tagged_vlans"),
	}
}

func (VLAN) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("group_id", "vid").Unique(),
		index.Fields("group_id", "name").Unique(),
		index.Fields("qinq_svlan_id", "vid").Unique(),
		index.Fields("qinq_svlan_id", "name").Unique(),
		index.Fields("site_id", "group_id", "vid", "id"),
	}
}

// Hooks: VLAN.clean() (site and group, VID ranges, Q-in-Q) before every
// row written; a renamed VLAN renames itself in its L2VPN termination's
// display.
func (VLAN) Hooks() []ent.Hook {
	return append(ipam.VLANHooks(), vpn.InterfaceHooks("ipam.vlan", "name", "vid")...)
}

func (VLAN) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "ipam_vlan"},
		api.Model{
			App: "ipam", Path: "vlans", Verbose: "VLAN",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"group": nil, "qinq_svlan": nil},
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "site", "group", "vid", "name", "tenant", "status",
				"role", "description", "qinq_role", "qinq_svlan", "owner", "comments", "l2vpn_termination", "tags",
				"custom_fields", "created", "last_updated", "prefix_count", "display_name"},
			Brief:    []string{"id", "url", "display", "vid", "name", "description"},
			Display:  "{name} ({vid})",
			Search:   []string{"name", "description"},
			Ordering: []string{"site", "group", "vid", "id"},
			// Django's messages use the field labels: vid is "VLAN ID".
			Unique: []api.Unique{
				{Fields: []string{"group", "vid"}, Message: "VLAN with this Group and VLAN ID already exists."},
				{Fields: []string{"group", "name"}},
				{Fields: []string{"qinq_svlan", "vid"}, Message: "VLAN with this Qinq svlan and VLAN ID already exists."},
				{Fields: []string{"qinq_svlan", "name"}, Message: "VLAN with this Qinq svlan and Name already exists."},
			},
			Reverse: map[string]api.Reverse{"l2vpn_termination": l2vpnTermination},
			Counts:  map[string]api.Count{"prefix_count": {Model: "ipam.prefix", Column: "vlan_id"}},
			Filters: append(append(append(TenancyFilters(), SiteTreeFilters()...), l2vpnFilters()...),
				api.Filter{Name: "qinq_svlan_vid", Kind: "integer", Via: "qinq_svlan", Column: "vid"},
				api.Filter{Name: "interface_id", Kind: "interface-vlans", Target: "dcim.interface"},
				api.Filter{Name: "vminterface_id", Kind: "interface-vlans", Target: "virtualization.vminterface"},
				// NetBox's VLANQuerySet.get_for_site() and siblings.
				api.Filter{Name: "available_at_site", Kind: "vlan-available", Attr: "site"},
				api.Filter{Name: "available_at_site_group", Kind: "vlan-available", Attr: "sitegroup"},
				api.Filter{Name: "available_on_device", Kind: "vlan-available", Attr: "device"},
				api.Filter{Name: "available_on_virtualmachine", Kind: "vlan-available", Attr: "virtualmachine"}),
		},
	}
}
