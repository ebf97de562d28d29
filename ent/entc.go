//go:build ignore

// entc.go is the single code-generation entry: `go run ./ent/entc.go` from
// the repository root. It runs ent's generator and then renders
// template/resource.tmpl once per API-annotated schema into ent/resource,
// giving the generic handlers one descriptor per model.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"log"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/template"

	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/entc"
	"entgo.io/ent/entc/gen"
	"entgo.io/ent/schema/field"

	"github.com/inventory/inventory/ent/schema/api"
)

func main() {
	cfg := &gen.Config{
		Target:  "./ent",
		Package: "github.com/inventory/inventory/ent",
		Features: []gen.Feature{
			gen.FeatureExecQuery, gen.FeatureLock,
		},
		Hooks: []gen.Hook{partialIndexes, resources},
		// driver_dialect.tmpl gives clients, transactions and mutations a
		// DriverDialect method, so that schema hooks can write SQL for the
		// database they run on.
		Templates: []*gen.Template{
			gen.MustParse(gen.NewTemplate("driver_dialect").ParseFiles("./ent/template/driver_dialect.tmpl")),
			// setter.tmpl replaces ent's "setter": builders of types marked
			// api.Model.GenericOnly keep only Mutation() (the compile budget
			// in the package documentation of ent, ent/doc.go).
			gen.MustParse(gen.NewTemplate("setter").ParseFiles("./ent/template/setter.tmpl")),
			// query.tmpl, model.tmpl, mutation.tmpl and client.tmpl replace
			// ent's "query", "model", "mutation" and "client" the same way:
			// GenericOnly types get a slim query builder, entities without
			// edges, mutations without typed Old<Field> methods and clients
			// without edge traversal.
			gen.MustParse(gen.NewTemplate("query").ParseFiles("./ent/template/query.tmpl")),
			gen.MustParse(gen.NewTemplate("model").ParseFiles("./ent/template/model.tmpl")),
			gen.MustParse(gen.NewTemplate("mutation").ParseFiles("./ent/template/mutation.tmpl")),
			gen.MustParse(gen.NewTemplate("client").ParseFiles("./ent/template/client.tmpl")),
			// importid.tmpl lets an import create rows with the source's ids
			// (SetImportedID) through the same mutations and hooks as any
			// other create.
			gen.MustParse(gen.NewTemplate("importid").ParseFiles("./ent/template/importid.tmpl")),
			gen.MustParse(gen.NewTemplate("imports").ParseFiles("./ent/template/imports.tmpl")),
			// create_bulk.tmpl replaces ent's "dialect/sql/create_bulk": bulk
			// creates insert through rawsql.BatchCreate (array INSERTs on
			// PostgreSQL).
			gen.MustParse(gen.NewTemplate("create_bulk").ParseFiles("./ent/template/create_bulk.tmpl")),
		},
	}
	if err := entc.Generate("./ent/schema", cfg); err != nil {
		log.Fatalf("entc: %v", err)
	}
}

// partialIndexes makes every declared one-column index of a nullable key
// column (named *_id) cover only the rows where it is set, as KeyIndexes does for the
// foreign keys no declared index begins with. Most such columns are NULL
// in most rows (a component's cable, cable path, owner, rack), and every
// index entry costs each insert: a device of 10 000 interfaces wrote six
// index entries per interface for columns that were NULL. Both databases
// use such an index for "col = ?" and "col IN (...)", which imply
// "col IS NOT NULL"; a unique index keeps its meaning (NULLs never
// collide). "col IS NULL" (cabled=false) reads the table either way: it
// matches most rows. An index declared with its own entsql annotation is
// left as declared, and so are other columns (an index on a nullable
// "created" serves ORDER BY, which a partial index cannot).
func partialIndexes(next gen.Generator) gen.Generator {
	return gen.GenerateFunc(func(g *gen.Graph) error {
		for _, t := range g.Nodes {
			nullable := map[string]bool{}
			for _, f := range t.Fields {
				nullable[f.StorageKey()] = f.Optional
			}
			for _, ix := range t.Indexes {
				ann := entsql.IndexAnnotation{}
				if len(ix.Columns) != 1 || !strings.HasSuffix(ix.Columns[0], "_id") || !nullable[ix.Columns[0]] || ix.Annotations[ann.Name()] != nil {
					continue
				}
				if ix.Annotations == nil {
					ix.Annotations = gen.Annotations{}
				}
				ix.Annotations[ann.Name()] = entsql.IndexWhere(ix.Columns[0] + " IS NOT NULL")
			}
		}
		return next.Generate(g)
	})
}

