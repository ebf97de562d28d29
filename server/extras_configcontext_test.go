package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// Config contexts (issue 13, BEHAVIOUR.md §14): which contexts apply to a
// device or a virtual machine, how they merge, what writing them checks,
// and what rendering them costs.

const (
	contextsPath = "/api/extras/config-contexts/"
	devicesPath  = "/api/dcim/devices/"
)

// ctxWorld is a small inventory with a node and its parent in every tree
// a context can be assigned by: a device d1 on the children of all of
// them, a device d2 at another site with the parent role only, and a
// virtual machine vm on the same children as d1.
type ctxWorld struct {
	e                                *servertest.Env
	regionP, regionC, groupP, groupC int
	site1, site2, locP, locC         int
	devType, roleP, roleC            int
	platP, platC                     int
	tgP, tgC, tenant                 int
	clusterType, clusterGroup        int
	cluster                          int
	d1, d2, vm                       int
}

func newCtxWorld(t *testing.T, e *servertest.Env) *ctxWorld {
	t.Helper()
	a := e.Admin()
	w := &ctxWorld{e: a}
	mk := func(path string, body map[string]any) int {
		t.Helper()
		return idOf(a.Must(http.StatusCreated, "POST", path, body).Object())
	}
	named := func(path, name string, more ...any) int {
		t.Helper()
		body := map[string]any{"name": name, "slug": strings.ToLower(strings.ReplaceAll(name, " ", "-"))}
		for i := 0; i+1 < len(more); i += 2 {
			body[more[i].(string)] = more[i+1]
		}
		return mk(path, body)
	}
	w.regionP = named("/api/dcim/regions/", "Region P")
	w.regionC = named("/api/dcim/regions/", "Region C", "parent", w.regionP)
	w.groupP = named("/api/dcim/site-groups/", "Group P")
	w.groupC = named("/api/dcim/site-groups/", "Group C", "parent", w.groupP)
	w.site1 = named("/api/dcim/sites/", "Site One", "region", w.regionC, "group", w.groupC)
	w.site2 = named("/api/dcim/sites/", "Site Two")
	w.locP = named("/api/dcim/locations/", "Loc P", "site", w.site1)
	w.locC = named("/api/dcim/locations/", "Loc C", "site", w.site1, "parent", w.locP)
	man := named("/api/dcim/manufacturers/", "Acme")
	w.devType = mk("/api/dcim/device-types/", map[string]any{"manufacturer": man, "model": "Box", "slug": "box"})
	w.roleP = named("/api/dcim/device-roles/", "Role P")
	w.roleC = named("/api/dcim/device-roles/", "Role C", "parent", w.roleP)
	w.platP = named("/api/dcim/platforms/", "Plat P")
	w.platC = named("/api/dcim/platforms/", "Plat C", "parent", w.platP)
	w.tgP = named("/api/tenancy/tenant-groups/", "TG P")
	w.tgC = named("/api/tenancy/tenant-groups/", "TG C", "parent", w.tgP)
	w.tenant = named("/api/tenancy/tenants/", "Tenant One", "group", w.tgC)
	w.clusterType = named("/api/virtualization/cluster-types/", "CT One")
	w.clusterGroup = named("/api/virtualization/cluster-groups/", "CG One")
	w.cluster = mk("/api/virtualization/clusters/", map[string]any{"name": "Cluster One", "type": w.clusterType, "group": w.clusterGroup})
	named("/api/extras/tags/", "Gold")
	named("/api/extras/tags/", "Silver")
	w.d1 = mk(devicesPath, map[string]any{"name": "d1", "site": w.site1, "location": w.locC, "device_type": w.devType,
		"role": w.roleC, "platform": w.platC, "tenant": w.tenant, "cluster": w.cluster, "tags": []any{map[string]any{"slug": "gold"}}})
	w.d2 = mk(devicesPath, map[string]any{"name": "d2", "site": w.site2, "device_type": w.devType, "role": w.roleP})
	w.vm = mk(vmsPath, map[string]any{"name": "vm1", "site": w.site1, "cluster": w.cluster, "role": w.roleC,
		"platform": w.platC, "tenant": w.tenant, "tags": []any{map[string]any{"slug": "gold"}}})
	return w
}

