package api

import "entgo.io/ent/schema"

// Model annotates a schema that is served under /api/<App>/<Path>/.
type Model struct {
	App  string `json:"app"`  // "dcim"
	Path string `json:"path"` // "sites"
	// UI is the path of the model's pages in NetBox's web UI when it is
	// not App/Path ("core/changelog" for object changes): display_url
	// points there, as NetBox's get_absolute_url does.
	UI string `json:"ui,omitempty"`
	// Model is the content-type model name ("site", "ipaddress"); defaults to
	// the lower-cased Go type name.
	Model string `json:"model,omitempty"`
	// Class is NetBox's class name when the Go type cannot carry it (ent
	// refuses a type named Interface, a Go keyword once lower-cased); it
	// names the model in messages ("No Interface matches the given query.").
	Class string `json:"class,omitempty"`
	// Verbose is NetBox's verbose name, used in messages such as
	// "site with this name already exists.".
	Verbose string `json:"verbose,omitempty"`
	// Fields is the complete representation in NetBox's order. Names are
	// ent fields, edge names, counts, placeholders or the built-ins
	// id, url, display_url, display, tags, custom_fields.
	Fields []string `json:"fields"`
	// Brief is the brief representation (nil: brief returns the full form).
	Brief []string `json:"brief,omitempty"`
	// Display is the display template: "{name}", "{name} ({vid})". Rules a
	// template cannot express name a function instead (DisplayFunc).
	Display string `json:"display"`
	// Search lists the columns that the q filter matches case-insensitively.
	Search []string `json:"search,omitempty"`
	// Ordering is the default ordering in API field names, "-" for desc.
	Ordering []string `json:"ordering,omitempty"`
	// Counts are read-only related-object counts shown on this model.
	Counts map[string]Count `json:"counts,omitempty"`
	// Reverse fields show the one row of another model that points at
	// this one (NetBox's reverse one-to-one accessors: a module bay's
	// installed_module, a device's parent_device), or all of them (Many).
	Reverse map[string]Reverse `json:"reverse,omitempty"`
	// Coalesce fields are read-only and render the first of several FK
	// fields that is set, nested (a device's primary_ip: primary_ip6, else
	// primary_ip4, as NetBox's Device.primary_ip without PREFER_IPV4).
	Coalesce map[string][]string `json:"coalesce,omitempty"`
	// Empty fields belong to models not built yet; they render this value
	// so the shape is right from the start ([]any{}, nil, 0).
	Empty map[string]any `json:"empty,omitempty"`
	// Unique lists sets of API field names that must be unique together;
	// a set may carry a condition field that must be null for it to apply
	// (NetBox's conditional unique constraints).
	Unique []Unique `json:"unique,omitempty"`
	// Tree marks NetBox's nested-group models: a self "parent" edge and a
	// cached "_depth".
	Tree bool `json:"tree,omitempty"`
	// SelfParent is a tree model's own message for a node given itself as
	// parent, where its clean() words it so (InventoryItem: "Cannot assign
	// self as parent."); empty: the nested-group models' "Cannot assign
	// self or child <verbose> as parent.", for itself and its descendants
	// alike.
	SelfParent string `json:"self_parent,omitempty"`
	// Tagged and Custom mark taggable and custom-field models (set by the
	// mixins).
	Tagged bool `json:"tagged,omitempty"`
	Custom bool `json:"custom,omitempty"`
	// ChangeLogged models have created/last_updated and produce change
	// records.
	ChangeLogged bool `json:"changelogged,omitempty"`
	// Filters adds or overrides query filters.
	Filters []Filter `json:"filters,omitempty"`
	// NoFilters drops default filters by name.
	NoFilters []string `json:"no_filters,omitempty"`
	// ReadOnly endpoints accept no writes.
	ReadOnly bool `json:"read_only,omitempty"`
	// Computed fields are read-only fields computed at read time for a
	// whole page of rows by a PageFunc (specifics.go), by API name: a
	// device's config_context, merged from the config contexts that apply.
	Computed map[string]*FuncRef `json:"computed,omitempty"`
	// Refs fields are read-only objects (or their type) computed for a
	// whole page of rows by a RefsFunc and rendered nested (specifics.go):
	// a cabled object's link_peers and link_peers_type.
	Refs map[string]ComputedRefs `json:"refs,omitempty"`
	// DisplayFunc, IP and Endpoints: see specifics.go.
	DisplayFunc *FuncRef   `json:"display_func,omitempty"`
	IP          *IPColumns `json:"ip,omitempty"`
	Endpoints   []Endpoint `json:"endpoints,omitempty"`
	// Instantiate declares the component a template model becomes when
	// its owner is created (instantiate.go).
	Instantiate *Instantiate `json:"instantiate,omitempty"`
	// ChangeRelated names the fields (FKs or generic relations) whose
	// object a change record of this model points at as its
	// related_object, the first that is set: NetBox's to_objectchange()
	// overrides (a component's device, an IP address's assigned object).
	ChangeRelated []string `json:"change_related,omitempty"`
	// GenericOnly opts the type into slim generated code (ent/template:
	// setter, query, model, mutation and client overrides): its create and
	// update builders keep only Mutation(), its query builder only what
	// the generic layer and ent's own graph code call, its entity no typed
	// edges. That is all the generic layer needs, and it keeps the compile
	// of the root ent package cheap (ent/doc.go, Compile budget); set it unless
	// hand-written code (tests included) uses this type's typed builders,
	// queries or edges.
	GenericOnly bool `json:"generic_only,omitempty"`
	// Shared models are NetBox's SharedObjectQuerySet (saved filters,
	// table configs): a user other than a superuser reaches only the rows
	// that are "shared" or whose "user_id" is theirs; an anonymous caller
	// only shared rows.
	Shared bool `json:"shared,omitempty"`
	// Defaults are the defaults NetBox's serializer declares for writable
	// fields (default=... on the serializer field, by API name): what a
	// full update (PUT) that omits the field writes, as DRF fills in a
	// declared default on every non-partial write (a device's rack, face
	// and position; a virtual chassis' master). Fields without one keep
	// their value when PUT omits them. Values are JSON as a client would
	// send them (nil for null).
	Defaults map[string]any `json:"defaults,omitempty"`
	// Metadata describes, by API name, what OPTIONS says of a field
	// where NetBox's serializer field is not what this field's kind
	// implies (server/options.go derives the rest).
	Metadata map[string]Meta `json:"metadata,omitempty"`
}

