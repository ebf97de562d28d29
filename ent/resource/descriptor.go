package resource

import (
	"context"
	"encoding/json"
	"sync"

	"entgo.io/ent"

	gen "github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/filters"
)

// Kind says how a field is read from a row and written from JSON.
type Kind string

// The field kinds. Model-specific kinds (cidr, password, ...) are handled by
// the codecs registered in kinds.go, never by per-model code.
const (
	KindID            Kind = "id"
	KindURL           Kind = "url"
	KindDisplayURL    Kind = "display_url"
	KindDisplay       Kind = "display"
	KindString        Kind = "string"
	KindText          Kind = "text"
	KindSlug          Kind = "slug"
	KindInt           Kind = "int"
	KindFloat         Kind = "float"
	KindBool          Kind = "bool"
	KindTime          Kind = "time"
	KindJSON          Kind = "json"
	KindStrings       Kind = "strings"
	KindChoice        Kind = "choice"
	KindFK            Kind = "fk"
	KindCount         Kind = "count"
	KindEmpty         Kind = "empty"
	KindTags          Kind = "tags"
	KindCustomFields  Kind = "custom-fields"
	KindContentTypes  Kind = "content-types"
	KindGenericType   Kind = "generic-type"
	KindGenericID     Kind = "generic-id"
	KindGenericObject Kind = "generic-object"
	// KindM2M is a many-to-many relation through a join table: a list of
	// ids on write, nested brief objects on read.
	KindM2M Kind = "m2m"
	// KindReverse is the row of another model pointing here, or all such
	// rows (api.Reverse).
	KindReverse Kind = "reverse"
	// KindCoalesce renders the first of several FK fields that is set
	// (api.Model.Coalesce), nested.
	KindCoalesce Kind = "coalesce"
	// KindHidden columns are selected for the runtime (a token's last six
	// characters for its display) but never rendered, written or filtered.
	KindHidden Kind = "hidden"
	// KindSecret is a write-once secret, rendered only in the response to
	// the request that created it (see Reveal), null otherwise.
	KindSecret Kind = "secret"
	// KindComputed is a read-only value computed for a whole page at read
	// time by the model's PageFunc (api.Model.Computed): a device's
	// config_context.
	KindComputed Kind = "computed"
	// KindImage is an uploaded image (files.go): a multipart file part or
	// a base64 data URI in, the absolute URL of the stored file out.
	KindImage Kind = "image"
)

// Choice is one allowed value of a choice field.
type Choice struct {
	Value any
	Label string
}

// Count is a related-object count.
type Count struct {
	Model      string // counted content type
	Table      string // or a counted table that is no API model
	Column     string // its FK column
	Cumulative bool   // include descendants of this tree node
	// Cached: NetBox's CounterCacheField, shown in nested objects too
	// (api.Count.Cached; nestedform.go).
	Cached bool
	// Distinct counts distinct values of this column (api.Count.Distinct).
	Distinct string
	// Between counts the rows whose Column lies between this row's two
	// integer fields (api.Count.Between).
	Between [2]string
	// Percent renders the count as a percentage of this row's integer
	// field (api.Count.Percent).
	Percent string
	// TypeColumn makes Column the id half of a generic relation: only
	// rows whose TypeColumn names the counting model count.
	TypeColumn string
}

// Unique is a set of columns unique together.
type Unique struct {
	Fields   []string // API field names
	WhenNull []string
	Message  string
	// IgnoreCase compares text fields case-insensitively (Lower('name')).
	IgnoreCase bool
}

