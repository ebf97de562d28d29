package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/webhooks"
)

// benchCF is the text custom field set on every seeded object (loose:
// its filter is a substring match); benchCFInt an integer one (its filter
// an equality).
const (
	benchCF    = "bench_text"
	benchCFInt = "bench_int"
)

// benchSeed is what the scenarios need to know about the seeded data.
type benchSeed struct {
	tagSlugs  []string
	tenants   []int // prefixes point at one of them each (the tenant filter)
	sites     []int
	vlans     []int
	prefixes  []int // the /24s, in creation (id) order
	devices   []int
	vms       []int // bench_vms.go
	hasPrefix bool
	// devices: a role and a device type with benchTemplates interface
	// templates, for the device-create scenario (0 when not seeded).
	deviceRole, deviceType int
	interfaces             int   // interfaces seeded on the devices
	ipAddresses            []int // bench_ipaddr.go
	// alloc: the parents of the allocation scenarios (bench_alloc.go).
	alloc allocSeed
	// cables: the interfaces of the cable scenarios (bench_cables.go).
	cables cableSeed
	// dcim: the demo-shaped data set of --scale (bench_dcim.go; nil
	// without --scale).
	dcim *dcimSeed
}

// benchTenants is the number of tenants seeded: every prefix has one, so
// the tenant filter selects 1% of them.
const benchTenants = 100

// benchTemplates is the number of interface templates of the benchmark's
// device type (the 48-port device type; it has 2 power port
// templates besides).
const benchTemplates = 48

// benchCreate creates n objects of content type ct through the API's write
// path, the i-th from gen(i), and returns their ids.
type benchCreate func(ct string, n int, gen func(i int) resource.Input) ([]int, error)

// one creates one object from alternating names and values.
func (create benchCreate) one(ct string, kv ...any) (int, error) {
	ids, err := create(ct, 1, func(int) resource.Input { return jsonInput(kv...) })
	if err != nil {
		return 0, err
	}
	return ids[0], nil
}

// jsonInput builds a resource.Input from alternating names and values.
func jsonInput(kv ...any) resource.Input {
	in := resource.Input{}
	for i := 0; i+1 < len(kv); i += 2 {
		raw, err := json.Marshal(kv[i+1])
		if err != nil {
			panic(err)
		}
		in[kv[i].(string)] = raw
	}
	return in
}

