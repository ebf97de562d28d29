package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/schema/api"
)

// ImageAttachment is extras.ImageAttachment: an uploaded image on an
// object of any model with NetBox's "image_attachments" feature (a
// generic relation, "parent": deleting the object deletes its
// attachments, and their files). image holds the stored file's name in
// the media directory (the resource layer's image kind writes it, with
// image_width, image_height and image_size); the API shows the file's URL.
type ImageAttachment struct{ ent.Schema }

func (ImageAttachment) Mixin() []ent.Mixin { return []ent.Mixin{ChangeLogged{}} }

func (ImageAttachment) Fields() []ent.Field {
	return []ent.Field{
		field.String("object_type").Annotations(api.Field{ObjectTypes: "image_attachments", OnDelete: api.Cascade, Object: "parent"}),
		field.Int("object_id").Min(0).Annotations(api.Field{Min: api.Int(0)}),
		// Django's FileField: max_length 100.
		field.String("image").MaxRuneLen(100).Annotations(api.Field{Kind: "image"}),
		field.Int("image_height").Default(0).Annotations(api.Field{ReadOnly: true}),
		field.Int("image_width").Default(0).Annotations(api.Field{ReadOnly: true}),
		field.Int("image_size").Optional().Nillable().Annotations(api.Field{ReadOnly: true}),
		field.String("name").MaxRuneLen(50).Default(""),
		field.String("description").MaxRuneLen(200).Default(""),
	}
}

func (ImageAttachment) Indexes() []ent.Index {
	return []ent.Index{index.Fields("name", "id"), index.Fields("object_type", "object_id"), index.Fields("image")}
}

func (ImageAttachment) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "extras_imageattachment"},
		api.Model{
			App: "extras", Path: "image-attachments", Verbose: "image attachment",
			ChangeRelated: []string{"parent"}, // NetBox's to_objectchange()
			GenericOnly:   true,
			Fields: []string{"id", "url", "display", "object_type", "object_id", "parent", "name", "image", "description",
				"image_height", "image_width", "image_size", "created", "last_updated"},
			Brief:       []string{"id", "url", "display", "name", "image", "description"},
			DisplayFunc: api.Func(api.LogicPkg("extras"), "ImageAttachmentDisplay"),
			Search:      []string{"name", "image", "description"},
			Ordering:    []string{"name", "id"},
		},
	}
}
