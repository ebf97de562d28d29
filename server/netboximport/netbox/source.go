package netbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/inventory/inventory/server/netboximport/recorded"
)

// excludeConfigContext are the endpoints whose objects carry the rendered
// config_context, left out of the lists read (?exclude=config_context).
var excludeConfigContext = map[string]bool{
	"dcim/devices":                    true,
	"virtualization/virtual-machines": true,
}

// Status is GET /api/status/.
func (c *Client) Status(ctx context.Context) (map[string]any, error) {
	var st map[string]any
	if err := c.get(ctx, "status", "status", nil, &st); err != nil {
		return nil, err
	}
	return st, nil
}

// list is one page of a NetBox list answer.
type list struct {
	Count   *int               `json:"count"`
	Next    *string            `json:"next"`
	Results *[]json.RawMessage `json:"results"`
}

// Count is the endpoint's "count" (GET ?limit=1&brief=1).
func (c *Client) Count(ctx context.Context, endpoint string) (int, error) {
	var l list
	if err := c.get(ctx, endpoint, endpoint, url.Values{"limit": {"1"}, "brief": {"1"}}, &l); notFound(err) {
		return 0, nil // an endpoint this NetBox does not have holds nothing
	} else if err != nil {
		return 0, err
	}
	if l.Count == nil {
		return 0, &Error{Endpoint: endpoint, Status: 200, Detail: "the answer is not a NetBox list (no count)"}
	}
	return *l.Count, nil
}

// Endpoints lists what the NetBox's indexes name, from /api/ and each
// app's index (/api/<app>/; plugins under /api/plugins/<plugin>/), as
// "dcim/devices" or "plugins/<plugin>/<model>": every list endpoint, and a
// few that are not lists (users/config, extras/dashboard,
// core/background-queues): a model the importer does not know shows here.
func (c *Client) Endpoints(ctx context.Context) ([]string, error) {
	var root map[string]any
	if err := c.get(ctx, "", "", nil, &root); err != nil {
		return nil, err
	}
	var eps []string
	for app := range root {
		if app == "status" || strings.ContainsAny(app, "/?#") {
			continue
		}
		var idx map[string]any
		if err := c.get(ctx, app, app, nil, &idx); err != nil {
			return nil, err
		}
		for name := range idx {
			if app != "plugins" {
				eps = append(eps, app+"/"+name)
				continue
			}
			var pidx map[string]any
			if err := c.get(ctx, app+"/"+name, app+"/"+name, nil, &pidx); err != nil {
				return nil, err
			}
			for model := range pidx {
				eps = append(eps, app+"/"+name+"/"+model)
			}
		}
	}
	sort.Strings(eps)
	return eps, nil
}

// page is a page read, or why not.
type page struct {
	l   list
	err error
}

// Pages reads the endpoint's objects in id order, page by page (see the
// package documentation): by NetBox 4.6's cursor (?start=<id>), else by
// id__gt=<last id>&ordering=id, else by offset. The next page is fetched
// while fn handles the current one. fn's error ends the walk and is
// returned as is. An endpoint the NetBox does not have (404) has no pages.
func (c *Client) Pages(ctx context.Context, endpoint string, fn func(objs []json.RawMessage) error) error {
	return c.PagesAfter(ctx, endpoint, 0, fn)
}

// How a list is paged; a NetBox that ignores one is read by the next.
type mode int

const (
	byCursor mode = iota // ?start=<id>: keyset paging, no count (NetBox ≥ 4.6)
	byIDGT               // ?id__gt=<id>&ordering=id
	byOffset             // ?offset=<n>&ordering=id, the count watched for changes
)

