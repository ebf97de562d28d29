package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"entgo.io/ent/schema/mixin"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/schema/api"
)

// Component is what every device component shares: NetBox's ComponentModel
// and ModularComponentModel (a device, name, label, description) and
// CabledObjectModel's mark_connected with the cached _occupied. Components
// are NetBox models: change-logged, tagged, with custom fields. Names are
// unique per device; deleting the device deletes its components.
type Component struct{ mixin.Schema }

// ComponentMixins are the mixins of a component schema.
func ComponentMixins() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, CustomFields{}, Component{}, Owned{}}
}

func (Component) Fields() []ent.Field {
	return append([]ent.Field{
		field.Int("device_id"), FKField("module"),
		NaturalName(64), NaturalKeyField("name"),
		field.String("label").MaxRuneLen(64).Default(""),
		field.String("description").MaxRuneLen(200).Default(""),
		field.Bool("mark_connected").Default(false),
		// _occupied is NetBox's property mark_connected or cable: kept by
		// dcim.ComponentCacheHooks and the cable hooks.
		field.Bool("_occupied").Default(false).Annotations(api.Field{ReadOnly: true}),
		// NetBox caches the device's site, location and rack on every
		// component (filled on create; a component never changes device).
		CachedFK("_site", "dcim.site", api.SetNull),
		CachedFK("_location", "dcim.location", api.SetNull),
		CachedFK("_rack", "dcim.rack", api.SetNull),
	}, CabledFields()...)
}

func (Component) Edges() []ent.Edge {
	return []ent.Edge{FKRequired("device", Device.Type, api.Cascade), ModuleFK(NestedComponentModuleForm), CableEdge()}
}

// NestedComponentModuleForm is how NetBox's cabled components render their
// module: ModuleSerializer(nested=True, fields=(id, url, display, device,
// module_bay)).
var NestedComponentModuleForm = []string{"id", "url", "display", "device", "module_bay"}

// ModuleFK is a component's module, rendered in the form its NetBox
// serializer names (fields=...).
func ModuleFK(form []string) ent.Edge {
	return edge.To("module", Module.Type).Field("module_id").Unique().
		Annotations(OnDelete(api.Cascade, api.Field{Nested: form})...)
}

func (Component) Indexes() []ent.Index {
	return append(cachedScopeIndexes(), index.Fields("device_id", "name").Unique(), index.Fields("cable_id"))
}

// CabledFields are NetBox's CabledObjectModel columns beside
// mark_connected: the cable (CableEdge), its end, and the connector and
// positions a cable profile assigns, all written by the cable hooks only.
func CabledFields() []ent.Field {
	return []ent.Field{
		FKField("cable"),
		field.String("cable_end").MaxRuneLen(1).Optional().Nillable().
			Annotations(api.Field{Choices: CableEnd, ReadOnly: true}),
		field.Int("cable_connector").Optional().Nillable().Annotations(api.Field{Kind: "hidden"}),
		field.JSON("cable_positions", []int{}).Optional().Annotations(api.Field{Kind: "hidden"}),
	}
}

// CableEdge is a cabled object's cable: rendered nested, read-only; a
// deleted cable's ends are cleared by the cable's delete hook, without
// change records of their own (NetBox's related_name='+' and the update()
// of nullify_connected_endpoints).
func CableEdge() ent.Edge {
	return edge.To("cable", Cable.Type).Field("cable_id").Unique().
		Annotations(OnDelete(api.SetNull, api.Field{ReadOnly: true, NoReverse: true, ClearedByHooks: true})...)
}

func (Component) Hooks() []ent.Hook { return dcim.ComponentCacheHooks() }

func (Component) Annotations() []schema.Annotation {
	return []schema.Annotation{api.Model{
		GenericOnly: true,
		// NetBox's SerializerMethodField (CabledObjectSerializer), a
		// cached column here.
		Metadata:    map[string]api.Meta{"_occupied": {Type: "field"}},
		Refs:        LinkPeerRefs(),
		Brief:       []string{"id", "url", "display", "device", "name", "description", "cable", "_occupied"},
		Search:      []string{"name", "label", "description"},
		DisplayFunc: api.Func(api.LogicPkg("dcim"), "TemplateDisplay"),
		Ordering:    []string{"device", "name"},
		Unique:      []api.Unique{{Fields: []string{"device", "name"}}},
		Filters:     componentFilters(),
		// NetBox's ComponentModel.to_objectchange().
		ChangeRelated: []string{"device"},
	}}
}

// componentFilters are NetBox's DeviceComponentFilterSet filters (through
// the device, shared with bays and inventory items) and the cabled
// components' occupied.
func componentFilters() []api.Filter {
	return append(DeviceComponentFilters(), CabledFilters()...)
}

// CabledFilters are the filters of every cabled object beside cable_id
// and cable_end (derived from the fields): NetBox's CabledObjectFilterSet
// (cabled, occupied, cable_connector).
func CabledFilters() []api.Filter {
	return []api.Filter{
		{Name: "occupied", Kind: "boolean", Column: "_occupied"},
		{Name: "cabled", Kind: "is-set", Column: "cable_id"},
		{Name: "cable_connector", Kind: "integer", Column: "cable_connector"},
	}
}

// LinkPeerRefs are a cabled object's link_peers and link_peers_type: the
// objects at the far end of its cable, computed per page.
func LinkPeerRefs() map[string]api.ComputedRefs {
	f := api.Func(api.LogicPkg("dcim"), "LinkPeers")
	return map[string]api.ComputedRefs{"link_peers": {Func: f, Render: "objects"}, "link_peers_type": {Func: f, Render: "type"}}
}

// componentEmpty are the values a component renders for relations to
// models not built yet (path endpoints compute their connected_endpoints
// fields: PathEndpoint). extra adds the model's own.
func componentEmpty(pathEndpoint bool, extra map[string]any) map[string]any {
	m := map[string]any{}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

// componentFields is the complete representation of a component: the
// common head, the model's own fields, the common cable tail (path
// endpoints with connected_endpoints), tags and the rest.
func componentFields(pathEndpoint bool, own ...string) []string {
	head := []string{"id", "url", "display_url", "display", "device", "module", "name", "label"}
	tail := []string{"description", "mark_connected", "cable", "cable_end", "link_peers", "link_peers_type"}
	if pathEndpoint {
		tail = append(tail, "connected_endpoints", "connected_endpoints_type", "connected_endpoints_reachable")
	}
	tail = append(tail, "owner", "tags", "custom_fields", "created", "last_updated", "_occupied")
	return append(append(head, own...), tail...)
}

// choiceValues are the values of choices, for a choice filter.
func choiceValues(cs []api.Choice) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Value.(string)
	}
	return out
}
