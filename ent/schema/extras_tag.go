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
// The resource layer writes and deletes the rows (ent/resource/tags.go:
// an object's tags, add_tags and remove_tags; deleteTagged when the object
// goes, after its change record has listed them); the API serves them
// read-only at /api/extras/tagged-objects/, as NetBox's TaggedItemViewSet.
// The tagged object is no declared cascade (api.Field.OnDelete) for that
// reason: the generic delete would remove the rows before the snapshot.
type TaggedItem struct{ ent.Schema }

func (TaggedItem) Fields() []ent.Field {
	return []ent.Field{
		field.Int("tag_id"),
		field.String("object_type").Annotations(api.Field{ObjectTypes: "tags", ReadOnly: true}),
		field.Int("object_id").Annotations(api.Field{ReadOnly: true}),
	}
}

func (TaggedItem) Edges() []ent.Edge {
	return []ent.Edge{edge.To("tag", Tag.Type).Field("tag_id").Unique().Required().
		Annotations(OnDelete(api.Cascade, api.Field{ReadOnly: true})...)}
}

func (TaggedItem) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("object_type", "object_id", "tag_id").Unique(),
		index.Fields("tag_id"),
	}
}

func (TaggedItem) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "extras_taggeditem"},
		api.Model{
			App: "extras", Path: "tagged-objects", Verbose: "tagged item", ReadOnly: true,
			Fields: []string{"id", "url", "display", "object_type", "object_id", "object", "tag"},
			Brief:  []string{"id", "url", "display", "object_type", "object_id", "object", "tag"},
			// taggit's TaggedItemBase.__str__; the object and the tag show
			// as their own displays, loaded with the page.
			Display: "{object} tagged with {tag}",
			// NetBox's TaggedItemViewSet orders by tag__weight, tag__name.
			Ordering: []string{"tag__weight", "tag__name"},
			Filters: []api.Filter{
				// MultiValueContentTypeFilter: "app.model" with the
				// string lookups.
				{Name: "object_type", Kind: "string", Column: "object_type"},
				// TaggedItemFilterSet.search: the tag's name, slug or
				// description.
				{Name: "q", Kind: "search-via", Via: "tag", Attr: "name,slug,description"},
			},
		},
	}
}
