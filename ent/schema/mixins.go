package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"entgo.io/ent/schema/mixin"

	"github.com/inventory/inventory/ent/schema/api"
)

// Now is the clock for created/last_updated. PostgreSQL keeps microseconds,
// so we truncate everywhere: ETags and snapshots then agree across databases.
func Now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// ChangeLogged mirrors NetBox's ChangeLoggedModel: created and last_updated.
type ChangeLogged struct{ mixin.Schema }

func (ChangeLogged) Fields() []ent.Field {
	return []ent.Field{
		field.Time("created").Default(Now).Immutable().Optional().Nillable().
			Annotations(api.Field{ReadOnly: true}),
		field.Time("last_updated").Default(Now).UpdateDefault(Now).Optional().Nillable().
			Annotations(api.Field{ReadOnly: true}),
	}
}

func (ChangeLogged) Annotations() []schema.Annotation {
	return []schema.Annotation{api.Model{ChangeLogged: true}}
}

// Tagged marks a taggable model. Tags live in one generic tagged-items table
// (tag, object type, object id) instead of an edge per model, which keeps
// the Tag schema small as the number of models grows.
type Tagged struct{ mixin.Schema }

func (Tagged) Annotations() []schema.Annotation {
	return []schema.Annotation{api.Model{Tagged: true}}
}

// CustomFields carries NetBox's custom_field_data JSON column.
type CustomFields struct{ mixin.Schema }

func (CustomFields) Fields() []ent.Field {
	return []ent.Field{
		field.JSON("custom_field_data", map[string]any{}).Default(map[string]any{}).
			Annotations(api.Field{API: "custom_fields", Kind: "custom-fields"}),
	}
}

func (CustomFields) Annotations() []schema.Annotation {
	return []schema.Annotation{api.Model{Custom: true}}
}

// Owned is NetBox's OwnerMixin: an optional owner (users.Owner, PROTECT:
// deleting an owner that objects use answers 409), rendered in the
// owner's brief form, with OwnerFilterMixin's filters (owner_id and owner
// derive from the FK; the owner's group ones are declared). Primary,
// Organizational and NestedGroup carry it, as NetBox's base models do, so
// a model gets it by its mixin; models on no such base (NetBox's
// ComponentModel, extras' models) list Owned{} among their mixins.
//
// Hidden is for a model whose NetBox model has the column but whose
// serializer does not show it (a tag, in 4.6): the column and the filters
// are there, the API field is not.
type Owned struct {
	mixin.Schema
	Hidden bool
}

func (o Owned) Fields() []ent.Field {
	if o.Hidden {
		return []ent.Field{CachedFK("owner", "users.owner", api.Protect)}
	}
	return []ent.Field{FKField("owner")}
}

func (o Owned) Edges() []ent.Edge {
	if o.Hidden {
		return nil
	}
	return []ent.Edge{FK("owner", Owner.Type, api.Protect)}
}

// Indexes: owner_id is indexed, as Django indexes every ForeignKey:
// deleting an owner looks for its objects in every owned table (PROTECT),
// and the owner filters read it.
func (Owned) Indexes() []ent.Index { return []ent.Index{index.Fields("owner_id")} }

func (o Owned) Annotations() []schema.Annotation {
	return []schema.Annotation{api.Model{Filters: OwnerFilters(o.Hidden)}}
}

// OwnerFilters are NetBox's OwnerFilterMixin filters beyond what the owner
// FK gives (owner_id, owner by name): the owner's group by id and by
// name. hidden: the owner is a hidden column (Owned.Hidden), so all four
// are declared on it.
func OwnerFilters(hidden bool) []api.Filter {
	via := "owner"
	var fs []api.Filter
	if hidden {
		via = "owner_id"
		fs = []api.Filter{
			{Name: "owner_id", Kind: "fk-id", Column: "owner_id", Target: "users.owner"},
			{Name: "owner", Kind: "fk-attr", Column: "owner_id", Target: "users.owner", Attr: "name"},
		}
	}
	return append(fs,
		api.Filter{Name: "owner_group_id", Kind: "fk-id", Via: via, Column: "group"},
		api.Filter{Name: "owner_group", Kind: "fk-attr", Via: via, Column: "group"})
}