// Field is one API field of a model.
type Field struct {
	Name     string
	Kind     Kind
	Column   string // DB column ("" for computed fields)
	GoType   string // Go type of the ent field, for SetField
	Target   string // FK target content type
	Choices  []Choice
	ReadOnly bool
	// WriteOnly fields are accepted but never rendered (password).
	WriteOnly bool
	Required  bool // required on create
	// CreateOnly fields are ignored on update.
	CreateOnly bool
	Nullable   bool
	// HasDefault fields may be omitted on create.
	HasDefault bool
	// Blank fields accept "" (NetBox's blank=True; DRF's allow_blank),
	// stored as NetBox stores it (see blankValue); others answer "This
	// field may not be blank.".
	Blank bool
	// NotEmpty JSON fields refuse [] and {} with Django's "This field
	// cannot be blank." (api.Field.NoBlank).
	NotEmpty bool
	// PutDefault is the JSON value a full update (PUT) that omits the
	// field writes: the default NetBox's serializer declares for it
	// (api.Model.Defaults). "" when there is none: PUT keeps the value.
	PutDefault string
	MaxLen     int
	Min, Max   *int
	// Decimal is a DecimalField's digits, places and bounds
	// (api.Field.Decimal); see decodeDecimal.
	Decimal *Decimal
	// ObjectTypes names the NetBox object types a content-types field
	// accepts (api.Field.ObjectTypes; objecttypes.go).
	ObjectTypes string
	Unique      bool
	// OnDelete is NetBox's on_delete of a relation (FK, cached key or
	// generic object): "PROTECT", "CASCADE", "SET_NULL", "RESTRICT"; see
	// ondelete.go.
	OnDelete string
	// NoReverse: SET_NULL clears this key without an update record
	// (api.Field.NoReverse).
	NoReverse bool
	// ClearedByHooks: the referenced model's delete hook clears this
	// SET_NULL key, not the generic delete (api.Field.ClearedByHooks).
	ClearedByHooks bool
	// PK renders an FK as the bare id (api.Field.PK); CurrentUser
	// defaults it to the requesting user on create (api.Field.CurrentUser).
	PK, CurrentUser bool
	Lookup          string
	// Natural is the hidden companion column holding the natural sort key
	// of this text field (filters.NaturalKey): set on every write of the
	// field, ordered by instead of it.
	Natural string
	Types   []string // generic relation: allowed content types
	Generic string   // generic-object: the base name ("scope")
	Of      []string // coalesce: the FK fields, first set wins
	// Nested names the fields of the related object this relation renders
	// instead of its brief ones, choices bare (api.Field.Nested).
	Nested []string
	// NullWhen renders the field null while the row's other field has a
	// value, "field=value" (api.Field.NullWhen).
	NullWhen string
	Empty    any // KindEmpty: the value rendered
	Count    *Count
	// Reverse is the declaration of a KindReverse field.
	Reverse *api.Reverse
	// Meta is what OPTIONS says of NetBox's serializer field where this
	// field's kind does not imply it (api.Model.Metadata; server/options.go).
	Meta *api.Meta
	// Join is the join table of a KindM2M field; JoinOwn its column
	// pointing at this model, JoinTarget the one pointing at Target.
	Join, JoinOwn, JoinTarget string
	// Inverse marks a KindM2M field that is the other model's relation
	// seen from here (an ASN's sites are the sites' asns): Django's
	// serializer leaves it out of snapshots, and deleting its target
	// changes nothing of this model that the change log records.
	Inverse bool
	// Full renders a KindM2M field's objects in their full representation
	// (api.Field.Full), not the nested one.
	Full bool
	// ByLookup writes and renders a KindM2M field as the related
	// objects' Lookup values (api.Field.ByLookup).
	ByLookup bool
	// Compute computes a KindComputed field for a page of rows.
	Compute api.PageFunc
	// Refs computes a KindComputedRefs field's objects for a page of
	// rows; RefsKey names the function (fields sharing it share a call),
	// RefsRender is RefsObjects or RefsType.
	Refs                api.RefsFunc
	RefsKey, RefsRender string

	col    int         // index of Column in the descriptor's column list
	target *Descriptor // resolved Target
	form   []*Field    // the related object's fields for Nested
	asForm []*Field    // a Through reverse's As row's fields (api.Reverse.AsNested)
	codec  *codec      // resolved for special kinds
	// inForm marks a KindReverse Many field inside a nested form
	// (resolveForm): rendered as objects, loaded for the form's rows.
	inForm bool
	// nullWhen and nullWhenVal are NullWhen resolved: the field and the
	// text of the value that makes this one render null.
	nullWhen    *Field
	nullWhenVal string
}

