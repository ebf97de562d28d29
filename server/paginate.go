package server

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/inventory/inventory/ent/resource"
)

// paging is a list request's page (BEHAVIOUR.md §6).
type paging struct {
	limit  int  // -1: everything
	offset int  // offset mode
	start  *int // cursor mode
}

func (s *Server) pagination(q url.Values) (*paging, error) {
	p := &paging{}
	P, M := s.cfg.PaginateCount, s.cfg.MaxPageSize
	def := P
	if M > 0 && def > M {
		def = M
	}
	p.limit = def
	if raw := q.Get("limit"); raw != "" {
		if n, err := strconv.Atoi(raw); err == nil && n >= 0 {
			switch {
			case n == 0 && M > 0:
				p.limit = M
			case n == 0:
				p.limit = -1
			case M > 0 && n > M:
				p.limit = M
			default:
				p.limit = n
			}
		}
	}
	if raw, ok := q["start"]; ok {
		n, err := strconv.Atoi(raw[0])
		if err != nil || n < 0 {
			return nil, listError{"Invalid 'start' parameter: must be a non-negative integer."}
		}
		if _, ok := q["offset"]; ok {
			return nil, listError{"'start' and 'offset' are mutually exclusive."}
		}
		if _, ok := q["ordering"]; ok {
			return nil, listError{"Ordering cannot be specified in conjunction with cursor-based pagination."}
		}
		p.start = &n
		return p, nil
	}
	if n, err := strconv.Atoi(q.Get("offset")); err == nil && n > 0 {
		p.offset = n
	}
	return p, nil
}

// links builds next and previous: the request URL with limit and offset
// (or start) replaced, parameters sorted by name as NetBox re-encodes them.
func (p *paging) links(r *http.Request, count int, rows []*resource.Row) (next, prev string) {
	base := baseURL(r) + r.URL.Path
	with := func(set map[string]string, drop ...string) string {
		q := r.URL.Query()
		for _, k := range drop {
			q.Del(k)
		}
		for k, v := range set {
			q.Set(k, v)
		}
		return base + "?" + q.Encode()
	}
	lim := strconv.Itoa(p.limit)
	if p.start != nil {
		if p.limit > 0 && len(rows) >= p.limit {
			next = with(map[string]string{"start": strconv.Itoa(rows[len(rows)-1].ID + 1), "limit": lim}, "offset")
		}
		return next, ""
	}
	if p.limit < 0 {
		return "", ""
	}
	if p.offset+p.limit < count {
		next = with(map[string]string{"limit": lim, "offset": strconv.Itoa(p.offset + p.limit)})
	}
	if p.offset > 0 {
		if p.offset-p.limit <= 0 {
			prev = with(map[string]string{"limit": lim}, "offset")
		} else {
			prev = with(map[string]string{"limit": lim, "offset": strconv.Itoa(p.offset - p.limit)})
		}
	}
	return next, prev
}
