package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/vpn"
	"github.com/inventory/inventory/ent/schema/api"
)

// TunnelTermination is vpn.TunnelTermination: one end of a tunnel on a
// device interface or a VM interface (a generic relation), with its role
// and outside IP address. An object terminates one tunnel at most.
// Deleting the tunnel or the interface deletes it; an outside IP in use
// is protected. The display reads the tunnel's name from a hidden copy
// (the hooks keep it).
type TunnelTermination struct{ ent.Schema }

// Mixin: NetBox's CustomFieldsMixin, TagsMixin and ChangeLoggedModel (no
// description, comments or owner).
func (TunnelTermination) Mixin() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, CustomFields{}}
}

func (TunnelTermination) Fields() []ent.Field {
	return []ent.Field{
		field.Int("tunnel_id"),
		field.String("role").MaxRuneLen(50).Default("peer").Annotations(api.Field{Kind: "choice", Choices: vpn.TerminationRoles}),
		field.String("termination_type").Annotations(api.Field{Types: vpn.TunnelTerminationTypes, OnDelete: api.Cascade}),
		field.Int("termination_id").Optional().Nillable(),
		FKField("outside_ip"),
		field.String("_tunnel_name").Default("").Annotations(api.Field{Kind: "hidden"}),
	}
}

func (TunnelTermination) Edges() []ent.Edge {
	return []ent.Edge{
		FKRequired("tunnel", Tunnel.Type, api.Cascade),
		FK("outside_ip", IPAddress.Type, api.Protect),
	}
}

func (TunnelTermination) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("termination_type", "termination_id").Unique(),
		index.Fields("tunnel_id", "role", "id"),
	}
}

func (TunnelTermination) Hooks() []ent.Hook { return vpn.TunnelTerminationHooks() }

func (TunnelTermination) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "vpn_tunneltermination"},
		api.Model{
			App: "vpn", Path: "tunnel-terminations", Model: "tunneltermination", Verbose: "tunnel termination",
			ChangeRelated: []string{"tunnel"}, // NetBox's to_objectchange()
			GenericOnly:   true,
			// NetBox's serializer requires the role on create (a ChoiceField
			// without required=False); the model's default is honoured
			// here, as for a custom field's type, and OPTIONS says
			// required as NetBox does.
			Metadata: map[string]api.Meta{"role": {Required: true}},
			Fields: []string{"id", "url", "display_url", "display", "tunnel", "role", "termination_type", "termination_id",
				"termination", "outside_ip", "tags", "custom_fields", "created", "last_updated"},
			Brief:       []string{"id", "url", "display"},
			DisplayFunc: api.Func(api.LogicPkg("vpn"), "TunnelTerminationDisplay"),
			Search:      []string{"_tunnel_name"},
			Ordering:    []string{"tunnel", "role", "id"},
			// One termination per object: the unique index backs the rule,
			// which the hook checks first with clean()'s message on
			// termination, as NetBox's full_clean() runs clean() before the
			// constraint's own message could show.
			Filters: []api.Filter{
				{Name: "interface_id", Kind: "generic-id", Column: "termination", Target: "dcim.interface"},
				{Name: "interface", Kind: "generic-attr", Column: "termination", Target: "dcim.interface", Attr: "name"},
				{Name: "vminterface_id", Kind: "generic-id", Column: "termination", Target: "virtualization.vminterface"},
				{Name: "vminterface", Kind: "generic-attr", Column: "termination", Target: "virtualization.vminterface", Attr: "name"},
			},
		},
	}
}
