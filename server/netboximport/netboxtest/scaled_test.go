package netboxtest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/netip"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/netboximport/netbox"
	"github.com/inventory/inventory/server/netboximport/netboxtest"
)

const demo = "../../../testdata/netbox-demo"

var shared = map[string]bool{"core/object-types": true, "extras/custom-fields": true, "extras/custom-field-choice-sets": true}

// The demo set is whole: every reference resolves; without a site it is
// half-finished, and every reference to that site is named.
func TestReferences(t *testing.T) {
	ctx := context.Background()
	dir := netboxtest.Dir{Path: demo}
	d, err := netboxtest.References(ctx, dir)
	if err != nil || len(d) != 0 {
		t.Fatalf("%v, %v", d, err)
	}
	d, err = netboxtest.References(ctx, netboxtest.Without(dir, "dcim/sites", 2))
	if err != nil || len(d) == 0 {
		t.Fatalf("%v, %v", d, err)
	}
	for _, x := range d {
		if x.Target != "dcim/sites" || x.TargetID != 2 {
			t.Errorf("%s", x)
		}
	}
	if s := d[0].String(); !strings.Contains(s, "refers to dcim/sites 2, not in the source") {
		t.Errorf("%s", s)
	}
}

type stats struct {
	ids      []int
	distinct map[string]map[string]bool // key → values
}

