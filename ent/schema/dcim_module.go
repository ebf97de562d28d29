package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// Module is dcim.Module: a module of a module type installed in a module
// bay of a device. Installing one instantiates its module type's
// component templates (api.Instantiate's module source).
type Module struct{ ent.Schema }

func (Module) Mixin() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, CustomFields{}, Owned{}}
}

// ModuleStatus are the choices of a module's status.
var ModuleStatus = api.C("offline", "Offline", "active", "Active", "planned", "Planned", "staged", "Staged",
	"failed", "Failed", "decommissioning", "Decommissioning")

func (Module) Fields() []ent.Field {
	return []ent.Field{
		field.Int("device_id"),
		// One module per bay (NetBox's OneToOneField): the unique column
		// answers "module with this module bay already exists.".
		field.Int("module_bay_id").Unique(),
		field.Int("module_type_id"),
		field.String("status").MaxRuneLen(50).Default("active").Annotations(api.Field{Kind: "choice", Choices: ModuleStatus}),
		field.String("serial").MaxRuneLen(50).Default(""),
		field.String("asset_tag").MaxRuneLen(50).Optional().Nillable().Unique(),
		field.String("description").MaxRuneLen(200).Default(""),
		field.Text("comments").Default(""),
		// NetBox's write-only switches of the serializer, read once when
		// the module is installed (api.Source.Replicate/Adopt).
		field.Bool("replicate_components").Default(true).Annotations(api.Field{WriteOnly: true, CreateOnly: true}),
		field.Bool("adopt_components").Default(false).Annotations(api.Field{WriteOnly: true, CreateOnly: true}),
		// _display caches "<bay name>: <module type> (<id>)" (NetBox's
		// Module.__str__), kept by the hook.
		field.String("_display").Default("").Annotations(api.Field{Kind: "hidden"}),
	}
}

func (Module) Edges() []ent.Edge {
	return []ent.Edge{
		FKRequired("device", Device.Type, api.Cascade),
		// Rendered as NetBox's NestedModuleBaySerializer.
		edge.To("module_bay", ModuleBay.Type).Field("module_bay_id").Unique().Required().
			Annotations(OnDelete(api.Cascade, api.Field{Nested: NestedNameForm})...),
		FKRequired("module_type", ModuleType.Type, api.Protect),
	}
}

func (Module) Hooks() []ent.Hook { return dcim.ModuleHooks() }

func (Module) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_module"},
		api.Model{
			App: "dcim", Path: "modules", Verbose: "module",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "device", "module_bay", "module_type", "status",
				"serial", "asset_tag", "description", "owner", "comments", "tags", "custom_fields", "created", "last_updated",
				"replicate_components", "adopt_components"},
			Brief:       []string{"id", "url", "display", "device", "module_bay", "module_type", "description"},
			DisplayFunc: api.Func(api.LogicPkg("dcim"), "ModuleDisplay"),
			Search:      []string{"serial", "asset_tag", "description", "comments"},
			Ordering:    []string{"module_bay", "id"},
			Filters: []api.Filter{
				{Name: "module_type", Kind: "fk-attr", Column: "module_type_id", Target: "dcim.moduletype", Attr: "model"},
				{Name: "manufacturer_id", Kind: "fk-id", Via: "module_type", Column: "manufacturer"},
				{Name: "manufacturer", Kind: "fk-attr", Via: "module_type", Column: "manufacturer"},
				{Name: "profile_id", Kind: "fk-id", Via: "module_type", Column: "profile"},
				{Name: "profile", Kind: "fk-attr", Via: "module_type", Column: "profile"},
				{Name: "region_id", Kind: "tree-id", Via: "device.site", Column: "region"},
				{Name: "region", Kind: "tree-attr", Via: "device.site", Column: "region"},
				{Name: "site_group_id", Kind: "tree-id", Via: "device.site", Column: "group"},
				{Name: "site_group", Kind: "tree-attr", Via: "device.site", Column: "group"},
				{Name: "site_id", Kind: "fk-id", Via: "device", Column: "site"},
				{Name: "site", Kind: "fk-attr", Via: "device", Column: "site"},
				{Name: "location_id", Kind: "tree-id", Via: "device", Column: "location"},
				{Name: "location", Kind: "tree-attr", Via: "device", Column: "location"},
				{Name: "rack_id", Kind: "fk-id", Via: "device", Column: "rack"},
				{Name: "rack", Kind: "fk-attr", Via: "device", Column: "rack"},
			},
		},
	}
}
