package main

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/inventory/inventory/ent/resource"
)

// The IP address side of the benchmark: --ip-addresses addresses spread
// evenly over the sixteen /16s 10.0.0.0/16 ... 10.15.0.0/16 (6,250 each
// for 100k), each with tags, a custom field value and a DNS name, seeded
// through the write path like the rest. The scenarios list 1000 complete
// addresses, and the first page of the addresses of one /16 (parent=:
// an index range over host, counted).

// ipBenchParent is the /16 whose addresses the parent= scenario lists.
const ipBenchParent = "10.3.0.0/16"

// benchIPAddresses seeds n addresses (none when the build has no IP
// address model).
func benchIPAddresses(create benchCreate, n int,
	tags func(int) []int, cf func(int) map[string]any) ([]int, error) {
	if n <= 0 || resource.ByContentType("ipam.ipaddress") == nil {
		return nil, nil
	}
	return create("ipam.ipaddress", n, func(i int) resource.Input {
		j := i/16 + 1 // host number within the /16, from .0.1 upwards
		return jsonInput("address", fmt.Sprintf("10.%d.%d.%d/24", i%16, j>>8, j&255), "status", "active",
			"dns_name", fmt.Sprintf("host-%d.bench.example", i), "description", fmt.Sprintf("benchmark address %d", i),
			"tags", tags(i), "custom_fields", cf(i))
	})
}

// ipScenarios are the IP address measurements (none without addresses).
func (l *loader) ipScenarios(s *benchSeed) []*benchScenario {
	if len(s.ipAddresses) == 0 {
		return nil
	}
	get := func(path string) func(*rand.Rand, int64) benchReq {
		return func(*rand.Rand, int64) benchReq { return benchReq{method: "GET", path: path} }
	}
	return []*benchScenario{
		// One client, as "list 1000 complete, 1 client" of the prefixes,
		// with the same target.
		{name: "list 1000 IP addresses complete", clients: 1, warm: true, next: get("/api/ipam/ip-addresses/?limit=1000"),
			target: &benchTarget{text: "p50 <= 40ms", check: func(r *benchResult) bool { return r.pct(0.5) <= 40*time.Millisecond }}},
		{name: fmt.Sprintf("IPs ?parent=/16 (%dk addresses)", len(s.ipAddresses)/1000), clients: l.o.clients, warm: true,
			next: get("/api/ipam/ip-addresses/?limit=50&parent=" + ipBenchParent)},
	}
}
