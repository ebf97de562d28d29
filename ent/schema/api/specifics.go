package api

import (
	"context"
	"database/sql"
	"encoding/json"
)

// A model's specifics that are more than data: its display function, the
// columns its IP field kinds work on, and its special endpoints. They are
// declared in the model's annotation and picked up by the generator
// (ent/entc.go), so that no central list grows with each model.

// FuncRef names a Go function by import path and name. The generator emits
// a reference to it into the model's descriptor (ent/resource/zz_*.go), so
// a wrong name fails the build, not a request. The package must not import
// ent/resource (the descriptor imports it).
type FuncRef struct {
	Pkg  string `json:"pkg"`  // "github.com/inventory/inventory/ent/logic/users"
	Name string `json:"name"` // "UserDisplay"
}

// Func is shorthand for a FuncRef.
func Func(pkg, name string) *FuncRef { return &FuncRef{Pkg: pkg, Name: name} }

// LogicPkg is the import path of an app's logic package (ent/logic/<app>).
func LogicPkg(app string) string { return "github.com/inventory/inventory/ent/logic/" + app }

// Getter reads a model field by its API name (nil when unset or unknown):
// what a display function sees of a row.
type Getter func(field string) any

// DisplayFunc renders a display string that a "{field} ({other})"
// template cannot express (a VRF shows its RD only when set).
type DisplayFunc func(get Getter) string

// IPColumns names the hidden columns of a model whose rows hold an IP
// network or address (ent/schema/ipnet's key): the containment filter
// kinds (prefix-within, prefix-contains, prefix-exact, prefix-mask-length,
// ip-family) compare these, so Prefix, Aggregate, IPRange and IPAddress
// share one implementation by declaring their columns.
type IPColumns struct {
	Family    string `json:"family"`            // 4 or 6
	Network   string `json:"network"`           // 16 bytes, IPv4 v4-mapped
	Broadcast string `json:"broadcast"`         // 16 bytes, last address
	Length    string `json:"length"`            // prefix length
	VRFKey    string `json:"vrf_key,omitempty"` // VRF id, 0 for global ("" if the model has no VRF)
}

// PrefixColumns are the column names ent/schema/ipnet's models use.
func PrefixColumns() *IPColumns {
	return &IPColumns{Family: "family", Network: "network", Broadcast: "broadcast", Length: "prefix_length", VRFKey: "vrf_key"}
}

// PageFunc computes a read-only field declared in api.Model.Computed for a
// whole page of rows at once (a device's config_context): the read path
// calls it once per page whose view renders the field, never when the view
// leaves it out (?exclude=, ?omit=, ?fields=, brief), so its queries cost a
// fixed number per request whatever the page size. It returns each row's
// JSON value by id; a row missing from the map renders null.
type PageFunc func(ctx context.Context, q PageQuery) (map[int]json.RawMessage, error)

// PageQuery is what a PageFunc sees of the page: its rows through Getters
// (FK fields read as the related id) and the request's database, read
// inside its transaction when there is one.
type PageQuery struct {
	ContentType string // "dcim.device"
	IDs         []int
	Rows        []Getter // in the order of IDs
	// Q runs reads; placeholders are "$n" when Postgres, else "?".
	Q interface {
		QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	}
	Postgres bool
	// Nested renders objects of any model (content type) by id, nested as
	// related objects are (a path endpoint's connected_endpoints), read
	// like the page; ids that do not exist are absent. One call costs a
	// fixed number of reads, whatever the number of ids.
	Nested func(ctx context.Context, contentType string, ids []int) (map[int]json.RawMessage, error)
	// Cached returns the value cached under key, or load's, kept until the
	// next write anywhere (the read cache's rules: another replica's write
	// drops it too); inside a write transaction it always loads. Values
	// are shared between requests: never modify one.
	Cached func(key string, load func() (any, error)) (any, error)
}

// Ref names one object by content type and id.
type Ref struct {
	Type string
	ID   int
	// Untyped: a "type" render of the list shows null all the same
	// (NetBox's link_peers_type of an interface whose link peer is across
	// a wireless link: its serializer names a type only with a cable).
	Untyped bool
}

// RefsFunc computes, for a whole page of rows at once, the objects each
// row refers to through other tables (a cabled object's link peers: the
// objects at the far end of its cable). The read path renders them
// nested, loading them with one query per type; like a PageFunc it runs
// once per page, only when the view renders a field that uses it.
type RefsFunc func(ctx context.Context, q PageQuery) (map[int][]Ref, error)

// ComputedRefs declares a read-only field rendered from a RefsFunc
// (api.Model.Refs). Fields naming the same Func share one call per page.
type ComputedRefs struct {
	Func *FuncRef `json:"func"`
	// Render is "objects" (the list of objects nested, [] when none:
	// NetBox's link_peers) or "type" (the content type of the first
	// object, null when none: link_peers_type).
	Render string `json:"render"`
}
