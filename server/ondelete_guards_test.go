package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// The guards of NetBox's delete() methods: VirtualChassis.delete()
// refuses a chassis whose members form a cross-chassis LAG, and
// TenantGroup.delete() a group whose ungrouped tenants (its own and its
// nested groups') would clash by name or slug with each other or with the
// top-level tenants. Both raise a ProtectedError: 409 naming the objects
// in the way, and nothing changes, for a single delete and within a bulk
// one.

// guardPatch is a PATCH applied after the objects exist.
type guardPatch struct {
	key  string
	body map[string]any
}

type guardCase struct {
	name    string
	objects []odObj
	patches []guardPatch
	del     []string // one key (single delete) or several (bulk)
	// protectedBy lists the keys of the objects the 409 names, in order;
	// empty for a delete that succeeds.
	protectedBy []string
	gone        []string          // objects the allowed delete removes
	cleared     map[string]string // object key -> field null afterwards
}

func TestDeleteGuards(t *testing.T) {
	t.Parallel()
	dcim := []odObj{
		{"site", "/api/dcim/sites/", map[string]any{"name": "GS", "slug": "gs"}},
		{"mfr", "/api/dcim/manufacturers/", map[string]any{"name": "GM", "slug": "gm"}},
		{"role", "/api/dcim/device-roles/", map[string]any{"name": "GR", "slug": "gr"}},
		{"dt", "/api/dcim/device-types/", map[string]any{"manufacturer": "@mfr", "model": "GT", "slug": "gt"}},
		{"d1", "/api/dcim/devices/", map[string]any{"name": "D", "site": "@site", "role": "@role", "device_type": "@dt"}},
		{"d2", "/api/dcim/devices/", map[string]any{"name": "D2", "site": "@site", "role": "@role", "device_type": "@dt"}},
		{"vc", "/api/dcim/virtual-chassis/", map[string]any{"name": "vc"}},
		{"lag", "/api/dcim/interfaces/", map[string]any{"device": "@d1", "name": "lag", "type": "lag"}},
		{"if1", "/api/dcim/interfaces/", map[string]any{"device": "@d1", "name": "eth1", "type": "1000base-t"}},
		{"if2", "/api/dcim/interfaces/", map[string]any{"device": "@d2", "name": "eth2", "type": "1000base-t", "label": "uplink"}},
		{"if3", "/api/dcim/interfaces/", map[string]any{"device": "@d2", "name": "eth3", "type": "1000base-t"}},
	}
	members := []guardPatch{
		{"d1", map[string]any{"virtual_chassis": "@vc", "vc_position": 1}},
		{"d2", map[string]any{"virtual_chassis": "@vc", "vc_position": 2}},
	}
	with := func(base []odObj, more ...odObj) []odObj { return append(append([]odObj(nil), base...), more...) }
	patches := func(more ...guardPatch) []guardPatch { return append(append([]guardPatch(nil), members...), more...) }
	// A second chassis, with no cross-chassis LAG, for the bulk deletes.
	other := with(dcim,
		odObj{"d3", "/api/dcim/devices/", map[string]any{"name": "D3", "site": "@site", "role": "@role", "device_type": "@dt"}},
		odObj{"vc2", "/api/dcim/virtual-chassis/", map[string]any{"name": "vc2"}},
	)
	tenant := func(key, name, slug string, group any) odObj {
		b := map[string]any{"name": name, "slug": slug}
		if group != nil {
			b["group"] = group
		}
		return odObj{key, "/api/tenancy/tenants/", b}
	}
	group := func(key, name string, parent any) odObj {
		b := map[string]any{"name": name, "slug": strings.ToLower(name)}
		if parent != nil {
			b["parent"] = parent
		}
		return odObj{key, "/api/tenancy/tenant-groups/", b}
	}
	cases := []guardCase{
		{
			name:        "virtual chassis: a member's interface in a LAG of another member",
			objects:     dcim,
			patches:     patches(guardPatch{"if2", map[string]any{"lag": "@lag"}}),
			del:         []string{"vc"},
			protectedBy: []string{"if2"},
		},
		{
			name:    "virtual chassis: every interface in another member's LAG is named, in id order",
			objects: dcim,
			patches: patches(guardPatch{"if3", map[string]any{"lag": "@lag"}}, guardPatch{"if2", map[string]any{"lag": "@lag"}},
				guardPatch{"if1", map[string]any{"lag": "@lag"}}),
			del:         []string{"vc"},
			protectedBy: []string{"if2", "if3"},
		},
		{
			name:        "virtual chassis: bulk delete with one chassis refused refuses all",
			objects:     other,
			patches:     patches(guardPatch{"d3", map[string]any{"virtual_chassis": "@vc2", "vc_position": 1}}, guardPatch{"if2", map[string]any{"lag": "@lag"}}),
			del:         []string{"vc2", "vc"},
			protectedBy: []string{"if2"},
		},
		{
			name:    "virtual chassis: a LAG within one member is no obstacle",
			objects: dcim,
			patches: patches(guardPatch{"if1", map[string]any{"lag": "@lag"}}),
			del:     []string{"vc"},
			gone:    []string{"vc"},
			cleared: map[string]string{"d1": "virtual_chassis", "d2": "virtual_chassis"},
		},
		{
			name:    "virtual chassis: bulk delete without cross-chassis LAG",
			objects: other,
			patches: patches(guardPatch{"d3", map[string]any{"virtual_chassis": "@vc2", "vc_position": 1}}),
			del:     []string{"vc", "vc2"},
			gone:    []string{"vc", "vc2"},
			cleared: map[string]string{"d1": "vc_position", "d2": "vc_position", "d3": "virtual_chassis"},
		},
		{
			name:        "tenant group: its tenant clashes with a top-level one by name and slug",
			objects:     []odObj{group("tg", "TG", nil), tenant("t1", "t", "t", "@tg"), tenant("t2", "t", "t", nil)},
			del:         []string{"tg"},
			protectedBy: []string{"t1", "t2"},
		},
		{
			name:        "tenant group: slug only",
			objects:     []odObj{group("tg", "TG", nil), tenant("t1", "a", "s", "@tg"), tenant("t2", "b", "s", nil)},
			del:         []string{"tg"},
			protectedBy: []string{"t1", "t2"},
		},
		{
			name:        "tenant group: name only",
			objects:     []odObj{group("tg", "TG", nil), tenant("t1", "m", "m1", "@tg"), tenant("t2", "m", "m2", nil)},
			del:         []string{"tg"},
			protectedBy: []string{"t1", "t2"},
		},
		{
			name: "tenant group: a tenant of a nested group",
			objects: []odObj{group("tg", "TG", nil), group("child", "Child", "@tg"), group("grand", "Grand", "@child"),
				tenant("t1", "n", "n", "@grand"), tenant("t2", "n", "n", nil), tenant("ok", "o", "o", "@tg")},
			del:         []string{"tg"},
			protectedBy: []string{"t1", "t2"},
		},
		{
			name: "tenant group: a namesake in a sibling group keeps its group",
			objects: []odObj{group("tg", "TG", nil), group("c1", "C1", "@tg"), group("c2", "C2", "@tg"),
				tenant("t1", "z", "z1", "@c1"), tenant("t2", "z", "z2", "@c2")},
			del:     []string{"c1"},
			gone:    []string{"c1"},
			cleared: map[string]string{"t1": "group"},
		},
		{
			name: "tenant group: the parent of both clashing groups",
			objects: []odObj{group("tg", "TG", nil), group("c1", "C1", "@tg"), group("c2", "C2", "@tg"),
				tenant("t1", "z", "z1", "@c1"), tenant("t2", "z", "z2", "@c2")},
			del:         []string{"tg"},
			protectedBy: []string{"t1", "t2"},
		},
		{
			name: "tenant group: bulk delete of two groups whose tenants clash",
			objects: []odObj{group("g1", "G1", nil), group("g2", "G2", nil),
				tenant("t1", "q", "q", "@g1"), tenant("t2", "q", "q", "@g2")},
			del:         []string{"g1", "g2"},
			protectedBy: []string{"t1", "t2"},
		},
		{
			name: "tenant group: bulk delete with one group refused refuses all",
			objects: []odObj{group("g1", "G1", nil), group("g2", "G2", nil),
				tenant("t1", "free", "free", "@g1"), tenant("t2", "q", "q", "@g2"), tenant("t3", "q", "q", nil)},
			del:         []string{"g1", "g2"},
			protectedBy: []string{"t2", "t3"},
		},
		{
			name: "tenant group: no clash, tenants ungrouped",
			objects: []odObj{group("tg", "TG", nil), group("child", "Child", "@tg"), group("keep", "Keep", nil),
				tenant("t1", "u", "u", "@tg"), tenant("t2", "v", "v", nil), tenant("t3", "w", "w", "@child"),
				tenant("t4", "u", "u", "@keep")},
			del:     []string{"tg"},
			gone:    []string{"tg", "child"},
			cleared: map[string]string{"t1": "group", "t3": "group"},
		},
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) { runGuard(t, e, c) })
		}
	})
}

