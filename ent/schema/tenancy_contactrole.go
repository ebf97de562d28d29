package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"

	"github.com/inventory/inventory/ent/schema/api"
)

// ContactRole is tenancy.ContactRole: the function of a contact assigned
// to an object ("Administrative", "Emergency").
type ContactRole struct{ ent.Schema }

func (ContactRole) Mixin() []ent.Mixin { return OrganizationalMixins() }

func (ContactRole) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "tenancy_contactrole"},
		api.Model{
			App: "tenancy", Path: "contact-roles", Verbose: "contact role",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "description", "owner", "comments",
				"tags", "custom_fields", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "name", "slug", "description"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description"},
			Ordering: []string{"name"},
		},
	}
}
