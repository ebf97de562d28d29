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

// VirtualDisk is virtualization.VirtualDisk: a disk of a virtual machine,
// its size in MB. The hooks keep the VM's disk the sum of its disks
// (NetBox's update_virtualmachine_disk signal).
type VirtualDisk struct{ ent.Schema }

func (VirtualDisk) Mixin() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, CustomFields{}, Owned{}}
}

func (VirtualDisk) Fields() []ent.Field {
	return []ent.Field{
		field.Int("virtual_machine_id"),
		NaturalName(64), NaturalKeyField("name"),
		field.String("description").MaxRuneLen(200).Default(""),
		field.Int("size").Min(0).Max(maxPositiveInt).Annotations(api.Field{Min: api.Int(0), Max: api.Int(maxPositiveInt)}),
	}
}

func (VirtualDisk) Edges() []ent.Edge {
	return []ent.Edge{FKRequired("virtual_machine", VirtualMachine.Type, api.Cascade)}
}

func (VirtualDisk) Indexes() []ent.Index {
	return []ent.Index{index.Fields("virtual_machine_id", "name").Unique()}
}

func (VirtualDisk) Hooks() []ent.Hook { return virtualization.VirtualDiskHooks() }

func (VirtualDisk) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "virtualization_virtualdisk"},
		api.Model{
			App: "virtualization", Path: "virtual-disks", Verbose: "virtual disk",
			ChangeRelated: []string{"virtual_machine"}, // NetBox's to_objectchange()
			GenericOnly:   true,
			Fields: []string{"id", "url", "display_url", "display", "virtual_machine", "name", "description", "size",
				"owner", "tags", "custom_fields", "created", "last_updated"},
			Brief:    []string{"id", "url", "display", "virtual_machine", "name", "description", "size"},
			Display:  "{name}",
			Search:   []string{"name", "description"},
			Ordering: []string{"virtual_machine", "name"},
			Unique:   []api.Unique{{Fields: []string{"virtual_machine", "name"}}},
			Filters: []api.Filter{
				{Name: "virtual_machine", Kind: "fk-attr", Column: "virtual_machine_id", Target: "virtualization.virtualmachine", Attr: "name"},
			},
		},
	}
}
