package server

import (
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/server/datasources"
)

// POST /api/core/data-sources/<id>/sync/ (declared by core.datasource in
// ent/schema/core_datasource.go), NetBox's DataSourceViewSet.sync: the
// gate admitted the "sync" action; the data source is read through its
// restriction (404 outside it), a sync job is queued for the caller and
// the data source answered with status "queued". The engine's poll runs
// the job (package datasources).

func init() {
	handle("core.datasources.sync", (*Server).syncDataSource)
}

func (s *Server) syncDataSource(c *gin.Context) error {
	d := resource.ByContentType(datasources.ObjectType)
	r, err := s.fetch(c, d)
	if err != nil {
		return err
	}
	id, err := objectID(c)
	if err != nil {
		return err
	}
	var user *int
	if p := PrincipalFrom(c.Request.Context()); p != nil && p.User != nil {
		uid := p.User.ID
		user = &uid
	}
	if _, err := s.sources.Enqueue(c.Request.Context(), id, user); err != nil {
		if errors.Is(err, datasources.ErrDisabled) {
			return detailErr(http.StatusBadRequest, err.Error())
		}
		return err
	}
	if r, err = s.fetch(c, d); err != nil {
		return err
	}
	return s.respond(c, d, r, http.StatusOK)
}