func runGuard(t *testing.T, e *servertest.Env, c guardCase) {
	ids := map[string]int{}
	display := map[string]string{}
	paths := map[string]string{}
	resolve := func(body map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range body {
			if s, ok := v.(string); ok && strings.HasPrefix(s, "@") {
				v = ids[s[1:]]
			}
			out[k] = v
		}
		return out
	}
	url := func(key string) string { return fmt.Sprintf("%s%d/", paths[key], ids[key]) }
	for _, o := range c.objects {
		r := e.Must(http.StatusCreated, "POST", o.path, resolve(o.body))
		ids[o.key], paths[o.key] = idOf(r.Object()), o.path
		display[o.key], _ = r.Object()["display"].(string)
	}
	isGone := map[string]bool{}
	for _, k := range c.gone {
		isGone[k] = true
	}
	// Clean up what stays, dependants first (a chassis' interfaces before
	// it), for the next case.
	defer func() {
		for i := len(c.objects) - 1; i >= 0; i-- {
			if k := c.objects[i].key; !isGone[k] && e.Do("GET", url(k), nil).Status == http.StatusOK {
				e.Must(http.StatusNoContent, "DELETE", url(k), nil)
			}
		}
	}()
	for _, p := range c.patches {
		e.Must(http.StatusOK, "PATCH", url(p.key), resolve(p.body))
	}
	before := map[string]string{}
	for _, o := range c.objects {
		before[o.key] = string(e.Must(http.StatusOK, "GET", url(o.key), nil).Body)
	}
	nc, ne := counts(t, e)
	var r *servertest.Response
	if len(c.del) == 1 {
		r = e.Do("DELETE", url(c.del[0]), nil)
	} else {
		var items []map[string]any
		for _, k := range c.del {
			items = append(items, map[string]any{"id": ids[k]})
		}
		r = e.Do("DELETE", paths[c.del[0]], items)
	}
	if len(c.protectedBy) > 0 {
		var names []string
		for _, k := range c.protectedBy {
			names = append(names, fmt.Sprintf("%s (%d)", display[k], ids[k]))
		}
		detail := fmt.Sprintf("Unable to delete object. %d dependent objects were found: %s", len(names), strings.Join(names, ", "))
		want, _ := json.Marshal(map[string]string{"detail": detail})
		if r.Status != http.StatusConflict || strings.TrimSpace(string(r.Body)) != string(want) {
			t.Fatalf("DELETE: %d %s\nwant 409 %s", r.Status, r.Body, want)
		}
		// Nothing changed: every object reads as before, and no change
		// record or event was written.
		for _, o := range c.objects {
			if got := string(e.Must(http.StatusOK, "GET", url(o.key), nil).Body); got != before[o.key] {
				t.Errorf("%s changed by the refused delete:\n got %s\nwant %s", o.key, got, before[o.key])
			}
		}
		if nc2, ne2 := counts(t, e); nc2 != nc || ne2 != ne {
			t.Errorf("refused delete wrote %d change records and %d events", nc2-nc, ne2-ne)
		}
		return
	}
	if r.Status != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", r.Status, r.Body)
	}
	for _, o := range c.objects {
		want := http.StatusOK
		if isGone[o.key] {
			want = http.StatusNotFound
		}
		got := e.Do("GET", url(o.key), nil)
		if got.Status != want {
			t.Errorf("%s after the delete: %d, want %d", o.key, got.Status, want)
		}
		if f, ok := c.cleared[o.key]; ok && got.Status == http.StatusOK {
			if v := got.Object()[f]; v != nil {
				t.Errorf("%s.%s = %v, want null", o.key, f, v)
			}
		}
	}
}

