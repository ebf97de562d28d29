package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/schema/api"
)

// Role is ipam.Role, the functional role of prefixes and VLANs.
type Role struct{ ent.Schema }

func (Role) Mixin() []ent.Mixin { return OrganizationalMixins() }

func (Role) Fields() []ent.Field {
	return []ent.Field{
		field.Int("weight").Default(1000).Min(0).Max(32767).
			Annotations(api.Field{Min: api.Int(0), Max: api.Int(32767)}),
	}
}

func (Role) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "ipam_role"},
		api.Model{
			App: "ipam", Path: "roles", Verbose: "role",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "weight", "description", "owner",
				"comments", "tags", "custom_fields", "created", "last_updated", "prefix_count", "vlan_count", "asn_count"},
			Brief:    []string{"id", "url", "display", "name", "slug", "description", "prefix_count", "vlan_count", "asn_count"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description", "comments"},
			Ordering: []string{"weight", "name"},
			Counts: map[string]api.Count{
				"vlan_count":   {Model: "ipam.vlan", Column: "role_id"},
				"prefix_count": {Model: "ipam.prefix", Column: "role_id"},
				"asn_count":    {Model: "ipam.asn", Column: "role_id"},
			},
		},
	}
}
