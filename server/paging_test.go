package server_test

import (
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestPagingDepth: every page at every offset is the matching slice of the
// whole list, with the whole list's count, whatever the ordering and
// filters (PostgreSQL selects a deep page's ids first, then its rows; a
// short page tells its count without a count query); and a page costs the
// same number of read queries at any depth, and a repeated filter set
// does not count again.
func TestPagingDepth(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		const n = 23
		var sites []any
		for i := range n {
			s := map[string]any{"name": fmt.Sprintf("Site %02d", (i*7)%n), "slug": fmt.Sprintf("site-%02d", i), "status": []string{"active", "planned", "retired"}[i%3]}
			if i%4 == 0 {
				s["description"] = fmt.Sprintf("Straße %d", i)
			}
			sites = append(sites, s)
		}
		e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", sites)
		names := func(r *servertest.Response) []any {
			var out []any
			for _, m := range r.Results() {
				out = append(out, m["name"])
			}
			return out
		}
		for _, filter := range []string{"", "ordering=-name", "ordering=description", "status=active", "q=STRASSE", "q=straße&ordering=-id", "status=retired&ordering=-description"} {
			all := e.Must(http.StatusOK, "GET", "/api/dcim/sites/?limit=1000&"+filter, nil)
			whole := names(all)
			count := all.Object()["count"]
			if int(count.(float64)) != len(whole) {
				t.Fatalf("%s: count %v, %d results", filter, count, len(whole))
			}
			for _, limit := range []int{1, 4, 10} {
				for offset := 0; offset <= len(whole)+1; offset++ {
					q := fmt.Sprintf("/api/dcim/sites/?limit=%d&offset=%d&%s", limit, offset, filter)
					r := e.Must(http.StatusOK, "GET", q, nil)
					want := whole[min(offset, len(whole)):min(offset+limit, len(whole))]
					if got := names(r); !reflect.DeepEqual(got, want) && (len(got) > 0 || len(want) > 0) {
						t.Errorf("%s: %v, want %v", q, got, want)
					}
					if got := r.Object()["count"]; got != count {
						t.Errorf("%s: count %v, want %v", q, got, count)
					}
				}
			}
		}

		cost := func(q string) int64 {
			before := e.Statements()
			e.Must(http.StatusOK, "GET", q, nil)
			return e.Statements() - before
		}
		e.DB.Cache.Bump()
		first := cost("/api/dcim/sites/?limit=2&" + url.Values{"q": {"site"}}.Encode())
		second := cost("/api/dcim/sites/?limit=2&offset=2&" + url.Values{"q": {"site"}}.Encode())
		if second >= first+int64OfBool(e.DB.Dialect == "postgres") {
			t.Errorf("the second page of a filter set: %d read queries, the first %d: its count was not cached", second, first)
		}
		e.DB.Cache.Bump()
		shallow := cost("/api/dcim/sites/?limit=2&offset=2")
		e.DB.Cache.Bump()
		deep := cost("/api/dcim/sites/?limit=2&offset=20")
		if deep != shallow {
			t.Errorf("read queries: %d at offset 20, %d at offset 2", deep, shallow)
		}
	})
}

func int64OfBool(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// TestDeepOffsetPages: past resource's deepOffset a page is a slice of
// its list's ordered ids, read whole once and kept until the next write:
// every deep page matches the whole list (any ordering, filters), a
// repeated deep page costs no more statements than the first page, and a
// write (a new object sorting first) shifts the deep pages at once.
func TestDeepOffsetPages(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		const n = 1300
		// Tag i is named "tag <(7i mod n)>": its id and its name order
		// differ. Odd tags are green.
		var tags []any
		name := func(i int) string { return fmt.Sprintf("tag %04d", (i*7)%n) }
		for i := range n {
			tags = append(tags, map[string]any{"name": name(i), "slug": fmt.Sprintf("t-%04d", i),
				"color": []string{"ff0000", "00ff00"}[i%2]})
		}
		e.Must(http.StatusCreated, "POST", "/api/extras/tags/", tags[:n/2])
		e.Must(http.StatusCreated, "POST", "/api/extras/tags/", tags[n/2:])
		names := func(r *servertest.Response) []any {
			var out []any
			for _, m := range r.Results() {
				out = append(out, m["name"])
			}
			return out
		}
		var byName, byNameDesc, green, byIDDesc []any
		for k := range n {
			byName = append(byName, fmt.Sprintf("tag %04d", k))
			byNameDesc = append(byNameDesc, fmt.Sprintf("tag %04d", n-1-k))
			byIDDesc = append(byIDDesc, name(n-1-k))
		}
		isGreen := map[any]bool{}
		for i := 1; i < n; i += 2 {
			isGreen[name(i)] = true
		}
		for _, v := range byName {
			if isGreen[v] {
				green = append(green, v)
			}
		}
		for _, c := range []struct {
			filter string
			whole  []any
		}{{"", byName}, {"ordering=-name", byNameDesc}, {"color=00ff00", green}, {"ordering=-id&q=tag", byIDDesc}} {
			for _, off := range []int{640, 1000, 1210, 1290, 1400} {
				r := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/extras/tags/?limit=50&offset=%d&%s", off, c.filter), nil)
				want := c.whole[min(off, len(c.whole)):min(off+50, len(c.whole))]
				if got := names(r); !reflect.DeepEqual(got, want) && (len(got) > 0 || len(want) > 0) {
					t.Errorf("%s offset %d: %v, want %v", c.filter, off, got, want)
				}
				if got := int(r.Object()["count"].(float64)); got != len(c.whole) {
					t.Errorf("%s offset %d: count %d, want %d", c.filter, off, got, len(c.whole))
				}
			}
		}
		warm := func(path string) int64 {
			e.Must(http.StatusOK, "GET", path, nil)
			before := e.Statements()
			e.Must(http.StatusOK, "GET", path, nil)
			return e.Statements() - before
		}
		if first, deep := warm("/api/extras/tags/?limit=50"), warm("/api/extras/tags/?limit=50&offset=1200"); deep > first {
			t.Errorf("a repeated deep page: %d statements, the first page %d", deep, first)
		}
		e.Must(http.StatusCreated, "POST", "/api/extras/tags/", map[string]any{"name": "aaa first", "slug": "aaa-first"})
		want := append([]any{"aaa first"}, byName...)[1200:1250]
		if got := names(e.Must(http.StatusOK, "GET", "/api/extras/tags/?limit=50&offset=1200", nil)); !reflect.DeepEqual(got, want) {
			t.Errorf("after a write, offset 1200: %v, want %v", got, want)
		}
	})
}
