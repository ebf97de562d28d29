package dcim

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// NetBox's CablePath: the physical path from a set of origin endpoints
// (interfaces, console, console server and power ports, power outlets,
// power feeds) through cables, front/rear port pass-throughs and circuits
// to the far end. A wireless link is a link of a path as a cable is
// (NetBox 4.6's Interface.link: the cable, else the wireless link): a
// wireless interface's path crosses its link to the interface at the
// other end. Trace follows CablePath.from_origin (legacy, positionless
// cables: a cable's profile does not change the trace here) hop by hop,
// asking a Graph for what it needs one hop at a time, batched over the
// hop's objects, so a trace costs a fixed number of reads per hop kind
// (cablepath_store.go implements the Graph on the database; the tests use
// an in-memory one). Unlike NetBox 4.6's, a trace always ends: a path that
// starts going round a loop ends there, incomplete (loopGuard), and one
// past MaxPathHops or MaxPathFanout is refused (PathLimitError, a 400 on
// the write that made it).

// Content types of the objects a path holds.
const (
	CTInterface          = "dcim.interface"
	CTConsolePort        = "dcim.consoleport"
	CTConsoleServerPort  = "dcim.consoleserverport"
	CTPowerPort          = "dcim.powerport"
	CTPowerOutlet        = "dcim.poweroutlet"
	CTPowerFeed          = "dcim.powerfeed"
	CTFrontPort          = "dcim.frontport"
	CTRearPort           = "dcim.rearport"
	CTCable              = "dcim.cable"
	CTWirelessLink       = "wireless.wirelesslink"
	CTCircuitTermination = "circuits.circuittermination"
)

// PathEndpoints are the models that originate paths (NetBox's
// PathEndpoint subclasses) and carry the _path column.
var PathEndpoints = []string{CTConsolePort, CTConsoleServerPort, CTPowerPort, CTPowerOutlet, CTInterface, CTPowerFeed}

// IsPathEndpoint reports whether objects of contentType originate paths.
func IsPathEndpoint(contentType string) bool {
	for _, ct := range PathEndpoints {
		if ct == contentType {
			return true
		}
	}
	return false
}

// Cable statuses (NetBox's LinkStatusChoices).
const StatusConnected = "connected"

// Node is one object of a path.
type Node struct {
	Type string // content type, "dcim.interface"
	ID   int
}

// String is the node as the stored path spells it: "dcim.interface:7"
// (NetBox's "<content type id>:<id>", with the content type's name).
func (n Node) String() string { return n.Type + ":" + strconv.Itoa(n.ID) }

// ParseNode reads a node as String writes it.
func ParseNode(s string) (Node, error) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return Node{}, fmt.Errorf("path node %q: no id", s)
	}
	id, err := strconv.Atoi(s[i+1:])
	if err != nil {
		return Node{}, fmt.Errorf("path node %q: %w", s, err)
	}
	return Node{Type: s[:i], ID: id}, nil
}

// Term is what a trace needs to know of a cabled object.
type Term struct {
	Node
	Cable    int    // 0: no cable
	CableEnd string // "A" or "B"
	// WirelessLink is an interface's wireless link (0: none).
	WirelessLink int
	// Parent is the device (power panel for feeds, circuit for circuit
	// terminations) the object belongs to.
	Parent Node
	// Positions of a front or rear port.
	Positions int
	// Circuit terminations: the side, and what the termination is
	// attached to (a provider network, or a site, location...).
	TermSide        string
	ProviderNetwork int
	Attached        Node
}

// Cable is what a trace needs to know of a cable: its status and its
// terminations per end, in NetBox's order (by termination id).
type Cable struct {
	ID     int
	Status string
	A, B   []Node
}

// Link is the object's link (NetBox's link property): its cable, else
// its wireless link; the zero Node when it has neither.
func (t Term) Link() Node {
	switch {
	case t.Cable != 0:
		return Node{CTCable, t.Cable}
	case t.WirelessLink != 0:
		return Node{CTWirelessLink, t.WirelessLink}
	}
	return Node{}
}

