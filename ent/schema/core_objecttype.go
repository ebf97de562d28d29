package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/schema/api"
)

// ObjectType is core.ObjectType: one row per model the service serves, as
// NetBox's /api/core/object-types/ lists its content types. The rows are
// the service's own, written when the database is migrated
// (resource.SyncObjectTypes): NetBox's id, names, description, features
// and REST endpoint of each model (resource's objecttype_rows.json, from a
// NetBox 4.6.8), so ids agree with a NetBox migrated the same way. The
// endpoint is read-only, as NetBox's.
type ObjectType struct{ ent.Schema }

func (ObjectType) Fields() []ent.Field {
	ro := api.Field{ReadOnly: true}
	return []ent.Field{
		field.String("app_label").MaxRuneLen(100).Annotations(ro),
		field.String("app_name").Default("").Annotations(ro),
		// "model" is the API name; the ent name avoids ent's own Model.
		field.String("model_key").MaxRuneLen(100).Annotations(api.Field{API: "model", ReadOnly: true}),
		field.String("model_name").Default("").Annotations(ro),
		field.String("model_name_plural").Default("").Annotations(ro),
		field.Bool("public").Default(false).Annotations(ro),
		field.Strings("features").Default([]string{}).Annotations(ro),
		field.Bool("is_plugin_model").Default(false).Annotations(ro),
		field.String("rest_api_endpoint").Optional().Nillable().Annotations(ro),
		field.Text("description").Default("").Annotations(ro),
		// NetBox's display ("DCIM > MAC Address": the app's and the
		// model's verbose names, the latter title-cased its own way).
		field.String("label").Default("").Annotations(api.Field{Kind: "hidden"}),
	}
}

func (ObjectType) Indexes() []ent.Index {
	return []ent.Index{index.Fields("app_label", "model_key").Unique()}
}

func (ObjectType) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "core_objecttype"},
		api.Model{
			App: "core", Path: "object-types", Verbose: "object type", ReadOnly: true, GenericOnly: true,
			Fields: []string{"id", "url", "display", "app_label", "app_name", "model", "model_name", "model_name_plural",
				"public", "features", "is_plugin_model", "rest_api_endpoint", "description"},
			Display:  "{label}",
			Search:   []string{"app_label", "model_key"},
			Ordering: []string{"app_label", "model"},
			Unique:   []api.Unique{{Fields: []string{"app_label", "model"}}},
			// NetBox's ObjectTypeFilterSet: features=<feature> keeps the
			// types that have it.
			Filters: []api.Filter{{Name: "features", Kind: "strings-contains", Column: "features"}},
		},
	}
}