// resources renders the resource descriptors after ent's own generation.
func resources(next gen.Generator) gen.Generator {
	return gen.GenerateFunc(func(g *gen.Graph) error {
		if err := next.Generate(g); err != nil {
			return err
		}
		tmpl := template.Must(template.New("resource.tmpl").Funcs(template.FuncMap{
			"quote": func(v any) string { b, _ := json.Marshal(v); return "`" + string(b) + "`" },
			"goq":   func(s string) string { return fmt.Sprintf("%q", s) },
			"goany": goLiteral,
			"base":  filepath.Base,
		}).ParseFiles("./ent/template/resource.tmpl"))
		dir := "./ent/resource"
		old, _ := filepath.Glob(filepath.Join(dir, "zz_*.go"))
		for _, f := range old {
			os.Remove(f)
		}
		for _, t := range g.Nodes {
			m, ok, err := modelOf(t)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			data, err := describe(t, m)
			if err != nil {
				return fmt.Errorf("%s: %w", t.Name, err)
			}
			var buf bytes.Buffer
			if err := tmpl.Execute(&buf, data); err != nil {
				return err
			}
			src, err := format.Source(buf.Bytes())
			if err != nil {
				return fmt.Errorf("%s: format: %w\n%s", t.Name, err, buf.String())
			}
			name := filepath.Join(dir, "zz_"+strings.ToLower(t.Name)+".go")
			if err := os.WriteFile(name, src, 0o644); err != nil {
				return err
			}
		}
		return nil
	})
}

func modelOf(t *gen.Type) (api.Model, bool, error) {
	var m api.Model
	raw, ok := t.Annotations[api.Model{}.Name()]
	if !ok {
		return m, false, nil
	}
	b, _ := json.Marshal(raw)
	err := json.Unmarshal(b, &m)
	return m, m.App != "", err
}

func fieldAnn(a gen.Annotations) (api.Field, error) {
	var f api.Field
	raw, ok := a[api.Field{}.Name()]
	if !ok {
		return f, nil
	}
	b, _ := json.Marshal(raw)
	err := json.Unmarshal(b, &f)
	return f, err
}

// resourcePkg is the package the descriptors are generated into.
const resourcePkg = "github.com/inventory/inventory/ent/resource"

// Data is what resource.tmpl renders.
type Data struct {
	Type, Package  string
	Model          api.Model
	ModelName      string
	Table          string
	Fields         []FieldData
	Unique         []api.Unique
	HasTree        bool
	ContentTypeKey string
	// Specifics (api.Model.DisplayFunc, IP, Endpoints): the logic package
	// imported for the display function and the Go expression naming it.
	DisplayImport, DisplayFunc string
	// Imports are the logic packages named by DisplayFunc and endpoint
	// handlers (api.Op.Func); Handlers the handler functions by key.
	Imports  []string
	Handlers []HandlerRef
	// HasReverse: some field is an api.Reverse or has api.Meta (the file
	// imports api).
	HasReverse bool
}

// HandlerRef is an endpoint handler function: Key is "<pkg>.<Name>", Expr
// the Go expression naming it in the descriptor's file.
type HandlerRef struct{ Key, Expr string }