// Primary is NetBox's PrimaryModel: change-logged, tagged, custom fields,
// description, comments and an owner.
type Primary struct{ Owned }

func (p Primary) Fields() []ent.Field {
	return append(append(descriptionFields(), commentsField()), p.Owned.Fields()...)
}

// Organizational is NetBox's OrganizationalModel: unique name and slug plus
// description, comments and an owner.
type Organizational struct{ Owned }

func (o Organizational) Fields() []ent.Field {
	return append([]ent.Field{UniqueName(100), UniqueSlug()},
		append(append(descriptionFields(), commentsField()), o.Owned.Fields()...)...)
}

// NestedGroup is NetBox's NestedGroupModel: a tree with a parent, a cached
// _depth, name, slug, description, comments and an owner. Uniqueness of
// name and slug is per parent, declared by each schema.
type NestedGroup struct {
	Owned
	// Natural orders the name naturally (NetBox's natural_sort collation,
	// which tenant groups use and regions, site groups and locations do
	// not).
	Natural bool
}

func (g NestedGroup) Fields() []ent.Field {
	name := []ent.Field{NameField(100)}
	if g.Natural {
		name = []ent.Field{NaturalName(100), NaturalKeyField("name")}
	}
	return append(append(name, SlugField(),
		field.Int("parent_id").Optional().Nillable(),
		field.Int("_depth").Default(0).Annotations(api.Field{ReadOnly: true}),
	), append(append(descriptionFields(), commentsField()), g.Owned.Fields()...)...)
}

func (g NestedGroup) Annotations() []schema.Annotation {
	return []schema.Annotation{api.Model{Tree: true, Filters: OwnerFilters(g.Hidden)}}
}

// Mixins for the common model kinds, in the order fields appear in tables.
func PrimaryMixins() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, CustomFields{}, Primary{}}
}

func OrganizationalMixins() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, CustomFields{}, Organizational{}}
}

func NestedGroupMixins() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, CustomFields{}, NestedGroup{}}
}

// NaturalNestedGroupMixins are NestedGroupMixins with a naturally ordered
// name.
func NaturalNestedGroupMixins() []ent.Mixin {
	return []ent.Mixin{ChangeLogged{}, Tagged{}, CustomFields{}, NestedGroup{Natural: true}}
}

// ParentEdge is the self edge pair (children, parent) of a NestedGroup
// schema: a tree, many children per parent. (A lone unique To edge would be
// a two-way one-to-one link.) Deleting a node deletes its subtree, as
// NetBox's MPTT models do.
//
// The parent renders in the form of NetBox's Nested<Model>Serializer:
// form when given, else NestedGroupForm.
func ParentEdge(t any, form ...string) ent.Edge {
	if form == nil {
		form = NestedGroupForm
	}
	return edge.To("children", t).Annotations(entsql.OnDelete(entsql.Cascade)).
		From("parent").Unique().Field("parent_id").Annotations(api.Field{OnDelete: api.Cascade, Nested: form})
}

// NestedGroupForm is how NetBox renders the parent of a region, site
// group, location or tenant group (NestedRegionSerializer and its
// siblings): with display_url and _depth, and without the brief form's
// description and count (the serializer declares the count, but a parent
// is not annotated with it, so DRF skips the field).
var NestedGroupForm = []string{"id", "url", "display_url", "display", "name", "slug", "_depth"}

// NestedNameForm is NetBox's nested form of a device role's or a
// platform's parent, and of a permission's groups (NestedDeviceRoleSerializer,
// NestedPlatformSerializer, NestedGroupSerializer).
var NestedNameForm = []string{"id", "url", "display_url", "display", "name"}

