package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/inventory/inventory/ent/resource"
)

const assignmentsPath = "/api/tenancy/contact-assignments/"

// kContacts is the variant of the contacts aspect's object: clear of the
// other aspects' numbers (see kWire).
const kContacts = 77

// takesContacts says whether contact assignments accept objects of d: the
// served models with NetBox's "contacts" feature.
func takesContacts(d *resource.Descriptor) bool {
	a := resource.ByContentType("tenancy.contactassignment")
	return a != nil && slices.Contains(a.Field("object").Types, d.ContentType())
}

// aspectContacts: every model with NetBox's "contacts" feature takes a
// contact assignment, shows the object in it as NetBox's GFK field does,
// answers the contact, contact_role and contact_group filters (a group
// matches with its subgroups; __n excludes; an unknown id is a 400 naming
// the filter), and deleting the object deletes its assignments with a
// change record each (NetBox's GenericRelation). The fixture alone covers
// a new model.
func aspectContacts(t *testing.T, s *suite) {
	e, d := s.e, s.d
	s.setK(t, kContacts)
	mk := func(path string, body map[string]any) int {
		t.Helper()
		return idOf(must(t, e, http.StatusCreated, "POST", path, body).Object())
	}
	obj := must(t, e, http.StatusCreated, "POST", s.list(), s.p[0]).Object()
	id := idOf(obj)
	parent := mk("/api/tenancy/contact-groups/", map[string]any{"name": "CG Parent", "slug": "cg-parent"})
	child := mk("/api/tenancy/contact-groups/", map[string]any{"name": "CG Child", "slug": "cg-child", "parent": parent})
	other := mk("/api/tenancy/contact-groups/", map[string]any{"name": "CG Other", "slug": "cg-other"})
	contact := mk("/api/tenancy/contacts/", map[string]any{"name": "Assigned Contact", "groups": []int{child}})
	idle := mk("/api/tenancy/contacts/", map[string]any{"name": "Idle Contact", "groups": []int{other}})
	role := mk("/api/tenancy/contact-roles/", map[string]any{"name": "CR Main", "slug": "cr-main"})
	idleRole := mk("/api/tenancy/contact-roles/", map[string]any{"name": "CR Idle", "slug": "cr-idle"})
	asg := must(t, e, http.StatusCreated, "POST", assignmentsPath, map[string]any{"object_type": d.ContentType(),
		"object_id": id, "contact": contact, "role": role, "priority": "primary"}).Object()

	// The object as NetBox's GFKSerializerField renders it: its brief
	// form; the display names contact, priority and object.
	if o, _ := asg["object"].(map[string]any); o == nil || idOf(o) != id || o["display"] != obj["display"] {
		t.Errorf("assignment's object %v, want %s %d displayed %v", asg["object"], d.ContentType(), id, obj["display"])
	}
	if want := fmt.Sprintf("Assigned Contact (Primary) -> %v", obj["display"]); asg["display"] != want {
		t.Errorf("assignment's display %q, want %q", asg["display"], want)
	}

	// The contact filters, where NetBox's filter set declares them
	// (ContactModelFilterSet): not on every model with contacts (ASNs,
	// virtual circuits).
	hasContactFilters := false
	for _, f := range d.Filters().Filters {
		hasContactFilters = hasContactFilters || f.Name == "contact"
	}
	if !hasContactFilters {
		must(t, e, http.StatusBadRequest, "GET", s.list()+"?contact=1", nil)
	}
	for _, c := range []struct {
		query string
		match bool
	}{
		{fmt.Sprintf("contact=%d", contact), true},
		{fmt.Sprintf("contact=%d", idle), false},
		{fmt.Sprintf("contact__n=%d", contact), false},
		{fmt.Sprintf("contact__n=%d", idle), true},
		{fmt.Sprintf("contact_role=%d", role), true},
		{fmt.Sprintf("contact_role=%d", idleRole), false},
		{fmt.Sprintf("contact_group=%d", parent), true},
		{fmt.Sprintf("contact_group=%d", child), true},
		{fmt.Sprintf("contact_group=%d", other), false},
		{fmt.Sprintf("contact_group__n=%d", parent), false},
	} {
		if !hasContactFilters {
			break
		}
		r := must(t, e, http.StatusOK, "GET", s.list()+"?limit=0&fields=id&"+c.query, nil)
		found := false
		for _, m := range r.Results() {
			found = found || idOf(m) == id
		}
		if found != c.match {
			t.Errorf("?%s: object listed %v, want %v", c.query, found, c.match)
		}
	}
	for _, name := range []string{"contact", "contact_role", "contact_group"} {
		if !hasContactFilters {
			break
		}
		r := must(t, e, http.StatusBadRequest, "GET", s.list()+"?"+name+"=999999", nil)
		if !strings.Contains(string(r.Body), `"`+name+`"`) {
			t.Errorf("?%s=999999: %s, want the filter named", name, r.Body)
		}
	}

	// Deleting the object deletes its assignment, with a change record.
	must(t, e, http.StatusNoContent, "DELETE", detailPath(d, id), nil)
	must(t, e, http.StatusNotFound, "GET", fmt.Sprintf("%s%d/", assignmentsPath, idOf(asg)), nil)
	r := must(t, e, http.StatusOK, "GET", fmt.Sprintf("/api/core/object-changes/?changed_object_type=tenancy.contactassignment"+
		"&changed_object_id=%d&action=delete", idOf(asg)), nil)
	if n := len(r.Results()); n != 1 {
		t.Errorf("change records of the cascaded assignment's delete: %d, want 1", n)
	}
}
