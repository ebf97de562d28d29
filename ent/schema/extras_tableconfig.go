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

// TableConfig is extras.TableConfig: a saved choice of columns and
// ordering for one table of NetBox's UI. Seen only by its user while not
// shared (api.Model.Shared, as NetBox's SharedObjectQuerySet); user is
// the bare id, as on saved filters. NetBox checks table and columns
// against its UI's table classes, which this service has not: they are
// stored as given (README, differences).
type TableConfig struct{ ent.Schema }

func (TableConfig) Mixin() []ent.Mixin { return []ent.Mixin{ChangeLogged{}} }

func (TableConfig) Fields() []ent.Field {
	return []ent.Field{
		field.String("object_type").Annotations(api.Field{Kind: "content-type"}),
		field.String("table").MaxRuneLen(100).NotEmpty(),
		NameField(100),
		field.String("description").MaxRuneLen(200).Default(""),
		field.Int("user_id").Optional().Nillable().
			Annotations(api.Field{API: "user", Target: "users.user", OnDelete: api.SetNull, NoFilter: true}),
		field.Int("weight").Default(1000).Min(0).Max(32767).Annotations(api.Field{Min: api.Int(0), Max: api.Int(32767)}),
		field.Bool("enabled").Default(true),
		field.Bool("shared").Default(true),
		field.Strings("columns").Annotations(api.Field{Required: true, NoBlank: true}),
		field.Strings("ordering").Optional(),
	}
}

func (TableConfig) Indexes() []ent.Index {
	return []ent.Index{index.Fields("weight", "name"), index.Fields("user_id")}
}

// Hooks: the user must exist.
func (TableConfig) Hooks() []ent.Hook { return extras.TableConfigHooks() }

func (TableConfig) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "extras_tableconfig"},
		api.Model{
			App: "extras", Path: "table-configs", Verbose: "table config",
			GenericOnly: true, Shared: true,
			Fields: []string{"id", "url", "display_url", "display", "object_type", "table", "name", "description", "user", "weight",
				"enabled", "shared", "columns", "ordering", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "name", "description", "object_type", "table"},
			Display:  "{name}",
			Search:   []string{"name", "description", "table"},
			Ordering: []string{"weight", "name"},
			Filters: []api.Filter{
				{Name: "user_id", Kind: "fk-id", Column: "user_id", Target: "users.user"},
				{Name: "user", Kind: "fk-attr", Column: "user_id", Target: "users.user", Attr: "username"},
			},
		},
	}
}
