package schema

import (
	"encoding/json"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/inventory/inventory/ent/schema/api"
)

// Script is extras.Script: one Script class of an uploaded script module
// (core_managedfile, file_root "scripts"). NetBox imports the module to
// find its classes; this server runs no Python, so the rows come from a
// static parse of the module's source when it is uploaded (ent/logic/
// extras/scriptparse.go, written by server/scripts.go in the upload's
// transaction), and description and vars, which NetBox computes from the
// live class, are what that parse found. Scripts are read-only: they
// change through their module, and running one answers 400 (README,
// Differences from NetBox).
type Script struct{ ent.Schema }

func (Script) Fields() []ent.Field {
	return []ent.Field{
		// The class name (79: the longest Python class name NetBox allows).
		field.String("name").MaxRuneLen(79).Annotations(api.Field{ReadOnly: true}),
		// The module (a core_managedfile row), rendered as its bare id as
		// NetBox's ScriptSerializer does.
		field.Int("module_id").Annotations(api.Field{API: "module", ReadOnly: true, NoFilter: true}),
		field.Bool("is_executable").Default(true).Annotations(api.Field{ReadOnly: true}),
		// Meta.description of the class ("" without one).
		field.String("description").Default("").Annotations(api.Field{ReadOnly: true}),
		// The class's script variables: name → variable class ("StringVar").
		field.JSON("vars", json.RawMessage{}).Optional().Annotations(api.Field{Kind: "json", ReadOnly: true}),
		// The module's python_name, for the display "<name> (<module>)".
		field.String("module_name").Default("").Annotations(api.Field{Kind: "hidden"}),
	}
}

func (Script) Indexes() []ent.Index {
	return []ent.Index{index.Fields("module_id", "name").Unique()}
}

func (Script) Annotations() []schema.Annotation {
	return []schema.Annotation{
		entsql.Annotation{Table: "extras_script"},
		api.Model{
			App: "extras", Path: "scripts", Verbose: "script", ReadOnly: true,
			Fields: []string{"id", "url", "display_url", "module", "name", "description", "vars", "result", "display",
				"is_executable"},
			Brief:       []string{"id", "url", "display", "name", "description"},
			DisplayFunc: api.Func(api.LogicPkg("extras"), "ScriptDisplay"),
			Search:      []string{"name"},
			Ordering:    []string{"module", "name"},
			// result is the script's latest core job: this server runs no
			// scripts, so there is none (NetBox's null for a script never run).
			Empty: map[string]any{"result": nil},
			Filters: []api.Filter{
				{Name: "module_id", Kind: "integer", Column: "module_id", Lookups: []string{"n"}},
			},
			Endpoints: []api.Endpoint{
				{Name: "upload", Ops: []api.Op{{
					// NetBox checks add on extras.scriptmodule (a proxy of
					// core.managedfile, not served as a model here).
					Method: "POST", Permission: "add", Model: "extras.scriptmodule", Handler: "extras.scripts.upload", Write: true,
					Summary: "Upload a script module (multipart form data: file)", Request: "ScriptModuleRequest",
					Response: "ScriptModule", Status: 201, Errors: []int{400},
					Description: "The stored module; its Script classes are listed under /api/extras/scripts/.",
				}}, Shapes: []api.Shape{
					{Name: "ScriptModuleRequest", Props: []api.Prop{{Name: "file", Type: "file"}}},
					{Name: "ScriptModule", Props: []api.Prop{{Name: "id", Type: "integer"}, {Name: "display", Type: "string"},
						{Name: "file_path", Type: "string"}, {Name: "created", Type: "string"},
						{Name: "last_updated", Type: "string", Nullable: true}}},
				}},
				// Running a script (POST on its detail route): refused.
				{Detail: true, Ops: []api.Op{{
					Method: "POST", Permission: "run", Func: api.Func(api.LogicPkg("extras"), "RunScript"), Write: true,
					Summary: "Run a script: not offered (this server runs no Python)", Errors: []int{400, 404},
				}}},
			},
		},
	}
}
