package server_test

import (
	"fmt"
	"net/http"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/servertest"
)

var seq atomic.Int64

func next() int { return int(seq.Add(1)) }

// permFixture builds, from the model's conformance fixture
// (testdata/models), a function that returns a fresh valid create payload:
// the first fixture object made unique, with its related objects created
// by the admin, "description": "in" where the model has a description (the
// constraint cases use it), and for tokens the acting user as owner.
// Read-only models (change records) get their objects as a side effect: a
// change record per site created.
// The world (the related objects already created) is shared by all models
// of one database.
func permFixture(t *testing.T, w *world, d *resource.Descriptor) func(e *servertest.Env, self int) map[string]any {
	if d.ContentType() == "extras.script" {
		// Scripts come from uploaded modules: one module, one script.
		var n int
		return func(e *servertest.Env, _ int) map[string]any {
			n++
			body, ct := moduleForm(t, fmt.Sprintf("perm_%d.py", n), []byte("from extras.scripts import Script\nclass Perm(Script):\n    pass\n"))
			e.Admin().Must(http.StatusCreated, "POST", "/api/extras/scripts/upload/", body, ct)
			return nil
		}
	}
	if d.ReadOnlyAPI {
		switch d.ContentType() {
		case "core.job", "core.datafile":
			// A sync of a local data source makes a job and the files:
			// one new file a sync, the newest last, as the sites below.
			var n int
			return func(e *servertest.Env, _ int) map[string]any {
				n++
				dir := filepath.Join(e.Config.DataSources.Root, fmt.Sprint("perm-", n))
				writeFiles(t, dir, map[string]string{fmt.Sprintf("f%d.txt", n): fmt.Sprint(n)})
				syncSource(t, e, newSource(t, e, map[string]any{"name": fmt.Sprint("perm-", n), "type": "local", "source_url": fmt.Sprint("perm-", n)}))
				return nil
			}
		}
		if d.ContentType() == "dcim.cabletermination" {
			// A cable makes its terminations.
			cables := resource.ByContentType("dcim.cable")
			mk := permFixture(t, w, cables)
			return func(e *servertest.Env, _ int) map[string]any {
				e.Admin().Must(http.StatusCreated, "POST", cables.ListURL(""), mk(e, 1))
				return nil
			}
		}
		sites := resource.ByContentType("dcim.site")
		site := permFixture(t, w, sites) // one counter for the sites made
		var n int
		return func(e *servertest.Env, _ int) map[string]any {
			// Each site gets a tag of its own (a tagged item), lighter
			// than the last: the newest comes first in either list.
			n++
			tag := id(e.Admin().Must(http.StatusCreated, "POST", "/api/extras/tags/", map[string]any{
				"name": fmt.Sprint("perm-", n), "slug": fmt.Sprint("perm-", n), "weight": 1000 - n}))
			p := site(e, 1)
			p["tags"] = []int{tag}
			e.Admin().Must(http.StatusCreated, "POST", sites.ListURL(""), p)
			return nil
		}
	}
	fx := loadFixture(t, d.ContentType())
	// Variants count per fixture (one model in one Env), not process-wide:
	// values that must stay distinct in a small range (a reservation's
	// units within its rack's height) then stay small.
	var n int
	return func(_ *servertest.Env, self int) map[string]any {
		w.d = d
		n++
		p := w.freshUnique(t, d, variant(d, w.payload(t, fx.Create[0]), n))
		if d.Field("description") != nil {
			p["description"] = "in"
		}
		if d.ContentType() == "users.token" {
			p["user"] = self
		}
		return p
	}
}

func id(r *servertest.Response) int { return int(r.Object()["id"].(float64)) }

func ids(rs []map[string]any) []int {
	var out []int
	for _, r := range rs {
		out = append(out, int(r["id"].(float64)))
	}
	return out
}

func noDefaults(c *server.Config) { c.DefaultPermissions = nil }