func (w *ctxWorld) context(t *testing.T, name string, weight int, data map[string]any, more ...any) int {
	t.Helper()
	body := map[string]any{"name": name, "weight": weight, "data": data}
	for i := 0; i+1 < len(more); i += 2 {
		body[more[i].(string)] = more[i+1]
	}
	return idOf(w.e.Must(http.StatusCreated, "POST", contextsPath, body).Object())
}

func (w *ctxWorld) configContext(t *testing.T, path string) map[string]any {
	t.Helper()
	v, ok := w.e.Must(http.StatusOK, "GET", path, nil).Object()["config_context"].(map[string]any)
	if !ok {
		t.Fatalf("%s: config_context is not an object", path)
	}
	return v
}

// TestConfigContextMerge is the "done means": a site-wide context
// of weight 100 and a role-specific one of weight 200 merge under the
// device's local context data; ?exclude=config_context leaves the key out.
// Deep merge: objects merge key by key, lists and scalars are replaced,
// ties in weight go by name, inactive contexts do not count.
func TestConfigContextMerge(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newCtxWorld(t, e)
		a := w.e
		d1 := fmt.Sprintf("%s%d/", devicesPath, w.d1)
		a.Must(http.StatusOK, "PATCH", d1, map[string]any{"local_context_data": map[string]any{
			"dns": "192.0.2.9", "ntp": map[string]any{"prefer": true}}})
		w.context(t, "site wide", 100, map[string]any{"dns": "192.0.2.1", "ntp": map[string]any{"servers": []any{"a", "b"}, "tz": "UTC"},
			"banner": "site"}, "sites", []any{w.site1})
		syslog := w.context(t, "role specific", 200, map[string]any{"ntp": map[string]any{"servers": []any{"c"}}, "syslog": "192.0.2.5"},
			"roles", []any{w.roleC})
		// Same weight: "b tie" merges after "a tie" whatever the ids.
		w.context(t, "b tie", 300, map[string]any{"banner": "b"}, "sites", []any{w.site1})
		w.context(t, "a tie", 300, map[string]any{"banner": "a", "empty": map[string]any{"x": 1}}, "sites", []any{w.site1})
		w.context(t, "later empty", 400, map[string]any{"empty": map[string]any{}}, "sites", []any{w.site1})
		w.context(t, "inactive", 500, map[string]any{"banner": "inactive"}, "sites", []any{w.site1}, "is_active", false)

		want := `{"banner":"b","dns":"192.0.2.9","empty":{},"ntp":{"prefer":true,"servers":["c"],"tz":"UTC"},"syslog":"192.0.2.5"}`
		if got := jsonText(t, w.configContext(t, d1)); got != want {
			t.Errorf("device config_context:\n got %s\nwant %s", got, want)
		}
		r := a.Must(http.StatusOK, "GET", fmt.Sprintf("%s?id=%d&id=%d", devicesPath, w.d1, w.d2), nil)
		for _, obj := range r.Results() {
			want := want
			if idOf(obj) == w.d2 {
				want = "{}" // another site, the parent role only
			}
			if got := jsonText(t, obj["config_context"]); got != want {
				t.Errorf("listed device %v: config_context %s, want %s", obj["name"], got, want)
			}
		}
		for _, path := range []string{d1 + "?exclude=config_context", devicesPath + "?exclude=config_context",
			d1 + "?omit=config_context", d1 + "?brief=1", d1 + "?fields=id,name"} {
			got := a.Must(http.StatusOK, "GET", path, nil)
			objs := got.Results()
			if !strings.HasPrefix(path, devicesPath+"?") {
				objs = []map[string]any{got.Object()}
			}
			for _, obj := range objs {
				if _, ok := obj["config_context"]; ok {
					t.Errorf("%s: config_context rendered", path)
				}
			}
		}
		// The virtual machine: site-wide and role contexts apply the same.
		vm := fmt.Sprintf("%s%d/", vmsPath, w.vm)
		if got := jsonText(t, w.configContext(t, vm)); got != `{"banner":"b","dns":"192.0.2.1","empty":{},"ntp":{"servers":["c"],"tz":"UTC"},"syslog":"192.0.2.5"}` {
			t.Errorf("VM config_context: %s", got)
		}
		// A context changed after a read shows at once (the active
		// contexts are cached between requests until the next write).
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", contextsPath, syslog), map[string]any{"data": map[string]any{"syslog": "192.0.2.6"}})
		if got := w.configContext(t, d1); got["syslog"] != "192.0.2.6" {
			t.Errorf("after changing a context: %v", got)
		}
		a.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", contextsPath, syslog), map[string]any{"is_active": false})
		if got := w.configContext(t, d1); got["syslog"] != nil {
			t.Errorf("after deactivating a context: %v", got)
		}
		// Clearing the local data leaves the merged contexts.
		a.Must(http.StatusOK, "PATCH", d1, map[string]any{"local_context_data": nil})
		if got := w.configContext(t, d1); got["dns"] != "192.0.2.1" {
			t.Errorf("after clearing local data: %v", got)
		}
	})
}

