package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// MACAddress is dcim.MACAddress: a MAC address, optionally assigned to an
// interface or a virtual machine's interface (a generic relation);
// deleting the interface deletes its MAC addresses.
type MACAddress struct{ ent.Schema }

func (MACAddress) Mixin() []ent.Mixin { return PrimaryMixins() }

// macAssignedTypes are the objects a MAC address may be assigned to.
var macAssignedTypes = []string{"dcim.interface", "virtualization.vminterface"}

func (MACAddress) Fields() []ent.Field {
	return []ent.Field{
		// Stored as NetBox renders it: upper case, colons (the mac kind
		// reads any notation).
		field.String("mac_address").MaxRuneLen(17).Annotations(api.Field{Kind: "mac"}),
		field.String("assigned_object_type").Optional().Nillable().Annotations(api.Field{Types: macAssignedTypes, OnDelete: api.Cascade}),
		field.Int("assigned_object_id").Optional().Nillable(),
	}
}

func (MACAddress) Indexes() []ent.Index {
	return []ent.Index{index.Fields("assigned_object_type", "assigned_object_id"), index.Fields("mac_address")}
}

func (MACAddress) Hooks() []ent.Hook { return dcim.MACAddressHooks() }

func (MACAddress) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_macaddress"},
		api.Model{
			App: "dcim", Path: "mac-addresses", Verbose: "MAC address",
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "mac_address", "assigned_object_type",
				"assigned_object_id", "assigned_object", "description", "owner", "comments", "tags", "custom_fields",
				"created", "last_updated"},
			Brief:    []string{"id", "url", "display", "mac_address", "description"},
			Display:  "{mac_address}",
			Search:   []string{"mac_address", "description", "comments"},
			Ordering: []string{"mac_address", "id"},
			Filters: []api.Filter{
				{Name: "mac_address", Kind: "mac"},
				{Name: "interface_id", Kind: "assigned-interface", Attr: "id"},
				{Name: "interface", Kind: "assigned-interface", Attr: "name"},
				{Name: "device_id", Kind: "assigned-interface", Attr: "device_id"},
				{Name: "device", Kind: "assigned-interface", Attr: "device"},
				{Name: "vminterface_id", Kind: "assigned-interface", Attr: "id", Target: "virtualization.vminterface"},
				{Name: "vminterface", Kind: "assigned-interface", Attr: "name", Target: "virtualization.vminterface"},
				{Name: "virtual_machine_id", Kind: "assigned-interface", Attr: "device_id", Target: "virtualization.vminterface"},
				{Name: "virtual_machine", Kind: "assigned-interface", Attr: "device", Target: "virtualization.vminterface"},
				{Name: "assigned", Kind: "mac-assigned"},
				{Name: "primary", Kind: "mac-primary"},
			},
		},
	}
}
