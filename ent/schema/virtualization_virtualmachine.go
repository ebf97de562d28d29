package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/virtualization"
	"github.com/inventory/inventory/ent/schema/api"
)

// VirtualMachine is virtualization.VirtualMachine: a virtual machine at a
// site, in a cluster (optionally pinned to one of its hosts) or on a
// standalone device, as VirtualMachine.clean() requires; the site follows
// the cluster or device when not given. disk is the sum of its virtual
// disks when it has any; the primary IPv4 and IPv6 addresses sit on its
// interfaces (or are the NAT outside of one that does).
type VirtualMachine struct{ ent.Schema }

func (VirtualMachine) Mixin() []ent.Mixin { return PrimaryMixins() }

// Choices of a virtual machine's status and start on boot.
var (
	VirtualMachineStatus = api.C("offline", "Offline", "active", "Active", "planned", "Planned", "staged", "Staged",
		"failed", "Failed", "decommissioning", "Decommissioning", "paused", "Paused")
	VirtualMachineStartOnBoot = api.C("on", "On", "off", "Off", "laststate", "Last State")
)

func (VirtualMachine) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").MaxRuneLen(64).NotEmpty().Annotations(api.Field{Natural: true}),
		NaturalKeyField("name"),
		FKField("virtual_machine_type"), FKField("role"),
		field.String("status").MaxRuneLen(50).Default("active").
			Annotations(api.Field{Kind: "choice", Choices: VirtualMachineStatus}),
		field.String("start_on_boot").MaxRuneLen(32).Default("off").
			Annotations(api.Field{Kind: "choice", Choices: VirtualMachineStartOnBoot}),
		FKField("site"), FKField("cluster"), FKField("device"), FKField("platform"),
		FKField("primary_ip4"), FKField("primary_ip6"),
		FKField("config_template"),
		field.Float("vcpus").Optional().Nillable().Annotations(api.Field{Decimal: &VCPUs}),
		field.Int("memory").Optional().Nillable().Min(0).Max(maxPositiveInt).
			Annotations(api.Field{Min: api.Int(0), Max: api.Int(maxPositiveInt)}),
		field.Int("disk").Optional().Nillable().Min(0).Max(maxPositiveInt).
			Annotations(api.Field{Min: api.Int(0), Max: api.Int(maxPositiveInt)}),
		field.String("serial").MaxRuneLen(50).Default(""),
		FKField("tenant"),
		field.JSON("local_context_data", map[string]any{}).Optional().Annotations(api.Field{Kind: "json"}),
	}
}

func (VirtualMachine) Edges() []ent.Edge {
	return []ent.Edge{
		FK("virtual_machine_type", VirtualMachineType.Type, api.Protect),
		FK("role", DeviceRole.Type, api.Protect),
		FK("site", Site.Type, api.Protect),
		FK("cluster", Cluster.Type, api.Protect),
		FK("device", Device.Type, api.Protect),
		FK("platform", Platform.Type, api.SetNull),
		FK("tenant", Tenant.Type, api.Protect),
		ipFK("primary_ip4"), ipFK("primary_ip6"),
		FK("config_template", ConfigTemplate.Type, api.Protect),
	}
}

func (VirtualMachine) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("_name_natural", "id"),
		index.Fields("cluster_id"), index.Fields("site_id"), index.Fields("device_id"),
		index.Fields("primary_ip4_id").Unique(), index.Fields("primary_ip6_id").Unique(),
	}
}

// Hooks: VirtualMachine.clean() and save() (placement, the type's
// defaults, the disk, the config context, the clusters' allocations) and
// the primary IP addresses (ent/logic/virtualization).
func (VirtualMachine) Hooks() []ent.Hook { return virtualization.VirtualMachineHooks() }

