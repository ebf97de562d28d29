package netboximport

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"

	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/server"
)

// verify reads every imported object back through this service's API, in
// process (o.Handler, no network), and compares it with NetBox's
// representation read again from the source. Both sides are read page by
// page in id order (the copy by cursor, id >= start), so that memory
// stays bounded whatever the size.
func (im *importer) verify(ctx context.Context) error {
	im.rep.Verified = true
	rctx := server.InProcess(ctx, "import")
	ds := im.plan.order
	if im.o.Changelog {
		ds = append(ds[:len(ds):len(ds)], resource.ByContentType("core.objectchange"))
	}
	for _, d := range ds {
		ep := endpointOf(d)
		r := im.byEP[ep]
		if r == nil || r.Read == 0 {
			continue
		}
		err := im.o.Source.Pages(ctx, ep, func(objs []json.RawMessage) error {
			if len(objs) == 0 {
				return nil
			}
			type idObj struct {
				ID int `json:"id"`
			}
			ids := make([]int, len(objs))
			for i, raw := range objs {
				var o idObj
				if err := json.Unmarshal(raw, &o); err != nil {
					return err
				}
				ids[i] = o.ID
			}
			// A source that read NetBox without config_context (as an
			// import may: ?exclude=config_context) is compared without it.
			exclude := ""
			if d.Field(resource.Excludable) != nil && rawField(objs[0], resource.Excludable) == nil {
				exclude = resource.Excludable
			}
			ours, err := im.list(rctx, ep, ids[0], ids[len(ids)-1], exclude)
			if err != nil {
				return err
			}
			for i, raw := range objs {
				if im.refuse[key{d.ContentType(), ids[i]}] {
					continue
				}
				mine, ok := ours[ids[i]]
				if !ok {
					r.Missing++
					im.rep.Differences = append(im.rep.Differences, Difference{Endpoint: ep, ID: ids[i], Field: "(object)", NetBox: "{...}"})
					continue
				}
				diffs, err := compareObject(ep, ids[i], raw, mine)
				if err != nil {
					return fmt.Errorf("%s %d: %w", ep, ids[i], err)
				}
				real := 0
				for _, df := range diffs {
					if df.Departure != "" {
						im.rep.Departures[df.Departure]++
						continue
					}
					real++
					im.rep.Differences = append(im.rep.Differences, df)
				}
				switch {
				case real > 0:
					r.Differing++
				case len(diffs) > 0:
					r.Departed++
				default:
					r.Identical++
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("%s: %w", ep, err)
		}
	}
	return nil
}

// list reads the copy's objects of ep with ids from lo to hi.
func (im *importer) list(ctx context.Context, ep string, lo, hi int, exclude string) (map[int]json.RawMessage, error) {
	out := map[int]json.RawMessage{}
	start := lo
	for {
		path := "/api/" + ep + "/?limit=1000&start=" + strconv.Itoa(start) + "&id__lte=" + strconv.Itoa(hi)
		if exclude != "" {
			path += "&exclude=" + exclude
		}
		req := httptest.NewRequest(http.MethodGet, path, nil).WithContext(ctx)
		req.Header.Set("Accept", "application/json")
		w := httptest.NewRecorder()
		im.o.Handler.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			return nil, fmt.Errorf("GET %s: %d %s", path, w.Code, truncate(w.Body.String(), 300))
		}
		var body struct {
			Results []json.RawMessage `json:"results"`
			Next    *string           `json:"next"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
			return nil, fmt.Errorf("GET %s: %w", path, err)
		}
		last := 0
		for _, raw := range body.Results {
			var o struct {
				ID int `json:"id"`
			}
			if err := json.Unmarshal(raw, &o); err != nil {
				return nil, err
			}
			out[o.ID] = raw
			last = o.ID
		}
		if body.Next == nil || len(body.Results) == 0 || last >= hi {
			return out, nil
		}
		start = last + 1
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
