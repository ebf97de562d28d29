package schema

import (
	"encoding/json"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/extras"
	"github.com/inventory/inventory/ent/schema/api"
)

// CustomField is extras.CustomField. The resource layer reads these rows
// (resource.CustomFieldsFor) to render and validate custom_fields of every
// other model, by the API field names declared here.
type CustomField struct{ ent.Schema }

func (CustomField) Mixin() []ent.Mixin { return []ent.Mixin{ChangeLogged{}, Owned{}} }

// Custom field choices.
var (
	CustomFieldType = api.C("text", "Text", "longtext", "Text (long)", "integer", "Integer",
		"decimal", "Decimal", "boolean", "Boolean (true/false)", "date", "Date", "datetime", "Date & time",
		"url", "URL", "json", "JSON", "select", "Selection", "multiselect", "Multiple selection",
		"object", "Object", "multiobject", "Multiple objects")
	CustomFieldFilterLogic = api.C("disabled", "Disabled", "loose", "Loose", "exact", "Exact")
	CustomFieldUIVisible   = api.C("always", "Always", "if-set", "If set", "hidden", "Hidden")
	CustomFieldUIEditable  = api.C("yes", "Yes", "no", "No", "hidden", "Hidden")
)

func (CustomField) Fields() []ent.Field {
	smallint := api.Field{Min: api.Int(0), Max: api.Int(32767)}
	return []ent.Field{
		field.Strings("object_types").Annotations(api.Field{Kind: "content-types", ObjectTypes: "custom_fields"}),
		field.String("type").MaxRuneLen(50).Default("text").
			Annotations(api.Field{Kind: "choice", Choices: CustomFieldType}),
		field.String("related_object_type").Optional().Nillable().Annotations(api.Field{Kind: "content-type"}),
		// data_type is derived from type by the hook below (NetBox computes
		// it in the serializer).
		field.String("data_type").Default("string").Annotations(api.Field{ReadOnly: true}),
		field.String("name").MaxRuneLen(50).NotEmpty().Unique().Validate(extras.ValidateCustomFieldName),
		field.String("label").MaxRuneLen(50).Default(""),
		field.String("group_name").MaxRuneLen(50).Default(""),
		field.String("description").MaxRuneLen(200).Default(""),
		field.Bool("required").Default(false),
		field.Bool("unique").Default(false),
		field.Int("search_weight").Default(1000).Min(0).Max(32767).Annotations(smallint),
		field.String("filter_logic").MaxRuneLen(50).Default("loose").
			Annotations(api.Field{Kind: "choice", Choices: CustomFieldFilterLogic}),
		field.String("ui_visible").MaxRuneLen(50).Default("always").
			Annotations(api.Field{Kind: "choice", Choices: CustomFieldUIVisible}),
		field.String("ui_editable").MaxRuneLen(50).Default("yes").
			Annotations(api.Field{Kind: "choice", Choices: CustomFieldUIEditable}),
		field.Bool("is_cloneable").Default(false),
		field.JSON("default", json.RawMessage{}).Optional(),
		field.JSON("related_object_filter", json.RawMessage{}).Optional(),
		field.Int("weight").Default(100).Min(0).Max(32767).Annotations(smallint),
		field.Float("validation_minimum").Optional().Nillable().Annotations(api.Field{Decimal: &api.Decimal{Digits: 16, Places: 4}}),
		field.Float("validation_maximum").Optional().Nillable().Annotations(api.Field{Decimal: &api.Decimal{Digits: 16, Places: 4}}),
		field.String("validation_regex").MaxRuneLen(500).Default(""),
		field.JSON("validation_schema", json.RawMessage{}).Optional(),
		FKField("choice_set"),
		field.Text("comments").Default(""),
	}
}

func (CustomField) Edges() []ent.Edge {
	return []ent.Edge{FK("choice_set", CustomFieldChoiceSet.Type, api.Protect)}
}

func (CustomField) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "extras_customfield"},
		api.Model{
			// data_type: NetBox's SerializerMethodField, a column here; type:
			// NetBox's ChoiceField without required=False, a default here.
			Metadata: map[string]api.Meta{"data_type": {Type: "field"}, "type": {Required: true}},
			App:      "extras", Path: "custom-fields", Verbose: "custom field",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "object_types", "type", "related_object_type",
				"data_type", "name", "label", "group_name", "description", "required", "unique", "search_weight",
				"filter_logic", "ui_visible", "ui_editable", "is_cloneable", "default", "related_object_filter",
				"weight", "validation_minimum", "validation_maximum", "validation_regex", "validation_schema",
				"choice_set", "owner", "comments", "created", "last_updated"},
			Brief:       []string{"id", "url", "display", "name", "description"},
			DisplayFunc: api.Func(api.LogicPkg("extras"), "CustomFieldDisplay"),
			Search:      []string{"name", "label", "group_name", "description"},
			Ordering:    []string{"group_name", "weight", "name"},
			// object_type: fields assigned to the given "app.model".
			Filters: []api.Filter{{Name: "object_type", Kind: "content-types-contains", Column: "object_types"}},
		},
	}
}

// Hooks keeps data_type in step with type.
func (CustomField) Hooks() []ent.Hook { return extras.CustomFieldHooks() }