// Meta is what DRF's SimpleMetadata says of NetBox's serializer field
// where this service's field does not imply it.
type Meta struct {
	// Type is the OPTIONS type of NetBox's serializer field: "field" for
	// a SerializerMethodField kept in a column here (a component's
	// _occupied), "integer" for a count NetBox declares as an annotated
	// IntegerField rather than a RelatedObjectCountField, or the type of
	// the field a placeholder (api.Model.Empty) stands for.
	Type string `json:"type,omitempty"`
	// Writable: NetBox's field is writable where this one is read-only
	// (a placeholder for a model not served yet, a value the server
	// keeps): OPTIONS says read_only false; a value sent is ignored, as
	// DRF ignores a read-only field's.
	Writable bool `json:"writable,omitempty"`
	// Optional: NetBox's serializer declares required=False although a
	// create must give the field (NetBox's model validation refuses its
	// absence: a service's protocol); Required: the serializer requires
	// a field that has a default here (a custom field's type).
	Optional bool `json:"optional,omitempty"`
	Required bool `json:"required,omitempty"`
}

// Name implements ent's schema.Annotation.
func (Model) Name() string { return "API" }

// Merge lets mixin annotations (Tagged, Custom, ChangeLogged, Tree) combine
// with the schema's own.
func (m Model) Merge(other schema.Annotation) schema.Annotation {
	o, ok := other.(Model)
	if !ok {
		if p, ok2 := other.(*Model); ok2 && p != nil {
			o, ok = *p, true
		}
	}
	if !ok {
		return m
	}
	if o.App != "" {
		m.App = o.App
	}
	if o.Path != "" {
		m.Path = o.Path
	}
	if o.Model != "" {
		m.Model = o.Model
	}
	if o.UI != "" {
		m.UI = o.UI
	}
	if o.Class != "" {
		m.Class = o.Class
	}
	if o.Verbose != "" {
		m.Verbose = o.Verbose
	}
	if o.SelfParent != "" {
		m.SelfParent = o.SelfParent
	}
	if o.Fields != nil {
		m.Fields = o.Fields
	}
	if o.Brief != nil {
		m.Brief = o.Brief
	}
	if o.Display != "" {
		m.Display = o.Display
	}
	if o.Search != nil {
		m.Search = o.Search
	}
	if o.Ordering != nil {
		m.Ordering = o.Ordering
	}
	if o.Counts != nil {
		m.Counts = o.Counts
	}
	if o.Reverse != nil {
		m.Reverse = o.Reverse
	}
	if o.Coalesce != nil {
		m.Coalesce = o.Coalesce
	}
	if o.Empty != nil {
		m.Empty = o.Empty
	}
	if o.Unique != nil {
		m.Unique = o.Unique
	}
	if o.Filters != nil {
		m.Filters = append(m.Filters, o.Filters...)
	}
	if o.NoFilters != nil {
		m.NoFilters = append(m.NoFilters, o.NoFilters...)
	}
	// Computed fields add up: a mixin's (path endpoints') and the model's.
	if len(o.Computed) > 0 {
		c := make(map[string]*FuncRef, len(m.Computed)+len(o.Computed))
		for k, v := range m.Computed {
			c[k] = v
		}
		for k, v := range o.Computed {
			c[k] = v
		}
		m.Computed = c
	}
	if o.Refs != nil {
		m.Refs = o.Refs
	}
	if o.DisplayFunc != nil {
		m.DisplayFunc = o.DisplayFunc
	}
	if o.IP != nil {
		m.IP = o.IP
	}
	if o.ChangeRelated != nil {
		m.ChangeRelated = o.ChangeRelated
	}
	if o.Defaults != nil {
		d := make(map[string]any, len(m.Defaults)+len(o.Defaults))
		for k, v := range m.Defaults {
			d[k] = v
		}
		for k, v := range o.Defaults {
			d[k] = v
		}
		m.Defaults = d
	}
	if o.Metadata != nil {
		md := make(map[string]Meta, len(m.Metadata)+len(o.Metadata))
		for k, v := range m.Metadata {
			md[k] = v
		}
		for k, v := range o.Metadata {
			md[k] = v
		}
		m.Metadata = md
	}
	m.Endpoints = append(m.Endpoints, o.Endpoints...)
	m.Instantiate = mergeInstantiate(m.Instantiate, o.Instantiate)
	m.Tree = m.Tree || o.Tree
	m.Tagged = m.Tagged || o.Tagged
	m.Custom = m.Custom || o.Custom
	m.ChangeLogged = m.ChangeLogged || o.ChangeLogged
	m.ReadOnly = m.ReadOnly || o.ReadOnly
	m.GenericOnly = m.GenericOnly || o.GenericOnly
	m.Shared = m.Shared || o.Shared
	return m
}