// TestConfigContextMatching: one context per kind of assignment, and
// which of the two devices and the virtual machine each applies to
// (BEHAVIOUR.md §14.2's table: trees match their descendants, tenant
// groups only exactly, locations and device types never VMs).
func TestConfigContextMatching(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newCtxWorld(t, e)
		cases := []struct {
			name    string
			assign  []any
			applies []string
		}{
			{"everything", nil, []string{"d1", "d2", "vm"}},
			{"parent region", []any{"regions", []any{w.regionP}}, []string{"d1", "vm"}},
			{"child region", []any{"regions", []any{w.regionC}}, []string{"d1", "vm"}},
			{"parent site group", []any{"site_groups", []any{w.groupP}}, []string{"d1", "vm"}},
			{"second site", []any{"sites", []any{w.site2}}, []string{"d2"}},
			{"parent location", []any{"locations", []any{w.locP}}, []string{"d1"}},
			{"device type", []any{"device_types", []any{w.devType}}, []string{"d1", "d2"}},
			{"parent role", []any{"roles", []any{w.roleP}}, []string{"d1", "d2", "vm"}},
			{"child role", []any{"roles", []any{w.roleC}}, []string{"d1", "vm"}},
			{"parent platform", []any{"platforms", []any{w.platP}}, []string{"d1", "vm"}},
			{"cluster type", []any{"cluster_types", []any{w.clusterType}}, []string{"d1", "vm"}},
			{"cluster group", []any{"cluster_groups", []any{w.clusterGroup}}, []string{"d1", "vm"}},
			{"cluster", []any{"clusters", []any{w.cluster}}, []string{"d1", "vm"}},
			{"parent tenant group", []any{"tenant_groups", []any{w.tgP}}, nil},
			{"tenant group", []any{"tenant_groups", []any{w.tgC}}, []string{"d1", "vm"}},
			{"tenant", []any{"tenants", []any{w.tenant}}, []string{"d1", "vm"}},
			{"tag", []any{"tags", []any{"gold"}}, []string{"d1", "vm"}},
			{"other tag", []any{"tags", []any{"silver"}}, nil},
			{"either site", []any{"sites", []any{w.site1, w.site2}}, []string{"d1", "d2", "vm"}},
			{"site and role", []any{"sites", []any{w.site1}, "roles", []any{w.roleP}}, []string{"d1", "vm"}},
			{"site but not role", []any{"sites", []any{w.site2}, "roles", []any{w.roleC}}, nil},
			{"inactive", []any{"is_active", false}, nil},
		}
		for i, c := range cases {
			w.context(t, c.name, 1000+i, map[string]any{"k" + fmt.Sprint(i): c.name}, c.assign...)
		}
		got := map[string][]string{}
		for obj, path := range map[string]string{"d1": fmt.Sprintf("%s%d/", devicesPath, w.d1),
			"d2": fmt.Sprintf("%s%d/", devicesPath, w.d2), "vm": fmt.Sprintf("%s%d/", vmsPath, w.vm)} {
			for _, v := range w.configContext(t, path) {
				got[v.(string)] = append(got[v.(string)], obj)
			}
		}
		for _, c := range cases {
			sort.Strings(got[c.name])
			if !slices.Equal(got[c.name], c.applies) {
				t.Errorf("context %q applies to %v, want %v", c.name, got[c.name], c.applies)
			}
		}
	})
}

