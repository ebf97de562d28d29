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

// VirtualMachineType is virtualization.VirtualMachineType: defaults
// (platform, vCPUs, memory) a new virtual machine of the type takes where
// it leaves them empty.
type VirtualMachineType struct{ ent.Schema }

func (VirtualMachineType) Mixin() []ent.Mixin { return PrimaryMixins() }

// VCPUs is NetBox's DecimalField(max_digits=6, decimal_places=2) with
// MinValueValidator(0.01): a virtual machine's vcpus and a type's
// default_vcpus.
var VCPUs = api.Decimal{Digits: 6, Places: 2, Min: "0.01"}

func (VirtualMachineType) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").MaxRuneLen(100).NotEmpty(),
		UniqueSlug(),
		FKField("default_platform"),
		field.Float("default_vcpus").Optional().Nillable().Annotations(api.Field{Decimal: &VCPUs}),
		field.Int("default_memory").Optional().Nillable().Min(0).Max(maxPositiveInt).
			Annotations(api.Field{Min: api.Int(0), Max: api.Int(maxPositiveInt)}),
	}
}

func (VirtualMachineType) Edges() []ent.Edge {
	return []ent.Edge{
		// related_name='+': no reverse accessor.
		edge.To("default_platform", Platform.Type).Field("default_platform_id").Unique().
			Annotations(OnDelete(api.SetNull, api.Field{NoReverse: true})...),
	}
}

func (VirtualMachineType) Indexes() []ent.Index { return []ent.Index{index.Fields("name")} }

func (VirtualMachineType) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "virtualization_virtualmachinetype"},
		api.Model{
			App: "virtualization", Path: "virtual-machine-types", Verbose: "virtual machine type",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "default_platform", "default_vcpus",
				"default_memory", "description", "owner", "comments", "tags", "custom_fields", "created",
				"last_updated", "virtual_machine_count"},
			Brief:    []string{"id", "url", "display", "name", "slug", "description"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description", "comments"},
			Ordering: []string{"name"},
			Unique: []api.Unique{{Fields: []string{"name"}, IgnoreCase: true,
				Message: "Virtual machine type name must be unique."}},
			Counts: map[string]api.Count{"virtual_machine_count": {Model: "virtualization.virtualmachine",
				Column: "virtual_machine_type_id", Cached: true}},
			Filters: []api.Filter{
				{Name: "virtual_machine_count", Kind: "related-count", Column: "virtual_machine_count"},
			},
		},
	}
}
