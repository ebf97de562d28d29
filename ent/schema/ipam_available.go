package schema

import (
	"strings"

	"github.com/inventory/inventory/ent/schema/api"
)

// allocation declares NetBox's available-* endpoint of a parent model
// (AvailableObjectsView): GET lists what is free in the object (up to
// ?limit, unpaginated, as NetBox), POST creates one object or a list of
// them in the free space, through the created model's normal create path,
// in one transaction with the read of what is used (ent/logic/ipam,
// available*.go). As in NetBox, both need a permission on the created
// model (view, add) and the object itself must be visible to the caller;
// POST honours Idempotency-Key.
//
// name is the endpoint ("available-ips"), created the content type made
// ("ipam.ipaddress") and its schema type ("IPAddress"), path the parent's
// list path (for the OpenAPI operation ids), get and post the
// ent/logic/ipam handlers, shape the listed item and its properties,
// request the POST request's shape (nil: created's writable form),
// limit whether GET takes ?limit.
func allocation(path, name, created, typ, get, post string, shape api.Shape, request *api.Shape, limit bool) api.Endpoint {
	id := strings.ReplaceAll("ipam_"+path+"_"+name, "-", "_") // drf-spectacular's ids
	under := strings.TrimPrefix(name, "available-")
	var query []api.Param
	if limit {
		query = []api.Param{{Name: "limit", Type: "integer",
			Description: "How many to list (default PAGINATE_COUNT, 0 for MAX_PAGE_SIZE, at most MAX_PAGE_SIZE)."}}
	}
	shapes, req := []api.Shape{shape}, "Writable"+typ+"Request"
	if request != nil {
		shapes, req = append(shapes, *request), request.Name
	}
	return api.Endpoint{Name: name, Detail: true, Shapes: shapes, Ops: []api.Op{
		{
			Method: "GET", Permission: "view", Model: created, Func: api.Func(api.LogicPkg("ipam"), get),
			OperationID: id + "_list", Summary: "The " + under + " free in the object",
			Query: query, Response: "list:" + shape.Name, Errors: []int{404},
			Description: "What is free, in order (NetBox's " + shape.Name + "Serializer).",
		},
		{
			Method: "POST", Permission: "add", Model: created, Func: api.Func(api.LogicPkg("ipam"), post),
			Write: true, Idempotent: true, Status: 201,
			OperationID: id + "_create", Summary: "Create " + under + " in the free space of the object",
			Request: "many:" + req, Response: "many:" + typ, Errors: []int{400, 404, 409, 422},
			Description: "The created objects: one, or a list when the request was a list.",
		},
	}}
}

// The listed item and the request of the available-ips endpoints (of
// prefixes and of IP ranges): NetBox's AvailableIPSerializer and
// AvailableIPRequestSerializer (any IP address field besides).
var (
	availableIP = api.Shape{Name: "AvailableIP", Props: []api.Prop{{Name: "family", Type: "integer"},
		{Name: "address", Type: "string"}, {Name: "vrf", Type: "object", Nullable: true}}}
	availableIPRequest = &api.Shape{Name: "AvailableIPRequest", Props: []api.Prop{{Name: "prefix_length", Type: "integer", Optional: true}}}
)