// NameField is a required name of at most n characters.
func NameField(n int) ent.Field {
	return field.String("name").MaxRuneLen(n).NotEmpty()
}

// UniqueName is a globally unique NameField.
func UniqueName(n int) ent.Field {
	return field.String("name").MaxRuneLen(n).NotEmpty().Unique()
}

// NaturalName is a NameField ordered as NetBox's natural_sort collation
// orders it ("Site 2" before "Site 10"). Declare its companion sort key
// column next to it: NaturalKeyField("name").
func NaturalName(n int) ent.Field {
	return field.String("name").MaxRuneLen(n).NotEmpty().Annotations(api.Field{Natural: true})
}

// NaturalUniqueName is a UniqueName ordered naturally; declare
// NaturalKeyField("name") next to it.
func NaturalUniqueName(n int) ent.Field {
	return field.String("name").MaxRuneLen(n).NotEmpty().Unique().Annotations(api.Field{Natural: true})
}

// NaturalKeyField is the hidden companion column of a field annotated
// api.Field{Natural: true}: "_<field>_natural", holding the sort key that
// the resource layer computes on every write (filters.NaturalKey) and
// orders by instead of the field. It is no API field: never rendered,
// written by clients or filtered.
func NaturalKeyField(name string) ent.Field {
	return field.Text(api.NaturalColumn(name)).Default("").Annotations(api.Field{Kind: api.KindNaturalKey})
}

// UniqueSlug is a globally unique SlugField.
func UniqueSlug() ent.Field {
	return field.String("slug").MaxRuneLen(100).NotEmpty().Unique().Annotations(api.Field{Kind: "slug"})
}

// SlugField is a required slug.
func SlugField() ent.Field {
	return field.String("slug").MaxRuneLen(100).NotEmpty().Annotations(api.Field{Kind: "slug"})
}

func descriptionFields() []ent.Field {
	return []ent.Field{field.String("description").MaxRuneLen(200).Default("")}
}

func commentsField() ent.Field {
	return field.Text("comments").Default("")
}

// FK declares an optional foreign key edge named name to t, stored in
// <name>_id, with NetBox's on_delete rule (api.Protect, api.Cascade,
// api.SetNull, api.Restrict). The resource layer carries the rule out; the
// database's own action (dbAction) is only a backstop.
func FK(name string, t any, rule api.OnDelete) ent.Edge {
	return edge.To(name, t).Field(name + "_id").Unique().Annotations(OnDelete(rule)...)
}

// SelfFK is an FK to the schema's own type (a VLAN's Q-in-Q service VLAN).
// It needs the inverse pair: a lone unique To edge to oneself is a two-way
// one-to-one link, which would rewrite the target's own FK too.
func SelfFK(name string, t any, rule api.OnDelete) ent.Edge {
	return edge.To(name+"_of", t).Annotations(entsql.OnDelete(dbAction(rule))).
		From(name).Unique().Field(name + "_id").Annotations(api.Field{OnDelete: rule})
}

// FKField is the column of an FK edge.
func FKField(name string) ent.Field {
	return field.Int(name + "_id").Optional().Nillable()
}

// FKRequired is a required foreign key edge stored in <name>_id (declare the
// field with field.Int(name+"_id")).
func FKRequired(name string, t any, rule api.OnDelete) ent.Edge {
	return edge.To(name, t).Field(name + "_id").Unique().Required().Annotations(OnDelete(rule)...)
}

// OnDelete annotates an FK edge declared without the helpers above with
// NetBox's on_delete rule and the matching database action; with, if
// given, carries the edge's other api.Field settings (one api.Field
// annotation per edge: ent keeps only the last).
func OnDelete(rule api.OnDelete, with ...api.Field) []schema.Annotation {
	var f api.Field
	if len(with) > 0 {
		f = with[0]
	}
	f.OnDelete = rule
	return []schema.Annotation{entsql.OnDelete(dbAction(rule)), f}
}

