package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/schema/api"
)

// DeviceRole is dcim.DeviceRole: the functional role of devices (and of
// virtual machines when vm_role). NetBox 4.6 made it a nested group.
type DeviceRole struct{ ent.Schema }

func (DeviceRole) Mixin() []ent.Mixin { return NestedGroupMixins() }

func (DeviceRole) Fields() []ent.Field {
	return []ent.Field{
		field.String("color").MaxRuneLen(6).Default("9e9e9e").Annotations(api.Field{Kind: "color"}),
		field.Bool("vm_role").Default(true),
		FKField("config_template"),
	}
}

func (DeviceRole) Edges() []ent.Edge {
	return []ent.Edge{configContextsOf("roles"), ParentEdge(DeviceRole.Type, NestedNameForm...),
		FK("config_template", ConfigTemplate.Type, api.Protect)}
}

func (DeviceRole) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_devicerole"},
		api.Model{
			App: "dcim", Path: "device-roles", Verbose: "device role",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"parent": nil, "config_template": nil},
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "color", "vm_role",
				"config_template", "parent", "description", "tags", "custom_fields", "created", "last_updated",
				"device_count", "virtualmachine_count", "owner", "comments", "_depth"},
			Brief: []string{"id", "url", "display", "name", "slug", "description", "device_count",
				"virtualmachine_count", "_depth"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description", "comments"},
			Ordering: []string{"name"},
			Unique:   nestedGroupUnique("device role"),
			// Cumulative over the tree, as NetBox's viewset annotates them.
			Counts: map[string]api.Count{"device_count": {Model: "dcim.device", Column: "role_id", Cumulative: true},
				"virtualmachine_count": {Model: "virtualization.virtualmachine", Column: "role_id", Cumulative: true}},
		},
	}
}