// WirelessLink is what a trace needs to know of a wireless link: its
// status and its two interfaces.
type WirelessLink struct {
	ID     int
	Status string
	A, B   int
}

// Mapping is one front/rear port mapping (NetBox 4.6's PortMapping).
type Mapping struct {
	Front, FrontPosition int
	Rear, RearPosition   int
}

// Graph answers a trace's questions, each for a whole hop at once.
type Graph interface {
	// Terms reads cabled objects (missing ones are absent from the map).
	Terms(ctx context.Context, nodes []Node) (map[Node]Term, error)
	// Cables reads cables with their terminations.
	Cables(ctx context.Context, ids []int) (map[int]Cable, error)
	// Mappings lists the mappings of front ports (rear false) or rear
	// ports (rear true) in NetBox's order (front port, front position).
	Mappings(ctx context.Context, rear bool, ports []int) ([]Mapping, error)
	// CircuitPeers reads the terminations of the circuits on the other
	// side of terms (A for Z and Z for A).
	CircuitPeers(ctx context.Context, terms []Term) ([]Term, error)
	// WirelessLinks reads wireless links.
	WirelessLinks(ctx context.Context, ids []int) (map[int]WirelessLink, error)
}

// Path is a traced path (NetBox's CablePath without its id).
type Path struct {
	Path       [][]Node
	IsActive   bool
	IsComplete bool
	IsSplit    bool
}

// Origins are the objects the path starts from.
func (p *Path) Origins() []Node {
	if len(p.Path) == 0 {
		return nil
	}
	return p.Path[0]
}

// Destinations are the objects at the far end of a complete path.
func (p *Path) Destinations() []Node {
	if !p.IsComplete || len(p.Path) == 0 {
		return nil
	}
	return p.Path[len(p.Path)-1]
}

// Nodes are every object of the path (NetBox's _nodes).
func (p *Path) Nodes() []Node {
	var out []Node
	for _, step := range p.Path {
		out = append(out, step...)
	}
	return out
}

// ErrUnsupportedPath is NetBox's UnsupportedCablePath.
var ErrUnsupportedPath = errors.New("unsupported cable path")

// Bounds of one trace. NetBox 4.6 has none, and its from_origin never
// returns on a cabling that leads a path back into a multi-position rear
// port it already crossed (netbox-community/netbox#17292, not fixed in
// 4.6.8): here such a loop ends the path (Trace), and these limits bound
// what a loop-free topology may still make one trace do.
const (
	// MaxPathHops is the most cables one path may pass (NetBox's
	// segments, the [near ends, cable, far ends] triples of trace/).
	// Real paths pass a handful (an interface, two or three patch panels
	// and a trunk, maybe a circuit); 256 leaves two orders of magnitude
	// of room while keeping a write that retraces many paths cheap.
	MaxPathHops = 256
	// MaxPathFanout is the most objects and positions one path may hold:
	// the nodes of all its steps (ports, cables and far ends, once per
	// step they appear in) and the positions it carries from one
	// pass-through port to the next. It bounds a path's width times its
	// length, hence the trace's memory and the stored path's size (its
	// JSON and its dcim_cablepath_node rows). A full 1024-position rear
	// port (NetBox's PORT_POSITION_MAX) fanned out to its front ports,
	// their cables and far ends holds about 4096, so 65536 lets such a
	// bundle cross 16 panels; real paths hold a few dozen.
	MaxPathFanout = 65536
)

// PathLimitError is a trace that went past MaxPathHops or MaxPathFanout.
type PathLimitError struct {
	Origins []Node
	// Fanout is true when MaxPathFanout was passed, false for MaxPathHops.
	Fanout bool
	// Path is what was traced when the limit was passed: the written
	// cable whose end led past it is found on it.
	Path *Path
}