func (VirtualMachine) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "virtualization_virtualmachine"},
		api.Model{
			App: "virtualization", Path: "virtual-machines", Verbose: "virtual machine",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"virtual_machine_type": nil, "site": nil, "cluster": nil, "device": nil, "tenant": nil, "config_template": nil},
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "virtual_machine_type", "role", "status",
				"start_on_boot", "site", "cluster", "device", "platform", "primary_ip", "primary_ip4", "primary_ip6",
				"vcpus", "memory", "disk", "description", "serial", "tenant", "owner", "comments", "tags",
				"local_context_data", "config_template", "custom_fields", "created", "last_updated",
				"interface_count", "virtual_disk_count", "config_context"},
			Brief:    []string{"id", "url", "display", "name", "description"},
			Display:  "{name}",
			Search:   []string{"name", "description", "serial", "comments"},
			Ordering: []string{"name", "id"},
			Unique: []api.Unique{
				{Fields: []string{"name", "cluster", "tenant"}, IgnoreCase: true, Message: "Virtual machine name must be unique per cluster and tenant."},
				{Fields: []string{"name", "cluster"}, WhenNull: []string{"tenant"}, IgnoreCase: true, Message: "Virtual machine name must be unique per cluster."},
				{Fields: []string{"name", "device", "tenant"}, WhenNull: []string{"cluster"}, IgnoreCase: true, Message: "Virtual machine name must be unique per device and tenant."},
				{Fields: []string{"name", "device"}, WhenNull: []string{"cluster", "tenant"}, IgnoreCase: true, Message: "Virtual machine name must be unique per device."},
				{Fields: []string{"primary_ip4"}, Message: "virtual machine with this primary IPv4 already exists."},
				{Fields: []string{"primary_ip6"}, Message: "virtual machine with this primary IPv6 already exists."},
			},
			Counts: map[string]api.Count{
				"interface_count":    {Model: "virtualization.vminterface", Column: "virtual_machine_id", Cached: true},
				"virtual_disk_count": {Model: "virtualization.virtualdisk", Column: "virtual_machine_id", Cached: true},
			},
			// primary_ip: the IPv6 primary address, else the IPv4 one.
			Coalesce: map[string][]string{"primary_ip": {"primary_ip6", "primary_ip4"}},
			// NetBox's RenderConfigMixin (extras_configtemplate.go).
			Endpoints: []api.Endpoint{renderConfig("RenderVirtualMachineConfig")},
			// config_context: the config contexts that apply merged with
			// local_context_data on top, computed per page at read time.
			Computed: map[string]*api.FuncRef{"config_context": api.Func(api.LogicPkg("extras"), "ConfigContexts")},
			Filters: append(append(TenancyFilters(), SiteTreeFilters()...),
				api.Filter{Name: "cluster_group_id", Kind: "fk-id", Via: "cluster", Column: "group"},
				api.Filter{Name: "cluster_group", Kind: "fk-attr", Via: "cluster", Column: "group"},
				api.Filter{Name: "cluster_type_id", Kind: "fk-id", Via: "cluster", Column: "type"},
				api.Filter{Name: "cluster_type", Kind: "fk-attr", Via: "cluster", Column: "type"},
				api.Filter{Name: "cluster", Kind: "fk-attr", Column: "cluster_id", Target: "virtualization.cluster", Attr: "name"},
				api.Filter{Name: "device", Kind: "fk-attr", Column: "device_id", Target: "dcim.device", Attr: "name"},
				api.Filter{Name: "local_context_data", Kind: "is-set", Column: "local_context_data"},
				api.Filter{Name: "mac_address", Kind: "assigned-mac", Target: "virtualization.vminterface", Column: "virtual_machine_id"},
				api.Filter{Name: "has_primary_ip", Kind: "any-set", Column: "primary_ip4_id,primary_ip6_id"},
				api.Filter{Name: "interface_count", Kind: "related-count", Column: "interface_count"},
				api.Filter{Name: "virtual_disk_count", Kind: "related-count", Column: "virtual_disk_count"},
			),
		},
	}
}