// PagesAfter is Pages from the first object of an id above after (an
// interrupted import resuming).
func (c *Client) PagesAfter(ctx context.Context, endpoint string, after int, fn func(objs []json.RawMessage) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type request struct {
		mode   mode
		after  int // the last id read
		offset int
	}
	fetch := func(r request) page {
		q := url.Values{"limit": {strconv.Itoa(c.opts.PageSize)}}
		if excludeConfigContext[endpoint] {
			q.Set("exclude", "config_context")
		}
		switch r.mode {
		case byCursor:
			q.Set("start", strconv.Itoa(r.after+1)) // no ordering: NetBox refuses it with start
		case byIDGT:
			q.Set("ordering", "id")
			if r.after > 0 {
				q.Set("id__gt", strconv.Itoa(r.after))
			}
		case byOffset:
			q.Set("ordering", "id")
			if r.offset > 0 {
				q.Set("offset", strconv.Itoa(r.offset))
			}
		}
		var p page
		p.err = c.get(ctx, endpoint, endpoint, q, &p.l)
		if p.err == nil && p.l.Results == nil {
			p.err = &Error{Endpoint: endpoint, Status: 200, Detail: "the answer is not a NetBox list (no results)"}
		}
		if p.err == nil && r.mode != byCursor && p.l.Count == nil {
			p.err = &Error{Endpoint: endpoint, Status: 200, Detail: "the answer is not a NetBox list (no count)"}
		}
		return p
	}
	bad := func(format string, args ...any) error {
		return &Error{Endpoint: endpoint, Status: 200, Detail: fmt.Sprintf(format, args...)}
	}
	last := max(after, 0) // the last id handed out (or skipped)
	req := request{mode: c.modeOf(endpoint), after: last}
	fromStart, handed := last == 0, 0
	firstCount := -1 // the whole list's count, for offset paging
	cur := fetch(req)
	for {
		if cur.err != nil {
			if notFound(cur.err) && handed == 0 {
				return nil // an endpoint this NetBox does not have has no pages
			}
			return cur.err
		}
		// A NetBox that ignored how it was asked (an unknown query
		// parameter is ignored) answers the list from its start: read
		// it the next way. Before 4.6 start is unknown (the answer has a
		// count); a filter set without id__gt ignores it.
		ignored := false
		switch {
		case req.mode == byCursor && cur.l.Count != nil:
			ignored = true
		case req.mode == byIDGT && req.after > 0 && len(*cur.l.Results) > 0:
			id, err := recorded.ObjectID((*cur.l.Results)[0])
			ignored = err == nil && id <= req.after
		}
		if ignored {
			next := req.mode + 1
			c.modes.Store(endpoint, next)
			if next == byOffset && !fromStart {
				firstCount = *cur.l.Count // the whole list's, as the filter was ignored
			}
			req = request{mode: next, after: last}
			if next == byOffset && fromStart {
				req.offset = handed // what was handed out is the list's start
			}
			cur = fetch(req)
			continue
		}
		objs := *cur.l.Results
		if req.mode == byOffset {
			if firstCount < 0 {
				firstCount = *cur.l.Count
			} else if *cur.l.Count != firstCount {
				return bad("the list changed while being read (%d objects, then %d) and this NetBox cannot page it by id; run again when it is quiet", firstCount, *cur.l.Count)
			}
		} else if fromStart && handed == 0 && cur.l.Count != nil {
			firstCount = *cur.l.Count // in case offset paging follows
		}
		fresh := objs[:0:0]
		for i, o := range objs {
			id, err := recorded.ObjectID(o)
			if err != nil {
				return bad("object %d of a page: %v", i+1, err)
			}
			if id <= last {
				if req.mode == byOffset && len(fresh) == 0 {
					continue // by offset: read before, or before after
				}
				return bad("objects are not in id order (%d after %d)", id, last)
			}
			if len(fresh) == 0 {
				fresh = objs[i:i]
			}
			fresh = fresh[:len(fresh)+1]
			last = id
		}
		done := cur.l.Next == nil || len(objs) == 0
		var next chan page
		if !done {
			req.after, req.offset = last, req.offset+len(objs)
			handed += len(fresh)
			next = make(chan page, 1)
			go func(r request) { next <- fetch(r) }(req)
		}
		if len(fresh) > 0 {
			if err := fn(fresh); err != nil {
				if next != nil {
					cancel()
					<-next
				}
				return err
			}
		}
		if done {
			return nil
		}
		cur = <-next
	}
}

// modeOf is how the endpoint is paged: the way found to work for it, or
// the best.
func (c *Client) modeOf(endpoint string) mode {
	if m, ok := c.modes.Load(endpoint); ok {
		return m.(mode)
	}
	return byCursor
}

// notFound is a 404: the Source contract reads an endpoint the NetBox
// does not have (one added in a later 4.6 release, a plugin's) as empty.
// A wrong base URL is caught before, by /api/status/.
func notFound(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Status == http.StatusNotFound
}

// CheckVersion reads NetBox's version from its /api/status/ and refuses
// any but 4.6.x (the REST API this import reads changes between minor
// versions) unless force. It returns the version.
func CheckVersion(status map[string]any, force bool) (string, error) {
	v, _ := status["netbox-version"].(string)
	if v == "" {
		if force {
			return "", nil
		}
		return "", fmt.Errorf("netbox: /api/status/ names no netbox-version: is this a NetBox? (--force to read it anyway)")
	}
	parts := strings.SplitN(v, ".", 3)
	if len(parts) >= 2 && parts[0] == "4" && parts[1] == "6" || force {
		return v, nil
	}
	return v, fmt.Errorf("netbox: NetBox %s is not supported: this import reads NetBox 4.6.x, whose REST API it knows; upgrade NetBox to 4.6 first, or --force to try anyway", v)
}
