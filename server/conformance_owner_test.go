package server_test

import (
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/inventory/inventory/ent/resource"
)

// kOwner is the owner aspect's variant number (see kGolden): clear of
// the query counts' and the bad input's, and small enough for every
// fixture (a rack reservation's units stay within its 100U rack).
const kOwner = 76

// ownerAspect applies to every model with NetBox's OwnerMixin shown by
// its serializer: an "owner" foreign key to users.owner.
func ownerAspect(d *resource.Descriptor) bool {
	f := d.Field("owner")
	return f != nil && f.Kind == resource.KindFK && f.Target == "users.owner"
}

// aspectOwner: NetBox's ownership holds on the model. Of the aspect's
// three objects the first has an owner (the owners fixture's first, in an
// owner group): it renders the owner in its brief form; owner_id, owner,
// owner_group_id and owner_group find it and not the others (owner_id=null
// finds the others); deleting the owner answers 409 naming it. The
// fixture alone covers a new model.
func aspectOwner(t *testing.T, s *suite) {
	s.setK(t, kOwner)
	e, d := s.e, s.d
	od := resource.ByContentType("users.owner")
	oid := s.w.ensure(t, "users.owner", 0)
	owner := must(t, e, http.StatusOK, "GET", detailPath(od, oid), nil).Object()
	group, _ := owner["group"].(map[string]any)
	if group == nil {
		t.Fatalf("the owners fixture's first object has no group: %v", owner)
	}
	s.p[0]["owner"] = oid
	ids := s.objects(t)

	got := must(t, e, http.StatusOK, "GET", detailPath(d, ids[0]), nil).Object()
	want := map[string]any{}
	for _, k := range od.Brief {
		want[k] = owner[k]
	}
	if !reflect.DeepEqual(got["owner"], want) {
		t.Errorf("owner renders %v, want the owner's brief form %v", got["owner"], want)
	}
	mine := fmt.Sprintf("&id=%d&id=%d&id=%d", ids[0], ids[1], ids[2])
	for _, c := range []struct {
		query string
		want  []int
	}{
		{fmt.Sprintf("owner_id=%d", oid), ids[:1]},
		{"owner=" + url.QueryEscape(owner["name"].(string)), ids[:1]},
		{fmt.Sprintf("owner_group_id=%v", group["id"]), ids[:1]},
		{"owner_group=" + url.QueryEscape(group["name"].(string)), ids[:1]},
		{fmt.Sprintf("owner_id__n=%d", oid), ids[1:]},
		{"owner_id=null", ids[1:]},
	} {
		pg, _ := getPage(t, e, s.list()+"?"+c.query+mine+"&limit=10")
		found := pg.ids(t)
		slices.Sort(found)
		if !slices.Equal(found, c.want) {
			t.Errorf("?%s: %v, want %v", c.query, found, c.want)
		}
	}

	r := e.Do("DELETE", detailPath(od, oid), nil)
	if r.Status != http.StatusConflict || !strings.Contains(string(r.Body), fmt.Sprintf("(%d)", ids[0])) {
		t.Errorf("deleting the owner of %s %d: %d %s; want 409 naming it", d.ContentType(), ids[0], r.Status, r.Body)
	}
}
