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

// DeviceBay is dcim.DeviceBay: a slot of a parent device holding one child
// device (installed_device; the child's parent_device).
type DeviceBay struct{ ent.Schema }

func (DeviceBay) Mixin() []ent.Mixin { return DeviceComponentMixins(false) }

func (DeviceBay) Fields() []ent.Field {
	return []ent.Field{
		field.Bool("enabled").Default(true),
		// A device sits in at most one bay (NetBox's OneToOneField).
		field.Int("installed_device_id").Optional().Nillable().Unique(),
		// _occupied is NetBox's property (a disabled bay counts as
		// occupied), kept by the hook from enabled and installed_device.
		field.Bool("_occupied").Default(false).Annotations(api.Field{ReadOnly: true}),
	}
}

func (DeviceBay) Edges() []ent.Edge {
	return []ent.Edge{
		FK("installed_device", Device.Type, api.SetNull),
	}
}

func (DeviceBay) Indexes() []ent.Index {
	return []ent.Index{index.Fields("device_id", "name").Unique()}
}

func (DeviceBay) Hooks() []ent.Hook { return dcim.DeviceBayHooks() }

func (DeviceBay) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_devicebay"},
		api.Model{
			App: "dcim", Path: "device-bays", Verbose: "device bay",
			Fields: []string{"id", "url", "display_url", "display", "device", "name", "label", "enabled", "description",
				"installed_device", "owner", "tags", "custom_fields", "created", "last_updated", "_occupied"},
			Brief:  []string{"id", "url", "display", "device", "name", "enabled", "description", "_occupied"},
			Unique: []api.Unique{{Fields: []string{"device", "name"}}},
		},
	}
}