// TestConfigContextWrites: tags are slugs both ways, assignment lists
// are ids rendered nested, data must be an object and satisfy the
// profile's schema; a refused write changes nothing.
func TestConfigContextWrites(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newCtxWorld(t, e)
		a := w.e
		profile := idOf(a.Must(http.StatusCreated, "POST", "/api/extras/config-context-profiles/", map[string]any{
			"name": "NTP", "schema": map[string]any{"type": "object", "required": []any{"ntp"},
				"properties": map[string]any{"ntp": map[string]any{"type": "string"}}}}).Object())
		id := w.context(t, "tagged", 10, map[string]any{"ntp": "192.0.2.1"}, "tags", []any{"silver", "gold"},
			"regions", []any{w.regionP}, "profile", profile)
		obj := a.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", contextsPath, id), nil).Object()
		if got := jsonText(t, obj["tags"]); got != `["gold","silver"]` {
			t.Errorf("tags: %s", got)
		}
		if regions, _ := obj["regions"].([]any); len(regions) != 1 || idOf(regions[0].(map[string]any)) != w.regionP {
			t.Errorf("regions: %v", obj["regions"])
		}
		if got := a.Must(http.StatusOK, "GET", contextsPath+"?tag=gold", nil).Object()["count"]; got != 1.0 {
			t.Errorf("?tag=gold: count %v", got)
		}
		count := func() any { return a.Must(http.StatusOK, "GET", contextsPath, nil).Object()["count"] }
		before := count()
		for _, c := range []struct {
			body map[string]any
			want string
		}{
			{map[string]any{"name": "x", "data": map[string]any{}, "tags": []any{"bronze"}},
				`{"tags":["Object with slug=bronze does not exist."]}`},
			{map[string]any{"name": "x", "data": map[string]any{}, "tags": []any{map[string]any{"slug": "gold"}}},
				`{"tags":["Invalid value."]}`},
			{map[string]any{"name": "x", "data": "text"}, `{"data":["JSON data must be in object form. Example: {\"foo\": 123}"]}`},
			{map[string]any{"name": "x"}, `{"data":["This field is required."]}`},
			{map[string]any{"name": "x", "data": map[string]any{"ntp": 5}, "profile": profile},
				`{"__all__":["Data does not conform to profile schema: got number, want string (at /ntp)"]}`},
			{map[string]any{"name": "x", "data": map[string]any{}, "profile": profile},
				`{"__all__":["Data does not conform to profile schema: missing property 'ntp'"]}`},
		} {
			r := a.Must(http.StatusBadRequest, "POST", contextsPath, c.body)
			if string(r.Body) != c.want {
				t.Errorf("POST %v:\n got %s\nwant %s", c.body, r.Body, c.want)
			}
		}
		a.Must(http.StatusBadRequest, "PATCH", fmt.Sprintf("%s%d/", contextsPath, id), map[string]any{"data": map[string]any{"ntp": []any{}}})
		if got := count(); got != before {
			t.Errorf("refused writes changed the count: %v, was %v", got, before)
		}
		if got := jsonText(t, a.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", contextsPath, id), nil).Object()["data"]); got != `{"ntp":"192.0.2.1"}` {
			t.Errorf("data after a refused PATCH: %s", got)
		}
		// A profile in use is protected; deleting an assigned site or
		// region takes it out of the lists (the join rows go with it).
		a.Must(http.StatusConflict, "DELETE", fmt.Sprintf("/api/extras/config-context-profiles/%d/", profile), nil)
		assigned := w.context(t, "assigned", 20, map[string]any{}, "sites", []any{w.site2, w.site1}, "regions", []any{w.regionC})
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", devicesPath, w.d2), nil)
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/dcim/sites/%d/", w.site2), nil)
		a.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("/api/dcim/regions/%d/", w.regionC), nil)
		obj = a.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", contextsPath, assigned), nil).Object()
		if sites, _ := obj["sites"].([]any); len(sites) != 1 || idOf(sites[0].(map[string]any)) != w.site1 || len(obj["regions"].([]any)) != 0 {
			t.Errorf("after deleting a site and a region: sites %v regions %v", obj["sites"], obj["regions"])
		}
	})
}