func (e *PathLimitError) Error() string {
	from := "an empty origin"
	if len(e.Origins) > 0 {
		from = e.Origins[0].Type + " " + strconv.Itoa(e.Origins[0].ID)
	}
	if e.Fanout {
		return fmt.Sprintf("The cable path from %s holds more than %d objects and positions, the most one path may hold.",
			from, MaxPathFanout)
	}
	return fmt.Sprintf("The cable path from %s passes more than %d cables, the most one path may pass.",
		from, MaxPathHops)
}

// loopGuard finds a trace that has begun to repeat itself. What a trace
// does from one step on depends only on the step's terminations and its
// position stack; so a step whose terminations and top of stack are those
// of an earlier step, the stack never having been popped below that
// earlier top in between, will do again what it did since then, and
// again, for ever (the stack growing by what each round pushes: the
// issue's front port cabled back to its own rear port pushes one position
// a round). Such a trace ends there. A path may cross one port twice at
// different positions (a hairpin through a trunk and back): the top of
// stack tells those apart, and they trace on.
type loopGuard struct {
	steps   map[string][]int // state key → the steps it was seen at
	heights []int            // stack height at each step's start
}

// repeats records step len(g.heights) and reports whether it repeats an
// earlier one.
func (g *loopGuard) repeats(terms []Term, stack [][]int) bool {
	if g.steps == nil {
		g.steps = map[string][]int{}
	}
	var b strings.Builder
	for _, t := range terms {
		b.WriteString(t.Node.String())
		b.WriteByte(',')
	}
	b.WriteByte('|')
	if len(stack) == 0 {
		b.WriteByte('-') // empty: no top (and no pop ahead) to tell apart
	} else {
		for _, pos := range stack[len(stack)-1] {
			b.WriteString(strconv.Itoa(pos))
			b.WriteByte(',')
		}
	}
	key := b.String()
	h, step := len(stack), len(g.heights)
	earlier := g.steps[key]
	g.steps[key] = append(earlier, step)
	g.heights = append(g.heights, h)
	if len(earlier) == 0 {
		return false
	}
	// From the latest step back, the lowest the stack went since; an
	// earlier step of the same key repeats if it never went below it.
	low := h
	next := len(earlier) - 1
	for i := step - 1; i >= earlier[0] && next >= 0; i-- {
		low = min(low, g.heights[i])
		if i == earlier[next] {
			if low >= g.heights[i] {
				return true
			}
			next--
		}
	}
	return false
}

