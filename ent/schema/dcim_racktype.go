package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// RackType is dcim.RackType: a rack model of a manufacturer whose physical
// attributes racks of that type inherit.
type RackType struct{ ent.Schema }

func (RackType) Mixin() []ent.Mixin { return PrimaryMixins() }

// Choices of racks and rack types (NetBox's dcim/choices.py), named for
// racks so that they do not collide with other models' sets.
var (
	RackFormFactor = api.C("2-post-frame", "2-post frame", "4-post-frame", "4-post frame",
		"4-post-cabinet", "4-post cabinet", "wall-frame", "Wall-mounted frame",
		"wall-frame-vertical", "Wall-mounted frame (vertical)", "wall-cabinet", "Wall-mounted cabinet",
		"wall-cabinet-vertical", "Wall-mounted cabinet (vertical)")
	RackWidth = []api.Choice{{Value: 10, Label: "10 inches"}, {Value: 19, Label: "19 inches"},
		{Value: 21, Label: "21 inches"}, {Value: 23, Label: "23 inches"}}
	RackDimensionUnit = api.C("mm", "Millimeters", "in", "Inches")
	RackWeightUnit    = api.C("kg", "Kilograms", "g", "Grams", "lb", "Pounds", "oz", "Ounces")
)

// rackBaseFields are NetBox's RackBase fields, shared by racks and rack
// types: width, numbering, outer dimensions and weight. Bounds are those of
// Django's PositiveSmallIntegerField / PositiveIntegerField and the
// models' validators.
func rackBaseFields() []ent.Field {
	small := func(name string) ent.Field {
		return field.Int(name).Optional().Nillable().Min(0).Max(32767).
			Annotations(api.Field{Min: api.Int(0), Max: api.Int(32767)})
	}
	return []ent.Field{
		field.String("form_factor").MaxRuneLen(50).Optional().Nillable().
			Annotations(api.Field{Kind: "choice", Choices: RackFormFactor}),
		field.Int("width").Default(19).Annotations(api.Field{Kind: "choice", Choices: RackWidth}),
		field.Int("u_height").Default(dcim.RackUHeightDefault).Min(1).Max(dcim.RackUHeightMax).
			Annotations(api.Field{Min: api.Int(1), Max: api.Int(dcim.RackUHeightMax)}),
		field.Int("starting_unit").Default(1).Min(1).Max(32767).
			Annotations(api.Field{Min: api.Int(1), Max: api.Int(32767)}),
		field.Bool("desc_units").Default(false),
		small("outer_width"), small("outer_height"), small("outer_depth"),
		field.String("outer_unit").MaxRuneLen(50).Optional().Nillable().
			Annotations(api.Field{Kind: "choice", Choices: RackDimensionUnit}),
		small("mounting_depth"),
		field.Float("weight").Optional().Nillable().Annotations(api.Field{Decimal: &Weight}),
		field.String("weight_unit").MaxRuneLen(50).Optional().Nillable().
			Annotations(api.Field{Kind: "choice", Choices: RackWeightUnit}),
		field.Int("max_weight").Optional().Nillable().Min(0).Max(2147483647).
			Annotations(api.Field{Min: api.Int(0), Max: api.Int(2147483647)}),
	}
}

func (RackType) Fields() []ent.Field {
	return append([]ent.Field{
		field.Int("manufacturer_id"),
		field.String("model").MaxRuneLen(100).NotEmpty(),
		UniqueSlug(),
	}, rackBaseFields()...)
}

func (RackType) Edges() []ent.Edge {
	return []ent.Edge{FKRequired("manufacturer", Manufacturer.Type, api.Protect)}
}

func (RackType) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_racktype"},
		api.Model{
			App: "dcim", Path: "rack-types", Model: "racktype", Verbose: "rack type",
			GenericOnly: true,
			// NetBox's serializer lists description twice; it renders once,
			// after slug.
			Fields: []string{"id", "url", "display_url", "display", "manufacturer", "model", "slug", "description",
				"form_factor", "width", "u_height", "starting_unit", "desc_units", "outer_width", "outer_height",
				"outer_depth", "outer_unit", "weight", "max_weight", "weight_unit", "mounting_depth", "owner",
				"comments", "tags", "custom_fields", "created", "last_updated", "rack_count"},
			Brief:    []string{"id", "url", "display", "manufacturer", "model", "slug", "description", "rack_count"},
			Display:  "{model}",
			Search:   []string{"model", "description", "comments"},
			Ordering: []string{"manufacturer", "model"},
			Unique: []api.Unique{
				{Fields: []string{"manufacturer", "model"}},
				{Fields: []string{"manufacturer", "slug"}},
			},
			Counts:  map[string]api.Count{"rack_count": {Model: "dcim.rack", Column: "rack_type_id", Cached: true}},
			Filters: []api.Filter{{Name: "rack_count", Kind: "related-count", Column: "rack_count"}},
		},
	}
}

// Hooks: the units and weights are checked as NetBox's clean() does, and
// a changed rack type passes its physical attributes on to its racks.
func (RackType) Hooks() []ent.Hook { return dcim.RackTypeHooks() }
