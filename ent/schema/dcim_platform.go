package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"

	"github.com/inventory/inventory/ent/schema/api"
)

// Platform is dcim.Platform: the software a device runs, a tree,
// optionally tied to a manufacturer.
type Platform struct{ ent.Schema }

func (Platform) Mixin() []ent.Mixin { return NestedGroupMixins() }

func (Platform) Fields() []ent.Field {
	return []ent.Field{FKField("manufacturer"), FKField("config_template")}
}

func (Platform) Edges() []ent.Edge {
	return []ent.Edge{
		configContextsOf("platforms"),
		ParentEdge(Platform.Type, NestedNameForm...),
		FK("manufacturer", Manufacturer.Type, api.Protect),
		FK("config_template", ConfigTemplate.Type, api.Protect),
	}
}

func (Platform) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_platform"},
		api.Model{
			App: "dcim", Path: "platforms", Verbose: "platform",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"parent": nil, "config_template": nil},
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "parent", "name", "slug", "manufacturer",
				"config_template", "description", "owner", "comments", "tags", "custom_fields", "created",
				"last_updated", "device_count", "virtualmachine_count", "_depth"},
			Brief: []string{"id", "url", "display", "name", "slug", "description", "device_count",
				"virtualmachine_count", "_depth"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description", "comments"},
			Ordering: []string{"name"},
			// NetBox's Platform replaces the nested group's per-parent
			// constraints by per-manufacturer ones.
			Unique: []api.Unique{
				{Fields: []string{"manufacturer", "name"}},
				// DRF's UniqueValidator answers before the constraint's
				// own message (see nestedGroupUnique).
				{Fields: []string{"name"}, WhenNull: []string{"manufacturer"}},
				{Fields: []string{"manufacturer", "slug"}},
				{Fields: []string{"slug"}, WhenNull: []string{"manufacturer"}},
			},
			// Cumulative over the tree, as NetBox's viewset annotates them.
			Counts: map[string]api.Count{"device_count": {Model: "dcim.device", Column: "platform_id", Cumulative: true},
				"virtualmachine_count": {Model: "virtualization.virtualmachine", Column: "platform_id", Cumulative: true}},
			Filters: []api.Filter{{Name: "available_for_device_type", Kind: "null-or-same", Column: "manufacturer",
				Target: "dcim.devicetype", Attr: "manufacturer_id"}},
		},
	}
}
