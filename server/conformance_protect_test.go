package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/inventory/inventory/ent/resource"
)

// aspectProtect: every PROTECT relation of the model holds. The model's
// object refers to a fixture object through each PROTECT foreign key its
// payload sets; deleting that object, alone or in a bulk delete, answers
// 409 with NetBox's text naming the dependent, and changes nothing (a
// site that a VLAN uses cannot be deleted). The fixture alone covers a new
// model.
func aspectProtect(t *testing.T, s *suite) {
	e, d := s.e, s.d
	var fields []*resource.Field
	for _, f := range d.Fields {
		if f.Kind == resource.KindFK && f.OnDelete == resource.OnDeleteProtect && s.p[0][f.Name] != nil {
			fields = append(fields, f)
		}
	}
	if len(fields) == 0 {
		t.Skipf("%s's fixture sets no PROTECT foreign key", d.ContentType())
	}
	created := must(t, e, http.StatusCreated, "POST", s.list(), s.p[0]).Object()
	id := created["id"]
	dependent := fmt.Sprintf("(%v)", id)
	changes := changeCount(t, e)
	for _, f := range fields {
		td := resource.ByContentType(f.Target)
		target := s.p[0][f.Name]
		for _, c := range []struct {
			name, path string
			body       any
		}{
			{"single", detailPath(td, target), nil},
			{"bulk", listPath(td), []any{map[string]any{"id": target}}},
		} {
			r := e.Do("DELETE", c.path, c.body)
			body := string(r.Body)
			if r.Status != http.StatusConflict || !strings.HasPrefix(body, `{"detail":"Unable to delete object. `) ||
				!strings.Contains(body, "dependent objects were found: ") || !strings.Contains(body, dependent) {
				t.Errorf("%s delete of %s %v (%s's %s, PROTECT): %d %s; want 409 naming %s",
					c.name, f.Target, target, d.ContentType(), f.Name, r.Status, body, dependent)
			}
		}
		must(t, e, http.StatusOK, "GET", detailPath(td, target), nil)
	}
	must(t, e, http.StatusOK, "GET", detailPath(d, id), nil)
	if n := changeCount(t, e); n != changes {
		t.Errorf("refused deletes wrote change records: %v, was %v", n, changes)
	}
}
