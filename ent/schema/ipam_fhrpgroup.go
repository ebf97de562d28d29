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

// FHRPGroup is ipam.FHRPGroup: a group of first-hop redundancy peers
// (VRRP, HSRP ...). Its virtual addresses are IP addresses assigned to it
// (a generic relation on ipam.IPAddress); interfaces join it through
// FHRP group assignments.
type FHRPGroup struct{ ent.Schema }

func (FHRPGroup) Mixin() []ent.Mixin { return PrimaryMixins() }

func (FHRPGroup) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").MaxRuneLen(100).Default(""),
		// protocol and auth_type are DRF's plain ChoiceField (bare values):
		// NetBox's serializer leaves them to ModelSerializer.
		field.String("protocol").MaxRuneLen(50).Annotations(api.Field{Choices: ipam.FHRPProtocols}),
		// NetBox's PositiveSmallIntegerField.
		field.Int("group_id").Min(0).Max(32767).Annotations(api.Field{Min: api.Int(0), Max: api.Int(32767)}),
		field.String("auth_type").MaxRuneLen(50).Optional().Nillable().
			Annotations(api.Field{Choices: ipam.FHRPAuthTypes}),
		field.String("auth_key").MaxRuneLen(255).Default(""),
		// _first_ip caches the group's first IP address for its display,
		// kept by the IP address hook.
		field.String("_first_ip").Default("").Annotations(api.Field{Kind: "hidden"}),
	}
}

func (FHRPGroup) Indexes() []ent.Index {
	return []ent.Index{index.Fields("protocol", "group_id", "id")}
}

// Hooks: the cached display of the group's assignments follows its name,
// protocol and group id.
func (FHRPGroup) Hooks() []ent.Hook { return ipam.FHRPGroupHooks() }

func (FHRPGroup) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "ipam_fhrpgroup"},
		api.Model{
			App: "ipam", Path: "fhrp-groups", Model: "fhrpgroup", Verbose: "FHRP group",
			GenericOnly: true,
			Fields: []string{"id", "name", "url", "display_url", "display", "protocol", "group_id", "auth_type",
				"auth_key", "description", "owner", "comments", "tags", "custom_fields", "created", "last_updated",
				"ip_addresses"},
			Brief:       []string{"id", "url", "display", "protocol", "group_id", "description"},
			DisplayFunc: api.Func(api.LogicPkg("ipam"), "FHRPGroupDisplay"),
			Search:      []string{"description", "name"},
			Ordering:    []string{"protocol", "group_id", "id"},
			Reverse: map[string]api.Reverse{
				"ip_addresses": {Model: "ipam.ipaddress", Column: "assigned_object_id", Many: true,
					TypeColumn: "assigned_object_type"},
			},
			Filters: []api.Filter{
				{Name: "related_ip", Kind: "fhrp-related-ip"},
			},
		},
	}
}
