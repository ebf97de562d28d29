package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// ModuleTypeProfile is dcim.ModuleTypeProfile: a JSON schema that the
// attributes of its module types must satisfy.
type ModuleTypeProfile struct{ ent.Schema }

func (ModuleTypeProfile) Mixin() []ent.Mixin { return PrimaryMixins() }

func (ModuleTypeProfile) Fields() []ent.Field {
	return []ent.Field{
		UniqueName(100),
		field.JSON("schema", map[string]any{}).Optional().Annotations(api.Field{Kind: "json"}),
	}
}

// Hooks: schema is validated as a JSON Schema when saved (NetBox's
// validate_schema).
func (ModuleTypeProfile) Hooks() []ent.Hook { return dcim.ModuleTypeProfileHooks() }

func (ModuleTypeProfile) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_moduletypeprofile"},
		api.Model{
			App: "dcim", Path: "module-type-profiles", Verbose: "module type profile",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "description", "schema", "owner",
				"comments", "tags", "custom_fields", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "name", "description"},
			Display:  "{name}",
			Search:   []string{"name", "description", "comments"},
			Ordering: []string{"name"},
		},
	}
}
