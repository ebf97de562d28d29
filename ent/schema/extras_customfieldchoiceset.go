package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/extras"
	"github.com/inventory/inventory/ent/schema/api"
)

// CustomFieldChoiceSet is extras.CustomFieldChoiceSet, the choices of
// select and multiselect custom fields.
type CustomFieldChoiceSet struct{ ent.Schema }

func (CustomFieldChoiceSet) Mixin() []ent.Mixin { return []ent.Mixin{ChangeLogged{}, Owned{}} }

// ChoiceSetBase are the predefined choice sets a set may extend.
var ChoiceSetBase = api.C("IATA", "IATA (Airport codes)", "ISO_3166", "ISO 3166 (Country codes)",
	"UN_LOCODE", "UN/LOCODE (Location codes)")

// ChoiceColors are the colors a choice may be given (choice_colors).
var ChoiceColors = []string{"blue", "indigo", "purple", "pink", "red", "orange", "yellow", "green", "teal", "cyan",
	"gray", "black", "white"}

func (CustomFieldChoiceSet) Fields() []ent.Field {
	return []ent.Field{
		UniqueName(100),
		field.String("description").MaxRuneLen(200).Default(""),
		field.String("base_choices").MaxRuneLen(50).Optional().Nillable().
			Annotations(api.Field{Kind: "choice", Choices: ChoiceSetBase, NoBlank: true}), // allow_null, not allow_blank
		// extra_choices is a list of [value, label] pairs.
		field.JSON("extra_choices", [][]string{}),
		field.JSON("choice_colors", map[string]any{}).Default(map[string]any{}),
		field.Bool("order_alphabetically").Default(false),
		// choices_count is kept equal to the number of base plus extra
		// choices by the schema hook (ent/logic/choicesets bundles the
		// base sets).
		field.Int("choices_count").Default(0).Annotations(api.Field{ReadOnly: true}),
	}
}

// Hooks applies NetBox's clean() and keeps choices_count up to date.
func (CustomFieldChoiceSet) Hooks() []ent.Hook { return extras.CustomFieldChoiceSetHooks() }

func (CustomFieldChoiceSet) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "extras_customfieldchoiceset"},
		api.Model{
			// NetBox declares serializers.ListField and DictField (JSON here).
			Metadata: map[string]api.Meta{"extra_choices": {Type: "list"}, "choice_colors": {Type: "nested object"}},
			App:      "extras", Path: "custom-field-choice-sets", Verbose: "custom field choice set", UI: "extras/custom-field-choices",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "description", "base_choices",
				"extra_choices", "choice_colors", "order_alphabetically", "choices_count", "owner", "created",
				"last_updated"},
			Brief: []string{"id", "url", "display", "name", "description", "choices_count"},
			// NetBox's choices action: the set's choices, searchable and
			// paginated (ent/logic/extras).
			Endpoints: []api.Endpoint{{Name: "choices", Detail: true, Ops: []api.Op{{
				Method: "GET", Permission: "view", Func: api.Func(api.LogicPkg("extras"), "ChoiceSetChoices"),
				Summary: "The choices of a choice set", Response: "page:CustomFieldChoice",
				Description: "A page of choices.", Errors: []int{404},
				Query: []api.Param{{Name: "q", Type: "string", Description: "Only choices whose value or label contains this (case-insensitive)."},
					{Name: "limit", Type: "integer", Description: "Number of results per page."},
					{Name: "offset", Type: "integer", Description: "Index of the first result."}},
			}}, Shapes: []api.Shape{{Name: "CustomFieldChoice", Props: []api.Prop{
				{Name: "id", Type: "string"}, {Name: "display", Type: "string"}}}}}},
			Display:  "{name}",
			Search:   []string{"name", "description"},
			Ordering: []string{"name"},
			// choice: sets whose extra choices hold the value; choice_colors:
			// sets with a choice of that color.
			Filters: []api.Filter{
				{Name: "choice", Kind: "choice-set-choice", Column: "extra_choices"},
				{Name: "choice_colors", Kind: "json-values-choice", Column: "choice_colors", Choices: ChoiceColors},
			},
		},
	}
}