// Count is a read-only count of rows of another model pointing at this one.
type Count struct {
	Model  string `json:"model,omitempty"` // content type of the counted model, "dcim.site"
	Table  string `json:"table,omitempty"` // or a table that is not an API model
	Column string `json:"column"`          // its FK column pointing here, "region_id"
	// Cumulative counts rows pointing at this node or any descendant, as
	// NetBox does for nested groups (site_count on a region).
	Cumulative bool `json:"cumulative,omitempty"`
	// Cached marks NetBox's CounterCacheField (a column of its model, kept
	// by signals: a device type's device_count): a related object nested
	// in another carries its real count. NetBox's other counts are
	// annotations of the list's own queryset, absent from nested objects:
	// a RelatedObjectCountField is left out of them (NetBox #22154) and a
	// nested group's IntegerField(default=0) renders 0 (nestedform.go).
	Cached bool `json:"cached,omitempty"`
	// Distinct counts distinct values of this column of the counted rows
	// instead (a contact group's contacts, once each however many of its
	// subgroups hold them: NetBox's annotate_contacts).
	Distinct string `json:"distinct,omitempty"`
	// Between counts instead the rows of Model whose Column lies between
	// this object's two integer fields, inclusive (an ASN range's
	// asn_count: the ASNs from start to end).
	Between [2]string `json:"between,omitempty"`
	// Percent renders the count as a percentage of this object's integer
	// field Percent, NetBox's two-decimal string ("2.44"), null when that
	// field is 0 (a VLAN group's utilization of total_vlan_ids).
	Percent string `json:"percent,omitempty"`
	// TypeColumn makes Column the id half of a generic relation: only rows
	// whose TypeColumn names this model count (an interface's IP
	// addresses: assigned_object_type "dcim.interface").
	TypeColumn string `json:"type_column,omitempty"`
}

