package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/ipam"
	"github.com/inventory/inventory/ent/schema/api"
)

// VLANTranslationPolicy is ipam.VLANTranslationPolicy: a set of VLAN ID
// translation rules, applied to interfaces.
//
// NetBox's serializer shows neither tags, custom fields nor timestamps
// (its Meta.fields leave them out), although the model is tagged and
// change-logged: so does ours.
type VLANTranslationPolicy struct{ ent.Schema }

func (VLANTranslationPolicy) Mixin() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, Primary{}}
}

func (VLANTranslationPolicy) Fields() []ent.Field {
	return []ent.Field{field.String("name").MaxRuneLen(100).NotEmpty().Unique()}
}

// Hooks: a renamed policy renames itself in its rules' displays.
func (VLANTranslationPolicy) Hooks() []ent.Hook { return ipam.VLANTranslationPolicyHooks() }

func (VLANTranslationPolicy) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "ipam_vlantranslationpolicy"},
		api.Model{
			App: "ipam", Path: "vlan-translation-policies", Model: "vlantranslationpolicy", Verbose: "VLAN translation policy",
			GenericOnly: true,
			Fields:      []string{"id", "url", "display", "name", "description", "rules", "owner", "comments"},
			Brief:       []string{"id", "url", "display", "name", "description"},
			Display:     "{name}",
			Search:      []string{"name", "description"},
			Ordering:    []string{"name"},
			// The policy's rules in full (the rule has no brief form).
			Reverse: map[string]api.Reverse{"rules": {Model: "ipam.vlantranslationrule", Column: "policy_id", Many: true}},
			// The timestamps are filters although not fields.
			Filters: []api.Filter{{Name: "created", Kind: "datetime", Column: "created"},
				{Name: "last_updated", Kind: "datetime", Column: "last_updated"}},
		},
	}
}
