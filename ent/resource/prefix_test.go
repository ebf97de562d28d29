package resource_test

import (
	"context"
	"crypto/rand"
	stdsql "database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"entgo.io/ent/dialect"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/ent/logic/ipam"
	"github.com/inventory/inventory/ent/prefix"
	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/ent/schema/api"
	"github.com/inventory/inventory/filters"
)

// testDBs opens a fresh migrated SQLite database and, when
// INVENTORY_TEST_POSTGRES is set, a fresh PostgreSQL database created for
// this test (and dropped after it).
func testDBs(t testing.TB) map[string]*db.DB {
	t.Helper()
	ctx := dupCtx()
	out := map[string]*db.DB{}
	d, err := db.Open(ctx, filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if err := d.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	out["sqlite"] = d
	if dsn := os.Getenv("INVENTORY_TEST_POSTGRES"); dsn != "" {
		out["postgres"] = freshPostgres(t, dsn)
	}
	return out
}

func freshPostgres(t testing.TB, dsn string) *db.DB {
	t.Helper()
	ctx := dupCtx()
	admin, err := stdsql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 6)
	rand.Read(b)
	name := "inventory_test_" + hex.EncodeToString(b)
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		admin.Close()
		t.Fatalf("create database: %v", err)
	}
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	d, err := db.Open(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		d.Close()
		if _, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
		admin.Close()
	})
	if err := d.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	return d
}

func eachDB(t *testing.T, fn func(t *testing.T, d *db.DB)) {
	dbs := testDBs(t)
	for _, name := range []string{"sqlite", "postgres"} {
		if d := dbs[name]; d != nil {
			t.Run(name, func(t *testing.T) {
				seedVRFs(t, d, 8)
				fn(t, d)
			})
		}
	}
}

func prefixes() *resource.Descriptor { return resource.ByPath("ipam", "prefixes") }

// dupCtx is a write context in which duplicate prefixes are allowed in the
// global table (ENFORCE_GLOBAL_UNIQUE off), as the hierarchy tests need:
// NetBox counts duplicates among children, and the seeded VRFs allow them
// too (enforce_unique off).
func dupCtx() context.Context {
	return api.WithSettings(context.Background(), api.Settings{EnforceGlobalUnique: false})
}