// seedBench fills the database through the API's own write path (the
// resource layer's Create, with validation, tags and custom fields), in
// one transaction per batch.
func seedBench(ctx context.Context, d *db.DB, o *benchOptions) (*benchSeed, error) {
	s := &benchSeed{hasPrefix: resource.ByContentType("ipam.prefix") != nil}
	if !s.hasPrefix && o.prefixes > 0 {
		fmt.Println("note:      this build has no ipam.prefix model; seeding and measuring sites and VLANs only")
	}
	start := time.Now()
	total := 0
	create := func(ct string, n int, gen func(i int) resource.Input) ([]int, error) {
		desc := resource.ByContentType(ct)
		if desc == nil {
			return nil, fmt.Errorf("model %s is not registered", ct)
		}
		t0 := time.Now()
		ids := make([]int, 0, n)
		for lo := 0; lo < n; lo += o.batch {
			hi := min(lo+o.batch, n)
			// Seeding writes change records and events like any write.
			err := webhooks.Write(ctx, d, webhooks.Actor{Username: "bench", RequestID: uuid.NewString()}, func(ctx context.Context, rtx *resource.Tx) error {
				for i := lo; i < hi; i++ {
					id, err := desc.Create(ctx, rtx, gen(i))
					if err != nil {
						return fmt.Errorf("%s #%d: %w", ct, i, err)
					}
					ids = append(ids, id)
				}
				return nil
			})
			if err != nil {
				return nil, err
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		el := time.Since(t0)
		total += n
		if n > 0 {
			fmt.Printf("seeded:    %7d %-22s in %7.2fs (%6.0f objects/s)\n", n, ct, el.Seconds(), float64(n)/el.Seconds())
		}
		return ids, nil
	}

	// update PATCHes rows ids of ct with gen(i), in batches like create.
	update := func(ct string, ids []int, gen func(i int) resource.Input) error {
		desc := resource.ByContentType(ct)
		t0 := time.Now()
		for lo := 0; lo < len(ids); lo += o.batch {
			hi := min(lo+o.batch, len(ids))
			err := webhooks.Write(ctx, d, webhooks.Actor{Username: "bench", RequestID: uuid.NewString()}, func(ctx context.Context, rtx *resource.Tx) error {
				for i := lo; i < hi; i++ {
					row, err := desc.Get(ctx, rtx.Store(), ids[i])
					if err != nil {
						return err
					}
					if err := desc.Update(ctx, rtx, row, gen(i), true); err != nil {
						return fmt.Errorf("%s #%d: %w", ct, i, err)
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		fmt.Printf("updated:   %7d %-22s in %7.2fs\n", len(ids), ct, time.Since(t0).Seconds())
		return nil
	}

	tagIDs, err := create("extras.tag", o.tags, func(i int) resource.Input {
		slug := fmt.Sprintf("bench-tag-%d", i)
		s.tagSlugs = append(s.tagSlugs, slug)
		return jsonInput("name", fmt.Sprintf("Bench tag %d", i), "slug", slug)
	})
	if err != nil {
		return nil, err
	}
	types := []string{"dcim.site", "ipam.vlan", "dcim.device"}
	if resource.ByContentType("virtualization.virtualmachine") != nil {
		types = append(types, "virtualization.virtualmachine")
	}
	if s.hasPrefix {
		types = append(types, "ipam.prefix")
	}
	if resource.ByContentType("ipam.ipaddress") != nil {
		types = append(types, "ipam.ipaddress")
	}
	if _, err := create("extras.customfield", 2, func(i int) resource.Input {
		if i == 1 {
			return jsonInput("name", benchCFInt, "type", "integer", "object_types", types)
		}
		return jsonInput("name", benchCF, "type", "text", "object_types", types)
	}); err != nil {
		return nil, err
	}
	// Every object gets one or two tags and a custom field value; the
	// values repeat every 100 objects so filters select ~1% of a table.
	tags := func(i int) []int {
		a, b := tagIDs[i%len(tagIDs)], tagIDs[(i/len(tagIDs))%len(tagIDs)]
		if a == b {
			return []int{a}
		}
		return []int{a, b}
	}
	cf := func(i int) map[string]any {
		return map[string]any{benchCF: fmt.Sprintf("value-%d", i%100), benchCFInt: i % 100}
	}

	if o.scale > 0 {
		// The demo-shaped data set instead of the prefix-centred one.
		if s.dcim, err = seedDCIM(ctx, d, create, o, s, tags, cf); err != nil {
			return nil, err
		}
		if s.alloc, err = seedAlloc(create, o); err != nil {
			return nil, err
		}
		if s.cables, err = seedCables(create, s, o.cableRequests); err != nil {
			return nil, err
		}
		if err := d.Read.QueryRowContext(ctx, "SELECT count(*) FROM dcim_interface").Scan(&s.dcim.interfaces); err != nil {
			return nil, err
		}
		s.interfaces = s.dcim.interfaces
		// Every create writes one change record, the components a
		// template makes included: their count is the objects written.
		el := time.Since(start)
		var written int
		if err := d.Read.QueryRowContext(ctx, "SELECT count(*) FROM core_objectchange").Scan(&written); err != nil {
			return nil, err
		}
		fmt.Printf("seeded:    scale %d: %d objects through the API's write path, %d with the components their templates made, in %.1fs: %.0f objects/s (%.0f with components)\n",
			o.scale, total, written, el.Seconds(), float64(total)/el.Seconds(), float64(written)/el.Seconds())
		if err := topUpChanges(ctx, d, o.batch, o.changes, s.dcim); err != nil {
			return nil, err
		}
		fmt.Printf("seeded:    %d change records, %d interfaces (not part of the results)\n\n", s.dcim.changes, s.dcim.interfaces)
		return s, nil
	}
	if resource.ByContentType("tenancy.tenant") != nil {
		if s.tenants, err = create("tenancy.tenant", benchTenants, func(i int) resource.Input {
			return jsonInput("name", fmt.Sprintf("Bench tenant %03d", i), "slug", fmt.Sprintf("bench-tenant-%03d", i))
		}); err != nil {
			return nil, err
		}
	}
	if s.sites, err = create("dcim.site", o.sites, func(i int) resource.Input {
		return jsonInput("name", fmt.Sprintf("Site %05d", i), "slug", fmt.Sprintf("site-%05d", i),
			"status", "active", "facility", fmt.Sprintf("DC-%d", i%50),
			"description", fmt.Sprintf("benchmark site %d", i), "tags", tags(i), "custom_fields", cf(i))
	}); err != nil {
		return nil, err
	}
	if s.devices, err = benchDevices(create, s, o.devices, tags, cf); err != nil {
		return nil, err
	}
	if s.vms, err = benchVMs(create, update, s, o.vms, tags, cf); err != nil {
		return nil, err
	}
	if s.vlans, err = create("ipam.vlan", o.vlans, func(i int) resource.Input {
		return jsonInput("vid", 1+i%4094, "name", fmt.Sprintf("vlan-%05d", i), "site", s.sites[i%len(s.sites)],
			"status", "active", "description", fmt.Sprintf("benchmark VLAN %d", i), "tags", tags(i), "custom_fields", cf(i))
	}); err != nil {
		return nil, err
	}
	if err := seedDeviceType(s, create); err != nil {
		return nil, err
	}
	if s.hasPrefix && o.prefixes > 0 {
		// /16 containers first, then the /24s inside them (depth 1). Both
		// carry the same kind of data (tags, a custom field, a scope on one
		// in four), so that the first and a deep cursor page compare the
		// paging, not different rows.
		prefix := func(net, status, desc string, i int) resource.Input {
			in := jsonInput("prefix", net, "status", status, "description", desc, "tags", tags(i), "custom_fields", cf(i))
			if i%4 == 0 {
				in["scope_type"], in["scope_id"] = json.RawMessage(`"dcim.site"`), json.RawMessage(fmt.Sprint(s.sites[i%len(s.sites)]))
			}
			if len(s.tenants) > 0 {
				in["tenant"] = json.RawMessage(fmt.Sprint(s.tenants[i%len(s.tenants)]))
			}
			return in
		}
		containers := (o.prefixes + 255) / 256
		if _, err := create("ipam.prefix", containers, func(i int) resource.Input {
			return prefix(benchNet(i*256, 16), "container", fmt.Sprintf("container %d", i), i)
		}); err != nil {
			return nil, err
		}
		if s.prefixes, err = create("ipam.prefix", o.prefixes, func(i int) resource.Input {
			return prefix(benchNet(i, 24), "active", fmt.Sprintf("benchmark prefix %d", i), i)
		}); err != nil {
			return nil, err
		}
	}
	if s.ipAddresses, err = benchIPAddresses(create, o.ipAddresses, tags, cf); err != nil {
		return nil, err
	}
	if s.alloc, err = seedAlloc(create, o); err != nil {
		return nil, err
	}
	if s.cables, err = seedCables(create, s, o.cableRequests); err != nil {
		return nil, err
	}
	el := time.Since(start)
	fmt.Printf("seeded:    %7d objects in total in %.1fs (not part of the results)\n\n", total, el.Seconds())
	return s, nil
}

// seedDeviceType makes a manufacturer, a device role and a device type
// with benchTemplates interface templates and 2 power port templates:
// every device created from it gets that many interfaces and power ports.
func seedDeviceType(s *benchSeed, create benchCreate) error {
	if resource.ByContentType("dcim.device") == nil || resource.ByContentType("dcim.interface") == nil {
		return nil
	}
	m, err := create("dcim.manufacturer", 1, func(int) resource.Input { return jsonInput("name", "Bench", "slug", "bench") })
	if err != nil {
		return err
	}
	r, err := create("dcim.devicerole", 1, func(int) resource.Input { return jsonInput("name", "Bench", "slug", "bench") })
	if err != nil {
		return err
	}
	dt, err := create("dcim.devicetype", 1, func(int) resource.Input {
		return jsonInput("manufacturer", m[0], "model", "Bench 48", "slug", "bench-48")
	})
	if err != nil {
		return err
	}
	if _, err := create("dcim.interfacetemplate", benchTemplates, func(i int) resource.Input {
		return jsonInput("device_type", dt[0], "name", fmt.Sprintf("et-0/0/%d", i), "type", "10gbase-x-sfpp")
	}); err != nil {
		return err
	}
	if _, err := create("dcim.powerporttemplate", 2, func(i int) resource.Input {
		return jsonInput("device_type", dt[0], "name", fmt.Sprintf("PSU%d", i), "maximum_draw", 300)
	}); err != nil {
		return err
	}
	s.deviceRole, s.deviceType = r[0], dt[0]
	return nil
}

// benchNet is the i-th /24 (length 24) or the /16 holding /24 number i
// (length 16), counting from 10.0.0.0 upwards (10.0.0.0/8 has 65536 /24s,
// then 11.0.0.0/8, ...).
func benchNet(i, length int) string {
	a, b, c := 10+i/65536, (i/256)%256, i%256
	if length == 16 {
		return fmt.Sprintf("%d.%d.0.0/16", a, b)
	}
	return fmt.Sprintf("%d.%d.%d.0/24", a, b, c)
}
