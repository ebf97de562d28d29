package server

import (
	"errors"
	"net/http"

	"entgo.io/ent/dialect"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/ent/logic/dcim"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/ent/schema/api"
)

func init() {
	// trace/ (ent/schema/dcim_cablepath.go): a list of three-item arrays,
	// [near ends, cable, far ends]; the ends are lists of nested objects,
	// the cable a nested cable or [] when there is none (NetBox's).
	oasShape("CableTraceSegment", func(*oasBuilder) *openapi3.Schema {
		ends := oasVal(oasArrayOf(oasVal(oasFreeObject())))
		s := oasArrayOf(oasVal(&openapi3.Schema{AnyOf: openapi3.SchemaRefs{ends, oasVal(oasFreeObject())}}))
		s.MinItems, s.MaxItems = 3, openapi3.Uint64Ptr(3)
		s.Description = "[near ends, cable ([] when none), far ends]."
		return s
	})
	// paths/ of pass-through ports and circuit terminations: NetBox's
	// CablePathSerializer.
	oasShape("CablePath", func(*oasBuilder) *openapi3.Schema {
		return oasObject(map[string]*openapi3.SchemaRef{
			"id":          oasVal(oasTyped("integer")),
			"path":        oasVal(oasArrayOf(oasVal(oasArrayOf(oasVal(oasFreeObject()))))),
			"is_active":   oasVal(oasTyped("boolean")),
			"is_complete": oasVal(oasTyped("boolean")),
			"is_split":    oasVal(oasTyped("boolean")),
		}, "id", "path", "is_active", "is_complete", "is_split")
	})
	handle("dcim.connected-device", (*Server).connectedDevice)
	registerEndpoint(api.Endpoint{App: "dcim", Path: "connected-device", InRoot: true, Ops: []api.Op{{
		Method: http.MethodGet, Permission: api.PermAPI, Handler: "dcim.connected-device",
		Summary: "The device connected to a peer device's interface", Response: "Device",
		Description: "The device at the far end of the cable path of the interface named peer_interface on the device named peer_device (LLDP-based tools).",
		Query: []api.Param{
			{Name: "peer_device", Type: "string", Description: "The name of the peer device"},
			{Name: "peer_interface", Type: "string", Description: "The name of the peer interface"},
		},
		Errors: []int{http.StatusBadRequest, http.StatusNotFound},
	}}})
}

// connectedDevice serves GET /api/dcim/connected-device/ (NetBox's
// ConnectedDeviceViewSet): the device whose interface is the connected
// endpoint of peer_interface on peer_device; both looked up among the
// objects the caller may view, and 404 when the far end is no interface.
func (s *Server) connectedDevice(c *gin.Context) error {
	devName, ifName := c.Query("peer_device"), c.Query("peer_interface")
	if devName == "" || ifName == "" {
		return detailErr(http.StatusBadRequest, `Request must include "peer_device" and "peer_interface" filters.`)
	}
	ctx := c.Request.Context()
	st := s.db.Store()
	pg := s.db.Dialect == dialect.Postgres
	devices := resource.ByContentType("dcim.device")
	ifaces := resource.ByContentType(dcim.CTInterface)
	// visible is the first of ids the caller may view on d.
	visible := func(d *resource.Descriptor, ids []int) (*resource.Row, error) {
		if len(ids) == 0 {
			return nil, errNotFound
		}
		cond, err := s.permits(ctx, PrincipalFrom(ctx), d, actionView)
		if errors.Is(err, errForbidden) {
			return nil, errNotFound // NetBox's restrict(): nothing to find
		}
		if err != nil {
			return nil, err
		}
		rows, err := d.GetMany(ctx, st, ids, preds(cond)...)
		if err != nil {
			return nil, err
		}
		if len(rows) == 0 {
			return nil, errNotFound
		}
		return rows[0], nil
	}
	// ids runs a query of one id column; q builds it with a's placeholders.
	ids := func(q func(a *rawsql.Args) string) ([]int, error) {
		a := &rawsql.Args{PG: pg}
		rows, err := rawsql.Rows(ctx, st.Q, q(a), a)
		if err != nil {
			return nil, err
		}
		out := make([]int, 0, len(rows))
		for _, r := range rows {
			id, _ := rawsql.IntOf(r["id"])
			out = append(out, id)
		}
		return out, nil
	}
	devIDs, err := ids(func(a *rawsql.Args) string {
		return `SELECT id FROM dcim_device WHERE name = ` + a.P(devName) + ` ORDER BY id`
	})
	if err != nil {
		return err
	}
	dev, err := visible(devices, devIDs)
	if err != nil {
		return err
	}
	ifIDs, err := ids(func(a *rawsql.Args) string {
		return `SELECT id FROM dcim_interface WHERE device_id = ` + a.P(dev.ID) + ` AND name = ` + a.P(ifName)
	})
	if err != nil {
		return err
	}
	iface, err := visible(ifaces, ifIDs)
	if err != nil {
		return err
	}
	pathIDs, err := ids(func(a *rawsql.Args) string {
		return `SELECT _path_id AS id FROM dcim_interface WHERE id = ` + a.P(iface.ID) + ` AND _path_id IS NOT NULL`
	})
	if err != nil {
		return err
	}
	if len(pathIDs) == 0 {
		return errNotFound
	}
	paths, err := dcim.LoadPaths(ctx, st.Q, pg, pathIDs)
	if err != nil {
		return err
	}
	var ends []dcim.Node
	if p := paths[pathIDs[0]]; p != nil {
		ends = p.Destinations()
	}
	// The far end must be an interface.
	if len(ends) == 0 || ends[0].Type != dcim.CTInterface {
		return errNotFound
	}
	farDev, err := ids(func(a *rawsql.Args) string {
		return `SELECT device_id AS id FROM dcim_interface WHERE id = ` + a.P(ends[0].ID)
	})
	if err != nil {
		return err
	}
	d, err := visible(devices, farDev)
	if err != nil {
		return err
	}
	return s.respond(c, devices, d, http.StatusOK)
}
