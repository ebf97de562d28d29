package server_test

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestUserFilters: permissions by action (can_<action>) and by group name,
// groups by user (the reverse of the users' groups).
func TestUserFilters(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		g1 := id(e.Must(http.StatusCreated, "POST", "/api/users/groups/", map[string]any{"name": "netops"}))
		g2 := id(e.Must(http.StatusCreated, "POST", "/api/users/groups/", map[string]any{"name": "dev"}))
		_, u1 := e.NewUser("alice")
		_, u2 := e.NewUser("bob")
		e.Must(http.StatusOK, "PATCH", "/api/users/users/"+itoa(u1)+"/", map[string]any{"groups": []int{g1, g2}})
		e.Must(http.StatusOK, "PATCH", "/api/users/users/"+itoa(u2)+"/", map[string]any{"groups": []int{g2}})
		pv := id(e.Must(http.StatusCreated, "POST", "/api/users/permissions/", map[string]any{
			"name": "view", "object_types": []string{"dcim.site"}, "actions": []string{"view"}, "groups": []int{g1},
		}))
		pa := id(e.Must(http.StatusCreated, "POST", "/api/users/permissions/", map[string]any{
			"name": "add change", "object_types": []string{"dcim.site"}, "actions": []string{"add", "change"}, "groups": []int{g1, g2},
		}))
		pd := id(e.Must(http.StatusCreated, "POST", "/api/users/permissions/", map[string]any{
			"name": "xdelete", "object_types": []string{"dcim.site"}, "actions": []string{"delete", "view"},
		}))
		list := func(path string) []int {
			t.Helper()
			return ids(e.Must(http.StatusOK, "GET", path, nil).Results())
		}
		for q, want := range map[string][]int{
			"can_view=true":                 {pv, pd},
			"can_view=false":                {pa},
			"can_add=True":                  {pa},
			"can_change=1&can_view=0":       {pa},
			"can_delete=true":               {pd},
			"can_delete=false":              {pa, pv},
			"group=netops":                  {pa, pv},
			"group=dev":                     {pa},
			"group__n=dev":                  {pv, pd},
			"group_id=" + itoa(g2):          {pa},
			"group=nosuch":                  {},
			"group=dev&can_view=true":       {},
			"can_view=true&can_delete=true": {pd},
		} {
			got := list("/api/users/permissions/?ordering=name&" + q)
			if len(got) == 0 && len(want) == 0 {
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("permissions ?%s: got %v, want %v", q, got, want)
			}
		}
		for q, want := range map[string][]int{
			"user_id=" + itoa(u1):                          {g2, g1},
			"user_id=" + itoa(u2):                          {g2},
			"user_id=" + itoa(u2) + "&user_id=" + itoa(u1): {g2, g1},
			"user_id__n=" + itoa(u2):                       {g1},
		} {
			if got := list("/api/users/groups/?ordering=name&" + q); !reflect.DeepEqual(got, want) {
				t.Errorf("groups ?%s: got %v, want %v", q, got, want)
			}
		}
		e.Must(http.StatusBadRequest, "GET", "/api/users/groups/?user_id=x", nil)
		// The users and groups of a notification group (NetBox's
		// notification_group_id: the reverse of its users and groups).
		ng := id(e.Must(http.StatusCreated, "POST", "/api/extras/notification-groups/", map[string]any{
			"name": "on call", "users": []int{u2}, "groups": []int{g1}}))
		for path, want := range map[string][]int{
			"/api/users/users/?ordering=username&notification_group_id=" + itoa(ng):    {u2},
			"/api/users/users/?ordering=username&notification_group_id__n=" + itoa(ng): {1, u1},
			"/api/users/groups/?ordering=name&notification_group_id=" + itoa(ng):       {g1},
			"/api/users/groups/?ordering=name&notification_group_id__n=" + itoa(ng):    {g2},
		} {
			if got := list(path); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: got %v, want %v", path, got, want)
			}
		}
		// A word that is no boolean is refused, never an unfiltered list.
		e.Must(http.StatusBadRequest, "GET", "/api/users/permissions/?can_delete=maybe", nil)
	})
}
