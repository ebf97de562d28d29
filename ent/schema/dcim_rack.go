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

// Rack is dcim.Rack: a rack or cabinet at a site, optionally in one of the
// site's locations, numbered in units.
type Rack struct{ ent.Schema }

func (Rack) Mixin() []ent.Mixin { return PrimaryMixins() }

// Choices of a rack's status and airflow.
var (
	RackStatus = api.C("reserved", "Reserved", "available", "Available", "planned", "Planned",
		"active", "Active", "deprecated", "Deprecated")
	RackAirflow = api.C("front-to-rear", "Front to rear", "rear-to-front", "Rear to front")
)

func (Rack) Fields() []ent.Field {
	return append([]ent.Field{
		NaturalName(100), NaturalKeyField("name"),
		field.String("facility_id").MaxRuneLen(50).Optional().Nillable(),
		field.Int("site_id"), FKField("location"), FKField("group"), FKField("tenant"),
		field.String("status").MaxRuneLen(50).Default("active").Annotations(api.Field{Kind: "choice", Choices: RackStatus}),
		FKField("role"),
		field.String("serial").MaxRuneLen(50).Default(""),
		field.String("asset_tag").MaxRuneLen(50).Optional().Nillable().Unique(),
		FKField("rack_type"),
		field.String("airflow").MaxRuneLen(50).Optional().Nillable().
			Annotations(api.Field{Kind: "choice", Choices: RackAirflow}),
	}, rackBaseFields()...)
}

func (Rack) Edges() []ent.Edge {
	return []ent.Edge{
		FKRequired("site", Site.Type, api.Protect),
		FK("location", Location.Type, api.SetNull),
		FK("group", RackGroup.Type, api.Protect),
		FK("tenant", Tenant.Type, api.Protect),
		FK("role", RackRole.Type, api.Protect),
		FK("rack_type", RackType.Type, api.Protect),
	}
}

func (Rack) Indexes() []ent.Index {
	return []ent.Index{index.Fields("site_id", "location_id", "_name_natural", "id")}
}

func (Rack) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "dcim_rack"},
		api.Model{
			App: "dcim", Path: "racks", Verbose: "rack",
			// The defaults NetBox's serializer declares (PUT writes them).
			Defaults:    map[string]any{"location": nil, "facility_id": nil, "rack_type": nil},
			GenericOnly: true,
			Fields: []string{"id", "url", "display_url", "display", "name", "facility_id", "site", "location", "group",
				"tenant", "status", "role", "serial", "asset_tag", "rack_type", "form_factor", "width", "u_height",
				"starting_unit", "weight", "max_weight", "weight_unit", "desc_units", "outer_width", "outer_height",
				"outer_depth", "outer_unit", "mounting_depth", "airflow", "description", "owner", "comments", "tags",
				"custom_fields", "created", "last_updated", "device_count", "powerfeed_count"},
			Brief:       []string{"id", "url", "display", "name", "description", "device_count"},
			DisplayFunc: api.Func(api.LogicPkg("dcim"), "RackDisplay"),
			Search:      []string{"name", "facility_id", "serial", "asset_tag", "description", "comments"},
			Ordering:    []string{"site", "location", "name", "id"},
			// Name and facility ID are unique within a location only (NULL
			// locations never collide, as in NetBox).
			Unique: []api.Unique{
				{Fields: []string{"location", "name"}},
				{Fields: []string{"location", "facility_id"}, Message: "Rack with this Location and Facility ID already exists."},
			},
			Counts: map[string]api.Count{"device_count": {Model: "dcim.device", Column: "rack_id"},
				"powerfeed_count": {Model: "dcim.powerfeed", Column: "rack_id"}},
			Filters: append(append(TenancyFilters(), SiteTreeFilters()...),
				api.Filter{Name: "manufacturer_id", Kind: "fk-id", Via: "rack_type", Column: "manufacturer"},
				api.Filter{Name: "manufacturer", Kind: "fk-attr", Via: "rack_type", Column: "manufacturer"}),
			Endpoints: []api.Endpoint{{Name: "elevation", Detail: true, Ops: []api.Op{{
				Method: "GET", Permission: "view", Func: api.Func(api.LogicPkg("dcim"), "RackElevation"),
				OperationID: "dcim_racks_elevation_retrieve",
				Summary:     "Rack elevation: the rack's units, top first, with the device in each",
				Response:    "page:RackUnit",
				Description: "A page of rack units ({id, name, face, device, occupied, display, description}).",
				Errors:      []int{400, 404},
				Query: []api.Param{
					{Name: "face", Type: "string", Enum: []string{"front", "rear"}, Description: "Rack face (default front)."},
					{Name: "render", Type: "string", Enum: []string{"json", "svg"}, Description: "json (default); svg is not supported and answers 400."},
					{Name: "q", Type: "string", Description: "Only units whose id or name contains this."},
					{Name: "exclude", Type: "integer", Description: "A device to leave out of the elevation."},
					{Name: "expand_devices", Type: "boolean", Description: "List every unit a device occupies (default true)."},
					{Name: "limit", Type: "integer", Description: "Number of results per page."},
					{Name: "offset", Type: "integer", Description: "Index of the first result."},
				},
			}}, Shapes: []api.Shape{{Name: "RackUnit", Props: []api.Prop{
				{Name: "id", Type: "number"}, {Name: "name", Type: "string"}, {Name: "face", Type: "object"},
				{Name: "device", Type: "object", Nullable: true}, {Name: "occupied", Type: "boolean"},
				{Name: "display", Type: "string"}, {Name: "description", Type: "string", Nullable: true}}}}}},
		},
	}
}

// Hooks: a rack's location must be at its site; a rack type passes on its
// physical attributes; units and weights are checked as NetBox's clean()
// does; a renamed rack renames the display of its reservations.
func (Rack) Hooks() []ent.Hook { return dcim.RackHooks() }
