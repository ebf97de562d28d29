package server_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestContactsOnDelete: deletes around contacts follow NetBox's relations:
// a contact or role in use is PROTECT (409 naming the assignment); a
// deleted object takes its assignments with it (GenericRelation CASCADE);
// a deleted group leaves its contacts, which lose it with an update record
// each (NetBox's pre_delete handler removes the many-to-many link); a
// deleted parent group takes its subtree.
func TestContactsOnDelete(t *testing.T) {
	base := []odObj{
		{"site", "/api/dcim/sites/", map[string]any{"name": "CS", "slug": "cs"}},
		{"grp", "/api/tenancy/contact-groups/", map[string]any{"name": "CG", "slug": "cg"}},
		{"sub", "/api/tenancy/contact-groups/", map[string]any{"name": "CG Sub", "slug": "cg-sub", "parent": "@grp"}},
		{"con", "/api/tenancy/contacts/", map[string]any{"name": "Jane", "groups": []any{"@sub"}}},
		{"role", "/api/tenancy/contact-roles/", map[string]any{"name": "Admin", "slug": "admin"}},
		{"asg", assignmentsPath, map[string]any{"object_type": "dcim.site", "object_id": "@site", "contact": "@con", "role": "@role"}},
	}
	cases := []odCase{
		{name: "contact PROTECT from its assignments", objects: base, del: []string{"con"}, protectedBy: []string{"asg"}},
		{name: "role PROTECT from its assignments", objects: base, del: []string{"role"}, protectedBy: []string{"asg"}},
		{
			name: "site deleted: its contact assignments CASCADE", objects: base, del: []string{"site"},
			gone:    []string{"site", "asg"},
			changed: []odRef{{"site", "delete"}, {"asg", "delete"}},
		},
		{
			name: "group deleted: its subtree goes, the contact stays and leaves it", objects: base, del: []string{"grp"},
			gone:    []string{"grp", "sub"},
			changed: []odRef{{"grp", "delete"}, {"sub", "delete"}, {"con", "update"}},
		},
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.ListenToAllEvents()
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) { runOnDelete(t, e.Admin(), c) })
		}
	})
}

// TestContactAssignments: a contact in a role assigned to a site, as a
// new user would make it; the display follows a renamed contact and a
// renamed site; a group
// counts each contact of its subtree once and filters contacts with its
// subgroups. Bad input is refused naming the field, with nothing written:
// an object type that takes no contacts, or a model not served yet; an
// object that does not exist; the same contact twice in one role.
func TestContactAssignments(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Admin()
		mk := func(path string, body map[string]any) int {
			t.Helper()
			return idOf(a.Must(http.StatusCreated, "POST", path, body).Object())
		}
		site := mk("/api/dcim/sites/", map[string]any{"name": "Paris", "slug": "paris"})
		top := mk("/api/tenancy/contact-groups/", map[string]any{"name": "Ops", "slug": "ops"})
		sub1 := mk("/api/tenancy/contact-groups/", map[string]any{"name": "NOC", "slug": "noc", "parent": top})
		sub2 := mk("/api/tenancy/contact-groups/", map[string]any{"name": "Field", "slug": "field", "parent": top})
		jane := mk("/api/tenancy/contacts/", map[string]any{"name": "Jane", "email": "jane@example.com", "groups": []int{sub1, sub2}})
		mk("/api/tenancy/contacts/", map[string]any{"name": "Joe", "groups": []int{sub2}})
		role := mk("/api/tenancy/contact-roles/", map[string]any{"name": "Admin", "slug": "admin"})
		asg := a.Must(http.StatusCreated, "POST", assignmentsPath, map[string]any{"object_type": "dcim.site",
			"object_id": site, "contact": jane, "role": role, "priority": "secondary"}).Object()
		if asg["display"] != "Jane (Secondary) -> Paris" {
			t.Errorf("display %q", asg["display"])
		}
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/tenancy/contacts/%d/", jane), map[string]any{"name": "Jane Doe"})
		got := a.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", assignmentsPath, idOf(asg)), nil).Object()
		if got["display"] != "Jane Doe (Secondary) -> Paris" {
			t.Errorf("display after the contact's rename %q", got["display"])
		}
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/sites/%d/", site), map[string]any{"name": "Paris 2"})
		got = a.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", assignmentsPath, idOf(asg)), nil).Object()
		if got["display"] != "Jane Doe (Secondary) -> Paris 2" {
			t.Errorf("display after the site's rename %q", got["display"])
		}
		// Jane is in both subgroups: the top group counts her once.
		g := a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/tenancy/contact-groups/%d/", top), nil).Object()
		if g["contact_count"] != float64(2) {
			t.Errorf("top group's contact_count %v, want 2", g["contact_count"])
		}
		for q, want := range map[string]int{
			fmt.Sprintf("group_id=%d", top): 2, fmt.Sprintf("group_id=%d", sub1): 1, "group=field": 2,
		} {
			if n := len(a.Must(http.StatusOK, "GET", "/api/tenancy/contacts/?"+q, nil).Results()); n != want {
				t.Errorf("contacts ?%s: %d, want %d", q, n, want)
			}
		}
		if n := len(a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/tenancy/contact-groups/?contact_id=%d", jane), nil).Results()); n != 2 {
			t.Errorf("groups ?contact_id=jane: %d, want 2", n)
		}
		if n := len(a.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/sites/?contact=%d", jane), nil).Results()); n != 1 {
			t.Errorf("sites ?contact=jane: %d, want 1", n)
		}

		body := func(kv ...any) map[string]any {
			b := map[string]any{"object_type": "dcim.site", "object_id": site, "contact": jane, "role": role}
			for i := 0; i+1 < len(kv); i += 2 {
				b[kv[i].(string)] = kv[i+1]
			}
			return b
		}
		// dcim.interface is no model with contacts (NetBox's
		// ContactAssignment.clean() answers); foo.bar is no type at all.
		refused(t, a, "POST", assignmentsPath, body("object_type", "dcim.interface"), "__all__",
			"Contacts cannot be assigned to this object type (DCIM | interface).")
		refused(t, a, "POST", assignmentsPath, body("object_type", "foo.bar"), "object_type", "Invalid content type: foo.bar")
		refused(t, a, "POST", assignmentsPath, body("object_id", 999999), "object_id",
			"Related object not found using the provided value: 999999.")
		refused(t, a, "PATCH", fmt.Sprintf("%s%d/", assignmentsPath, idOf(asg)), map[string]any{"object_type": "dcim.rearport"},
			"__all__", "Contacts cannot be assigned to this object type (DCIM | rear port).")
		r := a.Must(http.StatusBadRequest, "POST", assignmentsPath, body())
		// Django's message for the model's multi-column constraint.
		if string(r.Body) != `{"__all__":["Contact assignment with this Object type, Object id, Contact and Role already exists."]}` {
			t.Errorf("duplicate assignment: %s", r.Body)
		}
		if n := len(a.Must(http.StatusOK, "GET", assignmentsPath, nil).Results()); n != 1 {
			t.Errorf("%d assignments after the refused writes, want 1", n)
		}
	})
}
