package server_test

import (
	"net/http"
	"path/filepath"
	"slices"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestTaggedObjects: /api/extras/tagged-objects/ lists every tag
// assignment read-only, as NetBox's TaggedItemViewSet: the tagged object
// nested, the tag nested, the display "<object> tagged with <tag>"; ordered
// by the tag's weight then name (byte-wise); NetBox's filters; the view
// permission of extras.taggeditem; assignments go with their object and
// with their tag; a page costs the same queries whatever its size and
// however many models it shows.
func TestTaggedObjects(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		const list = "/api/extras/tagged-objects/"
		tag := func(name string, weight int, description string) int {
			return id(e.Must(http.StatusCreated, "POST", "/api/extras/tags/", map[string]any{
				"name": name, "slug": name, "weight": weight, "description": description}))
		}
		// "Bravo" sorts before "alpha" byte-wise (NetBox's PostgreSQL
		// orders them the other way under a locale collation; every text
		// ordering here is byte-wise, README).
		alpha, bravo, zulu := tag("alpha", 1000, ""), tag("Bravo", 1000, "second in line"), tag("zulu", 100, "")
		site := id(e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{
			"name": "Paris", "slug": "paris", "tags": []int{alpha, zulu}}))
		tenant := id(e.Must(http.StatusCreated, "POST", "/api/tenancy/tenants/", map[string]any{
			"name": "Acme", "slug": "acme", "tags": []int{bravo}}))

		r := e.Must(http.StatusOK, "GET", list, nil)
		servertest.Golden(t, filepath.Join("..", "testdata", "endpoints", "extras-tagged-objects.json"), servertest.Normalize(t, r.Body))
		var displays []string
		for _, o := range r.Results() {
			displays = append(displays, o["display"].(string))
		}
		if want := []string{"Paris tagged with zulu", "Acme tagged with Bravo", "Paris tagged with alpha"}; !slices.Equal(displays, want) {
			t.Errorf("displays %q, want %q", displays, want)
		}
		first := ids(r.Results())[0]

		// The display needs the object and the tag even when the view
		// leaves them out.
		got := e.Must(http.StatusOK, "GET", list+"?fields=id,display", nil).Results()
		if len(got) != 3 || got[0]["display"] != "Paris tagged with zulu" || len(got[0]) != 2 {
			t.Errorf("?fields=id,display: %v", got)
		}
		detail := e.Must(http.StatusOK, "GET", list+itoa(first)+"/", nil)
		// TaggedItemSerializer's field order.
		if got, want := keys(t, detail.Body), []string{"id", "url", "display", "object_type", "object_id", "object", "tag"}; !slices.Equal(got, want) {
			t.Errorf("fields %v, want %v", got, want)
		}
		one := detail.Object()
		if one["display"] != "Paris tagged with zulu" || one["object_type"] != "dcim.site" || one["object_id"] != float64(site) {
			t.Errorf("detail: %v", one)
		}
		brief := e.Must(http.StatusOK, "GET", list+"?brief=1", nil).Results()
		if len(brief) != 3 || brief[0]["object"].(map[string]any)["display"] != "Paris" || brief[0]["tag"].(map[string]any)["slug"] != "zulu" {
			t.Errorf("brief: %v", brief)
		}

		for _, c := range []struct {
			query string
			want  []string
		}{
			{"object_type=dcim.site", []string{"Paris tagged with zulu", "Paris tagged with alpha"}},
			{"object_type=tenancy.tenant", []string{"Acme tagged with Bravo"}},
			{"object_type__n=dcim.site", []string{"Acme tagged with Bravo"}},
			{"object_type__ic=TENANCY", []string{"Acme tagged with Bravo"}},
			{"object_type=dcim.site&object_type=tenancy.tenant", []string{"Paris tagged with zulu", "Acme tagged with Bravo", "Paris tagged with alpha"}},
			{"object_type=dcim.site&object_id=" + itoa(site), []string{"Paris tagged with zulu", "Paris tagged with alpha"}},
			{"object_id=" + itoa(tenant) + "&object_type=tenancy.tenant", []string{"Acme tagged with Bravo"}},
			{"tag=alpha", []string{"Paris tagged with alpha"}},
			{"tag=alpha&tag=Bravo", []string{"Acme tagged with Bravo", "Paris tagged with alpha"}},
			{"tag__n=alpha", []string{"Paris tagged with zulu", "Acme tagged with Bravo"}},
			{"tag_id=" + itoa(zulu), []string{"Paris tagged with zulu"}},
			{"id=" + itoa(first), []string{"Paris tagged with zulu"}},
			{"id__n=" + itoa(first), []string{"Acme tagged with Bravo", "Paris tagged with alpha"}},
			{"q=ULU", []string{"Paris tagged with zulu"}},     // tag name
			{"q=in+line", []string{"Acme tagged with Bravo"}}, // tag description
			{"q=paris", nil}, // the object is not searched
			{"q=+", []string{"Paris tagged with zulu", "Acme tagged with Bravo", "Paris tagged with alpha"}},
			{"ordering=-id", []string{"Acme tagged with Bravo", "Paris tagged with zulu", "Paris tagged with alpha"}},
		} {
			var got []string
			for _, o := range e.Must(http.StatusOK, "GET", list+"?"+c.query, nil).Results() {
				got = append(got, o["display"].(string))
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("?%s: %q, want %q", c.query, got, c.want)
			}
		}
		e.Must(http.StatusBadRequest, "GET", list+"?tag=nosuchtag", nil)
		e.Must(http.StatusBadRequest, "GET", list+"?object_id=abc", nil)

		// Read-only: assignments are made through the objects' tags.
		for _, m := range []struct{ method, path string }{
			{"POST", list}, {"PUT", list}, {"PATCH", list}, {"DELETE", list},
			{"PUT", list + itoa(first) + "/"}, {"PATCH", list + itoa(first) + "/"}, {"DELETE", list + itoa(first) + "/"},
		} {
			e.Must(http.StatusMethodNotAllowed, m.method, m.path, map[string]any{"object_id": site})
		}
		e.Must(http.StatusNotFound, "GET", list+itoa(missing)+"/", nil)

		// NetBox's permission: view on extras.taggeditem, not on the
		// tags or the objects.
		_, uid := e.NewUser("reader")
		reader := e.TokenFor(uid, false)
		reader.Must(http.StatusForbidden, "GET", list, nil)
		e.Grant(uid, []string{"extras.tag", "dcim.site"}, []string{"view"}, nil)
		reader.Must(http.StatusForbidden, "GET", list, nil)
		e.Grant(uid, []string{"extras.taggeditem"}, []string{"view"}, nil)
		if n := len(reader.Must(http.StatusOK, "GET", list, nil).Results()); n != 3 {
			t.Errorf("reader sees %d tagged objects, want 3", n)
		}

		// A page costs the same whatever its size and its object types.
		small := e.Cost(list + "?tag=zulu")
		for i := range 20 {
			e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{
				"name": "Site " + itoa(i), "slug": "site-" + itoa(i), "tags": []int{alpha, bravo}})
			e.Must(http.StatusCreated, "POST", "/api/tenancy/tenants/", map[string]any{
				"name": "Tenant " + itoa(i), "slug": "tenant-" + itoa(i), "tags": []int{zulu}})
		}
		if big, r := e.CostOf(list + "?limit=100"); len(r.Results()) != 63 || big != small {
			t.Errorf("read queries: %d for a page of 1 object, %d for a page of %d objects of two types", small, big, len(r.Results()))
		}

		// Assignments go with their object, and with their tag.
		e.Must(http.StatusNoContent, "DELETE", "/api/dcim/sites/"+itoa(site)+"/", nil)
		if got := e.Must(http.StatusOK, "GET", list+"?object_type=dcim.site&object_id="+itoa(site), nil).Results(); len(got) != 0 {
			t.Errorf("the deleted site's assignments remain: %v", got)
		}
		e.Must(http.StatusNoContent, "DELETE", "/api/extras/tags/"+itoa(zulu)+"/", nil)
		if got := e.Must(http.StatusOK, "GET", list+"?limit=100", nil).Results(); len(got) != 41 {
			t.Errorf("%d assignments after deleting a site and a tag, want 41", len(got))
		}
	})
}