// TestDeleteGuardManyKeys: deleting a tenant group of 1 001 tenants checks
// (and locks, on PostgreSQL) the values of every one of them, more than
// one statement takes (resource.maxLocksAt): the clash with the one
// top-level namesake is still found, and once it is gone the delete
// ungroups them all.
func TestDeleteGuardManyKeys(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		const n = 1001
		g := mk(t, e, "/api/tenancy/tenant-groups/", map[string]any{"name": "Big", "slug": "big"})
		var tenants []map[string]any
		for i := 0; i < n; i++ {
			tenants = append(tenants, map[string]any{"name": fmt.Sprintf("T%04d", i), "slug": fmt.Sprintf("t%04d", i), "group": g})
		}
		for lo := 0; lo < n; lo += 500 {
			e.Must(http.StatusCreated, "POST", "/api/tenancy/tenants/", tenants[lo:min(lo+500, n)])
		}
		last := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/tenancy/tenants/?slug=t%04d", n-1), nil).Object()["results"].([]any)[0].(map[string]any)
		top := mk(t, e, "/api/tenancy/tenants/", map[string]any{"name": fmt.Sprintf("T%04d", n-1), "slug": "top"})
		r := e.Do("DELETE", fmt.Sprintf("/api/tenancy/tenant-groups/%d/", g), nil)
		want := fmt.Sprintf("2 dependent objects were found: T%04d (%d), T%04d (%d)", n-1, idOf(last), n-1, top)
		if r.Status != http.StatusConflict || !strings.Contains(string(r.Body), want) {
			t.Fatalf("DELETE: %d %s\nwant 409 with %q", r.Status, r.Body, want)
		}
		e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/tenancy/tenants/%d/", top), nil)
		e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/tenancy/tenant-groups/%d/", g), nil)
		if got := countOf(t, e, "/api/tenancy/tenants/?group_id=null&limit=1"); got != n {
			t.Errorf("%d tenants ungrouped, want %d", got, n)
		}
	})
}