// logicRef is the Go expression naming f in a generated descriptor, and
// the package to import ("" for the resource layer's own functions).
func logicRef(f *api.FuncRef) (expr, imp string) {
	if f.Pkg == resourcePkg {
		return f.Name, ""
	}
	return "logic" + filepath.Base(f.Pkg) + "." + f.Name, f.Pkg
}

// FieldData is one API field.
type FieldData struct {
	Name, Kind, Column, GoType, Target string
	// Natural is the companion sort key column of a naturally ordered
	// field (api.Field.Natural).
	Natural                       string
	Choices                       []api.Choice
	ReadOnly, WriteOnly, Required bool
	CreateOnly                    bool
	Nullable, HasDefault, Unique  bool
	// Blank: "" is accepted (NetBox's blank=True, DRF's allow_blank): a
	// text column, not required, whose default is "" or that is nullable,
	// unless api.Field.NoBlank.
	Blank bool
	// NotEmpty: a JSON list or object field that refuses [] and {}
	// (api.Field.NoBlank on a JSON field).
	NotEmpty bool
	// PutDefault is the JSON a full update that omits the field writes
	// (api.Model.Defaults); HasPutDefault says there is one.
	PutDefault      string
	HasPutDefault   bool
	OnDelete        string // NetBox's on_delete (api.Field.OnDelete)
	NoReverse       bool   // api.Field.NoReverse
	MaxLen          int
	Min, Max        *int
	Decimal         *api.Decimal // api.Field.Decimal
	ObjectTypes     string       // api.Field.ObjectTypes
	PK, CurrentUser bool         // api.Field.PK, api.Field.CurrentUser
	Lookup          string
	Types           []string
	Generic         string
	Empty           any
	HasEmpty        bool
	Count           *api.Count
	Reverse         *api.Reverse
	// Of are the FK fields a coalesce field renders the first set of
	// (api.Model.Coalesce).
	Of []string
	// Nested is the related object's form (api.Field.Nested).
	Nested []string
	// NullWhen: rendered null while "field=value" holds (api.Field.NullWhen).
	NullWhen string
	// Join, JoinOwn and JoinTarget describe a many-to-many relation: the
	// join table, its column pointing at this model and at the target.
	Join, JoinOwn, JoinTarget string
	// Inverse marks a many-to-many seen from the other side (edge.From).
	Inverse bool
	// Full renders a many-to-many's objects in full (api.Field.Full).
	Full bool
	// ByLookup: a many-to-many as Lookup values (api.Field.ByLookup).
	ByLookup bool
	// Compute is the Go expression naming a computed field's PageFunc
	// (api.Model.Computed); ComputeImport its package.
	Compute, ComputeImport string
	// ClearedByHooks: api.Field.ClearedByHooks.
	ClearedByHooks bool
	// Meta is what OPTIONS says of NetBox's field (api.Model.Metadata).
	Meta *api.Meta
	// Refs is the Go expression naming a computed-refs field's RefsFunc
	// (api.Model.Refs), RefsKey its "<pkg>.<Name>" (fields sharing it share
	// a call), RefsRender how it renders.
	Refs, RefsKey, RefsRender string
}

var builtins = map[string]string{
	"id": "id", "url": "url", "display_url": "display_url", "display": "display", "tags": "tags",
	// display_name is display under its pre-4.0 name (SPEC.md lists it on
	// VLANs; keeping it breaks no client).
	"display_name": "display",
}

