package server_test

import (
	"net/http"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestTokenPepperIDByVersion: a v1 token's pepper_id renders null, as
// NetBox's (whose v1 tokens keep their key in the clear, unpeppered); a v2
// token shows the pepper its digest was keyed with. Both in the detail, the
// list and the creating response.
func TestTokenPepperIDByVersion(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		_, uid := e.NewUser("pepper")
		for _, version := range []int{1, 2} {
			created := e.Must(http.StatusCreated, "POST", "/api/users/tokens/", map[string]any{"user": uid, "version": version}).Object()
			tid := itoa(int(created["id"].(float64)))
			detail := e.Must(http.StatusOK, "GET", "/api/users/tokens/"+tid+"/", nil).Object()
			listed := e.Must(http.StatusOK, "GET", "/api/users/tokens/?id="+tid, nil).Results()[0]
			for where, obj := range map[string]map[string]any{"create": created, "detail": detail, "list": listed} {
				pepper, present := obj["pepper_id"]
				switch {
				case !present:
					t.Errorf("v%d %s: no pepper_id key", version, where)
				case version == 1 && pepper != nil:
					t.Errorf("v%d %s: pepper_id %v, want null", version, where, pepper)
				case version == 2 && pepper == nil:
					t.Errorf("v%d %s: pepper_id null, want the pepper id", version, where)
				}
			}
		}
	})
}
