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
// to the far end. Trace follows CablePath.from_origin (legacy, positionless
// cables: a cable's profile does not change the trace here) hop by hop,
// asking a Graph for what it needs one hop at a time, batched over the
// hop's objects, so a trace costs a fixed number of reads per hop kind
// (cablepath_store.go implements the Graph on the database; the tests use
// an in-memory one).

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
		if t.Cable != terms[0].Cable {
			return nil, fmt.Errorf("%w: all originating terminations must be attached to the same link", ErrUnsupportedPath)
		}
	}
	p := &Path{IsActive: true}
	var stack [][]int // positions, as NetBox's position_stack
	first := true
	for len(terms) > 0 {
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
		if distinctCables(terms) > 1 && len(stack) > 0 && len(terms) != len(stack[len(stack)-1]) {
			p.IsSplit = true
			break
		}
		p.Path = append(p.Path, nodesOf(terms))
		var cableIDs []int
		unlinked := false
		for _, t := range terms {
			if t.Cable == 0 {
				unlinked = true
			} else if !containsInt(cableIDs, t.Cable) {
				cableIDs = append(cableIDs, t.Cable)
			}
		}
		if len(cableIDs) == 0 {
			if first {
				return nil, nil
			}
			break
		}
		first = false
		if unlinked {
			p.IsComplete, p.IsSplit = false, true
		}
		cableNodes := make([]Node, len(cableIDs))
		for i, id := range cableIDs {
			cableNodes[i] = Node{CTCable, id}
		}
		p.Path = append(p.Path, cableNodes)
		cables, err := g.Cables(ctx, cableIDs)
		if err != nil {
			return nil, err
		}
		// The far-end terminations: the other end of each local
		// termination's cable, by cable, then termination.
		var remote []Node
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
		p.Path = append(p.Path, nodesOf(rterms))
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
				p.Path = append(p.Path, nodesOf(peers), pns)
				p.IsComplete = true
				return p, nil
			case allAttached:
				att := make([]Node, len(peers))
				for i, ct := range peers {
					att[i] = ct.Attached
				}
				p.Path = append(p.Path, nodesOf(peers), att)
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

func distinctCables(terms []Term) int {
	seen := map[int]bool{}
	for _, t := range terms {
		seen[t.Cable] = true
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
