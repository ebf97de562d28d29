package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/circuits"
	"github.com/inventory/inventory/ent/logic/wireless"
	"github.com/inventory/inventory/ent/schema/api"
)

// WirelessLink is wireless.WirelessLink: a point-to-point link between two
// wireless interfaces, with an SSID, a status, a tenant, authentication
// settings and a distance (DistanceMixin). The rules (ent/logic/wireless):
// only wireless interface types, an interface in one link at most, and
// each interface's wireless_link and the cached devices
// (_interface_a_device, _interface_b_device, whose deletion takes the link
// along) kept by the hooks.
type WirelessLink struct{ ent.Schema }

func (WirelessLink) Mixin() []ent.Mixin { return PrimaryMixins() }

// choiceLabels maps each choice's value to its label (the interface type
// labels the link's messages name).
func choiceLabels(cs []api.Choice) map[string]string {
	out := make(map[string]string, len(cs))
	for _, c := range cs {
		if v, ok := c.Value.(string); ok {
			out[v] = c.Label
		}
	}
	return out
}

func (WirelessLink) Fields() []ent.Field {
	return append([]ent.Field{
		// Unique: an interface is in at most one link (the hook also
		// refuses it as the other end of another link).
		field.Int("interface_a_id").Unique(),
		field.Int("interface_b_id").Unique(),
		field.String("ssid").MaxRuneLen(32).Default(""),
		field.String("status").MaxRuneLen(50).Default("connected").Annotations(api.Field{Kind: "choice", Choices: LinkStatus}),
		FKField("tenant"),
		field.Float("distance").Optional().Nillable().Validate(circuits.ValidateDistance),
		field.String("distance_unit").MaxRuneLen(50).Optional().Nillable().
			Annotations(api.Field{Kind: "choice", Choices: DistanceUnit}),
		CachedFK("_interface_a_device", "dcim.device", api.Cascade),
		CachedFK("_interface_b_device", "dcim.device", api.Cascade),
	}, wirelessAuthFields()...)
}

func (WirelessLink) Edges() []ent.Edge {
	return []ent.Edge{
		// related_name='+' in NetBox: no reverse accessor on interfaces.
		edge.To("interface_a", DeviceInterface.Type).Field("interface_a_id").Unique().Required().
			Annotations(OnDelete(api.Protect, api.Field{NoReverse: true})...),
		edge.To("interface_b", DeviceInterface.Type).Field("interface_b_id").Unique().Required().
			Annotations(OnDelete(api.Protect, api.Field{NoReverse: true})...),
		FK("tenant", Tenant.Type, api.Protect),
	}
}

func (WirelessLink) Indexes() []ent.Index {
	return []ent.Index{index.Fields("_interface_a_device_id"), index.Fields("_interface_b_device_id")}
}

// Hooks: WirelessLink.clean() and save(), DistanceMixin's, and the
// interfaces' wireless_link (NetBox's cascades).
func (WirelessLink) Hooks() []ent.Hook {
	return append([]ent.Hook{circuits.DistanceUnitHook}, wireless.LinkHooks(choiceLabels(dtInterfaceType))...)
}

func (WirelessLink) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "wireless_wirelesslink"},
		api.Model{
			App: "wireless", Path: "wireless-links", Model: "wirelesslink", Class: "WirelessLink", Verbose: "wireless link",
			Fields: []string{"id", "url", "display_url", "display", "interface_a", "interface_b", "ssid", "status",
				"tenant", "auth_type", "auth_cipher", "auth_psk", "distance", "distance_unit", "description", "owner",
				"comments", "tags", "custom_fields", "created", "last_updated"},
			Brief:       []string{"id", "url", "display", "ssid", "description"},
			DisplayFunc: api.Func(api.LogicPkg("wireless"), "LinkDisplay"),
			Search:      []string{"ssid", "description", "comments"},
			Ordering:    []string{"id"},
			Unique:      []api.Unique{{Fields: []string{"interface_a", "interface_b"}}},
			// interface_a and interface_b (by id) are ours: NetBox's filter
			// set has only the _id forms and ignores these, yet Ansible's
			// netbox_wireless_link looks a link up by them; here they find
			// the link under FILTER_UNKNOWN=guard instead of a 400.
			Filters: append(TenancyFilters(),
				api.Filter{Name: "interface_a", Kind: "fk-id", Column: "interface_a_id", Target: "dcim.interface"},
				api.Filter{Name: "interface_b", Kind: "fk-id", Column: "interface_b_id", Target: "dcim.interface"}),
		},
	}
}