// Trace traces the path from origins (objects of one type on one cable
// end), as CablePath.from_origin: nil when the first object has no cable.
func Trace(ctx context.Context, g Graph, origins []Node) (*Path, error) {
	if len(origins) == 0 {
		return nil, nil
	}
	terms, err := loadTerms(ctx, g, origins)
	if err != nil || len(terms) == 0 {
		return nil, err
	}
	for _, t := range terms[1:] {
		if t.Link() != terms[0].Link() {
			return nil, fmt.Errorf("%w: all originating terminations must be attached to the same link", ErrUnsupportedPath)
		}
	}
	p := &Path{IsActive: true}
	var stack [][]int // positions, as NetBox's position_stack
	first := true
	var guard loopGuard
	hops, held := 0, 0
	// record appends a step to the path, within MaxPathFanout.
	record := func(step []Node) error {
		p.Path = append(p.Path, step)
		if held += len(step); held > MaxPathFanout {
			return &PathLimitError{Origins: origins, Fanout: true, Path: p}
		}
		return nil
	}
	for len(terms) > 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// A loop: the path ends where it would start going round again,
		// incomplete (NetBox's is_complete stays false when from_origin
		// stops short of an endpoint).
		if guard.repeats(terms, stack) {
			p.IsComplete = false
			return p, nil
		}
		for _, t := range terms[1:] {
			if t.Type != terms[0].Type {
				return nil, fmt.Errorf("%w: all mid-span terminations must have the same termination type", ErrUnsupportedPath)
			}
			if !IsPathEndpoint(terms[0].Type) && terms[0].Type != CTCircuitTermination && t.Parent != terms[0].Parent {
				return nil, fmt.Errorf("%w: all mid-span terminations must have the same parent object", ErrUnsupportedPath)
			}
		}
		// A split: the terminations fan out over several cables and the
		// positions do not say which.
		if distinctLinks(terms) > 1 && len(stack) > 0 && len(terms) != len(stack[len(stack)-1]) {
			p.IsSplit = true
			break
		}
		if err := record(nodesOf(terms)); err != nil {
			return nil, err
		}
		// The links (cables, or wireless links) of the step's objects.
		var links []Node
		unlinked := false
		for _, t := range terms {
			if l := t.Link(); l.ID == 0 {
				unlinked = true
			} else if !containsNode(links, l) {
				links = append(links, l)
			}
		}
		if len(links) == 0 {
			if first {
				return nil, nil
			}
			break
		}
		for _, l := range links[1:] {
			if l.Type != links[0].Type {
				return nil, fmt.Errorf("%w: all links must match first link type", ErrUnsupportedPath)
			}
		}
		first = false
		if unlinked {
			p.IsComplete, p.IsSplit = false, true
		}
		if hops++; hops > MaxPathHops {
			return nil, &PathLimitError{Origins: origins, Path: p}
		}
		if err := record(links); err != nil {
			return nil, err
		}
		var cableIDs []int // the step's cables (none when wireless)
		var remote []Node
		if links[0].Type == CTWirelessLink {
			if remote, err = wirelessRemote(ctx, g, p, terms, links); err != nil {
				return nil, err
			}
		} else {
			for _, l := range links {
				cableIDs = append(cableIDs, l.ID)
			}
			cables, err := g.Cables(ctx, cableIDs)
			if err != nil {
				return nil, err
			}
			// The far-end terminations: the other end of each local
			// termination's cable, by cable, then termination.
			seen := map[Node]bool{}
			for _, id := range cableIDs {
				c, ok := cables[id]
				if !ok {
					continue
				}
				if c.Status != StatusConnected {
					p.IsActive = false
				}
				for _, end := range remoteEnds(terms, id) {
					far := c.A
					if end == "B" {
						far = c.B
					}
					for _, n := range far {
						if !seen[n] {
							seen[n] = true
							remote = append(remote, n)
						}
					}
				}
			}
		}
		rterms, err := loadTerms(ctx, g, remote)
		if err != nil {
			return nil, err
		}
		if len(rterms) > 1 {
			for _, t := range rterms[1:] {
				if t.Type != rterms[0].Type {
					p.IsComplete, p.IsSplit = false, true
					return p, nil
				}
			}
		}
		if err := record(nodesOf(rterms)); err != nil {
			return nil, err
		}
		if len(rterms) == 0 {
			break
		}
		switch rterms[0].Type {
		case CTFrontPort, CTRearPort:
			rear := rterms[0].Type == CTRearPort
			var positions []int
			if rterms[0].Positions > 1 {
				if len(stack) == 0 {
					// Mapped to several ports and nothing says which.
					p.IsSplit = true
					return p, nil
				}
				positions, stack = stack[len(stack)-1], stack[:len(stack)-1]
			}
			ports := make([]int, len(rterms))
			for i, t := range rterms {
				ports[i] = t.ID
			}
			ms, err := g.Mappings(ctx, rear, ports)
			if err != nil {
				return nil, err
			}
			if positions != nil {
				kept := ms[:0:0]
				for _, m := range ms {
					pos := m.FrontPosition
					if rear {
						pos = m.RearPosition
					}
					if containsInt(positions, pos) {
						kept = append(kept, m)
					}
				}
				ms = kept
			}
			if len(ms) == 0 {
				return p, nil
			}
			// The ports on the other side, in mapping order, once each,
			// and the positions they are entered at.
			next, nextType := []Node{}, CTRearPort
			if rear {
				nextType = CTFrontPort
			}
			var nextPositions []int
			for _, m := range ms {
				id, pos := m.Rear, m.RearPosition
				if rear {
					id, pos = m.Front, m.FrontPosition
				}
				n := Node{nextType, id}
				if !containsNode(next, n) {
					next = append(next, n)
				}
				nextPositions = append(nextPositions, pos)
			}
			if terms, err = loadTerms(ctx, g, next); err != nil {
				return nil, err
			}
			for _, t := range terms {
				if t.Positions > 1 {
					stack = append(stack, nextPositions)
					if held += len(nextPositions); held > MaxPathFanout {
						return nil, &PathLimitError{Origins: origins, Fanout: true, Path: p}
					}
					break
				}
			}
		case CTCircuitTermination:
			peers, err := g.CircuitPeers(ctx, rterms)
			if err != nil {
				return nil, err
			}
			if len(peers) == 0 {
				return p, nil
			}
			allPN, allAttached, loop := true, true, false
			for _, ct := range peers {
				allPN = allPN && ct.ProviderNetwork != 0
				allAttached = allAttached && ct.Attached.Type != "" && ct.Cable == 0
				loop = loop || (ct.Cable != 0 && containsInt(cableIDs, ct.Cable))
			}
			switch {
			case allPN:
				pns := make([]Node, len(peers))
				for i, ct := range peers {
					pns[i] = Node{"circuits.providernetwork", ct.ProviderNetwork}
				}
				if err := record(nodesOf(peers)); err != nil {
					return nil, err
				}
				if err := record(pns); err != nil {
					return nil, err
				}
				p.IsComplete = true
				return p, nil
			case allAttached:
				att := make([]Node, len(peers))
				for i, ct := range peers {
					att[i] = ct.Attached
				}
				if err := record(nodesOf(peers)); err != nil {
					return nil, err
				}
				if err := record(att); err != nil {
					return nil, err
				}
				return p, nil
			case loop:
				p.IsSplit = true
				return p, nil
			}
			terms = peers
		default:
			// An endpoint: the path is complete (the types agree, checked
			// above).
			p.IsComplete = true
			return p, nil
		}
	}
	return p, nil
}