// seedVRFs makes sure VRFs 1..n exist (prefixes refer to them by id).
func seedVRFs(t *testing.T, d *db.DB, n int) {
	t.Helper()
	ctx := dupCtx()
	vrfs := resource.ByPath("ipam", "vrfs")
	err := d.InTx(ctx, func(ctx context.Context, etx *ent.Tx) error {
		for i := 1; i <= n; i++ {
			if r, err := vrfs.Get(ctx, tx(d, etx).Store(), i); err != nil || r != nil {
				continue
			}
			if _, err := vrfs.Create(ctx, tx(d, etx), input(t, map[string]any{"name": fmt.Sprintf("vrf%d", i), "enforce_unique": false})); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func input(t testing.TB, kv map[string]any) resource.Input {
	t.Helper()
	in := resource.Input{}
	for k, v := range kv {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		in[k] = b
	}
	return in
}

func tx(d *db.DB, etx *ent.Tx) *resource.Tx {
	return &resource.Tx{Client: etx.Client(), Dialect: d.Dialect}
}

func createPrefix(t testing.TB, d *db.DB, kv map[string]any) (int, error) {
	t.Helper()
	ctx := dupCtx()
	var id int
	err := d.InTx(ctx, func(ctx context.Context, etx *ent.Tx) error {
		var err error
		id, err = prefixes().Create(ctx, tx(d, etx), input(t, kv))
		return err
	})
	return id, err
}

func mustCreate(t testing.TB, d *db.DB, kv map[string]any) int {
	t.Helper()
	id, err := createPrefix(t, d, kv)
	if err != nil {
		t.Fatalf("create %v: %v", kv, describeErr(err))
	}
	return id
}

func describeErr(err error) string {
	var ve *resource.ValidationError
	if errors.As(err, &ve) {
		b, _ := json.Marshal(ve.Fields)
		return string(b)
	}
	return err.Error()
}

func patchPrefix(t testing.TB, d *db.DB, id int, kv map[string]any) {
	t.Helper()
	ctx := dupCtx()
	err := d.InTx(ctx, func(ctx context.Context, etx *ent.Tx) error {
		rtx := tx(d, etx)
		row, err := prefixes().Get(ctx, rtx.Store(), id)
		if err != nil || row == nil {
			return fmt.Errorf("get %d: %v", id, err)
		}
		return prefixes().Update(ctx, rtx, row, input(t, kv), true)
	})
	if err != nil {
		t.Fatalf("patch %d %v: %v", id, kv, describeErr(err))
	}
}

func deletePrefixes(t testing.TB, d *db.DB, ids ...int) {
	t.Helper()
	ctx := dupCtx()
	if err := d.InTx(ctx, func(ctx context.Context, etx *ent.Tx) error { return prefixes().Delete(ctx, tx(d, etx), ids) }); err != nil {
		t.Fatalf("delete %v: %v", ids, err)
	}
}

// stored is a prefix as read back through the descriptor.
type stored struct {
	ID       int
	Prefix   string
	VRF      int // 0: global
	Family   int
	Depth    int
	Children int
}

func listPrefixes(t testing.TB, d *db.DB, q url.Values) []stored {
	t.Helper()
	ctx := dupCtx()
	desc := prefixes()
	preds, err := desc.Filters().Apply(ctx, q, filters.Options{Unknown: filters.Strict, Reserved: filters.Reserved,
		Dialect: d.Dialect, Exec: d.Read})
	if err != nil {
		t.Fatalf("filters %v: %v", q, err)
	}
	rows, _, err := desc.List(ctx, d.Store(), resource.ListParams{Preds: preds, Order: desc.Filters().Order(q.Get("ordering")), Limit: -1})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]stored, len(rows))
	for i, r := range rows {
		s := stored{ID: r.ID, Prefix: desc.Value(r, "prefix").(string), Family: desc.Value(r, "family").(int),
			Depth: desc.Value(r, "_depth").(int), Children: desc.Value(r, "children").(int)}
		if v, ok := desc.Value(r, "vrf").(int); ok {
			s.VRF = v
		}
		out[i] = s
	}
	return out
}

// checkHierarchy compares the cached _depth and children of every stored
// prefix with a brute-force computation.
func checkHierarchy(t *testing.T, d *db.DB, step string) {
	t.Helper()
	all := listPrefixes(t, d, nil)
	for _, p := range all {
		pp := netip.MustParsePrefix(p.Prefix)
		lens := map[int]bool{}
		children := 0
		for _, o := range all {
			if o.ID == p.ID || o.VRF != p.VRF {
				continue
			}
			op := netip.MustParsePrefix(o.Prefix)
			if op.Addr().Is4() != pp.Addr().Is4() {
				continue
			}
			if op.Bits() < pp.Bits() && op.Contains(pp.Addr()) {
				lens[op.Bits()] = true
			}
			if op.Bits() > pp.Bits() && pp.Contains(op.Addr()) {
				children++
			}
		}
		if p.Depth != len(lens) || p.Children != children {
			t.Errorf("%s: %s (vrf %d, id %d): _depth %d children %d, want %d and %d",
				step, p.Prefix, p.VRF, p.ID, p.Depth, p.Children, len(lens), children)
		}
	}
}

func TestPrefixCIDR(t *testing.T) {
	eachDB(t, func(t *testing.T, d *db.DB) {
		good := map[string]string{
			"10.1.0.0/16":               "10.1.0.0/16",
			" 192.0.2.0/24 ":            "192.0.2.0/24",
			"10.0.0.1":                  "10.0.0.1/32",
			"10.0.0.0/255.255.0.0":      "10.0.0.0/16",
			"2001:DB8:0:0:0::/32":       "2001:db8::/32",
			"2001:0db8:0000:0001::/64":  "2001:db8:0:1::/64",
			"::ffff:10.0.0.0/104":       "::ffff:10.0.0.0/104",
			"2001:db8::1":               "2001:db8::1/128",
			"fe80:0:0:0:0:0:0:0/10":     "fe80::/10",
			"2001:db8:abcd:12::/64":     "2001:db8:abcd:12::/64",
			"2001:db8:0:0:1:0:0:0/80":   "2001:db8:0:0:1::/80",
			"172.16.0.0/12":             "172.16.0.0/12",
			"2001:db8:85a3::8a2e:0/112": "2001:db8:85a3::8a2e:0/112",
		}
		for in, want := range good {
			id := mustCreate(t, d, map[string]any{"prefix": in})
			r, err := prefixes().Get(dupCtx(), d.Store(), id)
			if err != nil {
				t.Fatal(err)
			}
			if got := prefixes().Value(r, "prefix"); got != want {
				t.Errorf("%q stored as %v, want %s", in, got, want)
			}
			fam := 4
			if strings.Contains(want, ":") {
				fam = 6
			}
			if got := prefixes().Value(r, "family"); got != fam {
				t.Errorf("%q: family %v, want %d", in, got, fam)
			}
		}
		bad := map[string]string{
			"10.1.2.3/16":    "10.1.2.3/16 is not a valid prefix. Did you mean 10.1.0.0/16?",
			"2001:db8::1/32": "2001:db8::1/32 is not a valid prefix. Did you mean 2001:db8::/32?",
			"bogus":          "Invalid IP address format: bogus",
			"10.0.0.0/33":    "Invalid IP address format: 10.0.0.0/33",
			"10.0.0/8":       "Invalid IP address format: 10.0.0/8",
			"10.0.0.0/8/8":   "Invalid IP address format: 10.0.0.0/8/8",
			"0.0.0.0/0":      "Cannot create prefix with /0 mask.",
			"::/0":           "Cannot create prefix with /0 mask.",
			"":               "This field may not be blank.",
		}
		for in, want := range bad {
			_, err := createPrefix(t, d, map[string]any{"prefix": in})
			var ve *resource.ValidationError
			if !errors.As(err, &ve) || !reflect.DeepEqual(ve.Fields["prefix"], []string{want}) {
				t.Errorf("%q: got %v, want prefix error %q", in, describeErr(err), want)
			}
		}
		// Missing, null, wrong type.
		for _, kv := range []map[string]any{{}, {"prefix": nil}, {"prefix": 5}} {
			if _, err := createPrefix(t, d, kv); err == nil {
				t.Errorf("%v accepted", kv)
			}
		}
		// The representation: family as a choice, hidden columns absent.
		id := mustCreate(t, d, map[string]any{"prefix": "198.51.100.0/24", "status": "reserved", "vrf": 7})
		ctx := dupCtx()
		r, _ := prefixes().Get(ctx, d.Store(), id)
		page, err := prefixes().Load(ctx, d.Store(), []*resource.Row{r}, resource.View{Base: "http://x"})
		if err != nil {
			t.Fatal(err)
		}
		var obj map[string]any
		if err := json.Unmarshal(page.JSON(r), &obj); err != nil {
			t.Fatal(err)
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		want := []string{"_depth", "children", "comments", "created", "custom_fields", "description", "display",
			"display_url", "family", "id", "is_pool", "last_updated", "mark_utilized", "owner", "prefix", "role",
			"scope", "scope_id", "scope_type", "status", "tags", "tenant", "url", "vlan", "vrf"}
		if !slices.Equal(keys, want) {
			t.Errorf("keys %v\nwant %v", keys, want)
		}
		if !reflect.DeepEqual(obj["family"], map[string]any{"value": 4.0, "label": "IPv4"}) || obj["display"] != "198.51.100.0/24" ||
			obj["vrf"].(map[string]any)["id"] != 7.0 || obj["_depth"] != 0.0 || obj["children"] != 0.0 {
			t.Errorf("representation: %s", page.JSON(r))
		}
		// family is read-only: ignored on write.
		id = mustCreate(t, d, map[string]any{"prefix": "198.18.0.0/15", "family": 6})
		r, _ = prefixes().Get(ctx, d.Store(), id)
		if prefixes().Value(r, "family") != 4 {
			t.Errorf("family written by the client")
		}
		// scope: allowed types are validated against registered models.
		_, err = createPrefix(t, d, map[string]any{"prefix": "198.19.0.0/16", "scope_type": "dcim.location", "scope_id": 1})
		var ve *resource.ValidationError
		if !errors.As(err, &ve) || !reflect.DeepEqual(ve.Fields["scope_id"], []string{"Related object not found using the provided value: 1."}) {
			t.Errorf("scope_type dcim.location without a location: %v", describeErr(err))
		}
		_, err = createPrefix(t, d, map[string]any{"prefix": "198.19.0.0/16", "scope_type": "tenancy.tenant", "scope_id": 1})
		if !errors.As(err, &ve) || ve.Fields["scope_type"] == nil {
			t.Errorf("scope_type tenancy.tenant accepted: %v", err)
		}
	})
}

// hierarchySet is nested prefixes with duplicates, in two families.
var hierarchySet = []string{
	"10.0.0.0/8", "10.0.0.0/8", "10.0.0.0/16", "10.0.0.0/24", "10.0.0.0/24", "10.0.0.128/25", "10.0.1.0/24",
	"10.1.0.0/16", "10.1.2.0/24", "10.1.2.0/30", "10.1.2.4/30", "10.1.2.4/32", "10.128.0.0/9", "10.255.255.0/24",
	"11.0.0.0/8", "9.255.255.0/24", "0.0.0.0/1", "128.0.0.0/1", "255.255.255.255/32", "0.0.0.0/32",
	"2001:db8::/32", "2001:db8::/48", "2001:db8:0:1::/64", "2001:db8::/64", "2001:db8::/64", "2001:db8::1/128",
	"2001:db8:ffff:ffff:ffff:ffff:ffff:ffff/128", "::/1", "::ffff:10.0.0.0/104", "::ffff:10.0.0.0/120",
}

func TestPrefixHierarchy(t *testing.T) {
	eachDB(t, func(t *testing.T, d *db.DB) {
		rng := mrand.New(mrand.NewPCG(1, 2))
		type item struct {
			prefix string
			vrf    any
		}
		var items []item
		for _, p := range hierarchySet {
			items = append(items, item{p, nil}, item{p, 1})
		}
		for _, p := range hierarchySet[:10] {
			items = append(items, item{p, 2})
		}
		rng.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
		ids := map[int]item{}
		for i, it := range items {
			id := mustCreate(t, d, map[string]any{"prefix": it.prefix, "vrf": it.vrf})
			ids[id] = it
			if i%10 == 0 {
				checkHierarchy(t, d, fmt.Sprintf("after %d creates", i+1))
			}
		}
		checkHierarchy(t, d, "after creates")
		all := listPrefixes(t, d, nil)
		byPrefix := func(p string, vrf int) []int {
			var out []int
			for _, s := range all {
				if s.Prefix == p && s.VRF == vrf {
					out = append(out, s.ID)
				}
			}
			return out
		}
		// Spot checks against hand-computed values.
		want := map[string][2]int{ // global: depth, children
			"10.0.0.0/8":    {1, 12}, // in 0.0.0.0/1; the duplicate /8 is no child
			"10.0.0.0/24":   {3, 1},  // the duplicate /24 counts once for the /25
			"10.1.2.4/32":   {5, 0},
			"10.0.0.128/25": {4, 0},
			"2001:db8::/64": {3, 1},
		}
		for p, dc := range want {
			for _, s := range all {
				if s.Prefix == p && s.VRF == 0 && (s.Depth != dc[0] || s.Children != dc[1]) {
					t.Errorf("%s: _depth %d children %d, want %d %d", p, s.Depth, s.Children, dc[0], dc[1])
				}
			}
		}

		// Move a container into another VRF and back out.
		id := byPrefix("10.0.0.0/16", 0)[0]
		patchPrefix(t, d, id, map[string]any{"vrf": 2})
		checkHierarchy(t, d, "move 10.0.0.0/16 to vrf 2")
		patchPrefix(t, d, id, map[string]any{"vrf": 1})
		checkHierarchy(t, d, "move 10.0.0.0/16 to vrf 1")
		patchPrefix(t, d, id, map[string]any{"vrf": nil})
		checkHierarchy(t, d, "move 10.0.0.0/16 to global")
		// Change prefixes: grow, shrink, jump families, and a no-op.
		patchPrefix(t, d, id, map[string]any{"prefix": "10.0.0.0/12"})
		checkHierarchy(t, d, "10.0.0.0/16 -> /12")
		patchPrefix(t, d, id, map[string]any{"prefix": "10.1.2.0/29"})
		checkHierarchy(t, d, "-> 10.1.2.0/29")
		patchPrefix(t, d, id, map[string]any{"prefix": "2001:db8::/56", "vrf": 1})
		checkHierarchy(t, d, "-> 2001:db8::/56 in vrf 1")
		patchPrefix(t, d, id, map[string]any{"prefix": "2001:db8::/56", "description": "same place"})
		checkHierarchy(t, d, "no-op")
		// One of two duplicates moves away, then the other.
		dups := byPrefix("10.0.0.0/8", 0)
		patchPrefix(t, d, dups[0], map[string]any{"vrf": 2})
		checkHierarchy(t, d, "first duplicate /8 to vrf 2")
		patchPrefix(t, d, dups[1], map[string]any{"vrf": 2})
		checkHierarchy(t, d, "second duplicate /8 to vrf 2")
		// Deletes: a duplicate, a container, a leaf, then many at once.
		deletePrefixes(t, d, byPrefix("2001:db8::/64", 0)[0])
		checkHierarchy(t, d, "delete a duplicate")
		deletePrefixes(t, d, byPrefix("10.1.0.0/16", 1)...)
		checkHierarchy(t, d, "delete a container")
		deletePrefixes(t, d, byPrefix("10.1.2.4/32", 0)...)
		checkHierarchy(t, d, "delete a leaf")
		var some []int
		for id := range ids {
			if rng.IntN(3) == 0 {
				some = append(some, id)
			}
		}
		deletePrefixes(t, d, some...)
		checkHierarchy(t, d, "delete a third")

		// Many-row ent mutations rebuild the VRFs involved.
		ctx := dupCtx()
		err := d.InTx(ctx, func(ctx context.Context, etx *ent.Tx) error {
			_, err := etx.Prefix.Update().Where(prefix.VrfKey(1)).SetVrfID(3).Save(ctx)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		checkHierarchy(t, d, "many-row update vrf 1 -> 3")
		err = d.InTx(ctx, func(ctx context.Context, etx *ent.Tx) error {
			_, err := etx.Prefix.Delete().Where(prefix.FamilyEQ(6)).Exec(ctx)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		checkHierarchy(t, d, "many-row delete of IPv6")
		// RebuildPrefixCaches agrees with the incremental maintenance.
		before := listPrefixes(t, d, nil)
		err = d.InTx(ctx, func(ctx context.Context, etx *ent.Tx) error {
			if _, err := etx.ExecContext(ctx, `UPDATE ipam_prefix SET "_depth" = 99, "_children" = 99`); err != nil {
				return err
			}
			return ipam.RebuildPrefixCaches(ctx, etx, d.Dialect, []int{0, 1, 2, 3})
		})
		if err != nil {
			t.Fatal(err)
		}
		if after := listPrefixes(t, d, nil); !reflect.DeepEqual(before, after) {
			t.Errorf("rebuild differs:\n%v\n%v", before, after)
		}
	})
}

func TestPrefixRollback(t *testing.T) {
	eachDB(t, func(t *testing.T, d *db.DB) {
		mustCreate(t, d, map[string]any{"prefix": "10.0.0.0/8"})
		ctx := dupCtx()
		err := d.InTx(ctx, func(ctx context.Context, etx *ent.Tx) error {
			if _, err := prefixes().Create(ctx, tx(d, etx), input(t, map[string]any{"prefix": "10.1.0.0/16"})); err != nil {
				return err
			}
			return errors.New("abort")
		})
		if err == nil {
			t.Fatal("no error")
		}
		if got := listPrefixes(t, d, nil); len(got) != 1 || got[0].Children != 0 {
			t.Errorf("after rollback: %+v", got)
		}
	})
}

func prefixList(s []stored) []string {
	out := make([]string, len(s))
	for i, p := range s {
		out[i] = p.Prefix
		if p.VRF != 0 {
			out[i] = fmt.Sprintf("%s@%d", p.Prefix, p.VRF)
		}
	}
	return out
}

func TestPrefixFiltersAndOrdering(t *testing.T) {
	eachDB(t, func(t *testing.T, d *db.DB) {
		for _, p := range []struct {
			prefix string
			vrf    any
		}{
			{"10.0.0.0/8", nil}, {"9.0.0.0/8", nil}, {"10.0.0.0/16", nil}, {"10.1.0.0/16", 1}, {"10.2.0.0/16", nil},
			{"10.0.0.0/24", nil}, {"2001:db8::/32", nil}, {"2001:db8::/48", 2}, {"100.64.0.0/10", nil},
			{"10.0.0.0/8", 1}, {"192.168.0.0/16", nil}, {"10.0.0.1/32", nil}, {"::ffff:10.0.0.0/104", nil},
		} {
			mustCreate(t, d, map[string]any{"prefix": p.prefix, "vrf": p.vrf})
		}
		cases := []struct {
			q    string
			want []string
		}{
			// Default ordering: global first, then VRF id; IPv4 before IPv6;
			// numeric network order (9 < 10 < 100); shorter first.
			{"", []string{"9.0.0.0/8", "10.0.0.0/8", "10.0.0.0/16", "10.0.0.0/24", "10.0.0.1/32", "10.2.0.0/16",
				"100.64.0.0/10", "192.168.0.0/16", "::ffff:10.0.0.0/104", "2001:db8::/32",
				"10.0.0.0/8@1", "10.1.0.0/16@1", "2001:db8::/48@2"}},
			{"within=10.0.0.0/8", []string{"10.0.0.0/16", "10.0.0.0/24", "10.0.0.1/32", "10.2.0.0/16", "10.1.0.0/16@1"}},
			{"within=10.0.0.0/16", []string{"10.0.0.0/24", "10.0.0.1/32"}},
			{"within=10.0.5.5/16", []string{"10.0.0.0/24", "10.0.0.1/32"}},
			{"within_include=10.0.0.0/16", []string{"10.0.0.0/16", "10.0.0.0/24", "10.0.0.1/32"}},
			{"within=2001:db8::/32", []string{"2001:db8::/48@2"}},
			{"within=nonsense", []string{}},
			{"contains=10.0.0.1", []string{"10.0.0.0/8", "10.0.0.0/16", "10.0.0.0/24", "10.0.0.0/8@1"}},
			{"contains=10.0.0.0/16", []string{"10.0.0.0/8", "10.0.0.0/16", "10.0.0.0/8@1"}},
			{"contains=10.1.2.0/24", []string{"10.0.0.0/8", "10.0.0.0/8@1", "10.1.0.0/16@1"}},
			{"contains=2001:db8::1", []string{"2001:db8::/32", "2001:db8::/48@2"}},
			{"contains=bogus", []string{}},
			{"mask_length=16", []string{"10.0.0.0/16", "10.2.0.0/16", "192.168.0.0/16", "10.1.0.0/16@1"}},
			{"mask_length=8&mask_length=10", []string{"9.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "10.0.0.0/8@1"}},
			{"mask_length__gte=32&family=4", []string{"10.0.0.1/32"}},
			{"mask_length__lte=8", []string{"9.0.0.0/8", "10.0.0.0/8", "10.0.0.0/8@1"}},
			{"family=6", []string{"::ffff:10.0.0.0/104", "2001:db8::/32", "2001:db8::/48@2"}},
			{"prefix=10.0.0.0/8&prefix=2001:db8::/48&prefix=junk", []string{"10.0.0.0/8", "10.0.0.0/8@1", "2001:db8::/48@2"}},
			{"prefix=junk", []string{}},
			{"vrf_id=null&mask_length=8", []string{"9.0.0.0/8", "10.0.0.0/8"}},
			{"vrf_id=1", []string{"10.0.0.0/8@1", "10.1.0.0/16@1"}},
			{"vrf_id=1&vrf_id=2", []string{"10.0.0.0/8@1", "10.1.0.0/16@1", "2001:db8::/48@2"}},
			{"vrf_id__n=null", []string{"10.0.0.0/8@1", "10.1.0.0/16@1", "2001:db8::/48@2"}},
			{"present_in_vrf_id=2", []string{"2001:db8::/48@2"}},
			{"depth=2", []string{"10.0.0.0/24"}},
			{"depth__gte=1&vrf_id=1", []string{"10.1.0.0/16@1"}},
			{"children__gte=2", []string{"10.0.0.0/8", "10.0.0.0/16"}},
			{"ordering=-mask_length", nil}, // checked below: ordering is not a filter
			{"q=192.168", []string{"192.168.0.0/16"}},
		}
		for _, c := range cases {
			q, _ := url.ParseQuery(c.q)
			got := prefixList(listPrefixes(t, d, q))
			if c.want != nil && !slices.Equal(got, c.want) {
				t.Errorf("%s:\n got %v\nwant %v", c.q, got, c.want)
			}
		}
		// Bad values are 400s.
		for q, key := range map[string]string{"mask_length=x": "mask_length", "family=four": "family",
			"present_in_vrf_id=x": "present_in_vrf_id", "present_in_vrf=65000:1": "present_in_vrf",
			"vrf_id=x": "vrf_id", "vrf=1": "vrf", "within__n=10.0.0.0/8": "within__n"} {
			v, _ := url.ParseQuery(q)
			_, err := prefixes().Filters().Apply(dupCtx(), v, filters.Options{Unknown: filters.Strict,
				Reserved: filters.Reserved, Dialect: d.Dialect, Exec: d.Read})
			var fe filters.Errors
			if !errors.As(err, &fe) || fe[key] == nil {
				t.Errorf("%s: got %v, want an error for %s", q, err, key)
			}
		}
		if d.Dialect != dialect.SQLite && d.Dialect != dialect.Postgres {
			t.Fatal(d.Dialect)
		}
	})
}

// BenchmarkPrefixBulkCreate creates 1000 nested prefixes (a /8, /16s, /24s
// and /30s) in one transaction through the descriptor, on SQLite (and on
// PostgreSQL when INVENTORY_TEST_POSTGRES is set).
func BenchmarkPrefixBulkCreate(b *testing.B) {
	var set []string
	set = append(set, "10.0.0.0/8")
	for i := 0; len(set) < 1000; i++ {
		set = append(set, fmt.Sprintf("10.%d.0.0/16", i))
		for j := 0; j < 30 && len(set) < 1000; j++ {
			set = append(set, fmt.Sprintf("10.%d.%d.0/24", i, j))
			for k := 0; k < 2 && len(set) < 1000; k++ {
				set = append(set, fmt.Sprintf("10.%d.%d.%d/30", i, j, k*4))
			}
		}
	}
	mrand.New(mrand.NewPCG(3, 4)).Shuffle(len(set), func(i, j int) { set[i], set[j] = set[j], set[i] })
	inputs := make([]resource.Input, len(set))
	for i, p := range set {
		inputs[i] = input(b, map[string]any{"prefix": p, "status": "active", "description": "bench"})
	}
	dbs := testDBs(b)
	for _, name := range []string{"sqlite", "postgres"} {
		d := dbs[name]
		if d == nil {
			continue
		}
		b.Run(name, func(b *testing.B) {
			ctx := dupCtx()
			for b.Loop() {
				err := d.InTx(ctx, func(ctx context.Context, etx *ent.Tx) error {
					rtx := tx(d, etx)
					for _, in := range inputs {
						if _, err := prefixes().Create(ctx, rtx, in); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					b.Fatal(describeErr(err))
				}
				b.StopTimer()
				if _, err := d.Write.ExecContext(ctx, "DELETE FROM ipam_prefix"); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
		})
	}
}
