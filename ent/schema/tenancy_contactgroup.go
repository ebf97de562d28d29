package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/schema/api"
)

// ContactGroup is tenancy.ContactGroup, a tree of contact groups. Unlike
// tenant groups, only the name is unique, and only among siblings.
type ContactGroup struct{ ent.Schema }

func (ContactGroup) Mixin() []ent.Mixin { return NestedGroupMixins() }

func (ContactGroup) Edges() []ent.Edge {
	return []ent.Edge{
		ParentEdge(ContactGroup.Type),
		// The contacts in the group: the other side of their groups.
		edge.From("contacts", Contact.Type).Ref("groups"),
	}
}

func (ContactGroup) Indexes() []ent.Index {
	return []ent.Index{index.Fields("parent_id", "name").Unique()}
}

func (ContactGroup) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "tenancy_contactgroup"},
		api.Model{
			App: "tenancy", Path: "contact-groups", Verbose: "contact group",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"parent": nil},
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "parent", "description", "tags",
				"custom_fields", "created", "last_updated", "contact_count", "owner", "comments", "_depth"},
			Brief:    []string{"id", "url", "display", "name", "slug", "description", "contact_count", "_depth"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description", "comments"},
			Ordering: []string{"name"},
			Unique: []api.Unique{{Fields: []string{"parent", "name"},
				Message: "Contact group with this Parent and Name already exists."}},
			// NetBox's annotate_contacts: the distinct contacts of the group
			// and its descendants (a contact in two of them counts once).
			Counts: map[string]api.Count{"contact_count": {Table: "tenancy_contact_groups", Column: "contactgroup_id",
				Cumulative: true, Distinct: "contact_id"}},
			// The groups a contact is in.
			Filters: []api.Filter{{Name: "contact_id", Kind: "m2m-reverse", Target: "tenancy.contact", Column: "groups"}},
		},
	}
}
