package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/extras"
	"github.com/inventory/inventory/ent/schema/api"
)

// CustomLink is extras.CustomLink: a link to an external representation of
// objects of the given types. link_text and link_url are Jinja code that
// NetBox's UI renders with the object; they are stored as text and, unlike
// NetBox, must parse when saved (Hooks).
type CustomLink struct{ ent.Schema }

func (CustomLink) Mixin() []ent.Mixin { return []ent.Mixin{ChangeLogged{}, Owned{}} }

// CustomLinkButtonClass are NetBox's CustomLinkButtonClassChoices
// (ButtonColorChoices and the plain link), rendered as the bare value.
var CustomLinkButtonClass = api.C("default", "Default", "blue", "Blue", "indigo", "Indigo", "purple", "Purple",
	"pink", "Pink", "red", "Red", "orange", "Orange", "yellow", "Yellow", "green", "Green", "teal", "Teal",
	"cyan", "Cyan", "gray", "Gray", "black", "Black", "white", "White", "ghost-dark", "Link")

func (CustomLink) Fields() []ent.Field {
	return []ent.Field{
		field.Strings("object_types").Annotations(api.Field{Kind: "content-types", ObjectTypes: "custom_links"}),
		UniqueName(100),
		field.Bool("enabled").Default(true),
		field.Text("link_text").NotEmpty(),
		field.Text("link_url").NotEmpty(),
		field.Int("weight").Default(100).Min(0).Max(32767).Annotations(api.Field{Min: api.Int(0), Max: api.Int(32767)}),
		field.String("group_name").MaxRuneLen(50).Default(""),
		field.String("button_class").MaxRuneLen(30).Default("default").Annotations(api.Field{Choices: CustomLinkButtonClass}),
		field.Bool("new_window").Default(false),
	}
}

// Hooks: link_text and link_url must parse as templates.
func (CustomLink) Hooks() []ent.Hook { return extras.CustomLinkHooks() }

// Indexes: NetBox's index on the default ordering.
func (CustomLink) Indexes() []ent.Index {
	return []ent.Index{index.Fields("group_name", "weight", "name")}
}

func (CustomLink) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "extras_customlink"},
		api.Model{
			App: "extras", Path: "custom-links", Verbose: "custom link",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "object_types", "name", "enabled", "link_text", "link_url",
				"weight", "group_name", "button_class", "new_window", "owner", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "name"},
			Display:  "{name}",
			Search:   []string{"name", "link_text", "link_url", "group_name"},
			Ordering: []string{"group_name", "weight", "name"},
			// Links for a given "app.model" (CustomLinkFilterSet's
			// object_type over object_types).
			// link_text and link_url are text, which has no filters by
			// default; NetBox's filterset lists them.
			Filters: []api.Filter{{Name: "object_type", Kind: "content-types-contains", Column: "object_types"},
				{Name: "link_text", Kind: "string", Column: "link_text"},
				{Name: "link_url", Kind: "string", Column: "link_url"}},
		},
	}
}
