package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/tenancy"
	"github.com/inventory/inventory/ent/schema/api"
)

// ContactAssignment is tenancy.ContactAssignment: a contact, in a role,
// for an object of any model with NetBox's "contacts" feature (a generic
// relation: deleting the object deletes its assignments). The accepted
// types are the served models with the feature (api.Field.ObjectTypes on
// the _type field), so models built later take contacts as they land.
// The display reads cached copies of the contact's name (the hooks keep
// it) and of the object's display (written with the object).
type ContactAssignment struct{ ent.Schema }

// Mixin: NetBox's ChangeLoggedModel with tags and custom fields.
func (ContactAssignment) Mixin() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, CustomFields{}}
}

func (ContactAssignment) Fields() []ent.Field {
	return []ent.Field{
		field.String("object_type").Annotations(api.Field{ObjectTypes: "contacts", OnDelete: api.Cascade}),
		field.Int("object_id").Min(0).Annotations(api.Field{Min: api.Int(0)}),
		field.Int("contact_id"),
		field.Int("role_id"),
		field.String("priority").MaxRuneLen(50).Optional().Nillable().
			Annotations(api.Field{Kind: "choice", Choices: tenancy.ContactPriorities}),
		field.String("_contact_name").Default("").Annotations(api.Field{Kind: "hidden"}),
		field.String("_object_display").Default("").Annotations(api.Field{Kind: "hidden"}),
	}
}

func (ContactAssignment) Edges() []ent.Edge {
	return []ent.Edge{
		FKRequired("contact", Contact.Type, api.Protect),
		FKRequired("role", ContactRole.Type, api.Protect),
	}
}

func (ContactAssignment) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("object_type", "object_id", "contact_id", "role_id").Unique(),
		index.Fields("contact_id", "priority", "role_id", "id"),
		index.Fields("object_type", "object_id"),
	}
}

func (ContactAssignment) Hooks() []ent.Hook { return tenancy.ContactAssignmentHooks() }

func (ContactAssignment) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "tenancy_contactassignment"},
		api.Model{
			// NetBox's ContactRoleSerializer(required=False, allow_null=True).
			Metadata: map[string]api.Meta{"role": {Optional: true}},
			App:      "tenancy", Path: "contact-assignments", Verbose: "contact assignment",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:      map[string]any{"priority": ""},
			ChangeRelated: []string{"object"}, // NetBox's to_objectchange()
			GenericOnly:   true,
			Fields: []string{"id", "url", "display", "object_type", "object_id", "object", "contact", "role", "priority",
				"tags", "custom_fields", "created", "last_updated"},
			Brief:       []string{"id", "url", "display", "contact", "role", "priority"},
			DisplayFunc: api.Func(api.LogicPkg("tenancy"), "ContactAssignmentDisplay"),
			Ordering:    []string{"contact", "priority", "role", "id"},
			Unique: []api.Unique{{Fields: []string{"object_type", "object_id", "contact", "role"},
				Message: "Contact assignment with this Object type, Object id, Contact and Role already exists."}},
			Filters: []api.Filter{
				// NetBox's search: the contact's or the role's name.
				{Name: "q", Kind: "search-related", Attr: "contact.name role.name"},
				{Name: "group_id", Kind: "m2m-via", Column: "contact", Attr: "groups"},
				{Name: "group", Kind: "m2m-via", Column: "contact", Attr: "groups.slug"},
			},
		},
	}
}
