package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gin-gonic/gin"
	"github.com/goccy/go-yaml"

	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/filters"
	"github.com/inventory/inventory/server/redoc"
	"github.com/inventory/inventory/server/swaggerui"
)

// The OpenAPI document (GET /api/schema/) and the interactive
// documentation (GET /api/schema/swagger-ui/), BEHAVIOUR.md §1.1.
//
// Who may read them: NetBox serves both through drf-spectacular's views,
// whose permission is drf-spectacular's SERVE_PERMISSIONS, AllowAny by
// default, and NetBox does not override it (a setting to restrict them,
// netbox#14555, was not merged). So NetBox serves the document and the
// page to anonymous callers whatever LOGIN_REQUIRED says, and so do we:
// they describe the API and hold no data. DRF still authenticates a
// credential that is sent, so an invalid token is a 403 here as
// everywhere (the authenticate middleware).
//
// Format: NetBox answers YAML unless ?format=json or an Accept header
// that prefers JSON. We answer JSON unless ?format=yaml or an Accept header
// that asks for YAML: JSON is valid YAML, so clients that read NetBox's
// default YAML read ours too, and JSON is what Swagger UI and most clients
// request. An unknown ?format= is a 404, as DRF's format negotiation.

func (s *Server) openAPIRoutes(api *gin.RouterGroup) {
	api.GET("/schema/", s.wrap(s.openAPISchema))
	api.GET("/schema/swagger-ui/", s.wrap(s.swaggerUI))
	api.GET("/schema/swagger-ui/static/:file", s.wrap(assets(swaggerui.Files)))
	api.GET("/schema/redoc/", s.wrap(s.redocUI))
	api.GET("/schema/redoc/static/:file", s.wrap(assets(redoc.Files)))
}

func (s *Server) openAPISchema(c *gin.Context) error {
	c.Set(ctxRawBody, true)
	doc, err := openAPIFor(s.cfg.Version)
	if err != nil {
		return err
	}
	format := c.Query("format")
	if format == "" {
		accept := c.GetHeader("Accept")
		if strings.Contains(accept, "yaml") || strings.Contains(accept, "application/vnd.oai.openapi") && !strings.Contains(accept, "application/vnd.oai.openapi+json") {
			format = "yaml"
		}
	}
	switch format {
	case "":
		writeJSON(c, http.StatusOK, doc.json)
	case "json", "openapi-json":
		c.Data(http.StatusOK, "application/vnd.oai.openapi+json", doc.json)
	case "yaml", "openapi":
		y, err := doc.yamlBytes()
		if err != nil {
			return err
		}
		c.Data(http.StatusOK, "application/vnd.oai.openapi; charset=utf-8", y)
	default:
		return errNotFound
	}
	return nil
}

// swaggerUI is the documentation page: swagger-ui from the embedded
// assets, pointed at the document.
func (s *Server) swaggerUI(c *gin.Context) error {
	c.Header("Cache-Control", "no-cache")
	c.Data(http.StatusOK, "text/html; charset=utf-8", []byte(swaggerPage))
	return nil
}

const swaggerStatic = "/api/schema/swagger-ui/static/"

