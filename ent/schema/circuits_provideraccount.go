package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/circuits"
	"github.com/inventory/inventory/ent/schema/api"
)

// ProviderAccount is circuits.ProviderAccount: an account with a provider,
// unique per provider (and so is its name, unless blank: the hook).
type ProviderAccount struct{ ent.Schema }

func (ProviderAccount) Mixin() []ent.Mixin { return PrimaryMixins() }

func (ProviderAccount) Fields() []ent.Field {
	return []ent.Field{
		field.Int("provider_id"),
		field.String("name").MaxRuneLen(100).Default(""),
		field.String("account").MaxRuneLen(100).NotEmpty(),
	}
}

func (ProviderAccount) Edges() []ent.Edge {
	return []ent.Edge{FKRequired("provider", Provider.Type, api.Protect)}
}

func (ProviderAccount) Indexes() []ent.Index {
	return []ent.Index{index.Fields("provider_id", "account").Unique()}
}

func (ProviderAccount) Hooks() []ent.Hook { return circuits.ProviderAccountHooks() }

func (ProviderAccount) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "circuits_provideraccount"},
		api.Model{
			App: "circuits", Path: "provider-accounts", Verbose: "provider account",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"name": ""},
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "provider", "name", "account", "description", "owner",
				"comments", "tags", "custom_fields", "created", "last_updated"},
			Brief:       []string{"id", "url", "display", "name", "account", "description"},
			DisplayFunc: api.Func(api.LogicPkg("circuits"), "ProviderAccountDisplay"),
			Search:      []string{"name", "description", "account", "comments"},
			Ordering:    []string{"provider", "account"},
			Unique: []api.Unique{{Fields: []string{"provider", "account"},
				Message: "Provider account with this Provider and Account ID already exists."}},
		},
	}
}