// TestConfigContextListQueries: a page of devices with config contexts
// assigned by every kind of attribute costs the same number of read
// queries for 2 devices as for 50, and ?exclude=config_context costs no
// context query at all.
func TestConfigContextListQueries(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := newCtxWorld(t, e)
		a := w.e
		var devs []any
		for i := 0; i < 50; i++ {
			devs = append(devs, map[string]any{"name": fmt.Sprintf("q-%02d", i), "site": w.site1, "location": w.locC,
				"device_type": w.devType, "role": w.roleC, "platform": w.platC, "tenant": w.tenant, "cluster": w.cluster,
				"tags": []any{map[string]any{"slug": "gold"}}, "local_context_data": map[string]any{"n": i}})
		}
		var ids []string
		for _, v := range a.Must(http.StatusCreated, "POST", devicesPath, devs).JSON().([]any) {
			ids = append(ids, fmt.Sprintf("id=%d", idOf(v.(map[string]any))))
		}
		cost := func(q string) int64 {
			// limit 51: both pages are short, so neither runs a count query (a
			// short page knows its count); the comparison is of the page's loads.
			return a.Cost(devicesPath + "?limit=51&" + q)
		}
		two, fifty := strings.Join(ids[:2], "&"), strings.Join(ids, "&")
		bare := cost(fifty)
		excludedBare := cost(fifty + "&exclude=config_context")
		for i, assign := range [][]any{{"regions", []any{w.regionP}}, {"site_groups", []any{w.groupP}}, {"sites", []any{w.site1}},
			{"locations", []any{w.locP}}, {"device_types", []any{w.devType}}, {"roles", []any{w.roleP}},
			{"platforms", []any{w.platP}}, {"cluster_types", []any{w.clusterType}}, {"cluster_groups", []any{w.clusterGroup}},
			{"clusters", []any{w.cluster}}, {"tenant_groups", []any{w.tgC}}, {"tenants", []any{w.tenant}}, {"tags", []any{"gold"}}} {
			w.context(t, fmt.Sprint(assign[0]), 100+i, map[string]any{fmt.Sprint(assign[0]): true}, assign...)
		}
		r := a.Must(http.StatusOK, "GET", devicesPath+"?limit=50&"+fifty, nil)
		for _, obj := range r.Results() {
			if cc, _ := obj["config_context"].(map[string]any); len(cc) != 14 {
				t.Fatalf("device %v: config_context %v, want the 13 contexts and n", obj["name"], obj["config_context"])
			}
		}
		withTwo, withFifty := cost(two), cost(fifty)
		if withTwo != withFifty {
			t.Errorf("device list with config contexts: %d read queries for 2 devices, %d for 50", withTwo, withFifty)
		}
		if excluded := cost(fifty + "&exclude=config_context"); excluded != excludedBare || excluded >= bare {
			t.Errorf("?exclude=config_context: %d read queries with contexts, %d without any, %d rendering them", excluded, excludedBare, bare)
		}
		t.Logf("50 devices: %d read queries without contexts, %d with 13 contexts, %d excluded", bare, withFifty, excludedBare)
	})
}
