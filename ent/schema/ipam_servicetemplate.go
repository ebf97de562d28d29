package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/logic/ipam"
	"github.com/inventory/inventory/ent/schema/api"
)

// ServiceTemplate is ipam.ServiceTemplate: a named protocol and port list
// that services are made from.
type ServiceTemplate struct{ ent.Schema }

func (ServiceTemplate) Mixin() []ent.Mixin { return PrimaryMixins() }

func (ServiceTemplate) Fields() []ent.Field {
	return append([]ent.Field{UniqueName(100)}, serviceBaseFields()...)
}

// serviceBaseFields are NetBox's ServiceBase: the protocol, the ports (a
// list of integers between 1 and 65535) and the lowest of them, cached for
// the ordering.
func serviceBaseFields() []ent.Field {
	return []ent.Field{
		field.String("protocol").MaxRuneLen(50).Annotations(api.Field{Kind: "choice", Choices: ipam.ServiceProtocols}),
		field.JSON("ports", []int{}).Annotations(api.Field{Kind: "json", NoBlank: true,
			Min: api.Int(ipam.ServicePortMin), Max: api.Int(ipam.ServicePortMax)}),
		field.Int("_ports_lowest").Optional().Nillable().Annotations(api.Field{Kind: "hidden"}),
	}
}

func (ServiceTemplate) Hooks() []ent.Hook { return ipam.ServiceTemplateHooks() }

func (ServiceTemplate) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "ipam_servicetemplate"},
		api.Model{
			// NetBox's ChoiceField(required=False); its model refuses a blank protocol.
			Metadata: map[string]api.Meta{"protocol": {Optional: true}},
			App:      "ipam", Path: "service-templates", Verbose: "application service template",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "protocol", "ports", "description", "owner",
				"comments", "tags", "custom_fields", "created", "last_updated"},
			Brief:       []string{"id", "url", "display", "name", "protocol", "ports", "description"},
			DisplayFunc: api.Func(api.LogicPkg("ipam"), "ServiceDisplay"),
			Search:      []string{"name", "description"},
			Ordering:    []string{"name"},
			Filters: []api.Filter{
				{Name: "port", Kind: "json-ints-contain", Column: "ports"},
			},
		},
	}
}
