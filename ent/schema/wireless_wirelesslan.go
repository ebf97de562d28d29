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

// WirelessLAN is wireless.WirelessLAN: an SSID, optionally in a group, on
// a VLAN and scoped to a region, site group, site or location (NetBox's
// CachedScopeMixin, kept as prefixes keep theirs: ipam.WirelessLANScope),
// with its authentication settings (WirelessAuthenticationBase).
// Interfaces join it through their wireless_lans.
type WirelessLAN struct{ ent.Schema }

func (WirelessLAN) Mixin() []ent.Mixin { return PrimaryMixins() }

// Choices of the wireless app (NetBox's wireless/choices.py).
var (
	WirelessLANStatus  = api.C("active", "Active", "reserved", "Reserved", "disabled", "Disabled", "deprecated", "Deprecated")
	WirelessAuthType   = api.C("open", "Open", "wep", "WEP", "wpa-personal", "WPA Personal (PSK)", "wpa-enterprise", "WPA Enterprise")
	WirelessAuthCipher = api.C("auto", "Auto", "tkip", "TKIP", "aes", "AES")
)

// wirelessAuthFields are WirelessAuthenticationBase's fields: type and
// cipher are nullable choices, the PSK blank text of at most 64.
func wirelessAuthFields() []ent.Field {
	return []ent.Field{
		field.String("auth_type").MaxRuneLen(50).Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: WirelessAuthType}),
		field.String("auth_cipher").MaxRuneLen(50).Optional().Nillable().Annotations(api.Field{Kind: "choice", Choices: WirelessAuthCipher}),
		field.String("auth_psk").MaxRuneLen(64).Default(""),
	}
}

func (WirelessLAN) Fields() []ent.Field {
	return append([]ent.Field{
		field.String("ssid").MaxRuneLen(32).NotEmpty(),
		FKField("group"),
		field.String("status").MaxRuneLen(50).Default("active").Annotations(api.Field{Kind: "choice", Choices: WirelessLANStatus}),
		FKField("vlan"),
		field.String("scope_type").Optional().Nillable().Annotations(api.Field{Types: prefixScopeTypes, OnDelete: api.Cascade}),
		field.Int("scope_id").Optional().Nillable(),
		FKField("tenant"),
		// The cached scope, with NetBox's on_delete (as on prefixes).
		CachedFK("_region", "dcim.region", api.SetNull),
		CachedFK("_site_group", "dcim.sitegroup", api.SetNull),
		CachedFK("_site", "dcim.site", api.Cascade),
		CachedFK("_location", "dcim.location", api.Cascade),
	}, wirelessAuthFields()...)
}

func (WirelessLAN) Edges() []ent.Edge {
	return []ent.Edge{
		FK("group", WirelessLANGroup.Type, api.SetNull),
		FK("vlan", VLAN.Type, api.Protect),
		FK("tenant", Tenant.Type, api.Protect),
		// The interfaces' wireless_lans, seen from here (NetBox's related
		// name; the interface_id filter, no field of the LAN's representation).
		edge.From("interfaces", DeviceInterface.Type).Ref("wireless_lans"),
	}
}

func (WirelessLAN) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("scope_type", "scope_id"),
		index.Fields("_region_id"), index.Fields("_site_group_id"), index.Fields("_site_id"), index.Fields("_location_id"),
	}
}

// Hooks: the cached scope (NetBox's CachedScopeMixin.save()).
func (WirelessLAN) Hooks() []ent.Hook { return []ent.Hook{ipam.WirelessLANScope.Hook()} }

func (WirelessLAN) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "wireless_wirelesslan"},
		api.Model{
			App: "wireless", Path: "wireless-lans", Model: "wirelesslan", Class: "WirelessLAN", Verbose: "wireless LAN",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults: map[string]any{"scope_type": nil, "scope_id": nil},
			Fields: []string{"id", "url", "display_url", "display", "ssid", "description", "group", "status", "vlan",
				"scope_type", "scope_id", "scope", "tenant", "auth_type", "auth_cipher", "auth_psk", "owner",
				"comments", "tags", "custom_fields", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "ssid", "description"},
			Display:  "{ssid}",
			Search:   []string{"ssid", "description", "comments"},
			Ordering: []string{"ssid"},
			Filters: append(TenancyFilters(),
				api.Filter{Name: "interface_id", Kind: "m2m-reverse", Target: "dcim.interface", Column: "wireless_lans"},
				api.Filter{Name: "region_id", Kind: "tree-id", Column: "_region_id", Target: "dcim.region"},
				api.Filter{Name: "region", Kind: "tree-attr", Column: "_region_id", Target: "dcim.region", Attr: "slug"},
				api.Filter{Name: "site_group_id", Kind: "tree-id", Column: "_site_group_id", Target: "dcim.sitegroup"},
				api.Filter{Name: "site_group", Kind: "tree-attr", Column: "_site_group_id", Target: "dcim.sitegroup", Attr: "slug"},
				api.Filter{Name: "site_id", Kind: "fk-id", Column: "_site_id", Target: "dcim.site"},
				api.Filter{Name: "site", Kind: "fk-attr", Column: "_site_id", Target: "dcim.site", Attr: "slug"},
				api.Filter{Name: "location_id", Kind: "tree-id", Column: "_location_id", Target: "dcim.location"},
				api.Filter{Name: "location", Kind: "tree-attr", Column: "_location_id", Target: "dcim.location", Attr: "slug"},
			),
		},
	}
}
