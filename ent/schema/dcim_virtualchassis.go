package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// VirtualChassis is dcim.VirtualChassis: devices operating with a shared
// control plane (a switch stack), one of them its master.
type VirtualChassis struct{ ent.Schema }

func (VirtualChassis) Mixin() []ent.Mixin { return PrimaryMixins() }

func (VirtualChassis) Fields() []ent.Field {
	return []ent.Field{
		NaturalName(64), NaturalKeyField("name"),
		field.String("domain").MaxRuneLen(30).Default(""),
		// master is NetBox's OneToOneField: a device masters one chassis
		// (a unique index, and api.Unique for NetBox's message).
		FKField("master"),
	}
}

func (VirtualChassis) Edges() []ent.Edge {
	// Rendered as NetBox's NestedDeviceSerializer.
	return []ent.Edge{edge.To("master", Device.Type).Field("master_id").Unique().
		Annotations(OnDelete(api.Protect, api.Field{Nested: NestedNameForm})...)}
}

func (VirtualChassis) Indexes() []ent.Index {
	return []ent.Index{index.Fields("master_id").Unique()}
}

func (VirtualChassis) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_virtualchassis"},
		api.Model{
			App: "dcim", Path: "virtual-chassis", Verbose: "virtual chassis",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"master": nil},
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "domain", "master", "description", "owner",
				"comments", "tags", "custom_fields", "created", "last_updated", "member_count", "members"},
			Brief:    []string{"id", "url", "display", "name", "master", "description", "member_count"},
			Display:  "{name}",
			Search:   []string{"name", "domain", "description", "comments"},
			Ordering: []string{"name"},
			Unique:   []api.Unique{{Fields: []string{"master"}}},
			Counts:   map[string]api.Count{"member_count": {Model: "dcim.device", Column: "virtual_chassis_id", Cached: true}},
			Reverse:  map[string]api.Reverse{"members": {Model: "dcim.device", Column: "virtual_chassis_id", Many: true, Nested: NestedNameForm}},
			Filters: []api.Filter{
				{Name: "region_id", Kind: "tree-id", Via: "master.site", Column: "region"},
				{Name: "region", Kind: "tree-attr", Via: "master.site", Column: "region"},
				{Name: "site_group_id", Kind: "tree-id", Via: "master.site", Column: "group"},
				{Name: "site_group", Kind: "tree-attr", Via: "master.site", Column: "group"},
				{Name: "site_id", Kind: "fk-id", Via: "master", Column: "site"},
				{Name: "site", Kind: "fk-attr", Via: "master", Column: "site"},
				{Name: "tenant_id", Kind: "fk-id", Via: "master", Column: "tenant"},
				{Name: "tenant", Kind: "fk-attr", Via: "master", Column: "tenant"},
				{Name: "member_count", Kind: "related-count", Column: "member_count"},
			},
		},
	}
}

// Hooks: the master must be a member (VirtualChassis.clean()), and a
// renamed chassis renames the display of its unnamed members.
func (VirtualChassis) Hooks() []ent.Hook { return dcim.VirtualChassisHooks() }
