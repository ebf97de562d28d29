package netboximport

import (
	"testing"

	"github.com/inventory/inventory/ent/resource"
)

// The plan writes every model after what it requires, and breaks
// NetBox's circular references where NetBox does: a device's primary
// IPs, a virtual chassis' master, an interface's primary MAC address.
func TestPlan(t *testing.T) {
	p, err := makePlan(importable())
	if err != nil {
		t.Fatal(err)
	}
	pos := map[string]int{}
	for i, d := range p.order {
		pos[d.ContentType()] = i
	}
	for _, tc := range []struct{ before, after string }{
		{"extras.tag", "dcim.site"},
		{"extras.customfield", "dcim.site"},
		{"dcim.site", "circuits.circuittermination"},
		{"dcim.interface", "ipam.ipaddress"},
		{"dcim.device", "dcim.interface"},
		{"dcim.rearport", "dcim.frontport"},
		{"dcim.interface", "dcim.cable"},
		{"dcim.virtualchassis", "dcim.device"},
	} {
		if pos[tc.before] >= pos[tc.after] {
			t.Errorf("%s (%d) is not written before %s (%d)", tc.before, pos[tc.before], tc.after, pos[tc.after])
		}
	}
	deferred := map[string]bool{}
	for d, fields := range p.deferred {
		for _, f := range fields {
			deferred[d.ContentType()+"."+f] = true
		}
	}
	for _, want := range []string{"dcim.device.primary_ip4", "dcim.device.primary_ip6", "dcim.device.oob_ip", "dcim.virtualchassis.master"} {
		if !deferred[want] {
			t.Errorf("%s is not deferred; deferred: %v", want, deferred)
		}
	}
	for _, d := range importable() {
		if ep := endpointOf(d); notWritten[ep] != "" {
			t.Errorf("%s is imported", ep)
		}
	}
	if resource.ByContentType("dcim.site") == nil {
		t.Fatal("no sites")
	}
}
