package server_test

import (
	"fmt"
	"net/http"
	"reflect"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

const (
	ownersPath      = "/api/users/owners/"
	ownerGroupsPath = "/api/users/owner-groups/"
)

// TestOwners: what NetBox 4.6 does with owners beyond the generic suite,
// on both databases. An owner's group must be named on create and PUT
// (null included; NetBox's serializer declares it without
// required=False); deleting a user or a user group an owner lists only
// unlinks it; an owner group that owners use cannot be deleted; an object
// names its owner by attributes too.
func TestOwners(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		mk := func(path string, body map[string]any) int {
			t.Helper()
			return idOf(a.Must(http.StatusCreated, "POST", path, body).Object())
		}
		user := mk("/api/users/users/", map[string]any{"username": "olga", "password": "Correct-Horse-9"})
		group := mk("/api/users/groups/", map[string]any{"name": "NOC"})
		og := mk(ownerGroupsPath, map[string]any{"name": "Network"})
		owner := mk(ownersPath, map[string]any{"name": "NetOps", "group": og, "users": []int{user}, "user_groups": []int{group}})
		ownerPath := fmt.Sprintf("%s%d/", ownersPath, owner)

		for _, c := range []struct {
			name, method, path string
			body               map[string]any
			status             int
			want               map[string]any // the response's values (or error lists)
		}{
			{"create without group", "POST", ownersPath, map[string]any{"name": "X"},
				http.StatusBadRequest, map[string]any{"group": []any{"This field is required."}}},
			{"create with a null group", "POST", ownersPath, map[string]any{"name": "Estates", "group": nil},
				http.StatusCreated, map[string]any{"group": nil, "users": []any{}}},
			{"duplicate name", "POST", ownersPath, map[string]any{"name": "NetOps", "group": nil},
				http.StatusBadRequest, map[string]any{"name": []any{"owner with this name already exists."}}},
			{"unknown group", "POST", ownersPath, map[string]any{"name": "Y", "group": missing},
				http.StatusBadRequest, map[string]any{"group": []any{fmt.Sprintf("Related object not found using the provided numeric ID: %d", missing)}}},
			{"PUT without group", "PUT", ownerPath, map[string]any{"name": "NetOps"},
				http.StatusBadRequest, map[string]any{"group": []any{"This field is required."}}},
			{"PATCH without group", "PATCH", ownerPath, map[string]any{"description": "network operations"},
				http.StatusOK, map[string]any{"description": "network operations"}},
			{"a site names its owner by name", "POST", "/api/dcim/sites/",
				map[string]any{"name": "Oslo", "slug": "oslo", "owner": map[string]any{"name": "NetOps"}},
				http.StatusCreated, nil},
		} {
			r := a.Do(c.method, c.path, c.body)
			if r.Status != c.status {
				t.Errorf("%s: %d %s, want %d", c.name, r.Status, r.Body, c.status)
				continue
			}
			got := r.Object()
			for k, v := range c.want {
				if !reflect.DeepEqual(got[k], v) {
					t.Errorf("%s: %s = %#v, want %#v", c.name, k, got[k], v)
				}
			}
		}
		site := a.Must(http.StatusOK, "GET", "/api/dcim/sites/?slug=oslo", nil).Results()
		if len(site) != 1 || site[0]["owner"].(map[string]any)["id"] != float64(owner) {
			t.Errorf("the site named its owner by name: %v", site)
		}

		// The owner group stays while an owner uses it.
		ogPath := fmt.Sprintf("%s%d/", ownerGroupsPath, og)
		a.Must(http.StatusConflict, "DELETE", ogPath, nil)
		if n := a.Must(http.StatusOK, "GET", ogPath, nil).Object()["member_count"]; n != float64(1) {
			t.Errorf("member_count %v, want 1", n)
		}
		// Deleting a listed user or group unlinks it; the owner stays.
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/users/users/%d/", user), nil)
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/users/groups/%d/", group), nil)
		got := a.Must(http.StatusOK, "GET", ownerPath, nil).Object()
		if len(got["users"].([]any)) != 0 || len(got["user_groups"].([]any)) != 0 {
			t.Errorf("owner after its user and group went: %v", got)
		}
		a.Must(http.StatusOK, "PATCH", ownerPath, map[string]any{"group": nil})
		a.Must(http.StatusNoContent, "DELETE", ogPath, nil)
	})
}
