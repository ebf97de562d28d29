package api

import "context"

// Instantiate declares what a component template becomes: creating its
// owner (a device of the template's device type, a module of its module
// type) creates one component of Into per template, in the owner's
// transaction, as NetBox's Device.save and Module.save do. The resource
// layer does the rest from this declaration (ent/resource/instantiate.go):
// it reads the templates once per kind, inserts the components with one
// batched statement per kind and level, and records each with its own
// change record and outbox event. Adding a component kind is adding this
// declaration to its template schema.
type Instantiate struct {
	// Into is the component's content type ("dcim.interface").
	Into string `json:"into"`
	// Copy are template fields copied to the component field of the same
	// name ("type", "mgmt_only"); name and label are Resolve fields.
	Copy []string `json:"copy,omitempty"`
	// Resolve are text fields copied with the owner's placeholder
	// (Source.Token, "{module}") replaced (NetBox's resolve_name and
	// resolve_label): "name", "label".
	Resolve []string `json:"resolve,omitempty"`
	// Refs are the template's references to other templates that the
	// component points at by their instantiated counterpart: a power
	// outlet template's power_port becomes the power outlet's power_port
	// (the power port made from that template for the same owner), a front
	// port template's rear_port likewise, an inventory item template's
	// parent. The field name is the same on both sides. A reference to the
	// same template kind (parent, bridge) instantiates level by level.
	Refs []string `json:"refs,omitempty"`
	// Generic are generic relations (<name>_type, <name>_id) of the
	// template to other templates, mapped the same way to the counterpart
	// component (an inventory item template's component).
	Generic []string `json:"generic,omitempty"`
	// Lists are JSON list fields of the template whose entries name other
	// templates by id under a key; the component's list names their
	// counterparts (a front port template's rear_ports, NetBox 4.6's port
	// mappings: {"rear_port": <rear port template id>, ...}).
	Lists []ListRef `json:"lists,omitempty"`
	// Sources say which owners instantiate the template; the component
	// template mixin declares them (every template of a device type for a
	// device; every modular template of a module type for a module).
	Sources []Source `json:"sources,omitempty"`
}

// ListRef is one JSON list field of templates' references (Instantiate.Lists).
type ListRef struct {
	Field string `json:"field"` // API field on both sides, "rear_ports"
	Key   string `json:"key"`   // entry key holding the id, "rear_port"
	Of    string `json:"of"`    // the referenced template kind, "dcim.rearporttemplate"
}

// Source is one kind of owner whose creation instantiates the template.
type Source struct {
	// Template is the template's FK naming the type ("device_type").
	Template string `json:"template"`
	// Owner is the content type whose creation instantiates ("dcim.device")
	// and Match its FK holding the same type ("device_type").
	Owner string `json:"owner"`
	Match string `json:"match"`
	// Set gives component fields from the owner's: component field ←
	// owner field, "id" being the owner itself ({"device": "id"} for a
	// device; {"device": "device", "module": "id"} for a module). A
	// dotted owner path follows FKs ("device.site"); component kinds
	// without the field (only module bays have a parent bay) skip it.
	Set map[string]string `json:"set"`
	// Token is the placeholder replaced in Resolve fields ("{module}"),
	// once per level, outermost first, with the value at TokenValue (a
	// dotted path from the owner: "module_bay.position") of the owner and
	// of each owner above it along TokenUp ("module_bay.module").
	Token      string `json:"token,omitempty"`
	TokenValue string `json:"token_value,omitempty"`
	TokenUp    string `json:"token_up,omitempty"`
	// Replicate and Adopt name boolean owner fields (write-only) that
	// switch NetBox's replicate_components (create the components; true
	// when unset) and adopt_components (existing components of the device
	// with the same name and no module are moved to the owner instead).
	// AdoptScope is the component field that adoption sets ("module")
	// and that must be null on an adoptable component; AdoptWithin the one
	// that must equal the owner's Set value ("device").
	Replicate   string `json:"replicate,omitempty"`
	Adopt       string `json:"adopt,omitempty"`
	AdoptScope  string `json:"adopt_scope,omitempty"`
	AdoptWithin string `json:"adopt_within,omitempty"`
}

type instantiatingKey struct{}

// WithInstantiation marks ctx as the instantiation of components from
// templates: schema hooks of component models skip the per-row checks
// that instantiation satisfies by construction (the component belongs to
// the owner's device), so that a device with 48 templates does not cost 48
// round trips.
func WithInstantiation(ctx context.Context) context.Context {
	return context.WithValue(ctx, instantiatingKey{}, true)
}

// Instantiating reports whether ctx is an instantiation (WithInstantiation).
func Instantiating(ctx context.Context) bool {
	v, _ := ctx.Value(instantiatingKey{}).(bool)
	return v
}
