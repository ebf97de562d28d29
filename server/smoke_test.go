package server_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestSmoke walks the basic life of a site on every database.
func TestSmoke(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		r := e.Must(http.StatusCreated, "POST", "/api/dcim/regions/", map[string]any{"name": "Europe", "slug": "europe"})
		region := r.Object()["id"]
		r = e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "DC1", "slug": "dc1", "region": map[string]any{"slug": "europe"}})
		site := r.Object()
		if site["region"].(map[string]any)["id"] != region {
			t.Fatalf("region not resolved: %v", site["region"])
		}
		if r.Header.Get("ETag") == "" {
			t.Fatal("no ETag")
		}
		e.Must(http.StatusOK, "GET", "/api/dcim/sites/?region_id=1", nil)
		list := e.Must(http.StatusOK, "GET", "/api/dcim/regions/", nil).Results()
		if len(list) != 1 || list[0]["site_count"].(float64) != 1 {
			t.Fatalf("site_count: %v", list)
		}
		e.Must(http.StatusNoContent, "DELETE", "/api/dcim/sites/1/", nil)
	})
}

// TestTreeParents guards the tree edge: many children per parent, and
// deleting a child leaves its parent alone while deleting a parent takes
// its subtree (NetBox's MPTT models).
func TestTreeParents(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		p := e.Must(http.StatusCreated, "POST", "/api/dcim/regions/", map[string]any{"name": "P", "slug": "p"}).Object()["id"]
		for _, n := range []string{"a", "b"} {
			r := e.Must(http.StatusCreated, "POST", "/api/dcim/regions/", map[string]any{"name": n, "slug": n, "parent": p}).Object()
			if r["_depth"].(float64) != 1 {
				t.Fatalf("child depth %v", r["_depth"])
			}
		}
		parent := e.Must(http.StatusOK, "GET", "/api/dcim/regions/1/", nil).Object()
		if parent["parent"] != nil {
			t.Fatalf("parent got a parent: %v", parent["parent"])
		}
		e.Must(http.StatusNoContent, "DELETE", "/api/dcim/regions/2/", nil)
		e.Must(http.StatusOK, "GET", "/api/dcim/regions/1/", nil)
		e.Must(http.StatusNoContent, "DELETE", "/api/dcim/regions/1/", nil)
		if n := e.Must(http.StatusOK, "GET", "/api/dcim/regions/", nil).Object()["count"]; n != 0.0 {
			t.Fatalf("subtree left behind: %v", n)
		}
	})
}

// TestCachedAuthSeesWrites: token lookups are cached between requests, but
// a write through this process (disabling the token) takes effect at once.
func TestCachedAuthSeesWrites(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		tok := e.Must(http.StatusCreated, "POST", "/api/users/tokens/", map[string]any{"user": 1}).Object()
		bearer := "Bearer svc_" + tok["key"].(string) + "." + tok["token"].(string)
		u := e.WithToken(bearer)
		u.Must(http.StatusOK, "GET", "/api/dcim/sites/", nil)
		u.Must(http.StatusOK, "GET", "/api/dcim/sites/", nil) // served from the cache
		e.Must(http.StatusOK, "PATCH", "/api/users/tokens/"+strconv.Itoa(int(tok["id"].(float64)))+"/", map[string]any{"enabled": false})
		if r := u.Do("GET", "/api/dcim/sites/", nil); r.Status != http.StatusForbidden || r.Object()["detail"] != "Token disabled" {
			t.Fatalf("disabled token: %d %s", r.Status, r.Body)
		}
		// Counts follow writes too.
		e.Must(http.StatusOK, "GET", "/api/dcim/sites/", nil)
		e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "S", "slug": "s"})
		if n := e.Must(http.StatusOK, "GET", "/api/dcim/sites/", nil).Object()["count"]; n != 1.0 {
			t.Fatalf("count after create: %v", n)
		}
	})
}

// TestCustomFieldDataType: data_type follows type, as NetBox derives it.
func TestCustomFieldDataType(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		cf := e.Must(http.StatusCreated, "POST", "/api/extras/custom-fields/", map[string]any{
			"name": "speed", "type": "integer", "object_types": []string{"dcim.site"}}).Object()
		if cf["data_type"] != "integer" {
			t.Fatalf("data_type %v", cf["data_type"])
		}
		// The type is fixed once created (NetBox's
		// CustomFieldSerializer.validate_type): a field of each type.
		for typ, want := range map[string]string{"json": "object", "multiselect": "array", "date": "string"} {
			body := map[string]any{"name": "f_" + typ, "type": typ, "object_types": []string{"dcim.site"}}
			if typ == "multiselect" {
				cs := e.Must(http.StatusCreated, "POST", "/api/extras/custom-field-choice-sets/", map[string]any{
					"name": "set", "extra_choices": [][]string{{"a", "A"}}}).Object()
				body["choice_set"] = cs["id"]
			}
			if got := e.Must(http.StatusCreated, "POST", "/api/extras/custom-fields/", body).Object()["data_type"]; got != want {
				t.Errorf("%s: data_type %v, want %s", typ, got, want)
			}
		}
		path := "/api/extras/custom-fields/" + strconv.Itoa(int(cf["id"].(float64))) + "/"
		e.Must(http.StatusBadRequest, "PATCH", path, map[string]any{"type": "json"})
	})
}

// TestRefusedValues: NUL characters (which PostgreSQL cannot store) and a
// blank non-nullable choice are 400s with NetBox's texts, in bodies and in
// filters alike.
func TestRefusedValues(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		r := e.Must(http.StatusBadRequest, "POST", "/api/dcim/sites/", map[string]any{"name": "a\x00b", "slug": "a"})
		if string(r.Body) != `{"name":["Null characters are not allowed."]}` {
			t.Errorf("NUL in a body: %s", r.Body)
		}
		r = e.Must(http.StatusBadRequest, "GET", "/api/dcim/sites/?name=%00", nil)
		if string(r.Body) != `{"name":["Null characters are not allowed."]}` {
			t.Errorf("NUL in a filter: %s", r.Body)
		}
		e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "S", "slug": "s"})
		r = e.Must(http.StatusBadRequest, "PATCH", "/api/dcim/sites/1/", map[string]any{"status": nil})
		if string(r.Body) != `{"status":["This field may not be blank."]}` {
			t.Errorf("null status: %s", r.Body)
		}
	})
}