func describe(t *gen.Type, m api.Model) (*Data, error) {
	d := &Data{Type: t.Name, Package: t.Package(), Model: m, Table: t.Table()}
	d.ModelName = m.Model
	if d.ModelName == "" {
		d.ModelName = strings.ToLower(t.Name)
	}
	// Index ent fields and FK edges by API name.
	fields := map[string]*gen.Field{}
	for _, f := range t.Fields {
		a, err := fieldAnn(f.Annotations)
		if err != nil {
			return nil, err
		}
		name := f.Name
		if a.API != "" {
			name = a.API
		}
		fields[name] = f
	}
	edges := map[string]*gen.Edge{}
	for _, e := range t.Edges {
		if e.Unique && e.OwnFK() || e.M2M() {
			edges[e.Name] = e
		}
	}
	// A placeholder whose model has come (an owner, now that the mixins
	// carry it) would hide the real field: refuse it by name.
	for name := range m.Empty {
		if edges[name] != nil || fields[name] != nil {
			return nil, fmt.Errorf("api.Model.Empty: %s has a real %q now (a field or an FK edge, perhaps from a mixin); drop the placeholder", t.Name, name)
		}
	}
	order := m.Fields
	seen := map[string]bool{}
	for _, name := range order {
		seen[name] = true
		fd, err := describeField(t, m, name, fields, edges)
		if err != nil {
			return nil, err
		}
		d.Fields = append(d.Fields, fd)
	}
	// Write-only fields (password) and hidden ones (read by the runtime,
	// never rendered) come from ent fields not in the order.
	for _, f := range t.Fields {
		a, _ := fieldAnn(f.Annotations)
		// So do the change-log timestamps of a model whose serializer
		// leaves them out (a VLAN translation rule): NetBox still sends
		// their ETag, computed from the model, not from the representation.
		stamp := m.ChangeLogged && (f.Name == "created" || f.Name == "last_updated")
		if (a.WriteOnly || a.Kind == "hidden" || stamp) && !seen[f.Name] {
			fd, err := describeField(t, m, f.Name, fields, edges)
			if err != nil {
				return nil, err
			}
			if stamp {
				fd.Kind, fd.ReadOnly = "hidden", true
			}
			d.Fields = append(d.Fields, fd)
		}
	}
	for _, fd := range d.Fields {
		d.HasReverse = d.HasReverse || fd.Reverse != nil
	}
	if err := putDefaults(d, m); err != nil {
		return nil, err
	}
	if err := putMetadata(d, m, fields); err != nil {
		return nil, err
	}
	// Unique constraints: single unique fields first, then declared sets.
	edgeOf := map[string]string{} // FK column field → its edge's API name
	for name, e := range edges {
		if !e.M2M() {
			edgeOf[e.Field().Name] = name
		}
	}
	for _, f := range t.Fields {
		if f.Unique {
			name := apiName(f)
			if en, ok := edgeOf[f.Name]; ok {
				name = en // a one-to-one FK (a module's module_bay)
			}
			if slices.ContainsFunc(m.Unique, func(u api.Unique) bool { return slices.Equal(u.Fields, []string{name}) }) {
				continue // declared with its message (a user's username)
			}
			d.Unique = append(d.Unique, api.Unique{Fields: []string{name}})
		}
	}
	d.Unique = append(d.Unique, m.Unique...)
	imports := map[string]bool{}
	if f := m.DisplayFunc; f != nil {
		d.DisplayFunc, d.DisplayImport = logicRef(f)
		imports[d.DisplayImport] = true
	}
	for _, fd := range d.Fields {
		if fd.Compute != "" {
			imports[fd.ComputeImport] = true
		}
		if fd.Refs != "" {
			imports[fd.ComputeImport] = true
		}
	}
	for _, e := range m.Endpoints {
		for _, op := range e.Ops {
			if op.Func != nil {
				expr, imp := logicRef(op.Func)
				imports[imp] = true
				d.Handlers = append(d.Handlers, HandlerRef{Key: op.Func.Pkg + "." + op.Func.Name, Expr: expr})
			}
		}
	}
	for imp := range imports {
		if imp != "" {
			d.Imports = append(d.Imports, imp)
		}
	}
	sort.Strings(d.Imports)
	for _, name := range m.Brief {
		if !seen[name] {
			return nil, fmt.Errorf("brief field %q is not in Fields", name)
		}
	}
	return d, nil
}

