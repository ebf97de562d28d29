package netboximport

import (
	"fmt"
	"sort"

	"github.com/inventory/inventory/ent/resource"
)

// notWritten are list endpoints NetBox serves whose objects are not
// written by an import: read-only or derived ones that follow from what is
// written (object types, jobs, tagged objects, cable terminations), the
// change log (written only with --changelog), tokens (their secrets
// cannot be read), and what holds no data of its own.
var notWritten = map[string]string{
	"core/object-types":       "derived: the models of this service",
	"core/jobs":               "derived: background jobs of the source",
	"core/object-changes":     "imported only with --changelog",
	"core/data-files":         "derived: read from data sources when synced",
	"extras/tagged-objects":   "derived: follows from the objects' tags",
	"dcim/cable-terminations": "derived: follows from the cables' terminations",
	"users/tokens":            "token secrets cannot be read through the API",
	"extras/scripts":          "scripts are code, not data",
}

// edge is a reference of one model to another that orders them.
type edge struct {
	to         *resource.Descriptor
	field      string
	deferrable bool
}

// plan is the endpoints an import writes, in an order in which every
// object's non-deferrable references are written before it.
type plan struct {
	order []*resource.Descriptor
	// deferred are references (model → field) the order does not satisfy:
	// cycles broken by writing the field in the second pass.
	deferred map[*resource.Descriptor][]string
}

// importable is every descriptor an import writes.
// (NetBox's change records, with Changelog, are not among them: they are
// written after the objects, by importChanges.)
func importable() []*resource.Descriptor {
	var out []*resource.Descriptor
	for _, d := range resource.All() {
		if _, skip := notWritten[endpointOf(d)]; skip || d.Path == "" || d.ReadOnlyAPI {
			continue
		}
		out = append(out, d)
	}
	return out
}

// edgesOf are d's references to other models of set.
func edgesOf(d *resource.Descriptor, set map[*resource.Descriptor]bool) []edge {
	var out []edge
	add := func(ct, field string, deferrable bool) {
		t := resource.ByContentType(ct)
		if t != nil && t != d && set[t] {
			out = append(out, edge{t, field, deferrable})
		}
	}
	if m, ok := portMappings[d.ContentType()]; ok && m.target != "" {
		add(m.target, m.field, false)
	}
	for _, f := range d.Fields {
		switch {
		case f.Kind == resource.KindTags:
			add("extras.tag", f.Name, false)
		case f.Kind == resource.KindCustomFields:
			add("extras.customfield", f.Name, false)
		case f.ReadOnly && f.Kind != resource.KindGenericObject:
		case isRef(f):
			add(f.Target, f.Name, f.Nullable)
		case (f.Kind == resource.KindM2M || f.Kind == resource.KindReverse) && !f.Inverse && !f.ByLookup:
			add(f.Target, f.Name, true)
		case f.Kind == resource.KindGenericObject:
			tf := d.Field(f.Generic + "_type")
			if tf == nil || tf.ReadOnly {
				continue
			}
			for _, ct := range f.Types {
				add(ct, f.Generic, tf.Nullable)
			}
		case string(f.Kind) == "generic-refs":
			for _, ct := range f.Types {
				add(ct, f.Name, false)
			}
		}
	}
	return out
}

// preferDeferred are the references NetBox's own data model makes
// circular, broken where NetBox breaks them: a device's primary and
// out-of-band IPs (its IPs are on its interfaces), a virtual chassis'
// master (a member device), an interface's primary MAC address (assigned
// to it).
var preferDeferred = map[string]int{"primary_ip4": 0, "primary_ip6": 1, "oob_ip": 2, "master": 3, "primary_mac_address": 4}

// makePlan orders ds by their references (Kahn's algorithm, endpoints in
// name order among the ready ones); when every remaining model waits for
// another, it defers one nullable reference among them, the preferred
// ones first, and goes on.
func makePlan(ds []*resource.Descriptor) (*plan, error) {
	set := map[*resource.Descriptor]bool{}
	for _, d := range ds {
		set[d] = true
	}
	edges := map[*resource.Descriptor][]edge{}
	for _, d := range ds {
		edges[d] = edgesOf(d, set)
	}
	p := &plan{deferred: map[*resource.Descriptor][]string{}}
	done := map[*resource.Descriptor]bool{}
	dropped := map[*resource.Descriptor]map[string]bool{}
	// reaches says whether from leads to to by the references still in
	// force: an edge to→from is then part of a cycle.
	reaches := func(from, to *resource.Descriptor) bool {
		seen := map[*resource.Descriptor]bool{from: true}
		stack := []*resource.Descriptor{from}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if n == to {
				return true
			}
			for _, e := range edges[n] {
				if !done[e.to] && !dropped[n][e.field] && !seen[e.to] {
					seen[e.to] = true
					stack = append(stack, e.to)
				}
			}
		}
		return false
	}
	for len(done) < len(ds) {
		var ready []*resource.Descriptor
		for _, d := range ds {
			if done[d] {
				continue
			}
			ok := true
			for _, e := range edges[d] {
				if !done[e.to] && !dropped[d][e.field] {
					ok = false
					break
				}
			}
			if ok {
				ready = append(ready, d)
			}
		}
		if len(ready) > 0 {
			sort.Slice(ready, func(i, j int) bool { return endpointOf(ready[i]) < endpointOf(ready[j]) })
			// One at a time: a model made ready by this one may sort
			// before the others.
			d := ready[0]
			done[d] = true
			p.order = append(p.order, d)
			continue
		}
		// A cycle: defer the best deferrable reference among the rest.
		var best *resource.Descriptor
		var bestField string
		bestRank := 1 << 30
		for _, d := range ds {
			if done[d] {
				continue
			}
			for _, e := range edges[d] {
				if done[e.to] || dropped[d][e.field] || !e.deferrable || !reaches(e.to, d) {
					continue
				}
				rank, ok := preferDeferred[e.field]
				if !ok {
					rank = 100
				}
				if rank < bestRank || rank == bestRank && endpointOf(d)+e.field < endpointOf(best)+bestField {
					best, bestField, bestRank = d, e.field, rank
				}
			}
		}
		if best == nil {
			return nil, fmt.Errorf("the models' references form a cycle of required fields")
		}
		if dropped[best] == nil {
			dropped[best] = map[string]bool{}
		}
		dropped[best][bestField] = true
		p.deferred[best] = append(p.deferred[best], bestField)
	}
	return p, nil
}
