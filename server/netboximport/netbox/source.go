package netbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
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
	Count   *int              `json:"count"`
	Next    *string           `json:"next"`
	Results []json.RawMessage `json:"results"`
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

// Endpoints lists every list endpoint the NetBox serves, from /api/ and
// each app's index (/api/<app>/; plugins under /api/plugins/<plugin>/),
// as "dcim/devices" or "plugins/<plugin>/<model>".
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

// Pages reads the endpoint's objects in id order, page by page: GET
// ?limit=<page size>&ordering=id, each next page asked for by id__gt=<the
// last id read> (see the package documentation). The next page is fetched
// while fn handles the current one. fn's error ends the walk and is
// returned as is. An endpoint the NetBox does not have (404) has no pages.
func (c *Client) Pages(ctx context.Context, endpoint string, fn func(objs []json.RawMessage) error) error {
	return c.PagesAfter(ctx, endpoint, 0, fn)
}

// PagesAfter is Pages from the first object of an id above after (an
// interrupted import resuming).
func (c *Client) PagesAfter(ctx context.Context, endpoint string, after int, fn func(objs []json.RawMessage) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	base := url.Values{"limit": {strconv.Itoa(c.opts.PageSize)}, "ordering": {"id"}}
	if excludeConfigContext[endpoint] {
		base.Set("exclude", "config_context")
	}
	// A request: by id__gt=after, or (byOffset) by offset.
	type request struct {
		byOffset bool
		after    int
		offset   int
	}
	fetch := func(r request) page {
		q := url.Values{}
		for k, v := range base {
			q[k] = v
		}
		switch {
		case r.byOffset && r.offset > 0:
			q.Set("offset", strconv.Itoa(r.offset))
		case !r.byOffset && r.after > 0:
			q.Set("id__gt", strconv.Itoa(r.after))
		}
		var p page
		p.err = c.get(ctx, endpoint, endpoint, q, &p.l)
		if p.err == nil && p.l.Count == nil {
			p.err = &Error{Endpoint: endpoint, Status: 200, Detail: "the answer is not a NetBox list (no count)"}
		}
		return p
	}
	bad := func(format string, args ...any) error {
		return &Error{Endpoint: endpoint, Status: 200, Detail: fmt.Sprintf(format, args...)}
	}
	last := max(after, 0) // the last id handed out (or skipped)
	_, known := c.noIDGT.Load(endpoint)
	req := request{byOffset: known, after: last}
	fromStart, handed := last == 0, 0
	firstCount := -1 // the whole list's count, for offset paging
	cur := fetch(req)
	if notFound(cur.err) {
		return nil // an endpoint this NetBox does not have has no pages
	}
	if cur.err == nil && fromStart {
		firstCount = *cur.l.Count
	}
	for {
		if cur.err != nil {
			return cur.err
		}
		objs := cur.l.Results
		if !req.byOffset && req.after > 0 && len(objs) > 0 {
			if id, err := objectID(objs[0]); err == nil && id <= req.after {
				// id__gt was ignored: this NetBox's filter set lacks it.
				// Read by offset from here: past what was handed out
				// when the list was read from its start, else from the
				// start skipping up to after (a list changing meanwhile
				// is then caught by its count).
				c.noIDGT.Store(endpoint, true)
				req = request{byOffset: true}
				if fromStart {
					req.offset = handed
				} else {
					firstCount = *cur.l.Count
				}
				if cur = fetch(req); cur.err != nil {
					return cur.err
				}
				objs = cur.l.Results
			}
		}
		if req.byOffset {
			if firstCount < 0 {
				firstCount = *cur.l.Count
			} else if *cur.l.Count != firstCount {
				return bad("the list changed while being read (%d objects, then %d) and this NetBox cannot page it by id__gt; run again when it is quiet", firstCount, *cur.l.Count)
			}
		}
		fresh := objs[:0:0]
		for i, o := range objs {
			id, err := objectID(o)
			if err != nil {
				return bad("object %d of a page: %v", i+1, err)
			}
			if id <= last {
				if req.byOffset && len(fresh) == 0 {
					continue // by offset: read before, or before after
				}
				return bad("objects are not in id order (%d after %d): ordering=id was not honoured", id, last)
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

// notFound is a 404: the Source contract reads an endpoint the NetBox
// does not have (one added in a later 4.6 release, a plugin's) as empty.
// A wrong base URL is caught before, by /api/status/.
func notFound(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Status == http.StatusNotFound
}

func objectID(obj json.RawMessage) (int, error) {
	// NetBox renders "id" first: read it without parsing the object.
	if rest, ok := bytes.CutPrefix(obj, []byte(`{"id":`)); ok {
		if end := bytes.IndexAny(rest, ",}"); end > 0 {
			if id, err := strconv.Atoi(string(bytes.TrimSpace(rest[:end]))); err == nil {
				return id, nil
			}
		}
	}
	var v struct {
		ID *int `json:"id"`
	}
	if err := json.Unmarshal(obj, &v); err != nil {
		return 0, err
	}
	if v.ID == nil {
		return 0, fmt.Errorf("an object without an id: %.80s", obj)
	}
	return *v.ID, nil
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
