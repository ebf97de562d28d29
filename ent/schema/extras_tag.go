package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/schema/api"
)

// Tag is extras.Tag. Assignments live in TaggedItem, one generic table for
// every taggable model.
type Tag struct{ ent.Schema }

// NetBox 4.6's Tag has an owner, which its serializer does not show: the
// column and the owner filters are there, the API field is not.
func (Tag) Mixin() []ent.Mixin { return []ent.Mixin{ChangeLogged{}, Owned{Hidden: true}} }

func (Tag) Edges() []ent.Edge { return []ent.Edge{configContextsOf("tags")} }

func (Tag) Fields() []ent.Field {
	return []ent.Field{
		UniqueName(100), UniqueSlug(),
		field.String("color").MaxRuneLen(6).Default("9e9e9e").Annotations(api.Field{Kind: "color"}),
		field.String("description").MaxRuneLen(200).Default(""),
		field.Int("weight").Default(1000).Min(0).Max(32767),
		field.Strings("object_types").Default([]string{}).Annotations(api.Field{Kind: "content-types", ObjectTypes: "tags"}),
	}
}

func (Tag) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "extras_tag"},
		api.Model{
			App: "extras", Path: "tags", Verbose: "tag",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "color", "description", "weight",
				"object_types", "tagged_items", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "name", "slug", "color", "description"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description"},
			Ordering: []string{"weight", "name"},
			Counts:   map[string]api.Count{"tagged_items": {Table: "extras_taggeditem", Column: "tag_id"}},
			// content_type: tags applied to objects of the given types
			// ("app.model"), as NetBox's TagFilterSet._content_type.
			Filters: []api.Filter{{Name: "content_type", Kind: "tagged-type"}},
		},
	}
}

// TaggedItem assigns a tag to any taggable object by content type and id.
// It is not served on its own endpoint yet.
type TaggedItem struct{ ent.Schema }

func (TaggedItem) Fields() []ent.Field {
	return []ent.Field{
		field.Int("tag_id"),
		field.String("object_type"),
		field.Int("object_id"),
	}
}

func (TaggedItem) Edges() []ent.Edge {
	return []ent.Edge{FKRequired("tag", Tag.Type, api.Cascade)}
}

func (TaggedItem) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("object_type", "object_id", "tag_id").Unique(),
		index.Fields("tag_id"),
	}
}

func (TaggedItem) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Annotation{Table: "extras_taggeditem"}}
}