// Descriptor is everything the generic handlers need to serve one model.
// One is generated per annotated schema (zz_*.go).
type Descriptor struct {
	Type      string // Go/ent type name, "Site"; also NetBox's class name
	Class     string // NetBox's class name when it is not Type (ClassName)
	App, Path string // "dcim", "sites"
	// UI is the path of the model's web pages when not App/Path
	// (api.Model.UI): display_url uses it.
	UI       string
	Model    string // content type model name, "site"
	Verbose  string
	Table    string
	Fields   []*Field
	Brief    []string
	Display  string
	Search   []string
	Ordering []string
	Unique   []Unique
	Tree     bool
	// SelfParent: api.Model.SelfParent.
	SelfParent  string
	Tagged      bool
	Custom      bool
	Logged      bool
	ReadOnlyAPI bool
	// Shared: api.Model.Shared (rows reached by their user or shared).
	Shared     bool
	FilterDecl []FilterDecl
	NoFilters  []string
	// DisplayFunc renders the display when it is more than the Display
	// template (api.Model.DisplayFunc; the function lives in the model's
	// logic package).
	DisplayFunc api.DisplayFunc
	// ChangeRelated are the fields whose object this model's change
	// records name as related object (api.Model.ChangeRelated).
	ChangeRelated []string
	// IP names the columns the IP filter kinds compare (api.Model.IP).
	IP *IPColumns
	// Endpoints are the model's special endpoints (api.Model.Endpoints).
	Endpoints []api.Endpoint
	// Handlers are the endpoint handlers living in logic packages, by
	// "<pkg>.<Name>" (api.Op.Func), wired in by the generator.
	Handlers map[string]api.Handler

	// Instantiate is what this template model becomes when its owner is
	// created (api.Model.Instantiate; instantiate.go).
	Instantiate *api.Instantiate

	NewCreate func(c *gen.Client) ent.Mutation
	// CreateMany inserts n rows in one statement through ent's bulk
	// create: each mutation still passes the hook chain (change capture
	// records every row), but the rows go in one INSERT. Call it through
	// createRows, which keeps each INSERT within the database's parameter
	// limit.
	CreateMany func(ctx context.Context, c *gen.Client, n int, fill func(int, ent.Mutation) error) ([]int, error)
	NewUpdate  func(c *gen.Client, id int) ent.Mutation
	DeleteOne  func(ctx context.Context, c *gen.Client, id int) error

	columns   []string // selected columns, in row order
	colFields []*Field // the field of each column (byCol, without the map lookup per value)
	allCols   []int    // 0..len(columns)-1
	// allColList caches columnList of allCols by dialect and table
	// reference.
	allColList *sync.Map
	narrow     []int    // columns of the nested representation
	nested     []*Field // fields of the nested representation
	// cachedCounts are the counts of the nested representation that are
	// NetBox's CounterCacheFields (api.Count.Cached), read with nested
	// rows (Row.cached).
	cachedCounts []*Field
	tagForm      []*Field // fields of a tag inside an object's tags
	tagged       bool     // the model has tags (a KindTags field)
	// displayField is the field of a display rule that is just "{field}"
	// of a string column.
	displayField *Field
	// displayRefs are the FK and generic object fields a display rule
	// names ("{object} tagged with {tag}"): they show as the related
	// object's own display, loaded with the page (Page.displayOf).
	displayRefs []*Field
	byName      map[string]*Field // API name → field
	byCol       map[string]*Field
	brief       []*Field
	full        []*Field
	spec        *filters.Spec
	notNull     map[string]bool // NOT NULL columns of Table (from the ent schema)
	// tableCols is the number of columns of Table (from the ent schema):
	// the most parameters one row of a bulk INSERT binds.
	tableCols int
}

// FilterDecl is a declared filter (from the schema annotation).
type FilterDecl struct {
	Name, Kind, Column, Target, Attr string
	Via                              string // FK field the filter goes through (api.Filter.Via)
	Lookups, Choices                 []string
}

// Decimal is a DecimalField's declaration (api.Decimal).
type Decimal = api.Decimal

// IPColumns are the hidden IP key columns of a model (api.IPColumns).
type IPColumns = api.IPColumns

// endpoints decodes the generated endpoint declarations of a model.
func endpoints(raw string) []api.Endpoint {
	var out []api.Endpoint
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		panic("resource: generated endpoints: " + err.Error())
	}
	return out
}

// instantiation decodes the generated instantiation declaration of a
// template model.
func instantiation(raw string) *api.Instantiate {
	var out api.Instantiate
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		panic("resource: generated instantiation: " + err.Error())
	}
	return &out
}

// intp is used by the generated descriptors for Field.Min and Field.Max.
func intp(n int) *int { return &n }

// ClassName is NetBox's class name of the model ("Interface").
func (d *Descriptor) ClassName() string {
	if d.Class != "" {
		return d.Class
	}
	return d.Type
}

// ContentType is "app.model".
func (d *Descriptor) ContentType() string { return d.App + "." + d.Model }

// Field returns the API field called name.
func (d *Descriptor) Field(name string) *Field { return d.byName[name] }

// Columns are the selected columns in row order.
func (d *Descriptor) Columns() []string { return d.columns }

// Filters is the model's filter spec.
func (d *Descriptor) Filters() *filters.Spec { return d.spec }