// Reverse is a read-only field rendering the row of Model whose Column
// holds this object's id (at most one: the column is unique), nested, or
// null.
type Reverse struct {
	Model  string `json:"model"`  // "dcim.module"
	Column string `json:"column"` // its column pointing here, "module_bay_id"
	// Exists renders whether such a row exists (true/false) instead;
	// with OrNot, also true when this object's boolean field OrNot is
	// false (a disabled module bay counts as occupied).
	Exists bool   `json:"exists,omitempty"`
	OrNot  string `json:"or_not,omitempty"`
	// Through renders the row's FK field Through nested instead of the
	// row, with the row itself nested under As: a device's parent_device
	// is the device of the bay holding it, with the bay as "device_bay".
	Through string `json:"through,omitempty"`
	As      string `json:"as,omitempty"`
	// AsNested is the form of the row nested under As (as Nested); with
	// Through, Nested is the form of the Through object.
	AsNested []string `json:"as_nested,omitempty"`
	// Many renders every such row, a list of nested objects in the model's
	// default order, as NetBox's related managers list them
	// (a virtual chassis' members).
	Many bool `json:"many,omitempty"`
	// TypeColumn makes Column the id half of a generic relation: only rows
	// whose TypeColumn names this model count (an interface's MAC
	// addresses: assigned_object_type "dcim.interface"; its one L2VPN
	// termination).
	TypeColumn string `json:"type_column,omitempty"`
	// Nested: as api.Field.Nested, for the rows listed.
	Nested []string `json:"nested,omitempty"`
	// Writable (Many only) takes a list of ids on write: NetBox's
	// SerializedPKRelatedField over a reverse key (a provider's accounts),
	// whose RelatedManager.set() on a non-nullable key only adds: the rows
	// listed move to this object, the others stay.
	Writable bool `json:"writable,omitempty"`
}

// Unique is a set of fields unique together.
type Unique struct {
	Fields []string `json:"fields"`
	// WhenNull applies the constraint only when these fields are all null
	// (Django's condition=Q(a__isnull=True, b__isnull=True)).
	WhenNull []string `json:"when_null,omitempty"`
	// Message overrides the default "<Verbose> with this A and B already exists.".
	Message string `json:"message,omitempty"`
	// IgnoreCase compares text fields case-insensitively (NetBox's
	// constraints on Lower('name')).
	IgnoreCase bool `json:"ignore_case,omitempty"`
}

// Filter declares or overrides one query filter.
type Filter struct {
	Name string `json:"name"`
	// Kind: string choice integer decimal boolean datetime date
	// fk-id fk-attr tree-id tree-attr, or a named custom filter understood by
	// the resource layer ("prefix-within", ...).
	Kind   string `json:"kind"`
	Column string `json:"column,omitempty"`
	Target string `json:"target,omitempty"` // content type for fk/tree kinds
	Attr   string `json:"attr,omitempty"`   // attribute column on the target
	// Via is an FK field of this model ("tenant", "site", "vlan"): the
	// filter then applies to the related row, as Django's tenant__group.
	// Dotted, it follows FKs one after another ("rack.site": Django's
	// rack__site__region).
	// Column names a field of the related model ("group", "vid"); for
	// fk/tree kinds Target defaults to that field's target and Attr to its
	// slug (or name).
	Via       string   `json:"via,omitempty"`
	Lookups   []string `json:"lookups,omitempty"`
	Choices   []string `json:"choices,omitempty"`
	Arguments string   `json:"arguments,omitempty"`
}

