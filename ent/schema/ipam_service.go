package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/ipam"
	"github.com/inventory/inventory/ent/schema/api"
)

// Service is ipam.Service: a layer-4 service (protocol and ports) of a
// device or an FHRP group (a generic relation: virtual machines join when
// they land), optionally bound to some of its parent's IP addresses.
// Deleting the parent deletes its services.
type Service struct{ ent.Schema }

func (Service) Mixin() []ent.Mixin { return PrimaryMixins() }

func (Service) Fields() []ent.Field {
	return append([]ent.Field{
		field.String("parent_object_type").Annotations(api.Field{Types: ipam.ServiceParentTypes, OnDelete: api.Cascade, Object: "parent"}),
		field.Int("parent_object_id"),
		NameField(100),
	}, serviceBaseFields()...)
}

func (Service) Edges() []ent.Edge {
	return []ent.Edge{
		// ipaddresses: the IP addresses the service is bound to, which
		// must belong to its parent (the hook checks).
		edge.To("ipaddresses", IPAddress.Type).StorageKey(edge.Table("ipam_service_ipaddresses"),
			edge.Columns("service_id", "ipaddress_id")).Annotations(api.Field{Lookup: "address"}),
	}
}

func (Service) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("protocol", "_ports_lowest", "id"),
		index.Fields("parent_object_type", "parent_object_id"),
	}
}

func (Service) Hooks() []ent.Hook { return ipam.ServiceHooks() }

func (Service) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "ipam_service"},
		api.Model{
			// NetBox's ChoiceField(required=False); its model refuses a blank protocol.
			Metadata: map[string]api.Meta{"protocol": {Optional: true}},
			App:      "ipam", Path: "services", Verbose: "application service",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "parent_object_type", "parent_object_id", "parent",
				"name", "protocol", "ports", "ipaddresses", "description", "owner", "comments", "tags", "custom_fields",
				"created", "last_updated"},
			Brief:       []string{"id", "url", "display", "name", "protocol", "ports", "description"},
			DisplayFunc: api.Func(api.LogicPkg("ipam"), "ServiceDisplay"),
			Search:      []string{"name", "description"},
			Ordering:    []string{"protocol", "_ports_lowest", "id"},
			Filters: []api.Filter{
				{Name: "port", Kind: "json-ints-contain", Column: "ports"},
				{Name: "device_id", Kind: "generic-id", Column: "parent_object", Target: "dcim.device"},
				{Name: "device", Kind: "generic-attr", Column: "parent_object", Target: "dcim.device", Attr: "name"},
				{Name: "fhrpgroup_id", Kind: "generic-id", Column: "parent_object", Target: "ipam.fhrpgroup"},
				{Name: "virtual_machine_id", Kind: "generic-id", Column: "parent_object", Target: "virtualization.virtualmachine"},
				{Name: "virtual_machine", Kind: "generic-attr", Column: "parent_object", Target: "virtualization.virtualmachine", Attr: "name"},
				{Name: "fhrpgroup", Kind: "generic-attr", Column: "parent_object", Target: "ipam.fhrpgroup", Attr: "name"},
				{Name: "ip_address_id", Kind: "m2m-own", Column: "ipaddresses"},
				{Name: "ip_address", Kind: "m2m-attr", Column: "ipaddresses", Attr: "address"},
			},
			// The many-to-many's default filters carry NetBox's names
			// above (ip_address_id, ip_address).
			NoFilters: []string{"ipaddresse_id", "ipaddresse"},
		},
	}
}
