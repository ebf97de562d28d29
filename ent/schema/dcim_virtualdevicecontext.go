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

// VirtualDeviceContext is dcim.VirtualDeviceContext: a logical partition
// of a device (a Nexus VDC), with its own numeric identifier.
type VirtualDeviceContext struct{ ent.Schema }

func (VirtualDeviceContext) Mixin() []ent.Mixin { return PrimaryMixins() }

// VirtualDeviceContextStatus are the choices of a context's status.
var VirtualDeviceContextStatus = api.C("active", "Active", "planned", "Planned", "offline", "Offline")

func (VirtualDeviceContext) Fields() []ent.Field {
	return []ent.Field{
		NaturalName(64), NaturalKeyField("name"),
		field.Int("device_id"),
		// identifier is NetBox's PositiveSmallIntegerField.
		field.Int("identifier").Optional().Nillable().Min(0).Max(32767).
			Annotations(api.Field{Min: api.Int(0), Max: api.Int(32767)}),
		FKField("tenant"),
		FKField("primary_ip4"), FKField("primary_ip6"),
		field.String("status").MaxRuneLen(50).Annotations(api.Field{Kind: "choice", Choices: VirtualDeviceContextStatus}),
	}
}

func (VirtualDeviceContext) Edges() []ent.Edge {
	return []ent.Edge{
		FKRequired("device", Device.Type, api.Protect),
		FK("tenant", Tenant.Type, api.Protect),
		ipFK("primary_ip4"), ipFK("primary_ip6"),
		// The inverse of the interfaces' vdcs (ent's many-to-many needs
		// both ends); no API field.
		edge.From("interfaces", DeviceInterface.Type).Ref("vdcs"),
	}
}

func (VirtualDeviceContext) Indexes() []ent.Index {
	return []ent.Index{index.Fields("device_id", "identifier"), index.Fields("device_id", "_name_natural"),
		index.Fields("primary_ip4_id").Unique(), index.Fields("primary_ip6_id").Unique()}
}

func (VirtualDeviceContext) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_virtualdevicecontext"},
		api.Model{
			App: "dcim", Path: "virtual-device-contexts", Verbose: "virtual device context",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"identifier": nil, "tenant": nil},
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "device", "identifier", "tenant", "primary_ip",
				"primary_ip4", "primary_ip6", "status", "description", "owner", "comments", "tags", "custom_fields",
				"created", "last_updated", "interface_count"},
			Brief:    []string{"id", "url", "display", "name", "identifier", "device", "description"},
			Display:  "{name}",
			Search:   []string{"name", "description", "comments"},
			Ordering: []string{"name"},
			Unique: []api.Unique{{Fields: []string{"device", "identifier"}}, {Fields: []string{"device", "name"}},
				{Fields: []string{"primary_ip4"}, Message: "virtual device context with this primary IPv4 already exists."},
				{Fields: []string{"primary_ip6"}, Message: "virtual device context with this primary IPv6 already exists."}},
			Coalesce: map[string][]string{"primary_ip": {"primary_ip6", "primary_ip4"}},
			Counts:   map[string]api.Count{"interface_count": {Table: "dcim_interface_vdcs", Column: "virtualdevicecontext_id"}},
			Filters: append(TenancyFilters(),
				api.Filter{Name: "has_primary_ip", Kind: "any-set", Column: "primary_ip4_id,primary_ip6_id"},
				api.Filter{Name: "interface_id", Kind: "m2m-reverse", Target: "dcim.interface", Column: "vdcs"}),
		},
	}
}

// Hooks: the primary IP addresses belong to the device (ent/logic/ipam).
func (VirtualDeviceContext) Hooks() []ent.Hook { return ipam.VirtualDeviceContextPrimaryIPHooks() }
