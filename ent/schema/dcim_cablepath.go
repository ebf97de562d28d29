package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"entgo.io/ent/schema/mixin"

	"github.com/inventory/inventory/ent/schema/api"
)

// CablePath is NetBox's dcim.CablePath: a path traced from its origins
// (the objects of path[0]) through cables, pass-through ports and circuits
// (ent/logic/dcim/cablepath.go), stored so that reads never trace. path
// is the list of steps, each a list of "<content type>:<id>" nodes. The
// cable hooks keep it correct in the write's transaction
// (ent/logic/dcim/cablepath_store.go). Not an API model: NetBox serves it
// only inside trace/ and paths/ answers.
type CablePath struct{ ent.Schema }

func (CablePath) Fields() []ent.Field {
	return []ent.Field{
		field.JSON("path", [][]string{}),
		field.Bool("is_active").Default(false),
		field.Bool("is_complete").Default(false),
		field.Bool("is_split").Default(false),
	}
}

func (CablePath) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Annotation{Table: "dcim_cablepath"}}
}

// CablePathNode is one node of a path (NetBox's CablePath._nodes, a GIN
// indexed array there): "which paths pass through this object or cable"
// is an indexed lookup on both databases.
type CablePathNode struct{ ent.Schema }

func (CablePathNode) Fields() []ent.Field {
	return []ent.Field{
		field.Int("path_id"),
		field.String("node_type").MaxLen(100),
		field.Int("node_id"),
	}
}

func (CablePathNode) Edges() []ent.Edge {
	return []ent.Edge{edge.To("path", CablePath.Type).Field("path_id").Unique().Required().
		Annotations(entsql.OnDelete(entsql.Cascade))}
}

func (CablePathNode) Indexes() []ent.Index {
	return []ent.Index{index.Fields("node_type", "node_id"), index.Fields("path_id")}
}

func (CablePathNode) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Annotation{Table: "dcim_cablepath_node"}}
}

// PathEndpoint is NetBox's PathEndpoint: the objects that originate paths
// (console, console server and power ports, power outlets, interfaces,
// power feeds) point at their path (_path, cleared when the path goes)
// and render its far end as connected_endpoints, computed per page; the
// connected filter selects those whose path is complete and active.
type PathEndpoint struct{ mixin.Schema }

func (PathEndpoint) Fields() []ent.Field {
	return []ent.Field{field.Int("_path_id").Optional().Nillable().Annotations(api.Field{Kind: "hidden"})}
}

func (PathEndpoint) Indexes() []ent.Index {
	return []ent.Index{index.Fields("_path_id")}
}

func (PathEndpoint) Annotations() []schema.Annotation {
	ce := api.Func(api.LogicPkg("dcim"), "ConnectedEndpoints")
	return []schema.Annotation{api.Model{
		Computed: map[string]*api.FuncRef{
			"connected_endpoints":           ce,
			"connected_endpoints_type":      api.Func(api.LogicPkg("dcim"), "ConnectedEndpointsType"),
			"connected_endpoints_reachable": api.Func(api.LogicPkg("dcim"), "ConnectedEndpointsReachable"),
		},
		Filters: []api.Filter{{Name: "connected", Kind: "path-connected"}},
	}}
}

// traceEndpoint is GET .../<id>/trace/ (NetBox's PathEndpointMixin.trace):
// the path as (near ends, cable, far ends) segments.
// handler names its function in ent/logic/dcim (one per model).
func traceEndpoint(handler string) api.Endpoint {
	return api.Endpoint{Name: "trace", Detail: true, Ops: []api.Op{{
		Method: "GET", Permission: "view", Func: api.Func(api.LogicPkg("dcim"), handler),
		Summary:  "Trace a complete cable path and return each segment as a three-tuple of (termination, cable, termination).",
		Response: "list:CableTraceSegment", Errors: []int{404},
	}}}
}

// passThroughPaths is GET front-ports|rear-ports/<id>/paths/ (NetBox's
// PassThroughPortMixin.paths): the paths through the port.
func passThroughPaths(handler string) api.Endpoint {
	return api.Endpoint{Name: "paths", Detail: true, Ops: []api.Op{{
		Method: "GET", Permission: "view", Func: api.Func(api.LogicPkg("dcim"), handler),
		Summary:  "Return all CablePaths which traverse a given pass-through port.",
		Response: "list:CablePath", Errors: []int{404},
	}}}
}