// CachedFK is a cached key column without a database FK (NetBox's
// CachedScopeMixin: a prefix's _region, _site ...): "<name>_id" referring
// to the content type target, with NetBox's on_delete rule. It is no API
// field.
func CachedFK(name, target string, rule api.OnDelete) ent.Field {
	return field.Int(name + "_id").Optional().Nillable().
		Annotations(api.Field{Kind: "hidden", Target: target, OnDelete: rule})
}

// dbAction is the database's ON DELETE for a NetBox rule. The resource
// layer deletes, clears or refuses before the database acts, so the
// database only ever sees rows with no dependants left; the actions are
// those the tables were created with, so existing databases need no
// migration: RESTRICT backs PROTECT and RESTRICT up, CASCADE and SET NULL
// do what the application already did.
func dbAction(rule api.OnDelete) entsql.ReferenceOption {
	switch rule {
	case api.Cascade:
		return entsql.Cascade
	case api.SetNull:
		return entsql.SetNull
	}
	return entsql.Restrict
}

// TenancyFilters are NetBox's TenancyFilterSet filters beyond tenant and
// tenant_id: the tenant's group and its descendants.
func TenancyFilters() []api.Filter {
	return []api.Filter{
		{Name: "tenant_group_id", Kind: "tree-id", Via: "tenant", Column: "group"},
		{Name: "tenant_group", Kind: "tree-attr", Via: "tenant", Column: "group"},
	}
}

// SiteTreeFilters are the region and site group filters of models with a
// site FK: the site's region or group and their descendants.
func SiteTreeFilters() []api.Filter {
	return []api.Filter{
		{Name: "region_id", Kind: "tree-id", Via: "site", Column: "region"},
		{Name: "region", Kind: "tree-attr", Via: "site", Column: "region"},
		{Name: "site_group_id", Kind: "tree-id", Via: "site", Column: "group"},
		{Name: "site_group", Kind: "tree-attr", Via: "site", Column: "group"},
	}
}

// The DecimalFields several NetBox models share: GPS coordinates (a site's
// and a device's) and WeightMixin's weight.
var (
	Latitude  = api.Decimal{Digits: 8, Places: 6, Min: "-90.0", Max: "90.0"}
	Longitude = api.Decimal{Digits: 9, Places: 6, Min: "-180.0", Max: "180.0"}
	Weight    = api.Decimal{Digits: 8, Places: 2}
)

// SyncedData is NetBox's SyncedDataMixin: a data source and one of its
// data files whose content the object takes (ent/logic/extras
// SyncedDataHooks copies it on every write that leaves a file assigned,
// and package datasources on every sync of the source). data_source is
// PROTECT, data_file SET_NULL, as in NetBox. FileReadOnly: the model's
// serializer declares data_file read-only (export templates).
type SyncedData struct {
	mixin.Schema
	FileReadOnly bool
}

func (SyncedData) Fields() []ent.Field {
	return []ent.Field{
		FKField("data_source"),
		field.String("data_path").MaxRuneLen(1000).Default("").Annotations(api.Field{ReadOnly: true}),
		FKField("data_file"),
		field.Time("data_synced").Optional().Nillable().Annotations(api.Field{ReadOnly: true}),
	}
}

func (s SyncedData) Edges() []ent.Edge {
	return []ent.Edge{
		FK("data_source", DataSource.Type, api.Protect),
		edge.To("data_file", DataFile.Type).Field("data_file_id").Unique().
			Annotations(OnDelete(api.SetNull, api.Field{ReadOnly: s.FileReadOnly})...),
	}
}

func (SyncedData) Indexes() []ent.Index {
	return []ent.Index{index.Fields("data_source_id"), index.Fields("data_file_id")}
}