// putDefaults attaches api.Model.Defaults to their fields.
func putDefaults(d *Data, m api.Model) error {
	for name, v := range m.Defaults {
		found := false
		for i := range d.Fields {
			fd := &d.Fields[i]
			if fd.Name != name {
				continue
			}
			if fd.ReadOnly || fd.Column == "" {
				return fmt.Errorf("api.Model.Defaults: %s.%s is not a writable column", d.Type, name)
			}
			raw, err := json.Marshal(v)
			if err != nil {
				return fmt.Errorf("api.Model.Defaults: %s.%s: %w", d.Type, name, err)
			}
			fd.PutDefault, fd.HasPutDefault, found = string(raw), true, true
		}
		if !found {
			return fmt.Errorf("api.Model.Defaults: %s has no field %q", d.Type, name)
		}
	}
	return nil
}

// putMetadata attaches api.Model.Metadata to their fields. A mixin's
// entry for an ent field a schema does not serve (a bay's _occupied)
// stays unused.
func putMetadata(d *Data, m api.Model, fields map[string]*gen.Field) error {
	for name, md := range m.Metadata {
		found := false
		for i := range d.Fields {
			if fd := &d.Fields[i]; fd.Name == name {
				md := md
				fd.Meta, found = &md, true
				d.HasReverse = true // the descriptor names api.Meta
			}
		}
		if !found && fields[name] == nil {
			return fmt.Errorf("api.Model.Metadata: %s has no field %q", d.Type, name)
		}
	}
	return nil
}

func apiName(f *gen.Field) string {
	if a, _ := fieldAnn(f.Annotations); a.API != "" {
		return a.API
	}
	return f.Name
}

