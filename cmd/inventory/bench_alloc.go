package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"sync"

	"github.com/inventory/inventory/ent/resource"
)

// The allocation side of the benchmark (ent/logic/ipam/available*.go):
// the first page of available IPs of a /16 whose first --alloc-addresses
// addresses are taken (the walk must step over all of them: the worst
// case), and races of 100 clients each allocating once from one parent,
// reporting duplicates (there must be none).

// allocSeed are the parents of the allocation scenarios (0: not seeded).
type allocSeed struct {
	prefixRace int // a /16 container for /30 allocations
	ipRace     int // a /22 for address allocations
	dense      int // a /16 holding the seeded addresses
}

// seedAlloc makes the parents, and --alloc-addresses IP addresses from the
// start of the dense /16 when the build serves IP addresses.
func seedAlloc(create benchCreate, o *benchOptions) (allocSeed, error) {
	var a allocSeed
	if resource.ByContentType("ipam.prefix") == nil {
		return a, nil
	}
	ids, err := create("ipam.prefix", 3, func(i int) resource.Input {
		// 100.64.0.0/10: outside the other seeded address space (the
		// VMs' addresses fill 172.16.0.0/12 from its start).
		return jsonInput("prefix", []string{"100.66.0.0/16", "100.65.0.0/22", "100.64.0.0/16"}[i],
			"status", []string{"container", "active", "active"}[i], "description", "allocation bench")
	})
	if err != nil {
		return a, err
	}
	a.prefixRace = ids[0]
	if resource.ByContentType("ipam.ipaddress") == nil {
		return a, nil
	}
	a.ipRace, a.dense = ids[1], ids[2]
	n := min(o.allocAddresses, 65534)
	_, err = create("ipam.ipaddress", n, func(i int) resource.Input {
		h := i + 1 // 100.64.0.1 upwards
		addr := netip.AddrFrom4([4]byte{100, 64, byte(h >> 8), byte(h)})
		return jsonInput("address", addr.String()+"/16", "status", "active")
	})
	return a, err
}

// allocScenarios are the allocation measurements.
func (l *loader) allocScenarios(a allocSeed) []*benchScenario {
	var out []*benchScenario
	if a.dense != 0 {
		out = append(out, &benchScenario{name: fmt.Sprintf("available-ips 1st page, %d used", l.o.allocAddresses),
			clients: l.o.clients, warm: true, next: func(*rand.Rand, int64) benchReq {
				return benchReq{method: "GET", path: fmt.Sprintf("/api/ipam/prefixes/%d/available-ips/?limit=50", a.dense)}
			}})
	}
	race := func(name, path, body, field string) *benchScenario {
		d := &dupCount{seen: map[string]bool{}, field: field}
		return &benchScenario{name: name, clients: 100, maxReqs: 100, seen: d.add,
			target: &benchTarget{text: "0 duplicates", check: func(*benchResult) bool { return d.dups == 0 && d.n > 0 }, note: d.note},
			next:   func(*rand.Rand, int64) benchReq { return benchReq{method: "POST", path: path, body: []byte(body)} }}
	}
	if a.prefixRace != 0 {
		out = append(out, race("100 concurrent available-prefixes", fmt.Sprintf("/api/ipam/prefixes/%d/available-prefixes/", a.prefixRace),
			`{"prefix_length":30,"description":"race"}`, "prefix"))
	}
	if a.ipRace != 0 {
		out = append(out, race("100 concurrent available-ips", fmt.Sprintf("/api/ipam/prefixes/%d/available-ips/", a.ipRace),
			`{"description":"race"}`, "address"))
	}
	return out
}

// dupCount counts the distinct values of a field among the answers.
type dupCount struct {
	mu      sync.Mutex
	field   string
	seen    map[string]bool
	n, dups int
}

func (d *dupCount) add(body []byte) {
	var obj map[string]any
	if json.Unmarshal(body, &obj) != nil {
		return
	}
	v := fmt.Sprint(obj[d.field])
	d.mu.Lock()
	defer d.mu.Unlock()
	d.n++
	if d.seen[v] {
		d.dups++
	}
	d.seen[v] = true
}

func (d *dupCount) note() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return fmt.Sprintf("(%d allocated, %d distinct, %d duplicates)", d.n, len(d.seen), d.dups)
}
