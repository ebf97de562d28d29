package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"entgo.io/ent/schema/mixin"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// DeviceComponent is what NetBox's ComponentModel gives every component of
// a device (module bays, device bays, inventory items): the device
// (deleting it deletes the component), name, label and description, tags
// and custom fields; with Modular (ModularComponentModel) an optional
// module the component came with (deleting the module deletes it).
type DeviceComponent struct {
	mixin.Schema
	Modular bool
}

// DeviceComponentMixins are the mixins of a device component schema.
func DeviceComponentMixins(modular bool) []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, CustomFields{}, DeviceComponent{Modular: modular}, Owned{}}
}

func (c DeviceComponent) Fields() []ent.Field {
	fs := []ent.Field{field.Int("device_id")}
	if c.Modular {
		fs = append(fs, FKField("module"))
	}
	return append(fs, NaturalName(64), NaturalKeyField("name"),
		field.String("label").MaxRuneLen(64).Default(""),
		field.String("description").MaxRuneLen(200).Default(""),
		// NetBox's cached scope of a component: its device's site,
		// location and rack (cleared when those go), kept by the hook.
		CachedFK("_site", "dcim.site", api.SetNull),
		CachedFK("_location", "dcim.location", api.SetNull),
		CachedFK("_rack", "dcim.rack", api.SetNull))
}

func (DeviceComponent) Indexes() []ent.Index { return cachedScopeIndexes() }

// cachedScopeIndexes index a component's cached scope: the site,
// location and rack filters read it, and deleting one of those clears it.
func cachedScopeIndexes() []ent.Index {
	return []ent.Index{index.Fields("_site_id"), index.Fields("_location_id"), index.Fields("_rack_id")}
}

func (DeviceComponent) Hooks() []ent.Hook { return dcim.DeviceComponentHooks() }

func (c DeviceComponent) Edges() []ent.Edge {
	es := []ent.Edge{FKRequired("device", Device.Type, api.Cascade)}
	if c.Modular {
		// Only module bays are modular here: NetBox's ModuleBaySerializer
		// renders their module as ModuleSerializer(nested=True,
		// fields=(id, url, display)).
		es = append(es, ModuleFK([]string{"id", "url", "display"}))
	}
	return es
}

func (c DeviceComponent) Annotations() []schema.Annotation {
	return []schema.Annotation{api.Model{
		GenericOnly: true,
		DisplayFunc: api.Func(api.LogicPkg("dcim"), "TemplateDisplay"),
		Search:      []string{"name", "label", "description"},
		Ordering:    []string{"device", "name"},
		Filters:     DeviceComponentFilters(),
		// NetBox's ComponentModel.to_objectchange().
		ChangeRelated: []string{"device"},
	}}
}

// DeviceComponentFilters are NetBox's DeviceComponentFilterSet filters
// beyond device and device_id: the device's site (and its region and
// group), location, rack, type, role, status, tenant and virtual chassis.
func DeviceComponentFilters() []api.Filter {
	return []api.Filter{
		{Name: "region_id", Kind: "tree-id", Via: "device.site", Column: "region"},
		{Name: "region", Kind: "tree-attr", Via: "device.site", Column: "region"},
		{Name: "site_group_id", Kind: "tree-id", Via: "device.site", Column: "group"},
		{Name: "site_group", Kind: "tree-attr", Via: "device.site", Column: "group"},
		// Site, location and rack read the cached scope (NetBox's _site,
		// _location, _rack; exact, not the location's descendants).
		{Name: "site_id", Kind: "fk-id", Column: "_site_id", Target: "dcim.site"},
		{Name: "site", Kind: "fk-attr", Column: "_site_id", Target: "dcim.site", Attr: "slug"},
		{Name: "location_id", Kind: "fk-id", Column: "_location_id", Target: "dcim.location"},
		{Name: "location", Kind: "fk-attr", Column: "_location_id", Target: "dcim.location", Attr: "slug"},
		{Name: "rack_id", Kind: "fk-id", Column: "_rack_id", Target: "dcim.rack"},
		{Name: "rack", Kind: "fk-attr", Column: "_rack_id", Target: "dcim.rack", Attr: "name"},
		{Name: "device_type_id", Kind: "fk-id", Via: "device", Column: "device_type"},
		{Name: "device_type", Kind: "fk-attr", Via: "device", Column: "device_type", Attr: "model"},
		{Name: "device_role_id", Kind: "fk-id", Via: "device", Column: "role"},
		{Name: "device_role", Kind: "fk-attr", Via: "device", Column: "role"},
		{Name: "device_status", Kind: "choice", Via: "device", Column: "status", Choices: choiceValues(DeviceStatus)},
		{Name: "tenant_id", Kind: "fk-id", Via: "device", Column: "tenant"},
		{Name: "tenant", Kind: "fk-attr", Via: "device", Column: "tenant"},
		{Name: "virtual_chassis_id", Kind: "fk-id", Via: "device", Column: "virtual_chassis"},
		{Name: "virtual_chassis", Kind: "fk-attr", Via: "device", Column: "virtual_chassis", Attr: "name"},
	}
}
