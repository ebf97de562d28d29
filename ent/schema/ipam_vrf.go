package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/schema/api"
)

// VRF is ipam.VRF, a virtual routing and forwarding table.
type VRF struct{ ent.Schema }

func (VRF) Mixin() []ent.Mixin { return PrimaryMixins() }

func (VRF) Fields() []ent.Field {
	return []ent.Field{
		NaturalName(100), NaturalKeyField("name"),
		// rd is unique when set; the index (not field.Unique) carries the
		// constraint so that the API check can use NetBox's field label.
		field.String("rd").MaxRuneLen(21).Optional().Nillable(),
		FKField("tenant"),
		field.Bool("enforce_unique").Default(true),
	}
}

func (VRF) Edges() []ent.Edge {
	return []ent.Edge{
		FK("tenant", Tenant.Type, api.Protect),
		// Route targets render in full, as NetBox's VRFSerializer does
		// (SerializedPKRelatedField without nested=True); the filters
		// import_target(_id) and export_target(_id) match them by name.
		edge.To("import_targets", RouteTarget.Type).
			StorageKey(edge.Table("ipam_vrf_import_targets"), edge.Columns("vrf_id", "routetarget_id")).
			Annotations(api.Field{Lookup: "name", Full: true}),
		edge.To("export_targets", RouteTarget.Type).
			StorageKey(edge.Table("ipam_vrf_export_targets"), edge.Columns("vrf_id", "routetarget_id")).
			Annotations(api.Field{Lookup: "name", Full: true}),
	}
}

func (VRF) Indexes() []ent.Index {
	return []ent.Index{index.Fields("rd").Unique()}
}

func (VRF) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "ipam_vrf"},
		api.Model{
			App: "ipam", Path: "vrfs", Verbose: "VRF",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "rd", "tenant", "enforce_unique",
				"description", "owner", "comments", "import_targets", "export_targets", "tags", "custom_fields",
				"created", "last_updated", "ipaddress_count", "prefix_count"},
			Brief:       []string{"id", "url", "display", "name", "rd", "description", "prefix_count"},
			DisplayFunc: api.Func(api.LogicPkg("ipam"), "VRFDisplay"),
			Search:      []string{"name", "rd", "description"},
			Ordering:    []string{"name", "rd", "id"},
			Unique: []api.Unique{
				{Fields: []string{"rd"}, Message: "VRF with this route distinguisher already exists."},
			},
			Counts: map[string]api.Count{"prefix_count": {Model: "ipam.prefix", Column: "vrf_id"},
				"ipaddress_count": {Model: "ipam.ipaddress", Column: "vrf_id"}},
			Filters: TenancyFilters(),
		},
	}
}