var swaggerPage = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>inventory REST API</title>
<link rel="stylesheet" href="` + swaggerStatic + `swagger-ui.css">
<link rel="icon" type="image/png" href="` + swaggerStatic + `favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="` + swaggerStatic + `swagger-ui-bundle.js"></script>
<script src="` + swaggerStatic + `swagger-ui-standalone-preset.js"></script>
<script>
window.ui = SwaggerUIBundle({
  url: "/api/schema/?format=json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  persistAuthorization: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  plugins: [SwaggerUIBundle.plugins.DownloadUrl],
  layout: "StandaloneLayout"
});
</script>
</body>
</html>
`

// assets serves the embedded files of a documentation page; they never
// change within a build, so they may be cached for a day.
func assets(files fs.FS) func(*gin.Context) error {
	return func(c *gin.Context) error {
		name := c.Param("file")
		b, err := fs.ReadFile(files, name)
		if err != nil || strings.Contains(name, "/") {
			return errNotFound
		}
		ct := mime.TypeByExtension(path.Ext(name))
		switch {
		case strings.HasSuffix(name, ".js"):
			ct = "text/javascript; charset=utf-8"
		case strings.HasSuffix(name, ".css"):
			ct = "text/css; charset=utf-8"
		case ct == "" || name == "LICENSE" || name == "NOTICE":
			ct = "text/plain; charset=utf-8"
		}
		c.Header("Cache-Control", "public, max-age=86400")
		c.Data(http.StatusOK, ct, b)
		return nil
	}
}

// builtDoc is the document, encoded as JSON at once and as YAML when
// first asked for.
type builtDoc struct {
	json     []byte
	filters  map[string][]string // list route → its filter parameters
	yamlOnce sync.Once
	yaml     []byte
	yamlErr  error
	redocState
}

func (d *builtDoc) yamlBytes() ([]byte, error) {
	d.yamlOnce.Do(func() {
		d.yaml, d.yamlErr = yaml.JSONToYAML(d.json)
	})
	return d.yaml, d.yamlErr
}

// The document depends only on the descriptors and the version: built on
// first request, then cached for the life of the process.
var openAPICache struct {
	sync.Mutex
	docs     map[string]*builtDoc
	building map[string]bool // openAPIReady started the build
}

// openAPIReady returns the cached document for version if it is built,
// else nil, having started its build in the background: the browsable
// API's filter form reads it, and a page does not wait seconds for it.
func openAPIReady(version string) *builtDoc {
	if !openAPICache.TryLock() {
		return nil // being built (openAPIFor holds the lock meanwhile)
	}
	d := openAPICache.docs[version]
	start := d == nil && !openAPICache.building[version]
	if start {
		if openAPICache.building == nil {
			openAPICache.building = map[string]bool{}
		}
		openAPICache.building[version] = true
	}
	openAPICache.Unlock()
	if start {
		go openAPIFor(version)
	}
	return d
}

// WarmOpenAPI builds the document and its ReDoc index in the background
// (about a second of one core, once per process), as `inventory serve`
// does at start-up: the first /api/schema/, ReDoc page or filter form does
// not wait for them. A failure is left for a request to report.
func (s *Server) WarmOpenAPI() {
	go func() {
		if d, err := openAPIFor(s.cfg.Version); err == nil {
			d.redoc()
		}
	}()
}

// openAPIFor returns the cached document for a service version.
func openAPIFor(version string) (*builtDoc, error) {
	openAPICache.Lock()
	defer openAPICache.Unlock()
	if d, ok := openAPICache.docs[version]; ok {
		return d, nil
	}
	doc := BuildOpenAPI(version)
	j, err := oasMarshal(doc)
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	d := &builtDoc{json: j, filters: map[string][]string{}}
	// A list's query parameters but the paging ones, by route pattern
	// (a list's path has no parameter, so it is its gin route too): the
	// browsable API's filter form offers them.
	for path, item := range doc.Paths.Map() {
		if item.Get == nil {
			continue
		}
		var names []string
		list := false
		for _, p := range item.Get.Parameters {
			switch n := p.Value.Name; {
			case p.Value.In != "query":
			case n == "limit":
				list = true
			case n == "offset" || n == "start" || n == "brief" || n == "fields" || n == "omit" || n == "format":
			default:
				names = append(names, n)
			}
		}
		if list {
			d.filters[path] = names
		}
	}
	if openAPICache.docs == nil {
		openAPICache.docs = map[string]*builtDoc{}
	}
	openAPICache.docs[version] = d
	return d, nil
}

// oasTopOrder is the conventional order of the document's top-level keys
// (the specification's and drf-spectacular's): tools that sniff the first
// bytes for `{"openapi":` (or `openapi:` in YAML, converted from this JSON
// with its order kept) recognise it. kin-openapi marshals the top level
// through a map, hence alphabetically (components first).
var oasTopOrder = []string{"openapi", "info", "jsonSchemaDialect", "servers", "paths", "webhooks", "components", "security", "tags", "externalDocs"}

// oasMarshal encodes doc as JSON with its top-level keys in oasTopOrder
// (any other key, an extension, after them in name order).
func oasMarshal(doc *openapi3.T) ([]byte, error) {
	top, err := doc.MarshalYAML()
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	m := top.(map[string]any)
	keys := slices.Clone(oasTopOrder)
	var rest []string
	for k := range m {
		if !slices.Contains(oasTopOrder, k) {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	var buf bytes.Buffer
	buf.WriteByte('{')
	for _, k := range append(keys, rest...) {
		v, ok := m[k]
		if !ok {
			continue
		}
		val, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("openapi: %s: %w", k, err)
		}
		if buf.Len() > 1 {
			buf.WriteByte(',')
		}
		name, _ := json.Marshal(k)
		buf.Write(name)
		buf.WriteByte(':')
		buf.Write(val)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// BuildOpenAPI describes the API served by this build: every model of
// resource.All() with NetBox's schema names (<Type>,
// Brief<Type>, Writable<Type>Request, PatchedWritable<Type>Request,
// Paginated<Type>List) and operation ids (<app>_<path>_list, ...), plus
// every special endpoint of the registry (aliases included).
func BuildOpenAPI(version string) *openapi3.T {
	b := &oasBuilder{schemas: openapi3.Schemas{}, paths: openapi3.NewPaths()}
	b.common()
	for _, d := range resource.All() {
		b.model(d)
	}
	if tag := resource.ByContentType("extras.tag"); tag != nil {
		// A tag inside an object's tags.
		nt := oasObject(map[string]*openapi3.SchemaRef{})
		for _, f := range tag.TagFields() {
			nt.Properties[f.Name] = b.readField(f)
			nt.Required = append(nt.Required, f.Name)
		}
		b.schemas["NestedTag"] = oasVal(nt)
	}
	for _, d := range resource.All() {
		b.modelPaths(d.App, d.Path, d)
	}
	b.specialPaths(mustRegistry())
	for _, item := range b.paths.Map() {
		for _, o := range item.Operations() {
			if o.RequestBody != nil {
				o.Responses.Set("413", oasErrorRef("PayloadTooLarge"))
			}
		}
	}
	doc := &openapi3.T{
		OpenAPI: "3.0.3",
		Info: &openapi3.Info{
			Title:       "inventory REST API",
			Version:     version,
			Description: "A NetBox " + apiVersion(version) + " compatible REST API.",
			License:     &openapi3.License{Name: "Apache v2 License"},
		},
		Paths: b.paths,
		Components: &openapi3.Components{
			Schemas:   b.schemas,
			Responses: b.responses(),
			SecuritySchemes: openapi3.SecuritySchemes{
				"tokenAuth": &openapi3.SecuritySchemeRef{Value: &openapi3.SecurityScheme{
					Type: "apiKey",
					In:   "header",
					Name: "Authorization",
					Description: "Token authentication: `Authorization: Token <40-character v1 token>` " +
						"or `Authorization: Bearer nbt_<key>.<token>` (v2).",
				}},
			},
		},
		Security: openapi3.SecurityRequirements{{"tokenAuth": []string{}}, {}},
		Tags:     b.tags(),
	}
	oasNullEnums(doc)
	return doc
}

// oasNullEnums adds null to the enum of every nullable schema with one:
// JSON Schema validators (schemathesis among them) read an enum as the
// complete list of allowed values, nullable or not, so a nullable choice
// without null in its enum would promise a 400 for the null the server
// takes (a VLAN group's scope_type).
func oasNullEnums(doc *openapi3.T) {
	seen := map[*openapi3.Schema]bool{}
	var visit func(r *openapi3.SchemaRef)
	visit = func(r *openapi3.SchemaRef) {
		if r == nil || r.Value == nil || seen[r.Value] {
			return
		}
		s := r.Value
		seen[s] = true
		if s.Nullable && len(s.Enum) > 0 && !slices.Contains(s.Enum, nil) {
			s.Enum = append(s.Enum, nil)
		}
		for _, l := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
			for _, c := range l {
				visit(c)
			}
		}
		visit(s.Not)
		visit(s.Items)
		visit(s.AdditionalProperties.Schema)
		for _, p := range s.Properties {
			visit(p)
		}
	}
	for _, r := range doc.Components.Schemas {
		visit(r)
	}
	for _, item := range doc.Paths.Map() {
		for _, o := range item.Operations() {
			for _, p := range o.Parameters {
				if p.Value != nil {
					visit(p.Value.Schema)
				}
			}
			if o.RequestBody != nil && o.RequestBody.Value != nil {
				for _, mt := range o.RequestBody.Value.Content {
					visit(mt.Schema)
				}
			}
			for _, resp := range o.Responses.Map() {
				if resp.Value != nil {
					for _, mt := range resp.Value.Content {
						visit(mt.Schema)
					}
				}
			}
		}
	}
}

type oasBuilder struct {
	schemas openapi3.Schemas
	paths   *openapi3.Paths
	apps    map[string]bool
	// forms are the multipart forms of the special endpoints' shapes
	// that carry a file, by shape name.
	forms map[string]*openapi3.Schema
	// nestedForms are the field lists of the Nested<Type> schemas made
	// so far, by schema name (relatedSchema).
	nestedForms map[string]string
}

// --- small schema helpers ---------------------------------------------

func oasRef(name string) *openapi3.SchemaRef {
	return openapi3.NewSchemaRef("#/components/schemas/"+name, nil)
}

func oasVal(s *openapi3.Schema) *openapi3.SchemaRef { return openapi3.NewSchemaRef("", s) }

func oasTyped(t string) *openapi3.Schema { return &openapi3.Schema{Type: &openapi3.Types{t}} }

func oasObject(props map[string]*openapi3.SchemaRef, required ...string) *openapi3.Schema {
	s := oasTyped("object")
	s.Properties = props
	s.Required = required
	return s
}

func oasFreeObject() *openapi3.Schema {
	s := oasTyped("object")
	yes := true
	s.AdditionalProperties = openapi3.AdditionalProperties{Has: &yes}
	return s
}

func oasArrayOf(items *openapi3.SchemaRef) *openapi3.Schema {
	s := oasTyped("array")
	s.Items = items
	return s
}

// nullableRef is a $ref that may be null (OpenAPI 3.0 ignores siblings of
// $ref, hence the allOf).
func oasNullableRef(r *openapi3.SchemaRef, readOnly bool) *openapi3.SchemaRef {
	return oasVal(&openapi3.Schema{AllOf: openapi3.SchemaRefs{r}, Nullable: true, ReadOnly: readOnly})
}

func oasJSONResponse(desc string, s *openapi3.SchemaRef) *openapi3.ResponseRef {
	return &openapi3.ResponseRef{Value: openapi3.NewResponse().WithDescription(desc).WithJSONSchemaRef(s)}
}

func oasEmptyResponse(desc string) *openapi3.ResponseRef {
	return &openapi3.ResponseRef{Value: openapi3.NewResponse().WithDescription(desc)}
}

func oasJSONBody(s *openapi3.SchemaRef, required bool) *openapi3.RequestBodyRef {
	return &openapi3.RequestBodyRef{Value: &openapi3.RequestBody{
		Required: required,
		Content:  openapi3.NewContentWithJSONSchemaRef(s),
	}}
}

func oasErrorRef(name string) *openapi3.ResponseRef {
	return &openapi3.ResponseRef{Ref: "#/components/responses/" + name}
}

func oasQueryParam(name, desc string, s *openapi3.Schema) *openapi3.ParameterRef {
	p := openapi3.NewQueryParameter(name).WithSchema(s)
	p.Description = desc
	return &openapi3.ParameterRef{Value: p}
}

// common schemas and responses shared by every model.
func (b *oasBuilder) common() {
	detail := oasObject(map[string]*openapi3.SchemaRef{"detail": oasVal(oasTyped("string"))}, "detail")
	b.schemas["Error"] = oasVal(detail)
	b.schemas["ValidationError"] = oasVal(&openapi3.Schema{
		Description: "Field name (or non_field_errors) → messages; bulk requests get a list of these.",
		Type:        &openapi3.Types{"object"},
		AdditionalProperties: openapi3.AdditionalProperties{Schema: oasVal(&openapi3.Schema{
			OneOf: openapi3.SchemaRefs{oasVal(oasArrayOf(oasVal(oasTyped("string")))), oasVal(oasFreeObject())},
		})},
	})
	b.schemas["ObjectReference"] = oasVal(&openapi3.Schema{
		Description: "A related object by its id, or by attributes that identify it (for example {\"slug\": \"dc1\"}).",
		OneOf:       openapi3.SchemaRefs{oasVal(oasTyped("integer")), oasVal(oasFreeObject())},
	})
	b.schemas["BulkDeleteRequest"] = oasVal(oasObject(map[string]*openapi3.SchemaRef{"id": oasVal(oasTyped("integer"))}, "id"))
}

func (b *oasBuilder) responses() openapi3.ResponseBodies {
	return openapi3.ResponseBodies{
		"BadRequest": &openapi3.ResponseRef{Value: openapi3.NewResponse().WithDescription("Invalid input.").
			WithJSONSchemaRef(oasVal(&openapi3.Schema{OneOf: openapi3.SchemaRefs{
				oasRef("ValidationError"), oasVal(oasArrayOf(oasRef("ValidationError"))), oasVal(oasArrayOf(oasVal(oasTyped("string")))), oasRef("Error"),
			}}))},
		"Forbidden": &openapi3.ResponseRef{Value: openapi3.NewResponse().
			WithDescription("Not authenticated, invalid token, or permission denied.").WithJSONSchemaRef(oasRef("Error"))},
		"NotFound": &openapi3.ResponseRef{Value: openapi3.NewResponse().WithDescription("Not found.").WithJSONSchemaRef(oasRef("Error"))},
		"Conflict": &openapi3.ResponseRef{Value: openapi3.NewResponse().
			WithDescription("The object is protected by related objects, or (allocations) the space is exhausted.").WithJSONSchemaRef(oasRef("Error"))},
		"UnprocessableContent": &openapi3.ResponseRef{Value: openapi3.NewResponse().
			WithDescription("The Idempotency-Key was used for a different request.").WithJSONSchemaRef(oasRef("Error"))},
		"PayloadTooLarge": &openapi3.ResponseRef{Value: openapi3.NewResponse().
			WithDescription("The request body is larger than the server accepts.").WithJSONSchemaRef(oasRef("Error"))},
		"PreconditionFailed": &openapi3.ResponseRef{Value: openapi3.NewResponse().
			WithDescription("If-Match does not match the object's ETag.").WithJSONSchemaRef(oasRef("Error"))},
	}
}

func (b *oasBuilder) tags() openapi3.Tags {
	var names []string
	for a := range b.apps {
		names = append(names, a)
	}
	sort.Strings(names)
	var out openapi3.Tags
	for _, n := range names {
		out = append(out, &openapi3.Tag{Name: n})
	}
	return out
}

// --- model schemas -----------------------------------------------------

// oasCount is a page's count: null under cursor pagination (?start=),
// which does not count.
func oasCount() *openapi3.SchemaRef {
	s := oasTyped("integer")
	s.Nullable = true
	return oasVal(s)
}

// model adds the schemas of one model.
func (b *oasBuilder) model(d *resource.Descriptor) {
	t := d.Type
	// The complete representation.
	// No property is required: ?fields=, ?omit= and ?brief= leave any of
	// them out of a response, and a required property that can be absent
	// breaks generated clients (issue 16). The nested forms (Brief, Nested)
	// are always complete and keep theirs.
	full := oasObject(map[string]*openapi3.SchemaRef{})
	for _, f := range d.FullFields() {
		full.Properties[f.Name] = b.readField(f)
	}
	full.Description = "Every property may be left out by ?fields=, ?omit= or ?brief=."
	b.schemas[t] = oasVal(full)

	// Brief: ?brief=1 and the object nested in an FK (which leaves out
	// relation counts).
	brief := oasObject(map[string]*openapi3.SchemaRef{})
	nested := map[string]bool{}
	for _, f := range d.NestedFields() {
		nested[f.Name] = true
	}
	for _, f := range d.BriefFields() {
		brief.Properties[f.Name] = b.readField(f)
		if nested[f.Name] && (f.ReadOnly || f.Required) {
			brief.Required = append(brief.Required, f.Name)
		}
	}
	b.schemas["Brief"+t] = oasVal(brief)

	b.schemas["Paginated"+t+"List"] = oasVal(oasObject(map[string]*openapi3.SchemaRef{
		"count":    oasCount(),
		"next":     oasVal(&openapi3.Schema{Type: &openapi3.Types{"string"}, Format: "uri", Nullable: true}),
		"previous": oasVal(&openapi3.Schema{Type: &openapi3.Types{"string"}, Format: "uri", Nullable: true}),
		"results":  oasVal(oasArrayOf(oasRef(t))),
	}, "count", "next", "previous", "results"))

	if d.ReadOnlyAPI {
		return
	}
	// The writable forms: full (POST, PUT) and partial (PATCH).
	w := oasObject(map[string]*openapi3.SchemaRef{})
	p := oasObject(map[string]*openapi3.SchemaRef{})
	for _, f := range d.Fields {
		if !oasWritable(f) {
			continue
		}
		w.Properties[f.Name] = b.writeField(f)
		if !f.CreateOnly {
			// Ignored on update: any value is accepted there, so the
			// partial form does not describe it.
			p.Properties[f.Name] = b.writeField(f)
		}
		if f.Required {
			w.Required = append(w.Required, f.Name)
		}
	}
	if d.Tagged {
		tags := oasVal(&openapi3.Schema{
			Type:        &openapi3.Types{"array"},
			Description: "Tags by id or by attributes (name, slug); null is no change.",
			Items:       oasRef("ObjectReference"),
			Nullable:    true,
		})
		for _, name := range []string{"tags", "add_tags", "remove_tags"} {
			w.Properties[name], p.Properties[name] = tags, tags
		}
	}
	b.schemas["Writable"+t+"Request"] = oasVal(w)
	b.schemas["PatchedWritable"+t+"Request"] = oasVal(p)
	withID := oasObject(map[string]*openapi3.SchemaRef{"id": oasVal(oasTyped("integer"))}, "id")
	b.schemas["Bulk"+t+"Request"] = oasVal(&openapi3.Schema{AllOf: openapi3.SchemaRefs{oasVal(withID), oasRef("Writable" + t + "Request")}})
	b.schemas["PatchedBulk"+t+"Request"] = oasVal(&openapi3.Schema{AllOf: openapi3.SchemaRefs{oasVal(withID), oasRef("PatchedWritable" + t + "Request")}})
}

// writable says whether a field is accepted on input.
func oasWritable(f *resource.Field) bool {
	if f.ReadOnly {
		return false
	}
	switch f.Kind {
	case resource.KindHidden, resource.KindID, resource.KindURL, resource.KindDisplayURL, resource.KindDisplay,
		resource.KindCount, resource.KindEmpty, resource.KindGenericObject, resource.KindTags:
		return false
	}
	return true
}

// choiceValues are the values of a field's choices and their JSON type.
func oasChoiceValues(f *resource.Field) ([]any, string) {
	vals := make([]any, len(f.Choices))
	typ := "string"
	for i, c := range f.Choices {
		vals[i] = c.Value
		if _, ok := c.Value.(int); ok {
			typ = "integer"
		}
	}
	return vals, typ
}

// baseField is the schema of a field's value, read or written, from its
// type family (oasType) refined by the kind.
func (b *oasBuilder) baseField(f *resource.Field) *openapi3.Schema {
	var s *openapi3.Schema
	switch oasType(f) {
	case "integer":
		s = oasTyped("integer")
		if f.Min != nil {
			m := float64(*f.Min)
			s.Min = &m
		}
		if f.Max != nil {
			m := float64(*f.Max)
			s.Max = &m
		}
	case "boolean":
		s = oasTyped("boolean")
	case "decimal":
		s = oasTyped("number")
		s.Format = "double"
	case "datetime":
		s = oasTyped("string")
		s.Format = "date-time"
	case "date":
		s = oasTyped("string")
		s.Format = "date"
	case "url":
		s = oasTyped("string")
		s.Format = "uri"
	case "slug":
		s = oasTyped("string")
		s.Pattern = `^[-a-zA-Z0-9_]+$`
	case "list":
		s = oasArrayOf(oasVal(oasTyped("string")))
		if f.Kind == resource.KindJSON {
			s = oasValueSchema(f)
		}
	case "nested object":
		s = oasValueSchema(f)
	default:
		s = b.stringish(f)
	}
	if f.MaxLen > 0 && s.Type.Is("string") {
		n := uint64(f.MaxLen)
		s.MaxLength = &n
	}
	if len(f.Choices) > 0 && f.Kind != resource.KindChoice {
		// A choice rendered as its bare value (a token's version).
		vals, typ := oasChoiceValues(f)
		s = oasTyped(typ)
		s.Enum = vals
	}
	if f.Nullable {
		s.Nullable = true
	}
	return s
}

// valueSchema is the schema of a JSON column, from its Go type.
func oasValueSchema(f *resource.Field) *openapi3.Schema {
	switch f.GoType {
	case "map[string]interface {}":
		return oasFreeObject()
	case "[][]string":
		// [value, label] pairs (a choice set's extra_choices): exactly two
		// items each, text or a number stored as its text
		// (resource.decodeJSON).
		pair := oasArrayOf(oasVal(&openapi3.Schema{AnyOf: openapi3.SchemaRefs{oasVal(oasTyped("string")), oasVal(oasTyped("number"))}}))
		pair.MinItems, pair.MaxItems = 2, openapi3.Uint64Ptr(2)
		return oasArrayOf(oasVal(pair))
	case "[][]int":
		return oasArrayOf(oasVal(oasArrayOf(oasVal(oasTyped("integer")))))
	case "[]string":
		return oasArrayOf(oasVal(oasTyped("string")))
	case "[]int":
		return oasArrayOf(oasVal(oasTyped("integer")))
	}
	return &openapi3.Schema{Description: "Any JSON value."}
}

// stringish refines the "string" type OPTIONS reports for kinds that are
// not plain text.
func (b *oasBuilder) stringish(f *resource.Field) *openapi3.Schema {
	switch f.Kind {
	case resource.KindDisplayURL:
		s := oasTyped("string")
		s.Format = "uri"
		return s
	case resource.KindEmpty:
		// A field of a model not built yet, rendered with its empty value.
		switch f.Empty.(type) {
		case int:
			return oasTyped("integer")
		case []any:
			return oasArrayOf(oasVal(oasFreeObject()))
		}
		return &openapi3.Schema{Nullable: true, Description: "Always null: the related model is not served yet."}
	case resource.KindGenericType:
		s := oasTyped("string")
		if len(f.Types) > 0 {
			s.Enum = make([]any, len(f.Types))
			for i, t := range f.Types {
				s.Enum[i] = t
			}
			if f.Nullable {
				// "" is null, as DRF's RelatedField reads it.
				oasAddBlank(s)
			}
		}
		return s
	case "uuid":
		s := oasTyped("string")
		s.Format = "uuid"
		return s
	case "email":
		s := oasTyped("string")
		if f.Required {
			// An optional address is "" when not set: no format then,
			// as formats hold only where every value satisfies them.
			s.Format = "email"
		}
		return s
	case "password":
		s := oasTyped("string")
		s.WriteOnly = true
		return s
	}
	if f.GoType == "[]string" || f.GoType == "json.RawMessage" {
		return oasValueSchema(f)
	}
	return oasTyped("string")
}

// readField is a field in a response.
func (b *oasBuilder) readField(f *resource.Field) *openapi3.SchemaRef {
	switch f.Kind {
	case resource.KindImage:
		s := oasTyped("string")
		s.Format = "uri"
		return oasVal(s)
	case resource.KindFK:
		if f.PK {
			return oasPK(f)
		}
		r := oasRef(b.relatedSchema(f))
		if f.Nullable {
			return oasNullableRef(r, f.ReadOnly)
		}
		return r
	case resource.KindCoalesce:
		return oasNullableRef(oasRef("Brief"+f.TargetModel().Type), true)
	case resource.KindReverse:
		if f.Reverse.Exists {
			s := oasTyped("boolean")
			s.ReadOnly = true
			return oasVal(s)
		}
		if !f.Reverse.Many {
			return b.reverseOne(f)
		}
		return oasVal(oasArrayOf(oasRef(b.relatedSchema(f))))
	case resource.KindM2M:
		if f.ByLookup {
			return oasVal(oasArrayOf(oasVal(oasTyped("string")))) // a config context's tag slugs
		}
		if f.Full {
			return oasVal(oasArrayOf(oasRef(f.TargetModel().Type)))
		}
		return oasVal(oasArrayOf(oasRef(b.relatedSchema(f))))
	case resource.KindTags:
		return oasVal(oasArrayOf(oasRef("NestedTag")))
	case resource.KindComputedRefs:
		// link_peers, connected_endpoints: the objects nested (a list,
		// [] or null when there are none), or the content type of the
		// first (their _type: null when none).
		s := oasArrayOf(oasVal(oasFreeObject()))
		if f.RefsRender == resource.RefsType {
			s = oasTyped("string")
		}
		s.Nullable, s.ReadOnly = true, true
		return oasVal(s)
	case resource.KindGenericRefs:
		// A cable's a_terminations/b_terminations: type, id and the object nested.
		ref := oasObject(map[string]*openapi3.SchemaRef{
			"object_type": oasVal(oasTyped("string")), "object_id": oasVal(oasTyped("integer")), "object": oasVal(oasFreeObject()),
		}, "object_type", "object_id")
		return oasVal(oasArrayOf(oasVal(ref)))
	case resource.KindCustomFields:
		s := oasFreeObject()
		s.Description = "Custom field name → value."
		return oasVal(s)
	case resource.KindGenericObject:
		// anyOf, not oneOf: the brief forms of several models share their
		// properties (id, url, display, name), so one object can match
		// more than one of them.
		s := &openapi3.Schema{Nullable: true, ReadOnly: true}
		for _, t := range f.Types {
			if td := resource.ByContentType(t); td != nil {
				s.AnyOf = append(s.AnyOf, oasRef("Brief"+td.Type))
			}
		}
		if len(s.AnyOf) == 0 {
			s = oasFreeObject()
			s.Nullable, s.ReadOnly = true, true
			s.Description = "The brief representation of the related object."
		}
		return oasVal(s)
	case resource.KindChoice:
		vals, typ := oasChoiceValues(f)
		labels := make([]any, len(f.Choices))
		for i, c := range f.Choices {
			labels[i] = c.Label
		}
		value := oasTyped(typ)
		value.Enum = vals
		label := oasTyped("string")
		label.Enum = labels
		s := oasObject(map[string]*openapi3.SchemaRef{"value": oasVal(value), "label": oasVal(label)}, "value", "label")
		// An empty choice renders as null.
		s.Nullable = true
		s.ReadOnly = f.ReadOnly
		return oasVal(s)
	}
	s := b.baseField(f)
	if f.ReadOnly {
		s.ReadOnly = true
	}
	switch {
	case f.Kind == resource.KindComputed, f.Kind == resource.KindCount && f.Count.Percent != "":
		// Filled per page or a percentage (a VLAN group's utilization):
		// null when there is nothing to show.
		s.Nullable = true
	}
	return oasVal(s)
}

// reverseOne is a reverse relation rendering at most one row: that row
// nested, or with Through the object its Through key points at, the row
// itself nested under As; null when there is none.
func (b *oasBuilder) reverseOne(f *resource.Field) *openapi3.SchemaRef {
	if f.Reverse.Through == "" {
		return oasNullableRef(oasRef(b.relatedSchema(f)), true)
	}
	td := f.TargetModel()
	via := td.Field(f.Reverse.Through)
	form, asForm := via.TargetModel().NestedFields(), td.NestedFields()
	if len(f.Nested) > 0 {
		form, asForm = f.RelatedForm(), f.AsForm()
	}
	s := b.formObject(form)
	if f.Reverse.As != "" {
		s.Properties[f.Reverse.As] = oasVal(b.formObject(asForm))
		s.Required = append(s.Required, f.Reverse.As)
	}
	s.Nullable, s.ReadOnly = true, true
	return oasVal(s)
}

// formObject is an object rendered in a nested form: every field present.
func (b *oasBuilder) formObject(form []*resource.Field) *openapi3.Schema {
	s := oasObject(map[string]*openapi3.SchemaRef{})
	for _, tf := range form {
		s.Properties[tf.Name] = b.readField(tf)
		s.Required = append(s.Required, tf.Name)
	}
	return s
}

// writeField is a field in a request.
func (b *oasBuilder) writeField(f *resource.Field) *openapi3.SchemaRef {
	switch f.Kind {
	case resource.KindImage:
		s := oasTyped("string")
		s.Description = "The image: a file part of multipart/form-data, or in JSON a base64 data URI (data:image/png;base64,...)."
		return oasVal(s)
	case resource.KindFK:
		// PK fields render as the bare id but are written like any
		// relation: an id or identifying attributes.
		if f.Nullable {
			// "" is null too, as DRF's RelatedField reads it.
			blank := oasTyped("string")
			blank.Enum = []any{""}
			return oasVal(&openapi3.Schema{AnyOf: openapi3.SchemaRefs{oasRef("ObjectReference"), oasVal(blank)}, Nullable: true})
		}
		return oasRef("ObjectReference")
	case resource.KindM2M, resource.KindReverse: // a writable reverse: the ids that move here
		if f.ByLookup {
			// Slugs; a number is looked up as its text (DRF's
			// SlugRelatedField, as the server).
			return oasVal(oasArrayOf(oasVal(&openapi3.Schema{AnyOf: openapi3.SchemaRefs{oasVal(oasTyped("string")), oasVal(oasTyped("number"))}})))
		}
		return oasVal(oasArrayOf(oasRef("ObjectReference")))
	case resource.KindGenericRefs:
		// A cable's a_terminations/b_terminations: the objects by type and id.
		ref := oasObject(map[string]*openapi3.SchemaRef{
			"object_type": oasVal(oasTyped("string")), "object_id": oasVal(oasTyped("integer")),
		}, "object_type", "object_id")
		return oasVal(oasArrayOf(oasVal(ref)))
	case resource.KindCustomFields:
		s := oasFreeObject()
		s.Description = "Custom field name → value; null is no change."
		s.Nullable = true
		return oasVal(s)
	case resource.KindChoice:
		vals, typ := oasChoiceValues(f)
		s := oasTyped(typ)
		s.Enum = vals
		// null where the field allows null, and where it allows blank
		// (NetBox's ChoiceField reads null as blank there); "" where it
		// allows blank (Field.Blank). Both read back as null.
		s.Nullable = f.Nullable || f.Blank
		if f.Blank && typ == "string" {
			oasAddBlank(s)
		}
		return oasVal(s)
	case "password":
		// Any length: only its hash is stored (NetBox's serializer field
		// has no max_length).
		s := oasTyped("string")
		s.WriteOnly = true
		return oasVal(s)
	case resource.KindString, resource.KindText, resource.KindSecret, "slug":
		if len(f.Choices) == 0 {
			// DRF's CharField takes a number too and stores its text
			// (pynetbox scripts send serial=12345), and so does the server.
			// The trade-off: NetBox's document says plain `type: string`,
			// which gives generated clients a plain string field, but
			// promises a 400 for a number that neither NetBox nor this
			// server gives (a fuzzer's negative-data check reports every
			// text field of every model). Refusing numbers instead would
			// break NetBox clients that send them. So request bodies say
			// anyOf[string, number]: exact, and a client that sends only
			// strings still conforms; generators that model anyOf as a
			// union pay for it in requests only, as they already do for
			// related objects (an id or attributes, as in NetBox's own
			// document). Responses, what generated clients decode, keep
			// plain strings.
			s := b.baseField(f)
			num := oasTyped("number")
			return oasVal(&openapi3.Schema{AnyOf: openapi3.SchemaRefs{oasVal(s), oasVal(num)}, Nullable: s.Nullable})
		}
	}
	base := b.baseField(f)
	if len(base.Enum) > 0 && f.Blank && base.Type.Is("string") {
		// A bare-value choice (an FHRP group's auth_type): blank clears it.
		oasAddBlank(base)
	}
	if alt := oasLenientAlt(f, base); alt != nil {
		return oasVal(&openapi3.Schema{AnyOf: openapi3.SchemaRefs{oasVal(base), oasVal(alt)}, Nullable: base.Nullable})
	}
	return oasVal(base)
}

// Texts the server reads as numbers and booleans, as DRF's fields do.
const (
	oasNumericText = `^\s*[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?\s*$`
	// Any letter case (decodeBool lowers it), spelled out: patterns are
	// ECMA 262 regular expressions, which have no (?i).
	oasBoolWords = "(?:[tT][rR][uU][eE]|[fF][aA][lL][sS][eE]|1|0|[yY][eE][sS]|[nN][oO]|[oO][nN]|[oO][fF][fF]|[tT]|[fF]|[yY]|[nN])"
	oasBoolText  = `^` + oasBoolWords + `$`
)

// oasLenientAlt is what DRF's fields accept besides their JSON type, so
// that the document does not promise a 400 the server does not give: an
// integer or a number as numeric text, a boolean as 0/1 or text ("true",
// "yes", "on"...).
func oasLenientAlt(f *resource.Field, base *openapi3.Schema) *openapi3.Schema {
	if len(f.Choices) > 0 || len(base.Enum) > 0 || base.Type == nil {
		return nil
	}
	switch {
	case base.Type.Is("integer") && f.Kind == resource.KindInt, base.Type.Is("number") && f.Kind == resource.KindFloat:
		s := oasTyped("string")
		s.Pattern = oasNumericText
		return s
	case base.Type.Is("boolean"):
		return &openapi3.Schema{AnyOf: openapi3.SchemaRefs{
			oasVal(&openapi3.Schema{Type: &openapi3.Types{"integer"}, Enum: []any{0, 1}}),
			oasVal(&openapi3.Schema{Type: &openapi3.Types{"string"}, Pattern: oasBoolText}),
		}}
	}
	return nil
}

// --- model paths -------------------------------------------------------

func (b *oasBuilder) op(app, id, summary string, params openapi3.Parameters) *openapi3.Operation {
	if b.apps == nil {
		b.apps = map[string]bool{}
	}
	b.apps[app] = true
	o := openapi3.NewOperation()
	o.Tags = []string{app}
	o.OperationID = id
	o.Summary = summary
	o.Parameters = params
	o.Responses = openapi3.NewResponses()
	o.Responses.Set("403", oasErrorRef("Forbidden"))
	return o
}

// viewParams are the representation parameters of list and detail GETs.
func oasViewParams() openapi3.Parameters {
	return openapi3.Parameters{
		oasQueryParam("brief", "Render the brief representation: any non-empty value, false included, as NetBox reads it.",
			&openapi3.Schema{AnyOf: openapi3.SchemaRefs{oasVal(oasTyped("boolean")), oasVal(oasTyped("string"))}}),
		oasQueryParam("fields", "Comma-separated fields to render (all others are left out).", oasTyped("string")),
		oasQueryParam("omit", "Comma-separated fields to leave out.", oasTyped("string")),
		oasQueryParam("exclude", "Comma-separated fields to leave out (accepted for compatibility).", oasTyped("string")),
	}
}

// modelPaths adds the list and detail routes of d served under app/path.
func (b *oasBuilder) modelPaths(app, p string, d *resource.Descriptor) {
	t := d.Type
	prefix := app + "_" + strings.ReplaceAll(p, "-", "_")
	verbose := d.Verbose
	a := "a "
	if strings.ContainsRune("aeiou", rune(verbose[0])) {
		a = "an "
	}
	plural := strings.ReplaceAll(p, "-", " ")

	list := &openapi3.PathItem{}
	get := b.op(app, prefix+"_list", "List "+plural, append(b.listParams(d), oasViewParams()...))
	get.Responses.Set("200", oasJSONResponse("A page of "+plural+".", oasRef("Paginated"+t+"List")))
	get.Responses.Set("400", oasErrorRef("BadRequest"))
	list.Get = get

	idParam := &openapi3.ParameterRef{Value: openapi3.NewPathParameter("id").WithSchema(oasTyped("integer"))}
	idParam.Value.Description = "The " + verbose + "'s id."
	detail := &openapi3.PathItem{}
	dget := b.op(app, prefix+"_retrieve", "Get "+a+verbose, append(openapi3.Parameters{idParam}, oasViewParams()...))
	dget.Responses.Set("200", oasJSONResponse("The "+verbose+".", oasRef(t)))
	dget.Responses.Set("404", oasErrorRef("NotFound"))
	detail.Get = dget

	if !d.ReadOnlyAPI {
		w, pw := oasRef("Writable"+t+"Request"), oasRef("PatchedWritable"+t+"Request")
		post := b.op(app, prefix+"_create", "Create one "+verbose+" or a list of them", nil)
		post.RequestBody = oasJSONBody(oasVal(&openapi3.Schema{OneOf: openapi3.SchemaRefs{w, oasVal(oasArrayOf(w))}}), true)
		oasMultipart(d, post.RequestBody, w)
		post.Responses.Set("201", oasJSONResponse("The created object (or list of objects).",
			oasVal(&openapi3.Schema{OneOf: openapi3.SchemaRefs{oasRef(t), oasVal(oasArrayOf(oasRef(t)))}})))
		post.Responses.Set("400", oasErrorRef("BadRequest"))
		list.Post = post

		bput := b.op(app, prefix+"_bulk_update", "Update "+plural+" (complete representations with ids)", nil)
		bput.RequestBody = oasJSONBody(oasVal(oasArrayOf(oasRef("Bulk"+t+"Request"))), true)
		bput.Responses.Set("200", oasJSONResponse("The updated objects.", oasVal(oasArrayOf(oasRef(t)))))
		bput.Responses.Set("400", oasErrorRef("BadRequest"))
		list.Put = bput

		bpatch := b.op(app, prefix+"_bulk_partial_update", "Partially update "+plural+" (changed attributes with ids)", nil)
		bpatch.RequestBody = oasJSONBody(oasVal(oasArrayOf(oasRef("PatchedBulk"+t+"Request"))), true)
		bpatch.Responses.Set("200", oasJSONResponse("The updated objects.", oasVal(oasArrayOf(oasRef(t)))))
		bpatch.Responses.Set("400", oasErrorRef("BadRequest"))
		list.Patch = bpatch

		bdel := b.op(app, prefix+"_bulk_destroy", "Delete "+plural+" by id", nil)
		bdel.RequestBody = oasJSONBody(oasVal(oasArrayOf(oasRef("BulkDeleteRequest"))), true)
		bdel.Responses.Set("204", oasEmptyResponse("Deleted."))
		bdel.Responses.Set("400", oasErrorRef("BadRequest"))
		bdel.Responses.Set("409", oasErrorRef("Conflict"))
		list.Delete = bdel

		ifMatch := &openapi3.ParameterRef{Value: openapi3.NewHeaderParameter("If-Match").WithSchema(oasTyped("string"))}
		ifMatch.Value.Description = "Apply the change only if the object's ETag matches."
		for _, m := range []struct {
			method, id, summary string
			body                *openapi3.SchemaRef
		}{
			{"PUT", "_update", "Replace " + a + verbose, w},
			{"PATCH", "_partial_update", "Partially update " + a + verbose, pw},
		} {
			o := b.op(app, prefix+m.id, m.summary, openapi3.Parameters{idParam, ifMatch})
			// A PATCH without a body changes nothing and answers the object.
			o.RequestBody = oasJSONBody(m.body, m.method != "PATCH")
			oasMultipart(d, o.RequestBody, m.body)
			o.Responses.Set("200", oasJSONResponse("The updated "+verbose+".", oasRef(t)))
			o.Responses.Set("400", oasErrorRef("BadRequest"))
			o.Responses.Set("404", oasErrorRef("NotFound"))
			o.Responses.Set("412", oasErrorRef("PreconditionFailed"))
			detail.SetOperation(m.method, o)
		}
		del := b.op(app, prefix+"_destroy", "Delete "+a+verbose, openapi3.Parameters{idParam, ifMatch})
		del.Responses.Set("204", oasEmptyResponse("Deleted."))
		// A body is read (changelog_message), so it may be invalid or too large.
		del.Responses.Set("400", oasErrorRef("BadRequest"))
		del.Responses.Set("412", oasErrorRef("PreconditionFailed"))
		del.Responses.Set("413", oasErrorRef("PayloadTooLarge"))
		del.Responses.Set("404", oasErrorRef("NotFound"))
		del.Responses.Set("409", oasErrorRef("Conflict"))
		detail.Delete = del
	}
	b.paths.Set("/api/"+app+"/"+p+"/", list)
	b.paths.Set("/api/"+app+"/"+p+"/{id}/", detail)
}

// lookupNames are every lookup suffix the filter language knows.
var oasLookupNames = []string{"n", "ic", "nic", "isw", "nisw", "iew", "niew", "ie", "nie", "empty", "regex", "iregex", "lt", "lte", "gt", "gte", "any"}

// listParams are the list's pagination and ordering parameters and one
// parameter per filter and lookup.
func (b *oasBuilder) listParams(d *resource.Descriptor) openapi3.Parameters {
	spec := d.Filters()
	ordering := make([]string, 0, len(spec.Ordering))
	for name := range spec.Ordering {
		ordering = append(ordering, name)
	}
	sort.Strings(ordering)
	ps := openapi3.Parameters{
		oasQueryParam("limit", "Number of results per page (0: as many as allowed); a value that is not a non-negative integer is ignored, as Django REST framework does.", oasLenientInt()),
		oasQueryParam("offset", "Index of the first result; a value that is not a non-negative integer is ignored.", oasLenientInt()),
		oasQueryParam("start", "Cursor: return objects whose id is at least this (ordered by id; not with offset or ordering).", oasNonNegative()),
		oasQueryParam("ordering", "Comma-separated fields to order by, \"-\" for descending: "+strings.Join(ordering, ", ")+".", oasTyped("string")),
	}
	seen := map[string]bool{}
	for _, p := range ps {
		seen[p.Value.Name] = true
	}
	add := func(p *openapi3.ParameterRef) {
		if !seen[p.Value.Name] {
			seen[p.Value.Name] = true
			ps = append(ps, p)
		}
	}
	for _, f := range spec.Filters {
		add(b.filterParam(f.Name, f, ""))
		if f.Fixed != "" {
			continue
		}
		lookups := f.Lookups
		if lookups == nil {
			for _, l := range oasLookupNames {
				if f.HasLookup(l) {
					lookups = append(lookups, l)
				}
			}
		}
		for _, l := range lookups {
			add(b.filterParam(f.Name+"__"+l, f, l))
		}
	}
	return ps
}

// oasLenientInt is limit's and offset's schema: a non-negative integer,
// though any other text is accepted and ignored (DRF's
// LimitOffsetPagination falls back to its default), so the document does
// not promise a 400 for it. Repeated, one value counts and the others
// are ignored (Django's QueryDict reads one of them), hence the array.
func oasLenientInt() *openapi3.Schema {
	return &openapi3.Schema{AnyOf: openapi3.SchemaRefs{oasVal(oasTyped("integer")), oasVal(oasTyped("string")),
		oasVal(oasArrayOf(oasVal(oasTyped("string"))))}}
}

// oasNonNegative is an integer from 0 (a negative start is a 400).
func oasNonNegative() *openapi3.Schema {
	s := oasTyped("integer")
	s.Min = openapi3.Float64Ptr(0)
	return s
}

// oasOrBlank lets a text or choice query value be blank too: blank filter
// values are dropped (filters.Resolve, as NetBox's filter sets), so
// ?status= filters nothing and is no 400. (Other types are texts with
// blank in their pattern, openapi_filtertext.go.)
func oasOrBlank(s *openapi3.Schema) *openapi3.Schema {
	if s.Type.Is("string") && len(s.Enum) == 0 && s.Format == "" && s.Pattern == "" {
		return s // "" is one already
	}
	if s.Type.Is("string") && len(s.Enum) > 0 {
		s.Enum = append(s.Enum, "") // a choice
		return s
	}
	panic(fmt.Sprintf("openapi: no blank for a query value of type %v", s.Type)) // caught by the OpenAPI test
}

// filterTexts are the named schemas of filter values read as numbers and
// dates (openapi_filtertext.go), by kind.
var oasFilterTexts = map[filters.Kind]struct{ name, body, desc string }{
	filters.Integer:  {"FilterInteger", oasFilterIntBody, "A whole number (64 bits; a sign, leading zeros, a .000 fraction and surrounding blanks are accepted)"},
	filters.Decimal:  {"FilterNumber", oasFilterNumBody, "A number (Go's floating-point syntax; surrounding blanks are accepted)"},
	filters.DateTime: {"FilterDateTime", oasFilterDateTimeBody, "A date/time: YYYY-MM-DD, then T or a space, hh:mm, optional :ss and fraction, an optional zone (Z, ±hh:mm, ±hhmm, ±hh; none: the server's TIME_ZONE); or MM/DD/YYYY (or MM/DD/YY) and a time without zone; or a date alone"},
	filters.Date:     {"FilterDate", oasFilterDateBody, "A date: YYYY-MM-DD, MM/DD/YYYY or MM/DD/YY"},
}

// filterText references the schema of a number or date filter value,
// defining it on first use.
func (b *oasBuilder) filterText(k filters.Kind, null bool) *openapi3.SchemaRef {
	t := oasFilterTexts[k]
	if null {
		return b.text(t.name+"OrNull", oasFilterText(t.body, true), t.desc+", \"null\" (none), or blank (no filter).")
	}
	return b.text(t.name, oasFilterText(t.body, false), t.desc+", or blank (no filter).")
}

// text references the named schema of a query text, defining it on first
// use.
func (b *oasBuilder) text(name, pattern, desc string) *openapi3.SchemaRef {
	if _, ok := b.schemas[name]; !ok {
		s := oasTyped("string")
		s.Pattern, s.Description = pattern, desc
		b.schemas[name] = oasVal(s)
	}
	return oasRef(name)
}

// oasFilterBool is a boolean filter value or __empty's (filters.BoolValue),
// or blank: a pattern of the words, not a boolean beside a blank (see
// openapi_filtertext.go: a fuzzer negating that anyOf sends ?x=5&x=true,
// which is ?x=true to the server, the last value counting), and not an
// enum: "true" and "True" as enum members are one name to the generators
// that make a constant of each (openapi-python-client refused the whole
// document with "Duplicate key TRUE in enum").
func oasFilterBool() *openapi3.Schema {
	s := oasTyped("string")
	s.Pattern = oasFilterBoolText
	return s
}

// oasAddBlank lets an enum take "" (once: a member listed twice is two
// constants of one name to the generators).
func oasAddBlank(s *openapi3.Schema) {
	if !slices.Contains(s.Enum, any("")) {
		s.Enum = append(s.Enum, "")
	}
}

// oasFilterBoolText is the pattern of oasFilterBool.
const oasFilterBoolText = `^(true|True|1|false|False|0)?$`

// filterParam is one filter parameter; values may be repeated (ORed)
// except for booleans and __empty. Blank values are dropped, "null"
// selects none where the filter is nullable (filters.parseValues).
func (b *oasBuilder) filterParam(name string, f *filters.Filter, lookup string) *openapi3.ParameterRef {
	if lookup == "empty" {
		return oasQueryParam(name, "true: the value is empty; false: it is not.", oasFilterBool())
	}
	if f.Kind == filters.Boolean {
		return oasQueryParam(name, "", oasFilterBool())
	}
	base, nullable := f.ValueLookup(lookup)
	var item *openapi3.SchemaRef
	switch {
	case filters.IsSubstring(base) || base == "regex" || base == "iregex":
		item = oasVal(oasTyped("string"))
	case f.Kind == filters.Integer || f.Kind == filters.ForeignID || f.Kind == filters.TreeID || f.Kind == filters.TagID:
		item = b.filterText(filters.Integer, nullable)
	case f.Kind == filters.Decimal || f.Kind == filters.DateTime || f.Kind == filters.Date:
		item = b.filterText(f.Kind, nullable)
	case f.Kind == filters.Choice && base == "" && len(f.Choices) > 0:
		s := oasTyped("string")
		for _, c := range f.Choices {
			s.Enum = append(s.Enum, c)
		}
		if nullable {
			s.Enum = append(s.Enum, "null") // FILTERS_NULL_CHOICE_VALUE
		}
		item = oasVal(oasOrBlank(s))
	default:
		item = oasVal(oasTyped("string"))
	}
	desc := ""
	switch {
	case f.Kind == filters.ForeignID || f.Kind == filters.TreeID:
		desc = "Related object id (\"null\" for none)."
	case f.Kind == filters.TagSlug && lookup == "":
		desc = "Tag slug; objects must carry every tag given."
	case name == "q":
		desc = "Search."
	}
	p := openapi3.NewQueryParameter(name).WithSchema(oasArrayOf(item))
	explode := true
	p.Style, p.Explode = "form", &explode
	p.Description = desc
	return &openapi3.ParameterRef{Value: p}
}

// --- special endpoints (the registry, endpoints.go) ---------------------

// oasShapes build the component schemas that special endpoints name as
// their request or response (api.Op.Request, Response), registered by the
// file owning the endpoint; model schemas are named by their type.
var oasShapes = map[string]func(b *oasBuilder) *openapi3.Schema{}

func oasShape(name string, build func(b *oasBuilder) *openapi3.Schema) { oasShapes[name] = build }

// shape resolves a declared shape: "object" (free-form), "page:<Name>" (a
// paginated list), "list:<Name>" (a bare array), "many:<Name>" (one
// object or an array of them), or a component schema name.
func (b *oasBuilder) shape(name string) *openapi3.SchemaRef {
	switch {
	case name == "object":
		return oasVal(oasFreeObject())
	case strings.HasPrefix(name, "list:"):
		return oasVal(oasArrayOf(b.shape(strings.TrimPrefix(name, "list:"))))
	case strings.HasPrefix(name, "many:"):
		one := b.shape(strings.TrimPrefix(name, "many:"))
		return oasVal(&openapi3.Schema{OneOf: openapi3.SchemaRefs{one, oasVal(oasArrayOf(one))}})
	case strings.HasPrefix(name, "page:"):
		nstr := oasVal(&openapi3.Schema{Type: &openapi3.Types{"string"}, Format: "uri", Nullable: true})
		return oasVal(oasObject(map[string]*openapi3.SchemaRef{
			"count": oasCount(), "next": nstr, "previous": nstr,
			"results": oasVal(oasArrayOf(b.shape(strings.TrimPrefix(name, "page:")))),
		}, "count", "next", "previous", "results"))
	}
	if _, ok := b.schemas[name]; !ok {
		build, ok := oasShapes[name]
		if !ok {
			panic("openapi: unknown shape " + name) // caught by the OpenAPI test
		}
		b.schemas[name] = oasVal(build(b))
	}
	return oasRef(name)
}

// specialPaths describes the roots and every registered special endpoint.
func (b *oasBuilder) specialPaths(reg []*special) {
	strMap := oasTyped("object")
	strMap.AdditionalProperties = openapi3.AdditionalProperties{Schema: oasVal(oasTyped("string"))}
	root := b.op("api", "api_root", "Root of the API: each application's URL", nil)
	root.Responses.Set("200", oasJSONResponse("Application name → URL.", oasVal(strMap)))
	b.paths.Set("/api/", &openapi3.PathItem{Get: root})
	for _, app := range apps(reg) {
		o := b.op(app, app+"_root", "Endpoints of "+app, nil)
		o.Responses.Set("200", oasJSONResponse("Endpoint name → list URL.", oasVal(strMap)))
		b.paths.Set("/api/"+app+"/", &openapi3.PathItem{Get: o})
	}
	for _, e := range reg {
		for _, sh := range e.Shapes {
			o := oasObject(map[string]*openapi3.SchemaRef{})
			// The same shape as a multipart form, when it has a file.
			form := oasObject(map[string]*openapi3.SchemaRef{})
			hasFile := false
			for _, p := range sh.Props {
				ps, fs := oasTyped(p.Type), oasTyped(p.Type)
				if p.Type == "file" {
					// A file: a part of multipart/form-data, or in JSON a
					// base64 data URI, as an image field (SPEC.md §4.12).
					hasFile = true
					ps = oasTyped("string")
					ps.Description = "The file as a base64 data URI (data:text/x-python;name=x.py;base64,...); or send multipart/form-data."
					fs = oasTyped("string")
					fs.Format = "binary"
				}
				ps.Nullable, fs.Nullable = p.Nullable, p.Nullable
				o.Properties[p.Name], form.Properties[p.Name] = oasVal(ps), oasVal(fs)
				if !p.Optional {
					o.Required = append(o.Required, p.Name)
					form.Required = append(form.Required, p.Name)
				}
			}
			b.schemas[sh.Name] = oasVal(o)
			if hasFile {
				if b.forms == nil {
					b.forms = map[string]*openapi3.Schema{}
				}
				b.forms[sh.Name] = form
			}
		}
	}
	for _, e := range reg {
		if e.target != nil {
			b.modelPaths(e.app, strings.Join(e.parts, "/"), e.target)
			continue
		}
		item := b.paths.Value(e.oasPath())
		if item == nil {
			item = &openapi3.PathItem{}
			b.paths.Set(e.oasPath(), item)
		}
		var params openapi3.Parameters
		if e.Detail {
			ks := oasTyped("string")
			if e.key() == "id" && e.model != nil {
				ks = oasTyped("integer")
			}
			for _, v := range e.KeyEnum {
				ks.Enum = append(ks.Enum, v)
			}
			params = append(params, &openapi3.ParameterRef{Value: openapi3.NewPathParameter(e.key()).WithSchema(ks)})
		}
		for _, op := range e.Ops {
			ps := slices.Clone(params)
			for _, q := range op.Query {
				// Blank is the parameter left out (the handlers read both
				// as ""): ?status= lists every task. Integers and booleans
				// are texts, as the filters' (openapi_filtertext.go).
				var qs *openapi3.SchemaRef
				switch {
				case (q.Name == "limit" || q.Name == "offset") && q.Type == "integer":
					// Pagination reads them as model lists do: any other
					// text is ignored (logicRequest.Limit, page).
					qs = oasVal(oasLenientInt())
				case q.Type == "integer":
					qs = b.text("QueryInteger", oasFilterText(oasAtoiBody, false),
						"A whole number (64 bits; a sign, leading zeros and surrounding blanks are accepted), or blank.")
				case q.Type == "boolean":
					qs = b.text("QueryBoolean", oasQueryBoolText,
						"true/false, 1/0, yes/no, on/off, t/f, y/n in any letter case, or blank.")
				default:
					s := oasTyped(q.Type)
					for _, v := range q.Enum {
						s.Enum = append(s.Enum, v)
					}
					qs = oasVal(oasOrBlank(s))
				}
				qp := openapi3.NewQueryParameter(q.Name)
				qp.Schema, qp.Description = qs, q.Description
				ps = append(ps, &openapi3.ParameterRef{Value: qp})
			}
			if op.Idempotent {
				h := openapi3.NewHeaderParameter(IdempotencyHeader).WithSchema(oasTyped("string"))
				h.Description = "Repeating the request with the same key within the idempotency window answers the first response again."
				ps = append(ps, &openapi3.ParameterRef{Value: h})
			}
			o := b.op(e.tag(), oasOperationID(e, op), op.Summary, ps)
			if op.Permission == api.PermPublic {
				o.Security = &openapi3.SecurityRequirements{{}}
			}
			if op.Request != "" {
				// A free-form object (a render's context, the user's
				// preferences to merge) may be left out: NetBox reads no
				// body as an empty one.
				o.RequestBody = oasJSONBody(b.shape(op.Request), op.Request != "object")
				if form := b.forms[op.Request]; form != nil {
					// Uploads are multipart first (what a browser or
					// pynetbox's files= sends); JSON with a data URI too.
					o.RequestBody.Value.Content["multipart/form-data"] = openapi3.NewMediaType().WithSchema(form)
				}
			}
			status, desc := op.Status, op.Description
			if status == 0 {
				status = http.StatusOK
			}
			if desc == "" {
				desc = "Done."
			}
			if op.Response != "" {
				o.Responses.Set(strconv.Itoa(status), oasJSONResponse(desc, b.shape(op.Response)))
			} else {
				o.Responses.Set(strconv.Itoa(status), oasEmptyResponse(desc))
			}
			for _, code := range op.Errors {
				if name := oasErrorNames[code]; name != "" {
					o.Responses.Set(strconv.Itoa(code), oasErrorRef(name))
				}
			}
			item.SetOperation(op.Method, o)
		}
	}
}

// oasErrorNames are the shared error responses by status.
var oasErrorNames = map[int]string{
	http.StatusBadRequest: "BadRequest", http.StatusNotFound: "NotFound",
	http.StatusConflict: "Conflict", http.StatusPreconditionFailed: "PreconditionFailed",
	http.StatusUnprocessableEntity: "UnprocessableContent",
}

// oasOperationID is the declared id or, as drf-spectacular names them,
// <app>_<path>_<verb> with dashes and slashes as underscores; a GET is a
// "list" when it answers a page, else a "retrieve".
func oasOperationID(e *special, op api.Op) string {
	if op.OperationID != "" {
		return op.OperationID
	}
	var parts []string
	if e.app != "" {
		parts = append(parts, e.app)
	}
	for _, p := range e.parts {
		if p != "{}" {
			parts = append(parts, p)
		}
	}
	verb := map[string]string{http.MethodPost: "create", http.MethodPut: "update", http.MethodPatch: "partial_update",
		http.MethodDelete: "destroy"}[op.Method]
	if op.Method == http.MethodGet {
		verb = "retrieve"
		if strings.HasPrefix(op.Response, "page:") {
			verb = "list"
		}
	}
	id := strings.Join(append(parts, verb), "_")
	return strings.NewReplacer("-", "_", "/", "_").Replace(id)
}

// relatedSchema names the schema of the objects a relation renders: the
// target's brief form, or its own form (Nested<Type>, NetBox's
// hand-written nested serializer) when the relation declares one.
func (b *oasBuilder) relatedSchema(f *resource.Field) string {
	t := f.TargetModel()
	form := f.RelatedForm()
	if len(f.Nested) == 0 || f.Reverse != nil && f.Reverse.Through != "" {
		// A Through reverse (a device's parent_device) keeps its
		// previous, approximate description.
		return "Brief" + t.Type
	}
	// Two relations may render one model in different forms (a
	// component's module carries its device and bay, a module bay's
	// module only id, url and display): each form is a schema of its own,
	// or the document would describe one of them wrongly.
	names := make([]string, len(form))
	for i, tf := range form {
		names[i] = tf.Name
	}
	key := strings.Join(names, ",")
	name := "Nested" + t.Type
	if had, ok := b.nestedForms[name]; ok && had != key {
		name += "_" + strings.Join(names, "_")
	}
	if b.nestedForms == nil {
		b.nestedForms = map[string]string{}
	}
	b.nestedForms[name] = key
	if _, done := b.schemas[name]; !done {
		s := oasObject(map[string]*openapi3.SchemaRef{})
		b.schemas[name] = oasVal(s) // before the fields: a form may refer to itself
		for _, tf := range form {
			s.Properties[tf.Name] = b.readField(tf)
			s.Required = append(s.Required, tf.Name)
		}
	}
	return name
}

// oasType is the JSON type family of a field's value for the schema
// (OPTIONS' DRF names, fieldType, say "field" for most of these).
func oasType(f *resource.Field) string {
	if f.Kind == resource.KindCount && f.Count.Percent != "" {
		return "string" // a percentage, NetBox's CharField
	}
	if f.Kind == "date" {
		return "date"
	}
	switch f.Kind {
	case resource.KindID, resource.KindInt, resource.KindCount, resource.KindGenericID:
		return "integer"
	case resource.KindBool:
		return "boolean"
	case resource.KindFloat:
		return "decimal"
	case resource.KindTime:
		return "datetime"
	case resource.KindChoice:
		return "choice"
	case resource.KindJSON:
		if f.GoType == "[]int" {
			return "list" // DRF's ListField of integers (a reservation's units)
		}
		return "nested object"
	case resource.KindFK, resource.KindGenericObject, resource.KindCustomFields:
		return "nested object"
	case resource.KindComputed:
		return "nested object" // a device's config_context: a free-form object
	case resource.KindTags, resource.KindStrings, resource.KindContentTypes:
		return "list"
	case resource.KindURL:
		return "url"
	case resource.KindSlug:
		return "slug"
	}
	return "string"
}

// oasPK is an FK rendered as the bare id (api.Field.PK: DRF's
// PrimaryKeyRelatedField), both ways.
func oasPK(f *resource.Field) *openapi3.SchemaRef {
	s := oasTyped("integer")
	s.Nullable = f.Nullable
	return oasVal(s)
}

// oasMultipart offers multipart/form-data next to JSON for a model with
// an uploaded file (SPEC.md §4.12).
func oasMultipart(d *resource.Descriptor, body *openapi3.RequestBodyRef, s *openapi3.SchemaRef) {
	for _, f := range d.Fields {
		if f.Kind == resource.KindImage {
			body.Value.Content["multipart/form-data"] = openapi3.NewMediaType().WithSchemaRef(s)
			return
		}
	}
}