// Field annotates an ent field or edge.
type Field struct {
	// Kind overrides how the value is read and written: "choice", "cidr",
	// "password", "json", "strings", "int-ranges", "content-types",
	// "content-type" ...
	Kind    string   `json:"kind,omitempty"`
	Choices []Choice `json:"choices,omitempty"`
	// API is the JSON name when it differs from the ent name ("_depth").
	API       string `json:"api,omitempty"`
	ReadOnly  bool   `json:"read_only,omitempty"`
	WriteOnly bool   `json:"write_only,omitempty"`
	// CreateOnly fields are accepted on create and silently ignored on
	// update (a token's user and version, as NetBox does).
	CreateOnly bool `json:"create_only,omitempty"`
	// Required on create even though the column has a default, or (on an
	// FK edge) though it is nullable: null must then be given explicitly.
	Required bool `json:"required,omitempty"`
	// NoBlank refuses "" on a text column that would otherwise accept it
	// (a column whose default is "" or that is nullable: NetBox's
	// blank=True): the fields whose NetBox serializer field is declared
	// without allow_blank (a cable's profile, a VLAN's qinq_role). On a
	// JSON field it refuses [] and {}: Django's blank=False on a JSONField
	// or ArrayField, which full_clean answers "This field cannot be
	// blank." after the serializer took the value (a service's ports, a
	// saved filter's parameters). Not on a config context's data: a
	// synced context is written with {} and filled from its data file.
	NoBlank bool `json:"no_blank,omitempty"`
	// Lookup is the attribute filter name for an FK ("slug", "name").
	Lookup string `json:"lookup,omitempty"`
	// Full renders a many-to-many edge's objects in their full
	// representation instead of the nested one (NetBox's
	// SerializedPKRelatedField without nested=True: a VRF's import_targets).
	Full bool `json:"full,omitempty"`
	// ByLookup writes and renders a many-to-many edge as the related
	// objects' Lookup values instead of ids and nested objects (DRF's
	// SlugRelatedField: a config context's tags as slugs).
	ByLookup bool `json:"by_lookup,omitempty"`
	// Nested lists the fields of the related object an FK renders instead
	// of its brief ones, choices as their bare value: NetBox's hand-written
	// Nested<Model>Serializer (an IP address's nat_inside). An entry
	// "rel(a,b)" renders the related object's relation rel in that form of
	// its own, "rel:pk" as the bare id (NestedInterfaceSerializer's device
	// and cable); "f:choice" keeps a choice as {value, label} (a
	// serializer's declared ChoiceField).
	Nested []string `json:"nested,omitempty"`
	// Types lists allowed content types of a generic relation's *_type.
	// ObjectTypes may stand instead on the _type field: the served models
	// with that NetBox feature ("contacts"), so that models built later
	// join as they land.
	Types []string `json:"types,omitempty"`
	// Object names the object field of a generic relation whose columns
	// are not <Object>_type and <Object>_id (NetBox's parent over
	// parent_object_type and parent_object_id); set on the _type field.
	Object string `json:"object,omitempty"`
	// OnDelete is NetBox's on_delete of a relation: on an FK edge (set by
	// the schema FK helpers), on a cached key column (with Target), or on a
	// generic relation's <name>_type field (CASCADE: deleting the object
	// deletes the rows scoped to it, NetBox's GenericRelation). The generic
	// delete honours it; see resource's ondelete.go.
	OnDelete OnDelete `json:"on_delete,omitempty"`
	// NoReverse marks an FK without a reverse accessor (NetBox's
	// related_name='+': a circuit's termination_a): NetBox's pre_delete
	// handler does not see it, so its SET_NULL clears the key without an
	// update record of the row that held it.
	NoReverse bool `json:"no_reverse,omitempty"`
	// ClearedByHooks marks a SET_NULL FK that the referenced model's delete
	// hook clears itself, after the change capture has seen the object
	// with it (a cable's ends: NetBox serialises a deleted cable, its ends
	// still cabled, before the collector clears them); the generic delete
	// leaves it alone.
	ClearedByHooks bool `json:"cleared_by_hooks,omitempty"`
	// Target is the content type a plain integer column refers to without
	// a database FK (a prefix's cached _region_id), so that OnDelete applies.
	Target string `json:"target,omitempty"`
	// NoFilter suppresses the default filters for this field.
	NoFilter bool `json:"no_filter,omitempty"`
	// Min and Max bound an integer field (NetBox's Min/MaxValueValidator);
	// the resource layer answers with DRF's messages. Declare the same
	// bounds with ent's Min/Max so the database side agrees.
	Min *int `json:"min,omitempty"`
	Max *int `json:"max,omitempty"`
	// Natural orders a text field as NetBox's natural_sort collation does:
	// runs of digits by their numeric value ("Site 2" before "Site 10").
	// The schema declares the companion sort key column next to it
	// (schema.NaturalKeyField, named NaturalColumn(field)); ordering by the
	// field orders by that column.
	Natural bool `json:"natural,omitempty"`
	// Decimal declares a float field as NetBox's DecimalField: digits,
	// places and bounds, checked with DRF's messages in the resource layer.
	Decimal *Decimal `json:"decimal,omitempty"`
	// ObjectTypes names the NetBox object types a content-types field
	// accepts, whether served here or not: a model feature of NetBox's
	// registry ("custom_fields", "tags", "event_rules": ObjectType.objects.
	// with_feature) or "object_permissions" (OBJECTPERMISSION_OBJECT_TYPES).
	// The lists are data (resource's netbox_object_types.json).
	ObjectTypes string `json:"object_types,omitempty"`
	// PK renders an FK edge as the bare id of the related object, as DRF's
	// PrimaryKeyRelatedField does (a journal entry's created_by).
	PK bool `json:"pk,omitempty"`
	// CurrentUser defaults an FK to users.user, omitted on create, to the
	// requesting user (DRF's CurrentUserDefault); an explicit null stays.
	CurrentUser bool `json:"current_user,omitempty"`
	// NullWhen renders the field as null while another field of the row
	// has a value, written "field=value": a token's pepper_id, kept here
	// for every token (v1 digests are keyed too) but null in NetBox for a
	// v1 token, which stores its key in the clear ("version=1").
	NullWhen string `json:"null_when,omitempty"`
}