func describeField(t *gen.Type, m api.Model, name string, fields map[string]*gen.Field, edges map[string]*gen.Edge) (FieldData, error) {
	fd := FieldData{Name: name}
	// A model's own "tags" edge (a config context's assignment list)
	// replaces the built-in tags of taggable models.
	if k, ok := builtins[name]; ok && edges[name] == nil {
		fd.Kind = k
		fd.ReadOnly = true
		if name == "id" {
			fd.Column = "id"
			fd.GoType = "int"
		}
		return fd, nil
	}
	if v, ok := m.Empty[name]; ok {
		fd.Kind, fd.Empty, fd.HasEmpty, fd.ReadOnly = "empty", v, true, true
		return fd, nil
	}
	if f, ok := m.Computed[name]; ok {
		fd.Kind, fd.ReadOnly = "computed", true
		fd.Compute, fd.ComputeImport = logicRef(f)
		return fd, nil
	}
	if r, ok := m.Refs[name]; ok {
		if r.Func == nil || (r.Render != "objects" && r.Render != "type") {
			return fd, fmt.Errorf("refs %s: name a Func and render \"objects\" or \"type\"", name)
		}
		fd.Kind, fd.ReadOnly = "computed-refs", true
		fd.Refs, fd.ComputeImport = logicRef(r.Func)
		fd.RefsKey, fd.RefsRender = r.Func.Pkg+"."+r.Func.Name, r.Render
		return fd, nil
	}
	if c, ok := m.Counts[name]; ok {
		c := c
		fd.Kind, fd.Count, fd.ReadOnly = "count", &c, true
		return fd, nil
	}
	if of, ok := m.Coalesce[name]; ok {
		if len(of) == 0 || edges[of[0]] == nil {
			return fd, fmt.Errorf("coalesce %s: %v are not FK edges", name, of)
		}
		tm, _, err := modelOf(edges[of[0]].Type)
		if err != nil {
			return fd, err
		}
		tname := tm.Model
		if tname == "" {
			tname = strings.ToLower(edges[of[0]].Type.Name)
		}
		fd.Kind, fd.Of, fd.Target, fd.ReadOnly = "coalesce", of, tm.App+"."+tname, true
		return fd, nil
	}
	if r, ok := m.Reverse[name]; ok {
		r := r
		fd.Kind, fd.Reverse, fd.Target, fd.ReadOnly, fd.Nested = "reverse", &r, r.Model, !r.Writable, r.Nested
		if r.Writable && (!r.Many || r.TypeColumn != "" || r.Through != "" || r.Exists) {
			return fd, fmt.Errorf("reverse %s: only a plain Many reverse may be writable", name)
		}
		return fd, nil
	}
	if e, ok := edges[name]; ok {
		f := e.Field()
		a, err := fieldAnn(e.Annotations)
		if err != nil {
			return fd, err
		}
		tm, ok, err := modelOf(e.Type)
		if err != nil || !ok {
			return fd, fmt.Errorf("edge %s: target %s is not an API model", name, e.Type.Name)
		}
		tname := tm.Model
		if tname == "" {
			tname = strings.ToLower(e.Type.Name)
		}
		if e.M2M() {
			// Many-to-many: a join table declared by the edge's storage key;
			// ids on write, nested brief objects on read.
			fd.Kind, fd.Target, fd.Lookup, fd.ReadOnly, fd.Full = "m2m", tm.App+"."+tname, a.Lookup, a.ReadOnly, a.Full
			fd.Nested, fd.ByLookup = a.Nested, a.ByLookup
			if a.ByLookup && a.Lookup == "" {
				return fd, fmt.Errorf("edge %s: ByLookup needs a Lookup", name)
			}
			fd.Join = e.Rel.Table
			fd.JoinOwn, fd.JoinTarget = e.Rel.Columns[0], e.Rel.Columns[1]
			if e.IsInverse() {
				fd.JoinOwn, fd.JoinTarget = e.Rel.Columns[1], e.Rel.Columns[0]
				fd.Inverse = true
			}
			fd.HasDefault = true
			return fd, nil
		}
		fd.Kind, fd.Column, fd.GoType = "fk", f.StorageKey(), "int"
		fd.Target = tm.App + "." + tname
		fd.Nullable = f.Optional
		// api.Field.Required: a nullable FK that a create must name, null
		// included (a serializer field declared without required=False:
		// an owner's group).
		fd.Required = !f.Optional || a.Required
		fd.Unique = f.Unique
		if fd.OnDelete = string(a.OnDelete); fd.OnDelete == "" {
			return fd, fmt.Errorf("edge %s: declare NetBox's on_delete (schema.FK or schema.OnDelete)", name)
		}
		fd.Lookup, fd.Nested, fd.NoReverse, fd.ClearedByHooks = a.Lookup, a.Nested, a.NoReverse, a.ClearedByHooks
		fd.PK, fd.CurrentUser = a.PK, a.CurrentUser
		fa, _ := fieldAnn(f.Annotations)
		fd.ReadOnly = a.ReadOnly || fa.ReadOnly
		fd.CreateOnly = a.CreateOnly || fa.CreateOnly
		return fd, nil
	}
	f, ok := fields[name]
	if !ok {
		// Generic relation object: <name>_type and <name>_id exist.
		if tf, ok1 := fields[name+"_type"]; ok1 {
			if _, ok2 := fields[name+"_id"]; ok2 {
				fd.Kind, fd.Generic, fd.ReadOnly = "generic-object", name, true
				// The allowed content types are annotated on <name>_type.
				ta, err := fieldAnn(tf.Annotations)
				if err != nil {
					return fd, err
				}
				fd.Types, fd.OnDelete, fd.ObjectTypes = ta.Types, string(ta.OnDelete), ta.ObjectTypes
				return fd, nil
			}
		}
		// ... or a _type field naming it (api.Field.Object).
		for fname, tf := range fields {
			ta, err := fieldAnn(tf.Annotations)
			if err != nil {
				return fd, err
			}
			base, ok := strings.CutSuffix(fname, "_type")
			if _, hasID := fields[base+"_id"]; ok && hasID && ta.Object == name {
				fd.Kind, fd.Generic, fd.ReadOnly = "generic-object", base, true
				fd.Types, fd.OnDelete, fd.ObjectTypes = ta.Types, string(ta.OnDelete), ta.ObjectTypes
				return fd, nil
			}
		}
		return fd, fmt.Errorf("field %q in api.Model.Fields is neither an ent field, an FK edge, a count nor an empty placeholder", name)
	}
	a, err := fieldAnn(f.Annotations)
	if err != nil {
		return fd, err
	}
	fd.Column = f.StorageKey()
	fd.GoType = f.Type.String()
	// ent's JSON fields cannot be Nillable: an Optional JSON field is a
	// nullable column (NetBox's JSONField(null=True)).
	nullable := f.Optional && (f.Nillable || f.IsJSON())
	fd.Nullable = nullable
	fd.HasDefault = f.Default || nullable
	fd.ReadOnly = a.ReadOnly || f.Name == "id"
	// Read-only columns are filled by the server (hooks), never by clients.
	fd.Required = ((!f.Default && !f.Optional) || a.Required) && !fd.ReadOnly
	fd.WriteOnly = a.WriteOnly
	fd.CreateOnly = a.CreateOnly
	fd.Unique = f.Unique
	fd.Choices = a.Choices
	// NetBox's blank=True as this schema states it: a text column that
	// need not be given and stores "" (its default) or NULL for blank.
	if f.IsString() && !fd.Required && !fd.ReadOnly && !a.NoBlank {
		def, isStr := f.DefaultValue().(string)
		fd.Blank = nullable || f.Default && isStr && def == ""
	}
	fd.NotEmpty = f.IsJSON() && a.NoBlank
	fd.Types = a.Types
	fd.Min, fd.Max = a.Min, a.Max
	fd.Decimal, fd.ObjectTypes = a.Decimal, a.ObjectTypes
	fd.NullWhen = a.NullWhen
	if fd.Target = a.Target; a.Target != "" {
		// A cached key column (schema.CachedFK). On a generic relation's
		// <name>_type the rule belongs to the generic object field.
		fd.OnDelete = string(a.OnDelete)
	}
	if a.Natural {
		c, ok := fields[api.NaturalColumn(f.Name)]
		if !ok || !f.IsString() || !c.IsString() {
			return fd, fmt.Errorf("field %s: natural ordering needs the string field %s (schema.NaturalKeyField)", name, api.NaturalColumn(f.Name))
		}
		fd.Natural = c.StorageKey()
	}
	if s := f.Column().Size; s > 0 && s < math.MaxInt32 && f.IsString() {
		fd.MaxLen = int(s)
	}
	switch {
	case a.Kind != "":
		fd.Kind = a.Kind
	case f.IsString() && f.Column().Size >= math.MaxInt32:
		fd.Kind = "text"
	case f.IsString():
		fd.Kind = "string"
	case f.IsBool():
		fd.Kind = "bool"
	case f.IsTime():
		fd.Kind = "time"
	case f.IsJSON() && f.Type.String() == "[]string":
		fd.Kind = "strings"
	case f.IsJSON():
		fd.Kind = "json"
	case f.Type.Type == field.TypeFloat64:
		fd.Kind = "float"
	case f.Type.Numeric():
		fd.Kind = "int"
	default:
		return fd, fmt.Errorf("field %s: unsupported type %s", name, f.Type)
	}
	return fd, nil
}

// goLiteral renders a JSON-decoded value as a Go literal.
func goLiteral(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case string:
		return fmt.Sprintf("%q", x)
	case bool:
		return fmt.Sprint(x)
	case float64:
		if x == math.Trunc(x) {
			return fmt.Sprintf("%d", int64(x))
		}
		return fmt.Sprint(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = goLiteral(e)
		}
		return "[]any{" + strings.Join(parts, ", ") + "}"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%q: %s", k, goLiteral(x[k]))
		}
		return "map[string]any{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprintf("%#v", v)
}
