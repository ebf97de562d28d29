package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/tenancy"
	"github.com/inventory/inventory/ent/schema/api"
)

// Contact is tenancy.Contact: a person or team to call, in any number of
// contact groups (NetBox 4.3 made groups many-to-many), assigned to
// objects through contact assignments.
type Contact struct{ ent.Schema }

func (Contact) Mixin() []ent.Mixin { return PrimaryMixins() }

func (Contact) Fields() []ent.Field {
	return []ent.Field{
		NaturalName(100), NaturalKeyField("name"),
		field.String("title").MaxRuneLen(100).Default(""),
		field.String("phone").MaxRuneLen(50).Default(""),
		field.String("email").MaxRuneLen(254).Default("").Annotations(api.Field{Kind: "email"}),
		field.String("address").MaxRuneLen(200).Default(""),
		field.String("link").MaxRuneLen(200).Default("").Annotations(api.Field{Kind: "link"}),
	}
}

func (Contact) Edges() []ent.Edge {
	return []ent.Edge{
		// The filters group_id and group (by slug) match a group's
		// descendants too (NetBox's TreeNodeMultipleChoiceFilter).
		edge.To("groups", ContactGroup.Type).
			StorageKey(edge.Table("tenancy_contact_groups"), edge.Columns("contact_id", "contactgroup_id")).
			Annotations(api.Field{Lookup: "slug"}),
	}
}

// Hooks: a renamed contact renames itself in its assignments' displays.
func (Contact) Hooks() []ent.Hook { return tenancy.ContactHooks() }

func (Contact) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "tenancy_contact"},
		api.Model{
			App: "tenancy", Path: "contacts", Verbose: "contact",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "groups", "name", "title", "phone", "email",
				"address", "link", "description", "owner", "comments", "tags", "custom_fields", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "name", "description"},
			Display:  "{name}",
			Search:   []string{"name", "title", "phone", "email", "address", "link", "description", "comments"},
			Ordering: []string{"name"},
		},
	}
}
