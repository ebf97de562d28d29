package resource_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"testing"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/filters"
)

// mk creates one object of app/path through its descriptor.
func mk(t *testing.T, d *db.DB, path string, kv map[string]any) int {
	t.Helper()
	ctx := context.Background()
	desc := byPath(t, path)
	var id int
	err := d.InTx(ctx, func(ctx context.Context, etx *ent.Tx) error {
		var err error
		id, err = desc.Create(ctx, tx(d, etx), input(t, kv))
		return err
	})
	if err != nil {
		t.Fatalf("create %s %v: %v", path, kv, describeErr(err))
	}
	return id
}

// patch updates one object of app/path partially through its descriptor.
func patch(t *testing.T, d *db.DB, path string, id int, kv map[string]any) {
	t.Helper()
	ctx := context.Background()
	desc := byPath(t, path)
	err := d.InTx(ctx, func(ctx context.Context, etx *ent.Tx) error {
		rtx := tx(d, etx)
		row, err := desc.Get(ctx, rtx.Store(), id)
		if err != nil || row == nil {
			t.Fatalf("get %s %d: %v", path, id, err)
		}
		return desc.Update(ctx, rtx, row, input(t, kv), true)
	})
	if err != nil {
		t.Fatalf("patch %s %d %v: %v", path, id, kv, describeErr(err))
	}
}

func byPath(t *testing.T, path string) *resource.Descriptor {
	t.Helper()
	for _, d := range resource.All() {
		if d.App+"/"+d.Path == path {
			return d
		}
	}
	t.Fatalf("no model %s", path)
	return nil
}

// find lists the ids of app/path matching the query (strict filtering).
func find(t *testing.T, d *db.DB, path, query string) ([]int, error) {
	t.Helper()
	ctx := context.Background()
	desc := byPath(t, path)
	q, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	preds, err := desc.Filters().Apply(ctx, q, filters.Options{Unknown: filters.Strict, Reserved: filters.Reserved,
		Dialect: d.Dialect, Exec: d.Read})
	if err != nil {
		return nil, err
	}
	rows, _, err := desc.List(ctx, d.Store(), resource.ListParams{Preds: preds, Limit: -1})
	if err != nil {
		t.Fatalf("%s?%s: %v", path, query, err)
	}
	ids := []int{}
	for _, r := range rows {
		ids = append(ids, r.ID)
	}
	slices.Sort(ids)
	return ids, nil
}

// field renders object id of app/path and returns one field.
func field(t *testing.T, d *db.DB, path string, id int, name string) any {
	t.Helper()
	ctx := context.Background()
	desc := byPath(t, path)
	row, err := desc.Get(ctx, d.Store(), id)
	if err != nil || row == nil {
		t.Fatalf("get %s %d: %v", path, id, err)
	}
	p, err := desc.Load(ctx, d.Store(), []*resource.Row{row}, resource.View{})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(p.JSON(row), &m); err != nil {
		t.Fatal(err)
	}
	return m[name]
}

type findCase struct {
	path, q string
	want    []int
	err     string // a filter error is expected for this parameter
}

func checkFinds(t *testing.T, d *db.DB, cases []findCase) {
	t.Helper()
	for _, c := range cases {
		got, err := find(t, d, c.path, c.q)
		var fe filters.Errors
		switch {
		case c.err != "":
			if !errors.As(err, &fe) || fe[c.err] == nil {
				t.Errorf("%s?%s: got %v, %v, want an error for %s", c.path, c.q, got, err, c.err)
			}
		case err != nil:
			t.Errorf("%s?%s: %v", c.path, c.q, err)
		case !slices.Equal(got, append([]int{}, c.want...)):
			t.Errorf("%s?%s: got %v, want %v", c.path, c.q, got, c.want)
		}
	}
}

// TestThroughFilters covers the filters that read a related row (tenant
// group, site region/group, VLAN group/vid, Q-in-Q S-VLAN vid), the cached
// scope of prefixes (filters, prefix_count, recomputation when sites and
// locations move) and the JSON and scope filters of VLAN groups, tags,
// custom fields, choice sets, users and tokens.
func TestThroughFilters(t *testing.T) {
	for name, d := range testDBs(t) {
		t.Run(name, func(t *testing.T) { throughFilters(t, d) })
	}
}