// TestPermissionsEveryModel runs NetBox's API permission cases for every
// registered model: nothing without a grant; view, add, change and delete
// with and without constraints; writes whose result leaves the
// constraints roll back with 403; bulk writes touching an object out of
// reach fail as a whole.
//
// Each model runs on each database in parallel, with a server of its own:
// go test ./server/ -run 'TestPermissionsEveryModel/ipam.prefix/postgres'.
func TestPermissionsEveryModel(t *testing.T) {
	for _, d := range resource.All() {
		ct := d.ContentType()
		if !resource.ObjectTypeAccepted("object_permissions", ct) {
			continue // no permission names it: every caller views it (TestObjectTypes)
		}
		t.Run(ct, func(t *testing.T) {
			t.Parallel()
			servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
				w := newWorld(e.Admin(), nil)
				fx := permFixture(t, w, d)
				list := d.ListURL("")
				detail := func(id int) string { return fmt.Sprintf("%s%d/", list, id) }
				// Objects are created by the admin; tokens for the admin.
				// Read-only models get theirs as a side effect (a change
				// record per site created, a tagged item per site tagged).
				create := func() int {
					if d.ReadOnlyAPI {
						fx(e, 1)
						// The newest row (scripts are ordered by module).
						return int(e.Must(http.StatusOK, "GET", list+"?limit=1&ordering=-id", nil).Results()[0]["id"].(float64))
					}
					return id(e.Must(http.StatusCreated, "POST", list, fx(e, 1)))
				}
				a, b := create(), create()
				count := func() int {
					return int(e.Must(http.StatusOK, "GET", list+"?limit=1", nil).Object()["count"].(float64))
				}
				notFound := fmt.Sprintf(`{"detail":"No %s matches the given query."}`, d.ClassName())

				// No grant: 403 for every method.
				u, uid := e.NewUser(fmt.Sprint("nobody", next()))
				u.Must(http.StatusForbidden, "GET", list, nil)
				u.Must(http.StatusForbidden, "GET", detail(a), nil)
				if d.ReadOnlyAPI {
					// No write routes at all: 405 whoever asks.
					u.Must(http.StatusMethodNotAllowed, "POST", list, map[string]any{})
				} else {
					u.Must(http.StatusForbidden, "POST", list, fx(e, uid))
					u.Must(http.StatusForbidden, "PATCH", detail(a), map[string]any{})
					u.Must(http.StatusForbidden, "DELETE", detail(a), nil)
					u.Must(http.StatusForbidden, "DELETE", list, []map[string]any{{"id": a}})
				}

				// view, unconstrained and constrained.
				v, vid := e.NewUser(fmt.Sprint("viewer", next()))
				e.Grant(vid, []string{ct}, []string{"view"}, nil)
				if got := ids(v.Must(http.StatusOK, "GET", fmt.Sprintf("%s?id=%d&id=%d", list, a, b), nil).Results()); len(got) != 2 {
					t.Fatalf("unconstrained view listed %v", got)
				}
				v.Must(http.StatusOK, "GET", detail(b), nil)
				if !d.ReadOnlyAPI {
					v.Must(http.StatusForbidden, "POST", list, fx(e, vid))
				}

				cv, cvid := e.NewUser(fmt.Sprint("cviewer", next()))
				e.Grant(cvid, []string{ct}, []string{"view"}, map[string]any{"id": a})
				r := cv.Must(http.StatusOK, "GET", list, nil)
				if got := ids(r.Results()); len(got) != 1 || got[0] != a || r.Object()["count"].(float64) != 1 {
					t.Fatalf("constrained view listed %s", r.Body)
				}
				cv.Must(http.StatusOK, "GET", detail(a), nil)
				if r := cv.Must(http.StatusNotFound, "GET", detail(b), nil); string(r.Body) != notFound {
					t.Fatalf("404 body %s", r.Body)
				}

				if d.ReadOnlyAPI {
					return
				}

				// add: a constraint nothing satisfies rolls the create back.
				ca, caid := e.NewUser(fmt.Sprint("cadder", next()))
				e.Grant(caid, []string{ct}, []string{"add"}, map[string]any{"id__lt": 0})
				ad, adid := e.NewUser(fmt.Sprint("adder", next()))
				e.Grant(adid, []string{ct}, []string{"add"}, map[string]any{"id__gt": 0})
				before := count()
				ca.Must(http.StatusForbidden, "POST", list, fx(e, caid))
				ca.Must(http.StatusForbidden, "POST", list, []any{fx(e, caid)})
				if count() != before {
					t.Fatal("a create outside the constraints was not rolled back")
				}
				ad.Must(http.StatusCreated, "POST", list, fx(e, adid))
				ad.Must(http.StatusCreated, "POST", list, []any{fx(e, adid)})
				if count() != before+2 {
					t.Fatal("creates not counted")
				}

				// change, constrained to a: b is invisible; a bulk update
				// touching b fails as a whole.
				ch, chid := e.NewUser(fmt.Sprint("changer", next()))
				e.Grant(chid, []string{ct}, []string{"change"}, map[string]any{"id": a})
				ch.Must(http.StatusOK, "PATCH", detail(a), map[string]any{})
				ch.Must(http.StatusNotFound, "PATCH", detail(b), map[string]any{})
				ch.Must(http.StatusForbidden, "GET", detail(a), nil) // change is not view
				if d.Field("description") != nil {
					ch.Must(http.StatusBadRequest, "PATCH", list, []map[string]any{{"id": a, "description": "x"}, {"id": b, "description": "x"}})
					if got := e.Must(http.StatusOK, "GET", detail(a), nil).Object()["description"]; got != "in" {
						t.Fatalf("failed bulk update changed a: %v", got)
					}
					// A change whose result leaves the constraints: 403,
					// nothing written.
					dc, dcid := e.NewUser(fmt.Sprint("dchanger", next()))
					e.Grant(dcid, []string{ct}, []string{"change"}, map[string]any{"description": "in"})
					dc.Must(http.StatusForbidden, "PATCH", detail(a), map[string]any{"description": "out"})
					dc.Must(http.StatusForbidden, "PATCH", list, []map[string]any{{"id": a, "description": "out"}})
					if got := e.Must(http.StatusOK, "GET", detail(a), nil).Object()["description"]; got != "in" {
						t.Fatalf("update outside the constraints was written: %v", got)
					}
					dc.Must(http.StatusOK, "PATCH", detail(a), map[string]any{"description": "in"})
				}

				// delete, constrained to b.
				de, deid := e.NewUser(fmt.Sprint("deleter", next()))
				e.Grant(deid, []string{ct}, []string{"delete"}, map[string]any{"id": b})
				de.Must(http.StatusNotFound, "DELETE", detail(a), nil)
				de.Must(http.StatusBadRequest, "DELETE", list, []map[string]any{{"id": a}, {"id": b}})
				e.Must(http.StatusOK, "GET", detail(a), nil)
				e.Must(http.StatusOK, "GET", detail(b), nil)
				de.Must(http.StatusNoContent, "DELETE", detail(b), nil)
				e.Must(http.StatusNotFound, "GET", detail(b), nil)

				// unconstrained delete.
				da, daid := e.NewUser(fmt.Sprint("udeleter", next()))
				e.Grant(daid, []string{ct}, []string{"delete"}, nil)
				if ct != "users.user" || a != daid {
					da.Must(http.StatusNoContent, "DELETE", list, []map[string]any{{"id": a}})
				}
			}, noDefaults)
		})
	}
}
