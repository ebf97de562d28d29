package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"

	"github.com/inventory/inventory/ent/schema/api"
)

// Tenant is tenancy.Tenant.
type Tenant struct{ ent.Schema }

func (Tenant) Mixin() []ent.Mixin { return PrimaryMixins() }

func (Tenant) Fields() []ent.Field {
	return []ent.Field{NaturalName(100), NaturalKeyField("name"), SlugField(), FKField("group")}
}

func (Tenant) Edges() []ent.Edge {
	return []ent.Edge{configContextsOf("tenants"), FK("group", TenantGroup.Type, api.SetNull)}
}

func (Tenant) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "tenancy_tenant"},
		api.Model{
			App: "tenancy", Path: "tenants", Verbose: "tenant",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults: map[string]any{"group": nil},
			Fields: []string{"id", "url", "display_url", "display", "name", "slug", "group", "description", "owner",
				"comments", "tags", "custom_fields", "created", "last_updated", "circuit_count", "device_count",
				"ipaddress_count", "prefix_count", "rack_count", "site_count", "virtualmachine_count", "vlan_count",
				"vrf_count", "cluster_count"},
			Brief:    []string{"id", "url", "display", "name", "slug", "description"},
			Display:  "{name}",
			Search:   []string{"name", "slug", "description", "comments"},
			Ordering: []string{"name"},
			Unique: []api.Unique{
				{Fields: []string{"group", "name"}, Message: "Tenant name must be unique per group."},
				// NetBox's single-field constraints get no message of their
				// own: DRF's UniqueValidator on the field answers with the
				// model field's ("tenant with this name already exists.").
				{Fields: []string{"name"}, WhenNull: []string{"group"}},
				{Fields: []string{"group", "slug"}, Message: "Tenant slug must be unique per group."},
				{Fields: []string{"slug"}, WhenNull: []string{"group"}},
			},
			Counts: map[string]api.Count{
				"device_count": {Model: "dcim.device", Column: "tenant_id"},
				"site_count":   {Model: "dcim.site", Column: "tenant_id"},
				// NetBox 4.6.8 counts the tenant's racks (its answers on the
				// demo data: testdata/netbox-demo), not a constant 0.
				"rack_count":           {Model: "dcim.rack", Column: "tenant_id"},
				"vlan_count":           {Model: "ipam.vlan", Column: "tenant_id"},
				"vrf_count":            {Model: "ipam.vrf", Column: "tenant_id"},
				"prefix_count":         {Model: "ipam.prefix", Column: "tenant_id"},
				"ipaddress_count":      {Model: "ipam.ipaddress", Column: "tenant_id"},
				"circuit_count":        {Model: "circuits.circuit", Column: "tenant_id"},
				"virtualmachine_count": {Model: "virtualization.virtualmachine", Column: "tenant_id"},
				"cluster_count":        {Model: "virtualization.cluster", Column: "tenant_id"},
			},
		},
	}
}