func throughFilters(t *testing.T, d *db.DB) {
	tg1 := mk(t, d, "tenancy/tenant-groups", map[string]any{"name": "TG1", "slug": "tg1"})
	tg2 := mk(t, d, "tenancy/tenant-groups", map[string]any{"name": "TG2", "slug": "tg2", "parent": tg1})
	tg3 := mk(t, d, "tenancy/tenant-groups", map[string]any{"name": "TG3", "slug": "tg3"})
	t1 := mk(t, d, "tenancy/tenants", map[string]any{"name": "T1", "slug": "t1", "group": tg2})
	t2 := mk(t, d, "tenancy/tenants", map[string]any{"name": "T2", "slug": "t2", "group": tg3})
	t3 := mk(t, d, "tenancy/tenants", map[string]any{"name": "T3", "slug": "t3"})
	r1 := mk(t, d, "dcim/regions", map[string]any{"name": "R1", "slug": "r1"})
	r2 := mk(t, d, "dcim/regions", map[string]any{"name": "R2", "slug": "r2", "parent": r1})
	g1 := mk(t, d, "dcim/site-groups", map[string]any{"name": "G1", "slug": "g1"})
	s1 := mk(t, d, "dcim/sites", map[string]any{"name": "S1", "slug": "s1", "region": r2, "group": g1, "tenant": t1})
	s2 := mk(t, d, "dcim/sites", map[string]any{"name": "S2", "slug": "s2", "tenant": t2})
	l1 := mk(t, d, "dcim/locations", map[string]any{"name": "L1", "slug": "l1", "site": s1})
	l2 := mk(t, d, "dcim/locations", map[string]any{"name": "L2", "slug": "l2", "site": s2, "tenant": t1})
	vg1 := mk(t, d, "ipam/vlan-groups", map[string]any{"name": "VG1", "slug": "vg1", "scope_type": "dcim.site",
		"scope_id": s1, "vid_ranges": [][]int{{100, 199}, {300, 300}}, "tenant": t1})
	vg2 := mk(t, d, "ipam/vlan-groups", map[string]any{"name": "VG2", "slug": "vg2", "scope_type": "dcim.region", "scope_id": r1})
	v1 := mk(t, d, "ipam/vlans", map[string]any{"name": "V1", "vid": 150, "site": s1, "group": vg1, "tenant": t1})
	v2 := mk(t, d, "ipam/vlans", map[string]any{"name": "V2", "vid": 20, "site": s2, "tenant": t3})
	v3 := mk(t, d, "ipam/vlans", map[string]any{"name": "V3", "vid": 30, "qinq_role": "svlan"})
	v4 := mk(t, d, "ipam/vlans", map[string]any{"name": "V4", "vid": 40, "qinq_role": "cvlan", "qinq_svlan": v3})
	vrf := mk(t, d, "ipam/vrfs", map[string]any{"name": "VRF-T1", "tenant": t1})
	p1 := mk(t, d, "ipam/prefixes", map[string]any{"prefix": "10.1.0.0/16", "scope_type": "dcim.site", "scope_id": s1, "vlan": v1, "tenant": t1})
	p2 := mk(t, d, "ipam/prefixes", map[string]any{"prefix": "10.2.0.0/16", "scope_type": "dcim.location", "scope_id": l1})
	p3 := mk(t, d, "ipam/prefixes", map[string]any{"prefix": "10.3.0.0/16", "scope_type": "dcim.region", "scope_id": r2})
	p4 := mk(t, d, "ipam/prefixes", map[string]any{"prefix": "10.4.0.0/16", "scope_type": "dcim.sitegroup", "scope_id": g1})
	p5 := mk(t, d, "ipam/prefixes", map[string]any{"prefix": "10.5.0.0/16", "vlan": v2, "tenant": t2})
	p6 := mk(t, d, "ipam/prefixes", map[string]any{"prefix": "10.6.0.0/16", "scope_type": "dcim.location", "scope_id": l2})
	_ = vrf
	ids := func(v ...int) []int { slices.Sort(v); return v }
	n := func(v int) string { return string(json.Number(itoa(v))) }

	checkFinds(t, d, []findCase{
		// tenant_group through tenant.group (tree).
		{"dcim/sites", "tenant_group=tg1", ids(s1), ""},
		{"dcim/sites", "tenant_group_id=" + n(tg3), ids(s2), ""},
		{"dcim/sites", "tenant_group__n=tg1", ids(s2), ""},
		{"dcim/sites", "tenant_group=nope", nil, "tenant_group"},
		{"dcim/locations", "tenant_group=tg2", ids(l2), ""},
		{"dcim/locations", "tenant_group=null", ids(l1), ""},
		{"ipam/prefixes", "tenant_group=tg1", ids(p1), ""},
		{"ipam/prefixes", "tenant_group_id=" + n(tg3), ids(p5), ""},
		{"ipam/vlan-groups", "tenant_group=tg1", ids(vg1), ""},
		{"ipam/vlans", "tenant_group=tg1", ids(v1), ""},
		{"ipam/vlans", "tenant_group=null", ids(v2, v3, v4), ""}, // T3 has no group
		{"ipam/vrfs", "tenant_group_id=" + n(tg2), ids(vrf), ""},
		// region / site_group through site.
		{"dcim/locations", "region=r1", ids(l1), ""},
		{"dcim/locations", "region_id=" + n(r2), ids(l1), ""},
		{"dcim/locations", "site_group=g1", ids(l1), ""},
		{"dcim/locations", "region__n=r1", ids(l2), ""},
		{"ipam/vlans", "region=r1", ids(v1), ""},
		{"ipam/vlans", "site_group_id=" + n(g1), ids(v1), ""},
		{"ipam/vlans", "region=null", ids(v2, v3, v4), ""},
		// prefixes: vlan through, and the cached scope.
		{"ipam/prefixes", "vlan_group=vg1", ids(p1), ""},
		{"ipam/prefixes", "vlan_group_id=" + n(vg1), ids(p1), ""},
		{"ipam/prefixes", "vlan_vid=150", ids(p1), ""},
		{"ipam/prefixes", "vlan_vid__lt=100", ids(p5), ""},
		{"ipam/prefixes", "vlan_vid__empty=true", ids(p2, p3, p4, p6), ""},
		{"ipam/prefixes", "site=s1", ids(p1, p2), ""},
		{"ipam/prefixes", "site_id=" + n(s2), ids(p6), ""},
		{"ipam/prefixes", "site_id=null", ids(p3, p4, p5), ""},
		{"ipam/prefixes", "region=r1", ids(p1, p2, p3), ""},
		{"ipam/prefixes", "region_id=" + n(r2), ids(p1, p2, p3), ""},
		{"ipam/prefixes", "site_group=g1", ids(p1, p2, p4), ""},
		{"ipam/prefixes", "location=l1", ids(p2), ""},
		{"ipam/prefixes", "location_id=" + n(l2), ids(p6), ""},
		{"ipam/prefixes", "location__n=l1", ids(p1, p3, p4, p5, p6), ""},
		{"ipam/prefixes", "site=nope", nil, "site"},
		// vlans: Q-in-Q S-VLAN vid.
		{"ipam/vlans", "qinq_svlan_vid=30", ids(v4), ""},
		{"ipam/vlans", "qinq_svlan_vid__n=30", ids(v1, v2, v3), ""},
		// vlan-groups: scope by id, contains_vid.
		{"ipam/vlan-groups", "site=" + n(s1), ids(vg1), ""},
		{"ipam/vlan-groups", "region=" + n(r1), ids(vg2), ""},
		{"ipam/vlan-groups", "region=" + n(r2), ids(), ""},
		{"ipam/vlan-groups", "location=" + n(l1), ids(), ""},
		{"ipam/vlan-groups", "site=1.5", ids(), ""},
		{"ipam/vlan-groups", "site=x", nil, "site"},
		{"ipam/vlan-groups", "contains_vid=150", ids(vg1, vg2), ""},
		{"ipam/vlan-groups", "contains_vid=250", ids(vg2), ""},
		{"ipam/vlan-groups", "contains_vid=300", ids(vg1, vg2), ""},
		{"ipam/vlan-groups", "contains_vid=5000", ids(), ""},
		{"ipam/vlan-groups", "contains_vid=a", nil, "contains_vid"},
	})
	for _, c := range []struct {
		path  string
		id    int
		field string
		want  float64
	}{
		{"dcim/sites", s1, "prefix_count", 2}, {"dcim/sites", s2, "prefix_count", 1},
		{"dcim/regions", r1, "prefix_count", 0}, {"dcim/regions", r2, "prefix_count", 3},
		{"dcim/site-groups", g1, "prefix_count", 3}, {"dcim/locations", l1, "prefix_count", 1},
	} {
		if got := field(t, d, c.path, c.id, c.field); got != c.want {
			t.Errorf("%s %d %s = %v, want %v", c.path, c.id, c.field, got, c.want)
		}
	}

	// Moving scope objects moves the cached scope of their prefixes.
	patch(t, d, "dcim/sites", s1, map[string]any{"region": nil})
	patch(t, d, "dcim/locations", l1, map[string]any{"site": s2})
	patch(t, d, "ipam/prefixes", p3, map[string]any{"scope_type": "dcim.site", "scope_id": s2})
	patch(t, d, "ipam/prefixes", p4, map[string]any{"scope_type": nil, "scope_id": nil})
	checkFinds(t, d, []findCase{
		{"ipam/prefixes", "region=r1", ids(), ""},
		{"ipam/prefixes", "site=s2", ids(p2, p3, p6), ""},
		{"ipam/prefixes", "site=s1", ids(p1), ""},
		{"ipam/prefixes", "site_group=g1", ids(p1), ""},
		{"ipam/prefixes", "site_id=null", ids(p4, p5), ""},
		{"ipam/prefixes", "location=l1", ids(p2), ""},
	})
	if got := field(t, d, "dcim/sites", s2, "prefix_count"); got != float64(3) {
		t.Errorf("site S2 prefix_count = %v, want 3", got)
	}
	patch(t, d, "dcim/sites", s2, map[string]any{"region": r2})
	checkFinds(t, d, []findCase{{"ipam/prefixes", "region=r1", ids(p2, p3, p6), ""}})

	// extras and users.
	red := mk(t, d, "extras/tags", map[string]any{"name": "Red", "slug": "red"})
	blue := mk(t, d, "extras/tags", map[string]any{"name": "Blue", "slug": "blue", "object_types": []string{"dcim.site"}})
	patch(t, d, "dcim/sites", s1, map[string]any{"tags": []int{red}})
	cs1 := mk(t, d, "extras/custom-field-choice-sets", map[string]any{"name": "CS1",
		"extra_choices": [][]string{{"a", "Alpha"}, {"b", "Beta"}}, "choice_colors": map[string]string{"a": "red"}})
	cs2 := mk(t, d, "extras/custom-field-choice-sets", map[string]any{"name": "CS2", "extra_choices": [][]string{{"c", "C"}}})
	cf1 := mk(t, d, "extras/custom-fields", map[string]any{"name": "cf1", "type": "text", "object_types": []string{"dcim.site", "ipam.prefix"}})
	cf2 := mk(t, d, "extras/custom-fields", map[string]any{"name": "cf2", "type": "text", "object_types": []string{"ipam.vlan"}})
	// Users and tokens directly (their password and username codecs are
	// registered by the server package).
	var alice, bob int
	ctx := context.Background()
	if err := d.InTx(ctx, func(ctx context.Context, etx *ent.Tx) error {
		a, err := etx.User.Create().SetUsername("alice").SetEmail("alice@example.com").Save(ctx)
		if err != nil {
			return err
		}
		b, err := etx.User.Create().SetUsername("bob").SetEmail("bob@other.org").SetIsSuperuser(true).Save(ctx)
		if err != nil {
			return err
		}
		alice, bob = a.ID, b.ID
		return etx.Token.Create().SetUserID(alice).SetDigest("d1").Exec(ctx)
	}); err != nil {
		t.Fatal(err)
	}
	aliceTokens, err := find(t, d, "users/tokens", "user_id="+n(alice))
	if err != nil || len(aliceTokens) != 1 {
		t.Fatalf("tokens of alice: %v %v", aliceTokens, err)
	}
	checkFinds(t, d, []findCase{
		{"extras/tags", "content_type=dcim.site", ids(red), ""},
		{"extras/tags", "content_type=DCIM.Site&content_type=ipam.vlan", ids(red), ""},
		{"extras/tags", "content_type=ipam.prefix", ids(), ""},
		{"extras/tags", "content_type=bogus", ids(), ""},
		{"extras/tags", "slug=blue", ids(blue), ""},
		{"extras/custom-fields", "object_type=dcim.site", ids(cf1), ""},
		{"extras/custom-fields", "object_type=ipam.vlan&object_type=ipam.prefix", ids(cf1, cf2), ""},
		{"extras/custom-fields", "object_type__n=ipam.prefix", ids(cf2), ""},
		{"extras/custom-fields", "object_type=nothing", ids(), ""},
		{"extras/custom-field-choice-sets", "choice=a", ids(cs1), ""},
		{"extras/custom-field-choice-sets", "choice=Beta&choice=c", ids(cs1, cs2), ""},
		{"extras/custom-field-choice-sets", "choice=z", ids(), ""},
		{"extras/custom-field-choice-sets", "choice_colors=red", ids(cs1), ""},
		{"extras/custom-field-choice-sets", "choice_colors=blue", ids(), ""},
		{"extras/custom-field-choice-sets", "choice_colors=mauve", nil, "choice_colors"},
		{"users/users", "username=alice", ids(alice), ""},
		{"users/users", "username__isw=B", ids(bob), ""},
		{"users/users", "email__ic=EXAMPLE", ids(alice), ""},
		{"users/users", "is_superuser=true", ids(bob), ""},
		{"users/users", "is_superuser=false", ids(alice), ""},
		{"users/tokens", "user=alice", aliceTokens, ""},
		{"users/tokens", "user=bob", ids(), ""},
		{"users/tokens", "user=nobody", nil, "user"},
	})
}

func itoa(v int) string { b, _ := json.Marshal(v); return string(b) }
