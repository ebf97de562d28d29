package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
)

// dcimScenarios are issue 37's workloads on the --scale data set
// (bench_dcim.go), each from a NetBox or Nautobot report. Reads run at 1
// connection and at --clients connections; writes with one client, at
// most --bulk-requests requests. The available-ips page, the 1000-cable
// bulk create and the allocation races are the existing scenarios
// (bench_alloc.go, bench_cables.go) on this data set.
func (l *loader) dcimScenarios(s *benchSeed) []*benchScenario {
	ds, C := s.dcim, l.o.clients
	get := func(path string) func(*rand.Rand, int64) benchReq {
		return func(*rand.Rand, int64) benchReq { return benchReq{method: "GET", path: path} }
	}
	var out []*benchScenario
	both := func(name, path string) {
		out = append(out,
			&benchScenario{name: name + ", 1 conn", clients: 1, warm: true, next: get(path)},
			&benchScenario{name: fmt.Sprintf("%s, %d conns", name, C), clients: C, warm: true, next: get(path)})
	}
	// nb#12546: a page of interfaces with link peers and connected
	// endpoints; nb#18409: a device's 500 interfaces.
	both("interfaces?limit=1000", "/api/dcim/interfaces/?limit=1000")
	both("interfaces?device_id=<500 ports>", fmt.Sprintf("/api/dcim/interfaces/?device_id=%d&limit=1000", ds.core))
	both("interfaces?limit=1000&brief=1", "/api/dcim/interfaces/?limit=1000&brief=1")
	// nb#4559, nb#20327: config contexts rendered (100 defined).
	both("devices?limit=1000", "/api/dcim/devices/?limit=1000")
	both("devices?limit=1000&exclude=config_context", "/api/dcim/devices/?limit=1000&exclude=config_context")
	both("ip-addresses?limit=1000", "/api/ipam/ip-addresses/?limit=1000")
	both("prefixes?limit=1000", "/api/ipam/prefixes/?limit=1000")
	both("cables?limit=1000", "/api/dcim/cables/?limit=1000")
	both("trace across 10 patch panels", fmt.Sprintf("/api/dcim/interfaces/%d/trace/", ds.traceFrom))
	both("devices?q=", "/api/dcim/devices/?limit=50&q=access-07")
	both("interfaces?q=", "/api/dcim/interfaces/?limit=50&q=xe-0/1/3")
	// nb#5689: the change log at --changes records.
	both("object-changes?limit=50", "/api/core/object-changes/?limit=50")
	// A page deep in it (pynetbox's all() and the change-log exports walk
	// every page by offset): 90% of the way down.
	deep := ds.changes / 10 * 9
	both("object-changes?limit=50, 90% deep", fmt.Sprintf("/api/core/object-changes/?limit=50&offset=%d", deep))
	// The same page right after a write (which drops every cached read):
	// the list's ordered ids are read whole first (ent/resource/offsetids.go).
	out = append(out, &benchScenario{name: "object-changes?limit=50, 90% deep, after a write", clients: 1, maxReqs: 20,
		prepare: func(n int64) benchReq {
			return benchReq{method: "PATCH", path: fmt.Sprintf("/api/dcim/sites/%d/", ds.site), body: fmt.Appendf(nil, `{"description":"rev %d"}`, n)}
		},
		next: get(fmt.Sprintf("/api/core/object-changes/?limit=50&offset=%d", deep))})
	both("object-changes of an object", fmt.Sprintf("/api/core/object-changes/?limit=50&changed_object_type=dcim.interface&changed_object_id=%d", ds.changed))
	// nb#14026 (the GET) and the allocation races.
	out = append(out, l.allocScenarios(s.alloc)...)
	var allocSeq atomic.Int64
	out = append(out, &benchScenario{name: "POST available-ips, 100 addresses", clients: 1, maxReqs: l.o.bulkMax,
		next: func(*rand.Rand, int64) benchReq {
			k := allocSeq.Add(1)
			var b bytes.Buffer
			b.WriteByte('[')
			for j := range 100 {
				if j > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, `{"description":"alloc %d-%d","status":"active"}`, k, j)
			}
			b.WriteByte(']')
			return benchReq{method: "POST", path: fmt.Sprintf("/api/ipam/prefixes/%d/available-ips/", ds.allocIPs), body: b.Bytes()}
		}})
	out = append(out, l.cableScenarios(s.cables)...)
	// nb#19321: 100 devices of the 52-interface type in one request.
	var devSeq atomic.Int64
	out = append(out, &benchScenario{name: fmt.Sprintf("create 100 devices (%d interfaces)", accessPorts), clients: 1, maxReqs: l.o.bulkMax,
		next: func(*rand.Rand, int64) benchReq {
			k := devSeq.Add(1)
			var b bytes.Buffer
			b.WriteByte('[')
			for j := range 100 {
				if j > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, `{"name":"new-%d-%d","device_type":%d,"role":%d,"site":%d,"status":"active"}`,
					k, j, ds.accessType, ds.roleEdge, ds.site)
			}
			b.WriteByte(']')
			return benchReq{method: "POST", path: "/api/dcim/devices/", body: b.Bytes()}
		}})
	if len(ds.spares) > 1 {
		// The first spare goes to the unmeasured check request.
		var delSeq atomic.Int64
		out = append(out, &benchScenario{name: "delete a device (536 components, 48 cables)", clients: 1, maxReqs: len(ds.spares) - 1,
			next: func(*rand.Rand, int64) benchReq {
				k := int(delSeq.Add(1) - 1)
				return benchReq{method: "DELETE", path: fmt.Sprintf("/api/dcim/devices/%d/", ds.spares[min(k, len(ds.spares)-1)])}
			}})
	}
	// Ansible's dynamic inventory run by 100 hosts at once: each client
	// pages through every interface from the first page to the last and
	// starts over (offset pages of 1000, as pynetbox asks for them).
	pages := max(1, (ds.interfaces+999)/1000)
	// The second time each request builds its own page, as without page
	// sharing (server/coalesce.go).
	paging := func(_ *rand.Rand, n int64) benchReq {
		return benchReq{method: "GET", path: fmt.Sprintf("/api/dcim/interfaces/?limit=1000&offset=%d", int((n-1)%int64(pages))*1000)}
	}
	out = append(out,
		&benchScenario{name: fmt.Sprintf("100 clients paging interfaces (%d pages)", pages), clients: 100, warm: true, ownSequence: true, sharedPages: true, next: paging},
		&benchScenario{name: fmt.Sprintf("100 clients paging interfaces, pages not shared (%d pages)", pages), clients: 100, warm: true, ownSequence: true, next: paging})
	// The generator's ceiling: a request the server answers from its
	// caches without a statement.
	out = append(out, &benchScenario{name: "generator ceiling: GET /api/status/", clients: C, warm: true, ceiling: true, next: get("/api/status/")})
	return out
}
