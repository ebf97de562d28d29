package server_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/inventory/inventory/filters"
	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/servertest"
)

// TestFilterUnknown: FILTER_UNKNOWN's three modes on list and detail
// routes. Guard (the default) ignores unknown parameters next to a known
// filter (Ansible's user lookup) and refuses them alone; a bad value for a
// known filter is a 400 in every mode.
func TestFilterUnknown(t *testing.T) {
	t.Parallel()
	type tc struct {
		path    string
		status  int
		ignored string // X-Ignored-Filters
		body    string // substring of the body
		count   int    // results of a 200 list; -1: not a list
	}
	users := "/api/users/users/"
	common := func(mode filters.Unknown) []tc {
		var unknownAlone tc
		switch mode {
		case filters.Ignore:
			unknownAlone = tc{users + "?pasword=p", 200, "pasword", "", 2}
		default:
			unknownAlone = tc{users + "?pasword=p", 400, "", `{"pasword":["Unknown filter parameter."]}`, -1}
		}
		tasks := "/api/core/background-tasks/"
		cases := []tc{
			unknownAlone,
			{tasks + "?status=nope", 400, "", `"status"`, -1},
			{users + "?username=u&id=abc&password=p", 400, "", `"id":`, -1},
			{users + "?username=u&date_joined__gte=nope", 400, "", `"date_joined__gte":`, -1},
			{users + "?username=u", 200, "", "", 1},
			{users + "?limit=1&offset=0&ordering=username&brief=1", 200, "", "", 1},
		}
		// A hand-written list (webhook deliveries) follows the mode too.
		switch mode {
		case filters.Ignore:
			cases = append(cases, tc{tasks + "?stauts=failed", 200, "stauts", "", 0})
		default:
			cases = append(cases, tc{tasks + "?stauts=failed", 400, "", `{"stauts":["Unknown filter parameter."]}`, -1})
		}
		switch mode {
		case filters.Strict:
			cases = append(cases, tc{tasks + "?status=failed&stauts=1", 400, "", `"stauts"`, -1},
				tc{users + "?username=u&password=p", 400, "", `{"password":["Unknown filter parameter."]}`, -1},
				tc{users + "1/?pasword=p", 400, "", `"pasword"`, -1},
			)
		default:
			cases = append(cases, tc{tasks + "?status=failed&stauts=1", 200, "stauts", "", 0},
				tc{users + "?username=u&password=p", 200, "password", "", 1},
				tc{users + "?username=u&password=p&email__bogus=x", 200, "email__bogus, password", "", 1},
				tc{users + "?username=u&password=p&X%0D%0AY=1", 200, `"X\r\nY", password`, "", 1},
				// A detail route answers one object at most: guard ignores.
				tc{users + "1/?pasword=p", 200, "pasword", "", -1},
			)
		}
		if mode == filters.Guard {
			cases = append(cases,
				// A known filter without a value filters nothing.
				tc{users + "?username=&pasword=p", 400, "", `"pasword"`, -1},
				tc{users + "?pasword=p&limit=1", 400, "", `"pasword"`, -1},
			)
		}
		return cases
	}
	for _, mode := range []filters.Unknown{filters.Guard, filters.Strict, filters.Ignore} {
		t.Run(string(mode), func(t *testing.T) {
			t.Parallel()
			servertest.Each(t, func(t *testing.T, e *servertest.Env) {
				e.NewUser("u")
				for _, c := range common(mode) {
					r := e.Do("GET", c.path, nil)
					if r.Status != c.status {
						t.Errorf("%s: %d, want %d: %s", c.path, r.Status, c.status, r.Body)
						continue
					}
					if got := r.Header.Get("X-Ignored-Filters"); got != c.ignored {
						t.Errorf("%s: X-Ignored-Filters %q, want %q", c.path, got, c.ignored)
					}
					if !strings.Contains(string(r.Body), c.body) {
						t.Errorf("%s: body %s, want %s in it", c.path, r.Body, c.body)
					}
					if c.count >= 0 && len(r.Results()) != c.count {
						t.Errorf("%s: %d results, want %d", c.path, len(r.Results()), c.count)
					}
				}
			}, func(cfg *server.Config) { cfg.FilterUnknown = mode })
		})
	}
}

