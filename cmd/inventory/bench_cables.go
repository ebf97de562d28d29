package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/inventory/inventory/ent/resource"
)

// The cabling side of the benchmark (ent/logic/dcim/cable*.go): a bulk
// POST of 1000 cables between 2000 fresh interfaces (each cable's
// terminations, the cabled interfaces' columns and both ends' traced
// paths, with their change records, in one transaction), and a page of
// 1000 interfaces each showing its link peer and connected endpoint.

// cableSeed are the interfaces of the cable scenarios (empty: not seeded).
type cableSeed struct {
	// listDevice's 1000 interfaces are cabled to another device's.
	listDevice int
	// pools hold, per bulk request (the unmeasured check included), 1000
	// interfaces of one device and 1000 of another, not cabled yet.
	pools [][2][]int
}

// benchCablesPerRequest is the number of cables of a bulk request.
const benchCablesPerRequest = 1000

// seedCables makes a device type without templates, pairs of devices
// with 1000 interfaces each, and 1000 cables between the first pair.
func seedCables(create benchCreate, s *benchSeed, requests int) (cableSeed, error) {
	var c cableSeed
	if requests < 0 || len(s.sites) == 0 || resource.ByContentType("dcim.cable") == nil {
		return c, nil
	}
	man, err := create.one("dcim.manufacturer", "name", "Bench Cabling", "slug", "bench-cabling")
	if err != nil {
		return c, err
	}
	dt, err := create.one("dcim.devicetype", "manufacturer", man, "model", "BC-1000", "slug", "bc-1000")
	if err != nil {
		return c, err
	}
	role, err := create.one("dcim.devicerole", "name", "Bench cabling", "slug", "bench-cabling")
	if err != nil {
		return c, err
	}
	pairs := requests + 2 // the listed pair, the check and the measured requests
	devices, err := create("dcim.device", 2*pairs, func(i int) resource.Input {
		return jsonInput("name", fmt.Sprintf("cab-%03d", i), "device_type", dt, "role", role, "site", s.sites[0], "status", "active")
	})
	if err != nil {
		return c, err
	}
	ifaces, err := create("dcim.interface", len(devices)*benchCablesPerRequest, func(i int) resource.Input {
		return jsonInput("device", devices[i/benchCablesPerRequest], "name", fmt.Sprintf("xe-0/0/%d", i%benchCablesPerRequest),
			"type", "10gbase-x-sfpp")
	})
	if err != nil {
		return c, err
	}
	for p := 0; p < pairs; p++ {
		lo := 2 * p * benchCablesPerRequest
		c.pools = append(c.pools, [2][]int{ifaces[lo : lo+benchCablesPerRequest], ifaces[lo+benchCablesPerRequest : lo+2*benchCablesPerRequest]})
	}
	first := c.pools[0]
	c.pools = c.pools[1:]
	if _, err := create("dcim.cable", benchCablesPerRequest, func(i int) resource.Input {
		return jsonInput("a_terminations", []any{map[string]any{"object_type": "dcim.interface", "object_id": first[0][i]}},
			"b_terminations", []any{map[string]any{"object_type": "dcim.interface", "object_id": first[1][i]}})
	}); err != nil {
		return c, err
	}
	c.listDevice = devices[0]
	return c, nil
}

// cableScenarios are the cabling measurements.
func (l *loader) cableScenarios(c cableSeed) []*benchScenario {
	if c.listDevice == 0 {
		return nil
	}
	return []*benchScenario{
		{name: "bulk create 1000 cables (2000 interfaces)", clients: 1, maxReqs: len(c.pools) - 1,
			next: func(*rand.Rand, int64) benchReq {
				k := int(l.cableSeq.Add(1) - 1)
				if k >= len(c.pools) {
					k = len(c.pools) - 1 // exhausted: the answer is a 400, counted as an error
				}
				var b bytes.Buffer
				b.WriteByte('[')
				for i := range benchCablesPerRequest {
					if i > 0 {
						b.WriteByte(',')
					}
					fmt.Fprintf(&b, `{"a_terminations":[{"object_type":"dcim.interface","object_id":%d}],`+
						`"b_terminations":[{"object_type":"dcim.interface","object_id":%d}]}`, c.pools[k][0][i], c.pools[k][1][i])
				}
				b.WriteByte(']')
				return benchReq{method: "POST", path: "/api/dcim/cables/", body: b.Bytes()}
			}},
		{name: "list 1000 connected interfaces, 1 client", clients: 1, warm: true, next: func(*rand.Rand, int64) benchReq {
			return benchReq{method: "GET", path: fmt.Sprintf("/api/dcim/interfaces/?device_id=%d&limit=1000", c.listDevice)}
		}},
	}
}
