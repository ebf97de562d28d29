package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/schema/api"
)

// CableBundle is dcim.CableBundle: a named group of cables; deleting it
// leaves its cables unbundled.
type CableBundle struct{ ent.Schema }

func (CableBundle) Mixin() []ent.Mixin { return PrimaryMixins() }

func (CableBundle) Fields() []ent.Field {
	return []ent.Field{field.String("name").MaxRuneLen(100).NotEmpty().Unique()}
}

func (CableBundle) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_cablebundle"},
		api.Model{
			// NetBox's IntegerField(read_only=True, default=0), annotated by the viewset.
			Metadata: map[string]api.Meta{"cable_count": {Type: "integer"}},
			App:      "dcim", Path: "cable-bundles", Verbose: "cable bundle",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "description", "owner", "comments", "tags",
				"custom_fields", "created", "last_updated", "cable_count"},
			Brief:    []string{"id", "url", "display", "name", "description"},
			Display:  "{name}",
			Search:   []string{"name", "description", "comments"},
			Ordering: []string{"name"},
			Counts:   map[string]api.Count{"cable_count": {Model: "dcim.cable", Column: "bundle_id"}},
		},
	}
}