// Decimal is a DecimalField's declaration: max_digits, decimal_places and
// the bounds of its Min/MaxValueValidator (or the serializer's
// min_value/max_value), written as NetBox writes them ("-90.0", "0.5"):
// DRF's messages quote them verbatim.
type Decimal struct {
	Digits int    `json:"digits"`
	Places int    `json:"places"`
	Min    string `json:"min,omitempty"`
	Max    string `json:"max,omitempty"`
}

// OnDelete is what deleting the referenced object does to a referencing
// row, as NetBox's on_delete says it.
type OnDelete string

// The on_delete rules of NetBox 4.6 (no SET_DEFAULT or DO_NOTHING is used).
const (
	Protect  OnDelete = "PROTECT"  // the delete answers 409
	Cascade  OnDelete = "CASCADE"  // the row is deleted too
	SetNull  OnDelete = "SET_NULL" // the key is cleared
	Restrict OnDelete = "RESTRICT" // 409 unless the row goes by a cascade of the same delete
)

// KindNaturalKey marks the companion sort key column of a Natural field; it
// is no API field.
const KindNaturalKey = "natural-key"

// NaturalColumn is the companion sort key column of the Natural field name.
func NaturalColumn(name string) string { return "_" + name + "_natural" }

// Int returns a pointer to n, for Field.Min and Field.Max.
func Int(n int) *int { return &n }

// FieldError is a validation failure on one API field, returned by schema
// hooks and field validators. The resource layer answers 400 with
// {Field: [Message]} ("__all__" for errors not tied to a field). It lets
// schemas report NetBox's messages without importing the resource layer.
type FieldError struct {
	Field   string
	Message string
	// Index names the list element at fault: the body is then
	// {Field: {Index: [Message]}}, as DRF's ListField reports it.
	Index string
}

func (e *FieldError) Error() string { return e.Message }

// Name implements ent's schema.Annotation.
func (Field) Name() string { return "APIField" }

// Choice is one value of a choice field.
type Choice struct {
	Value any    `json:"value"`
	Label string `json:"label"`
}

// C is shorthand for a list of choices with their labels.
func C(pairs ...string) []Choice {
	out := make([]Choice, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, Choice{Value: pairs[i], Label: pairs[i+1]})
	}
	return out
}

// mergeInstantiate combines a mixin's Sources with the schema's own
// declaration of what the template becomes.
func mergeInstantiate(a, b *Instantiate) *Instantiate {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	out := *b
	if out.Into == "" {
		out = *a
		out.Sources = nil
	}
	out.Sources = append(append([]Source{}, a.Sources...), b.Sources...)
	return &out
}
