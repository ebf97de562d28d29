package server

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/server/metrics"
)

// Reads served by PostgreSQL hot standbys (issue 38; ent/db/standby.go
// routes). This middleware is the server's whole share: it tells the
// database layer, once per request, who the client is, where its last
// write was, and whether the request is a read a standby may serve; and
// it returns the position of each write the request commits.

// PositionHeader carries the primary's WAL position after a write
// (response) and the position of the client's last write (request).
const PositionHeader = "X-Inventory-LSN"

// positionCookie carries the same position for clients that keep cookies
// (browsers, pynetbox's requests.Session): they need nothing special.
const positionCookie = "inventory_lsn"

// positionCookieAge: a position older than this is behind every usable
// standby (they lag at most --read-max-lag).
const positionCookieAge = 600

// readRouting marks the request for the database layer (see above).
func (s *Server) readRouting(c *gin.Context) {
	if !s.db.HasStandbys() {
		c.Next()
		return
	}
	r := c.Request
	key := ""
	if p := PrincipalFrom(r.Context()); p != nil && p.Token != nil {
		key = "t" + strconv.Itoa(p.Token.ID)
	}
	var after db.LSN
	if l, ok := db.ParseLSN(r.Header.Get(PositionHeader)); ok {
		after = l
	}
	if ck, err := r.Cookie(positionCookie); err == nil {
		if l, ok := db.ParseLSN(ck.Value); ok {
			after = max(after, l)
		}
	}
	onWrite := func(l db.LSN) {
		v := l.String()
		c.Header(PositionHeader, v)
		http.SetCookie(c.Writer, &http.Cookie{Name: positionCookie, Value: v, Path: "/",
			MaxAge: positionCookieAge, HttpOnly: true, SameSite: http.SameSiteLaxMode})
	}
	ctx := s.db.Request(r.Context(), key, after, standbyRead(r), onWrite)
	c.Request = r.WithContext(ctx)
	c.Next()
}

// standbyRead reports whether a standby may serve r: a read that is not
// an allocation endpoint's (available-ips, -prefixes, -vlans, -asns),
// whose answer a client takes to choose what it writes next.
func standbyRead(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return !strings.Contains(r.URL.Path, "/available-")
	}
	return false
}

// standbysStatus is the status page's list of standbys.
func (s *Server) standbysStatus() []jsonObject {
	var out []jsonObject
	for _, st := range s.db.Standbys() {
		out = append(out, jsonObject{
			{"name", st.Name},
			{"state", st.State},
			{"usable", st.Usable},
			{"replay_lsn", st.Replay.String()},
			{"lag_seconds", st.Lag.Seconds()},
			{"reads", st.Reads},
			{"failovers", st.Failovers},
			{"error", st.Error},
		})
	}
	return out
}

// readRoutingStats is the routing's metrics (server/metrics).
func (s *Server) readRoutingStats() metrics.ReadRouting {
	rs := s.db.ReadStats()
	out := metrics.ReadRouting{Primary: rs.Primary, Behind: rs.Behind, Unavailable: rs.Unavailable}
	for _, st := range s.db.Standbys() {
		out.Standbys = append(out.Standbys, metrics.StandbyStats{Name: st.Name, Usable: st.Usable,
			LagSeconds: st.Lag.Seconds(), Reads: st.Reads, Failovers: st.Failovers})
	}
	return out
}
