package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/schema/api"
)

// Bookmark is extras.Bookmark: an object a user bookmarked, of any model
// with NetBox's "bookmarks" feature (a generic relation: deleting the
// object deletes its bookmarks, NetBox's BookmarksMixin). Like NetBox's
// plain models.Model it keeps no change records; the display is the
// object's, cached in _object_display and kept with the object.
type Bookmark struct{ ent.Schema }

func (Bookmark) Fields() []ent.Field {
	return []ent.Field{
		field.Time("created").Default(Now).Immutable().Annotations(api.Field{ReadOnly: true}),
		field.String("object_type").Annotations(api.Field{ObjectTypes: "bookmarks", OnDelete: api.Cascade}),
		field.Int("object_id").Min(0).Annotations(api.Field{Min: api.Int(0)}),
		field.Int("user_id"),
		field.String("_object_display").Default("").Annotations(api.Field{Kind: "hidden"}),
	}
}

func (Bookmark) Edges() []ent.Edge {
	return []ent.Edge{FKRequired("user", User.Type, api.Cascade)}
}

func (Bookmark) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("object_type", "object_id", "user_id").Unique(),
		index.Fields("created", "id"),
		index.Fields("user_id"),
	}
}

func (Bookmark) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "extras_bookmark"},
		api.Model{
			App: "extras", Path: "bookmarks", Verbose: "bookmark",
			GenericOnly: true,
			Fields:      []string{"id", "url", "display", "object_type", "object_id", "object", "user", "created"},
			Brief:       []string{"id", "url", "display", "object_id", "object_type"},
			DisplayFunc: api.Func(api.LogicPkg("extras"), "BookmarkDisplay"),
			Ordering:    []string{"created", "id"},
			Unique: []api.Unique{{Fields: []string{"object_type", "object_id", "user"},
				Message: "Bookmark with this Object type, Object id and User already exists."}},
		},
	}
}
