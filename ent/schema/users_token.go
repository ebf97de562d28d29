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

// Token is users.Token. The secret ("token") is accepted on create, stored
// only as an HMAC digest, and shown once in the creating response; the hook
// that does so is registered on the client by the server, which holds the
// configured peppers.
type Token struct{ ent.Schema }

func (Token) Fields() []ent.Field {
	return []ent.Field{
		// NetBox's token serializer renders version as the plain integer
		// (pynetbox's create_token compares it with 2).
		field.Int("version").Default(2).
			Annotations(api.Field{CreateOnly: true, Choices: []api.Choice{{Value: 1, Label: "v1"}, {Value: 2, Label: "v2"}}}),
		field.String("key").Optional().Nillable().Unique().MaxRuneLen(12).Annotations(api.Field{ReadOnly: true}),
		field.Int("user_id").Annotations(api.Field{CreateOnly: true}),
		field.String("description").MaxRuneLen(200).Default(""),
		field.Time("created").Default(Now).Immutable().Annotations(api.Field{ReadOnly: true}),
		field.Time("expires").Optional().Nillable(),
		field.Time("last_used").Optional().Nillable().Annotations(api.Field{ReadOnly: true}),
		field.Bool("enabled").Default(true),
		field.Bool("write_enabled").Default(true),
		// Every digest is keyed here, v1 ones too, so every token keeps
		// its pepper id; NetBox's v1 tokens have none (null).
		field.Int("pepper_id").Optional().Nillable().Annotations(api.Field{ReadOnly: true, NullWhen: "version=1"}),
		field.Strings("allowed_ips").Default([]string{}).Annotations(api.Field{Kind: "allowed-ips"}),
		// token is the one-time secret: never stored (the hook moves it into
		// digest), revealed only in the response to the creating request.
		field.String("token").Optional().Nillable().Sensitive().Annotations(api.Field{Kind: "secret", CreateOnly: true}),
		field.String("digest").Default("").Sensitive(),
		field.String("last6").Default("").Sensitive().Annotations(api.Field{Kind: "hidden"}),
	}
}

func (Token) Edges() []ent.Edge {
	// NetBox's user filter matches the username.
	return []ent.Edge{edge.To("user", User.Type).Field("user_id").Unique().Required().
		Annotations(OnDelete(api.Cascade, api.Field{Lookup: "username"})...)}
}

func (Token) Indexes() []ent.Index {
	return []ent.Index{index.Fields("digest")}
}

func (Token) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "users_token"},
		api.Model{
			// Model fields of NetBox's ModelSerializer, writable there; kept by
			// the server here.
			Metadata: map[string]api.Meta{"last_used": {Writable: true}, "pepper_id": {Writable: true}},
			App:      "users", Path: "tokens", Verbose: "token",
			Fields: []string{"id", "url", "display_url", "display", "version", "key", "user", "description", "created",
				"expires", "last_used", "enabled", "write_enabled", "pepper_id", "allowed_ips", "token"},
			Brief:       []string{"id", "url", "display", "version", "key", "enabled", "write_enabled", "description"},
			DisplayFunc: api.Func(api.LogicPkg("users"), "TokenDisplay"),
			Search:      []string{"key", "description"},
			Ordering:    []string{"-created"},
			// Token provisioning (SPEC.md §4.13): username and password in,
			// a new token out; needs no token, and the user it acts for
			// must be allowed to add tokens (checked by the handler).
			Endpoints: []api.Endpoint{{Name: "provision", Ops: []api.Op{{
				Method: "POST", Permission: api.PermPublic, Handler: "users.tokens.provision",
				Summary: "Create a token with a username and password", Request: "TokenProvisionRequest",
				Response: "Token", Status: 201, Description: "The new token; its secret is shown only here.",
				Errors: []int{400},
			}}}},
		},
	}
}