// wirelessRemote are the far ends of wireless links seen from terms: the
// other interface of each (NetBox compares each link's interface A with
// the step's first object), and a link not connected makes the path
// inactive.
func wirelessRemote(ctx context.Context, g Graph, p *Path, terms []Term, links []Node) ([]Node, error) {
	ids := make([]int, len(links))
	for i, l := range links {
		ids[i] = l.ID
	}
	ws, err := g.WirelessLinks(ctx, ids)
	if err != nil {
		return nil, err
	}
	var remote []Node
	for _, id := range ids {
		w, ok := ws[id]
		if !ok {
			continue
		}
		if w.Status != StatusConnected {
			p.IsActive = false
		}
		far := w.A
		if w.A == terms[0].ID {
			far = w.B
		}
		if n := (Node{CTInterface, far}); !containsNode(remote, n) {
			remote = append(remote, n)
		}
	}
	return remote, nil
}

// remoteEnds are the far ends of cable id seen from terms.
func remoteEnds(terms []Term, id int) []string {
	var out []string
	for _, t := range terms {
		if t.Cable != id {
			continue
		}
		end := "A"
		if t.CableEnd == "A" {
			end = "B"
		}
		if len(out) == 0 || out[0] != end {
			out = append(out, end)
		}
	}
	return out
}

// loadTerms reads nodes in their order, dropping those that are gone.
func loadTerms(ctx context.Context, g Graph, nodes []Node) ([]Term, error) {
	if len(nodes) == 0 {
		return nil, nil
	}
	m, err := g.Terms(ctx, nodes)
	if err != nil {
		return nil, err
	}
	out := make([]Term, 0, len(nodes))
	for _, n := range nodes {
		if t, ok := m[n]; ok {
			out = append(out, t)
		}
	}
	return out, nil
}

func nodesOf(terms []Term) []Node {
	out := make([]Node, len(terms))
	for i, t := range terms {
		out[i] = t.Node
	}
	return out
}

func distinctLinks(terms []Term) int {
	seen := map[Node]bool{}
	for _, t := range terms {
		seen[t.Link()] = true
	}
	return len(seen)
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func containsNode(s []Node, v Node) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
