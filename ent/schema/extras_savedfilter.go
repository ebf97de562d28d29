package schema

import (
	"encoding/json"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/extras"
	"github.com/inventory/inventory/ent/schema/api"
)

// SavedFilter is extras.SavedFilter: named filter parameters for object
// lists. Like NetBox's SharedObjectQuerySet, a saved filter is seen only
// by its user while not shared (api.Model.Shared); user is rendered as
// the bare id (NetBox's PrimaryKeyRelatedField), a plain column whose
// rows keep going when the user does (SET_NULL).
type SavedFilter struct{ ent.Schema }

func (SavedFilter) Mixin() []ent.Mixin { return []ent.Mixin{ChangeLogged{}, Owned{}} }

func (SavedFilter) Fields() []ent.Field {
	return []ent.Field{
		// Every object type, as NetBox's ObjectType.objects.all().
		field.Strings("object_types").Annotations(api.Field{Kind: "content-types"}),
		UniqueName(100),
		UniqueSlug(),
		field.String("description").MaxRuneLen(200).Default(""),
		field.Int("user_id").Optional().Nillable().
			Annotations(api.Field{API: "user", Target: "users.user", OnDelete: api.SetNull, NoFilter: true}),
		field.Int("weight").Default(100).Min(0).Max(32767).Annotations(api.Field{Min: api.Int(0), Max: api.Int(32767)}),
		field.Bool("enabled").Default(true),
		field.Bool("shared").Default(true),
		field.JSON("parameters", json.RawMessage{}).Annotations(api.Field{Kind: "json", Required: true, NoBlank: true}),
	}
}

// Indexes: NetBox's index on the default ordering; user_id as Django
// indexes every ForeignKey (the visibility rule and user deletes read it).
func (SavedFilter) Indexes() []ent.Index {
	return []ent.Index{index.Fields("weight", "name"), index.Fields("user_id")}
}

// Hooks: the user must exist; parameters must be an object (NetBox's
// clean()).
func (SavedFilter) Hooks() []ent.Hook { return extras.SavedFilterHooks() }

func (SavedFilter) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "extras_savedfilter"},
		api.Model{
			App: "extras", Path: "saved-filters", Verbose: "saved filter",
			GenericOnly: true, Shared: true,
			Fields: []string{"id", "url", "display_url", "display", "object_types", "name", "slug", "description", "user", "weight",
				"enabled", "shared", "parameters", "owner", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "name", "slug", "description"},
			Display:  "{name}",
			Search:   []string{"name", "description"},
			Ordering: []string{"weight", "name"},
			Filters: []api.Filter{
				{Name: "object_type", Kind: "content-types-contains", Column: "object_types"},
				{Name: "user_id", Kind: "fk-id", Column: "user_id", Target: "users.user"},
				{Name: "user", Kind: "fk-attr", Column: "user_id", Target: "users.user", Attr: "username"},
			},
		},
	}
}