// TestRequestLimits: a bulk request over MAX_BULK_ITEMS, a body over
// DATA_UPLOAD_MAX_MEMORY_SIZE and an over-long filter value are clean 4xx
// that change nothing.
func TestRequestLimits(t *testing.T) {
	t.Parallel()
	tenants := "/api/tenancy/tenants/"
	tenant := func(i int) map[string]any {
		return map[string]any{"name": fmt.Sprint("t", i), "slug": fmt.Sprint("t", i)}
	}
	bulk := func(n, from int) []map[string]any {
		out := make([]map[string]any, n)
		for i := range out {
			out[i] = tenant(from + i)
		}
		return out
	}
	long := strings.Repeat("x", filters.MaxValueLength+1)
	t.Run("defaults", func(t *testing.T) { // 1000 items, 2.5 MiB
		t.Parallel()
		servertest.Each(t, func(t *testing.T, e *servertest.Env) {
			many := "[" + strings.TrimSuffix(strings.Repeat("{},", 100000), ",") + "]"
			big, _ := json.Marshal(map[string]any{"name": "big", "slug": "big", "comments": strings.Repeat("x", 5<<19)})
			for _, c := range []struct {
				name, method, path string
				body               any
				status             int
				want               string
			}{
				{"100000 items", "POST", tenants, many, 400, `{"non_field_errors":["Ensure this list has at most 1000 items (MAX_BULK_ITEMS); split the request."]}`},
				{"1001 items", "POST", tenants, bulk(1001, 0), 400, "at most 1000 items"},
				{"1001 ids", "PATCH", tenants, many[:3003] + "]", 400, "at most 1000 items"},
				{"1001 deletes", "DELETE", tenants, many[:3003] + "]", 400, "at most 1000 items"},
				{"body over 2.5 MiB", "POST", tenants, big, 413, `{"detail":"Request body too large: the limit is 2621440 bytes (DATA_UPLOAD_MAX_MEMORY_SIZE)."}`},
				{"q of 50000", "GET", tenants + "?q=" + strings.Repeat("x", 50000), nil, 400, `{"q":["Ensure this value has at most 1000 characters."]}`},
				{"regex", "GET", tenants + "?name__regex=" + url.QueryEscape(strings.Repeat("(a", 501)), nil, 400, `"name__regex"`},
				{"long value", "GET", tenants + "?description__ic=" + long, nil, 400, `"description__ic"`},
				{"too many values", "GET", tenants + "?" + strings.Repeat("id=1&", filters.MaxValues+1), nil, 400, `{"id":["Ensure this parameter has at most 500 values."]}`},
				{"1000 chars", "GET", tenants + "?name__ic=" + long[1:], nil, 200, `"count":0`},
			} {
				r := e.Do(c.method, c.path, c.body)
				if r.Status != c.status || !strings.Contains(string(r.Body), c.want) {
					t.Errorf("%s: %d %.300s, want %d %s", c.name, r.Status, r.Body, c.status, c.want)
				}
			}
			if n := e.Must(200, "GET", tenants, nil).Object()["count"]; n != 0.0 {
				t.Errorf("%v tenants after refused writes", n)
			}
		})
	})
	t.Run("configured", func(t *testing.T) { // 3 items, 1000 bytes
		t.Parallel()
		servertest.Each(t, func(t *testing.T, e *servertest.Env) {
			ids := func(r *servertest.Response) []map[string]any {
				var out []map[string]any
				for _, o := range r.JSON().([]any) {
					out = append(out, map[string]any{"id": o.(map[string]any)["id"]})
				}
				return out
			}
			created := ids(e.Must(201, "POST", tenants, bulk(3, 0)))
			four := append(created, map[string]any{"id": 999})
			for _, c := range []struct {
				name, method string
				body         any
				status       int
				want         string
			}{
				{"4 items", "POST", bulk(4, 10), 400, "at most 3 items"},
				{"4 updates", "PATCH", four, 400, "at most 3 items"},
				{"4 deletes", "DELETE", four, 400, "at most 3 items"},
				{"1001 bytes", "POST", map[string]any{"name": "n", "slug": "n", "description": strings.Repeat("d", 1001-40)}, 413, "the limit is 1000 bytes"},
				{"3 updates", "PATCH", created, 200, ""},
				{"3 deletes", "DELETE", created, 204, ""},
			} {
				raw, _ := json.Marshal(c.body)
				if c.name == "1001 bytes" && len(raw) != 1001 {
					t.Fatalf("body of %d bytes", len(raw))
				}
				r := e.Do(c.method, tenants, c.body)
				if r.Status != c.status || !strings.Contains(string(r.Body), c.want) {
					t.Errorf("%s: %d %.300s, want %d %s", c.name, r.Status, r.Body, c.status, c.want)
				}
			}
		}, func(cfg *server.Config) { cfg.MaxBulkItems, cfg.MaxBodyBytes = 3, 1000 })
	})
}
