package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/ipam"
	"github.com/inventory/inventory/ent/schema/api"
)

// VLANTranslationRule is ipam.VLANTranslationRule: one local VLAN ID
// translated to a remote one within a policy; each ID once per policy.
//
// policy is rendered as a bare id (NetBox's PrimaryKeyRelatedField): a
// plain column whose rows go with their policy (OnDelete with Target),
// checked by the hook, which also keeps the policy's name in the hidden
// _policy_name for the display. Like the policy, the serializer shows no
// tags, custom fields or timestamps.
type VLANTranslationRule struct{ ent.Schema }

func (VLANTranslationRule) Mixin() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}}
}

func (VLANTranslationRule) Fields() []ent.Field {
	return []ent.Field{
		field.Int("policy_id").Annotations(api.Field{API: "policy", Target: "ipam.vlantranslationpolicy",
			OnDelete: api.Cascade, Required: true}),
		field.Int("local_vid").Min(VLANVIDMin).Max(VLANVIDMax).
			Annotations(api.Field{Min: api.Int(VLANVIDMin), Max: api.Int(VLANVIDMax)}),
		field.Int("remote_vid").Min(VLANVIDMin).Max(VLANVIDMax).
			Annotations(api.Field{Min: api.Int(VLANVIDMin), Max: api.Int(VLANVIDMax)}),
		field.String("description").MaxRuneLen(200).Default(""),
		field.String("_policy_name").Default("").Annotations(api.Field{Kind: "hidden"}),
	}
}

func (VLANTranslationRule) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("policy_id", "local_vid").Unique(),
		index.Fields("policy_id", "remote_vid").Unique(),
	}
}

func (VLANTranslationRule) Hooks() []ent.Hook { return ipam.VLANTranslationRuleHooks() }

func (VLANTranslationRule) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "ipam_vlantranslationrule"},
		api.Model{
			App: "ipam", Path: "vlan-translation-rules", Model: "vlantranslationrule", Verbose: "VLAN translation rule",
			ChangeRelated: []string{"policy"}, // NetBox's to_objectchange()
			GenericOnly:   true,
			Fields:        []string{"id", "url", "display", "policy", "local_vid", "remote_vid", "description"},
			DisplayFunc:   api.Func(api.LogicPkg("ipam"), "VLANTranslationRuleDisplay"),
			// NetBox orders by the policy (its name), then the local VID.
			Ordering: []string{"_policy_name", "local_vid", "id"},
			Unique: []api.Unique{
				{Fields: []string{"policy", "local_vid"}, Message: "VLAN translation rule with this Policy and Local VLAN ID already exists."},
				{Fields: []string{"policy", "remote_vid"}, Message: "VLAN translation rule with this Policy and Remote VLAN ID already exists."},
			},
			Filters: []api.Filter{
				{Name: "policy_id", Kind: "fk-id", Column: "policy_id", Target: "ipam.vlantranslationpolicy"},
				{Name: "policy", Kind: "fk-attr", Column: "policy_id", Target: "ipam.vlantranslationpolicy", Attr: "name"},
				// NetBox's search: the policy's name, or either VLAN ID.
				{Name: "q", Kind: "search-or-number", Column: "local_vid,remote_vid", Attr: "_policy_name"},
				// The timestamps are filters although not fields.
				{Name: "created", Kind: "datetime", Column: "created"},
				{Name: "last_updated", Kind: "datetime", Column: "last_updated"},
			},
		},
	}
}