func read(t *testing.T, src netboxtest.Source, ep string) stats {
	t.Helper()
	st := stats{distinct: map[string]map[string]bool{}}
	add := func(k, v string) {
		if st.distinct[k] == nil {
			st.distinct[k] = map[string]bool{}
		}
		st.distinct[k][v] = true
	}
	err := src.Pages(context.Background(), ep, func(objs []json.RawMessage) error {
		for _, o := range objs {
			var m map[string]any
			if err := json.Unmarshal(o, &m); err != nil {
				return err
			}
			id, _ := netboxtest.ObjectID(o)
			st.ids = append(st.ids, id)
			parent := ""
			for _, p := range []string{"device", "virtual_machine", "device_type", "module_type"} {
				if n, ok := m[p].(map[string]any); ok {
					parent = fmt.Sprint(p, n["id"])
				}
			}
			vrf := ""
			if n, ok := m["vrf"].(map[string]any); ok {
				vrf = fmt.Sprint(n["id"])
			}
			if d, ok := m["display"].(string); ok {
				add("display", d)
			}
			for _, k := range []string{"name", "slug", "username", "asset_tag", "asn", "rd", "address", "prefix", "start_address"} {
				if v, ok := m[k]; ok && v != nil && (strings.HasPrefix(ep, "ipam/") || k != "address") {
					add(k, fmt.Sprint(parent, "|", vrf, "|", v))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", ep, err)
	}
	return st
}

// keepsDisplay: endpoints whose display is made of values unique per
// parent (a component's name, a circuit's cid, a type's model), which
// copies keep.
func keepsDisplay(ep string) bool {
	switch ep {
	case "circuits/circuits", "circuits/circuit-terminations", "dcim/device-types", "dcim/module-types",
		"dcim/console-ports", "dcim/device-bays", "dcim/front-ports", "dcim/interfaces", "dcim/module-bays",
		"dcim/power-outlets", "dcim/power-ports", "dcim/rear-ports", "virtualization/interfaces":
		return true
	}
	return strings.HasSuffix(ep, "-templates")
}

// Scaled by 3: every count is 3 times base's, ids ascend, every unique
// value stays unique (3 times as many distinct values as base has, and
// displays too where made of them: "#<id>", "<object> tagged with <tag>",
// a module's "(<id>)", an IP range's start), the
// IP blocks of the copies neither overlap nor leave their aggregates, and
// every reference resolves within the scaled set. Through the fake NetBox
// it reads the same.
func TestScaled(t *testing.T) {
	ctx := context.Background()
	dir := netboxtest.Dir{Path: demo}
	const f = 3
	sc := netboxtest.Scaled(dir, f)
	// Made once, checked in memory.
	mem, err := netboxtest.Load(ctx, sc)
	if err != nil {
		t.Fatal(err)
	}
	eps, _ := dir.Endpoints(ctx)
	total := 0
	for _, ep := range eps {
		b, s := read(t, dir, ep), read(t, mem, ep)
		n, err := sc.Count(ctx, ep)
		want := f * len(b.ids)
		if shared[ep] {
			want = len(b.ids)
		}
		if err != nil || n != want || len(s.ids) != want {
			t.Errorf("%s: count %d, read %d, %v; want %d", ep, n, len(s.ids), err, want)
		}
		total += len(s.ids)
		if !slices.IsSorted(s.ids) || len(slices.Compact(slices.Clone(s.ids))) != len(s.ids) {
			t.Errorf("%s: ids not ascending and unique", ep)
		}
		if shared[ep] {
			continue
		}
		for k, vals := range b.distinct {
			if k == "display" && keepsDisplay(ep) {
				continue
			}
			if got := len(s.distinct[k]); got != f*len(vals) {
				t.Errorf("%s: %d distinct %s, want %d", ep, got, k, f*len(vals))
			}
		}
	}
	if total != 3*6307-2*157 {
		t.Errorf("%d objects", total)
	}
	d, err := netboxtest.References(ctx, mem)
	if err != nil || len(d) != 0 {
		t.Errorf("%d dangling references (%v), first %v", len(d), err, d[:min(len(d), 5)])
	}
	// The aggregates of the copies do not overlap; each copy of a prefix is
	// in the copy of its aggregate.
	prefixes := func(src netboxtest.Source, ep string) []netip.Prefix {
		objs, _ := netboxtest.ReadAll(ctx, src, ep)
		var ps []netip.Prefix
		for _, o := range objs {
			var m struct{ Prefix string }
			json.Unmarshal(o, &m)
			ps = append(ps, netip.MustParsePrefix(m.Prefix))
		}
		return ps
	}
	contained := func(src netboxtest.Source) (overlaps, inside int) {
		aggs, pfx := prefixes(src, "ipam/aggregates"), prefixes(src, "ipam/prefixes")
		for i, a := range aggs {
			for _, b := range aggs[i+1:] {
				if a.Overlaps(b) {
					overlaps++
				}
			}
			for _, p := range pfx {
				if a.Overlaps(p) {
					inside++
				}
			}
		}
		return
	}
	bo, bi := contained(dir)
	so, si := contained(mem)
	if bo != 0 || so != 0 || si != f*bi || bi == 0 {
		t.Errorf("aggregates overlap %d (base %d); prefixes in them %d (base %d)", so, bo, si, bi)
	}

	srv := netboxtest.NewServer(sc, "")
	defer srv.Close()
	c, err := netbox.New(srv.URL, "", netbox.Options{PageSize: 250})
	if err != nil {
		t.Fatal(err)
	}
	for _, ep := range []string{"dcim/interfaces", "dcim/cables", "dcim/devices", "ipam/ip-addresses", "extras/tagged-objects", "core/object-types"} {
		got, err := netboxtest.ReadAll(ctx, c, ep)
		want, _ := netboxtest.ReadAll(ctx, mem, ep)
		if err != nil || !reflect.DeepEqual(canon(got, ep), canon(want, ep)) {
			t.Errorf("%s over HTTP: %d objects, %v; want %d", ep, len(got), err, len(want))
		}
	}
}

func canon(objs []json.RawMessage, ep string) []any {
	var out []any
	for _, o := range objs {
		var m map[string]any
		json.Unmarshal(o, &m)
		delete(m, "config_context")
		out = append(out, m)
	}
	return out
}

// Scaled by 1 is base.
func TestScaledOne(t *testing.T) {
	ctx := context.Background()
	dir := netboxtest.Dir{Path: demo}
	for _, ep := range []string{"dcim/devices", "dcim/cables", "ipam/prefixes"} {
		a, _ := netboxtest.ReadAll(ctx, dir, ep)
		b, _ := netboxtest.ReadAll(ctx, netboxtest.Scaled(dir, 1), ep)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s differs", ep)
		}
	}
}

// A large factor is streamed: a page after any id is cut without making
// the copies before it, and the fake NetBox pages it by id__gt.
func TestScaledSeek(t *testing.T) {
	ctx := context.Background()
	const f = 100
	sc := netboxtest.Scaled(netboxtest.Dir{Path: demo}, f)
	n, err := sc.Count(ctx, "dcim/interfaces")
	if err != nil || n != 158600 {
		t.Fatalf("%d, %v", n, err)
	}
	srv := netboxtest.NewServer(sc, "")
	defer srv.Close()
	c, _ := netbox.New(srv.URL, "", netbox.Options{})
	// The last interface of base (id 1586·…) and its copies.
	last, _ := netboxtest.ReadAll(ctx, netboxtest.Dir{Path: demo}, "dcim/interfaces")
	lastID, _ := netboxtest.ObjectID(last[len(last)-1])
	after := (lastID-1)*f + 40 // copy 39 of the last object
	var ids []int
	err = sc.(netboxtest.Seeker).PagesAfter(ctx, "dcim/interfaces", after, func(objs []json.RawMessage) error {
		for _, o := range objs {
			id, _ := netboxtest.ObjectID(o)
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil || len(ids) != 60 || ids[0] != after+1 || ids[59] != lastID*f {
		t.Errorf("after %d: %d ids from %v, %v", after, len(ids), ids[:min(1, len(ids))], err)
	}
	if m, err := sc.(netboxtest.CountAfterer).CountAfter(ctx, "dcim/interfaces", after); err != nil || m != 60 {
		t.Errorf("count after: %d, %v", m, err)
	}
	var l struct {
		Count   int
		Results []json.RawMessage
	}
	resp, err := srv.Client().Get(srv.URL + fmt.Sprintf("/api/dcim/interfaces/?limit=10&ordering=id&id__gt=%d", after))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	json.NewDecoder(resp.Body).Decode(&l)
	if id, _ := netboxtest.ObjectID(l.Results[0]); l.Count != 60 || len(l.Results) != 10 || id != after+1 {
		t.Errorf("id__gt over HTTP: count %d, %d results from %d", l.Count, len(l.Results), id)
	}
	_ = c
}

// Any factor streams: a million copies of the demo set are counted and
// paged at once, nothing materialised; the copies past the room the
// address space has fail clearly when an address needs one.
func TestScaledHuge(t *testing.T) {
	ctx := context.Background()
	sc := netboxtest.Scaled(netboxtest.Dir{Path: demo}, 1_000_000)
	n, err := sc.Count(ctx, "dcim/interfaces")
	if err != nil || n != 1_586_000_000 {
		t.Fatalf("%d, %v", n, err)
	}
	stop := fmt.Errorf("stop")
	var first []json.RawMessage
	err = sc.Pages(ctx, "dcim/interfaces", func(objs []json.RawMessage) error { first = objs; return stop })
	last, _ := netboxtest.ObjectID(first[len(first)-1])
	if err != stop || len(first) != 1000 || last != 1000 {
		t.Errorf("first page: %d objects to id %d, %v", len(first), last, err)
	}
	err = sc.Pages(ctx, "ipam/ip-addresses", func(objs []json.RawMessage) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "the address space has room for") {
		t.Errorf("ip addresses: %v", err)
	}
}

// IPv6 and IPv4 blocks move alike: copy k of a prefix and of an address
// stays in copy k of its aggregate, and no copies overlap.
func TestScaledIPs(t *testing.T) {
	ctx := context.Background()
	mem := netboxtest.NewMemory(map[string]any{"netbox-version": "4.6.8"})
	put := func(ep string, objs ...string) {
		for _, o := range objs {
			mem.Put(ep, json.RawMessage(o))
		}
	}
	put("ipam/aggregates", `{"id":1,"prefix":"2001:db8::/32"}`, `{"id":2,"prefix":"10.0.0.0/8"}`, `{"id":3,"prefix":"192.168.0.0/16"}`)
	put("ipam/prefixes", `{"id":1,"prefix":"2001:db8:1::/48"}`, `{"id":2,"prefix":"10.1.0.0/16"}`, `{"id":3,"prefix":"192.168.4.0/22"}`)
	put("ipam/ip-addresses", `{"id":1,"address":"2001:db8:1::1/64"}`, `{"id":2,"address":"10.1.2.3/16"}`, `{"id":3,"address":"192.168.5.7/22"}`)
	const f = 4
	sc := netboxtest.Scaled(mem, f)
	read := func(ep, key string) map[int]netip.Prefix {
		objs, err := netboxtest.ReadAll(ctx, sc, ep)
		if err != nil || len(objs) != 3*f {
			t.Fatalf("%s: %d, %v", ep, len(objs), err)
		}
		out := map[int]netip.Prefix{}
		for _, o := range objs {
			var m map[string]any
			json.Unmarshal(o, &m)
			id, _ := netboxtest.ObjectID(o)
			out[id] = netip.MustParsePrefix(m[key].(string))
		}
		return out
	}
	aggs, pfx, ips := read("ipam/aggregates", "prefix"), read("ipam/prefixes", "prefix"), read("ipam/ip-addresses", "address")
	for id, a := range aggs {
		for id2, b := range aggs {
			if id != id2 && a.Overlaps(b) {
				t.Errorf("aggregates %s and %s overlap", a, b)
			}
		}
		if !pfx[id].Masked().Overlaps(a) || a.Bits() > pfx[id].Bits() || !pfx[id].Contains(ips[id].Addr()) || ips[id].Bits() != []int{64, 16, 22}[(id-1)/f] {
			t.Errorf("copy %d: aggregate %s, prefix %s, address %s", id, a, pfx[id], ips[id])
		}
	}
	if aggs[1].String() != "2001:db8::/32" || ips[f+1].String() != "10.1.2.3/16" {
		t.Errorf("copy 0 moved: %s, %s", aggs[1], ips[f+1])
	}
}
