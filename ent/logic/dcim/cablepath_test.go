package dcim

import (
	"context"
	"errors"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// memGraph is an in-memory Graph: objects, cables and mappings, and a
// count of the questions asked (a trace asks a fixed number per hop).
type memGraph struct {
	terms    map[Node]Term
	cables   map[int]Cable
	mappings []Mapping
	wlinks   map[int]WirelessLink
	asked    map[string]int
}

func (g *memGraph) Terms(_ context.Context, nodes []Node) (map[Node]Term, error) {
	g.asked["terms"]++
	out := map[Node]Term{}
	for _, n := range nodes {
		if t, ok := g.terms[n]; ok {
			out[n] = t
		}
	}
	return out, nil
}

func (g *memGraph) Cables(_ context.Context, ids []int) (map[int]Cable, error) {
	g.asked["cables"]++
	return pick(g.cables, ids), nil
}

// pick is the entries of m with ids that exist.
func pick[T any](m map[int]T, ids []int) map[int]T {
	out := map[int]T{}
	for _, id := range ids {
		if v, ok := m[id]; ok {
			out[id] = v
		}
	}
	return out
}

func (g *memGraph) Mappings(_ context.Context, rear bool, ports []int) ([]Mapping, error) {
	g.asked["mappings"]++
	var out []Mapping
	for _, m := range g.mappings {
		p := m.Front
		if rear {
			p = m.Rear
		}
		if containsInt(ports, p) {
			out = append(out, m)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Front != out[j].Front {
			return out[i].Front < out[j].Front
		}
		return out[i].FrontPosition < out[j].FrontPosition
	})
	return out, nil
}

func (g *memGraph) CircuitPeers(_ context.Context, terms []Term) ([]Term, error) {
	g.asked["circuits"]++
	var out []Term
	for _, t := range terms {
		for _, o := range g.terms {
			if o.Type == CTCircuitTermination && o.Parent == t.Parent && o.TermSide != t.TermSide {
				out = append(out, o)
			}
		}
	}
	return out, nil
}

func (g *memGraph) WirelessLinks(_ context.Context, ids []int) (map[int]WirelessLink, error) {
	g.asked["wireless"]++
	return pick(g.wlinks, ids), nil
}

// topo builds a memGraph from a small language: objects are "if1"
// (interface), "fp1"/"rp1" (front/rear ports, "rp1*4" with 4 positions),
// "cp", "csp", "pp", "po", "pf", "ctA1"/"ctZ1" (circuit 1's sides),
// each followed by "@parent"; cables are "c<id>:<a,b>-<c,d>[:planned]";
// wireless links "w<id>:<a>~<b>[:planned]"; mappings "fp1.1=rp1.2".
func topo(t *testing.T, spec string) *memGraph {
	t.Helper()
	g := &memGraph{terms: map[Node]Term{}, cables: map[int]Cable{}, wlinks: map[int]WirelessLink{}, asked: map[string]int{}}
	for _, f := range strings.Fields(spec) {
		switch {
		case strings.HasPrefix(f, "w") && strings.Contains(f, "~"):
			parts := strings.Split(f, ":")
			w := WirelessLink{ID: atoi(t, parts[0][1:]), Status: StatusConnected}
			if len(parts) > 2 {
				w.Status = parts[2]
			}
			a, b, _ := strings.Cut(parts[1], "~")
			for i, name := range []string{a, b} {
				n := nodeOf(t, name)
				term, ok := g.terms[n]
				if !ok {
					t.Fatalf("wireless link %s: unknown %s", f, name)
				}
				term.WirelessLink = w.ID
				g.terms[n] = term
				if i == 0 {
					w.A = n.ID
				} else {
					w.B = n.ID
				}
			}
			g.wlinks[w.ID] = w
		case strings.HasPrefix(f, "c") && strings.Contains(f, "-") && strings.Contains(f, ":"):
			parts := strings.Split(f, ":")
			c := Cable{ID: atoi(t, parts[0][1:]), Status: StatusConnected}
			if len(parts) > 2 {
				c.Status = parts[2]
			}
			ends := strings.Split(parts[1], "-")
			for i, end := range ends {
				for _, name := range strings.Split(end, ",") {
					if name == "" {
						continue
					}
					n := nodeOf(t, name)
					term, ok := g.terms[n]
					if !ok {
						t.Fatalf("cable %s: unknown %s", f, name)
					}
					term.Cable, term.CableEnd = c.ID, "AB"[i:i+1]
					g.terms[n] = term
					if i == 0 {
						c.A = append(c.A, n)
					} else {
						c.B = append(c.B, n)
					}
				}
			}
			g.cables[c.ID] = c
		case strings.Contains(f, "="):
			lr := strings.Split(f, "=")
			fp, fpos, _ := strings.Cut(lr[0], ".")
			rp, rpos, _ := strings.Cut(lr[1], ".")
			g.mappings = append(g.mappings, Mapping{nodeOf(t, fp).ID, atoi(t, fpos), nodeOf(t, rp).ID, atoi(t, rpos)})
		default:
			name, parent, _ := strings.Cut(f, "@")
			name, pos, _ := strings.Cut(name, "*")
			n := nodeOf(t, name)
			term := Term{Node: n, Positions: 1}
			if n.Type != CTCircuitTermination {
				term.Parent = Node{"dcim.device", atoi(t, strings.TrimPrefix(parent, "d"))}
			}
			if pos != "" {
				term.Positions = atoi(t, pos)
			}
			if n.Type == CTCircuitTermination {
				term.Parent = Node{"circuits.circuit", atoi(t, name[3:])}
				term.TermSide = name[2:3]
				switch {
				case strings.HasPrefix(parent, "pn"):
					term.ProviderNetwork = atoi(t, parent[2:])
					term.Attached = Node{"circuits.providernetwork", term.ProviderNetwork}
				case strings.HasPrefix(parent, "site"):
					term.Attached = Node{"dcim.site", atoi(t, parent[4:])}
				}
			}
			g.terms[n] = term
		}
	}
	return g
}

var prefixes = []struct{ prefix, ct string }{
	{"csp", CTConsoleServerPort}, {"cp", CTConsolePort}, {"pp", CTPowerPort}, {"po", CTPowerOutlet},
	{"pf", CTPowerFeed}, {"if", CTInterface}, {"fp", CTFrontPort}, {"rp", CTRearPort},
	{"ctA", CTCircuitTermination}, {"ctZ", CTCircuitTermination},
}

// nodeOf names nodes: "if3" is interface 3; circuit terminations are
// ctA1 = 1, ctZ1 = 2 (circuit 1), ctA2 = 3...
func nodeOf(t *testing.T, name string) Node {
	for _, p := range prefixes {
		if strings.HasPrefix(name, p.prefix) {
			id := atoi(t, name[len(p.prefix):])
			if p.ct == CTCircuitTermination {
				id = id*2 - 1
				if p.prefix == "ctZ" {
					id++
				}
			}
			return Node{p.ct, id}
		}
	}
	t.Fatalf("unknown node %q", name)
	return Node{}
}

func atoi(t *testing.T, s string) int {
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			t.Fatalf("not a number: %q", s)
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// render spells a path as "[if1] [c1] [fp1 fp2] ..." with the flags.
func render(p *Path) string {
	if p == nil {
		return "nil"
	}
	var b strings.Builder
	names := map[string]string{CTInterface: "if", CTFrontPort: "fp", CTRearPort: "rp", CTCable: "c",
		CTConsolePort: "cp", CTConsoleServerPort: "csp", CTPowerPort: "pp", CTPowerOutlet: "po", CTPowerFeed: "pf",
		CTCircuitTermination: "ct", "circuits.providernetwork": "pn", "dcim.site": "site", CTWirelessLink: "w"}
	for i, step := range p.Path {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte('[')
		for j, n := range step {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(names[n.Type] + itoa(n.ID))
		}
		b.WriteByte(']')
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{p.IsComplete, "complete"}, {p.IsActive, "active"}, {p.IsSplit, "split"}} {
		if f.on {
			b.WriteString(" " + f.name)
		}
	}
	return b.String()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

func TestTrace(t *testing.T) {
	cases := []struct {
		name, topo, from, want string
	}{
		{"uncabled origin has no path", "if1@d1", "if1", "nil"},
		{"interface to interface", "if1@d1 if2@d2 c1:if1-if2", "if1",
			"[if1] [c1] [if2] complete active"},
		{"seen from the B end", "if1@d1 if2@d2 c1:if1-if2", "if2",
			"[if2] [c1] [if1] complete active"},
		{"a planned cable makes the path inactive", "if1@d1 if2@d2 c1:if1-if2:planned", "if1",
			"[if1] [c1] [if2] complete"},
		{"console port to console server port", "cp1@d1 csp1@d2 c1:cp1-csp1", "cp1",
			"[cp1] [c1] [csp1] complete active"},
		{"power feed to power port", "pf1@d9 pp1@d1 c1:pf1-pp1", "pp1",
			"[pp1] [c1] [pf1] complete active"},
		{"power port to outlet", "pp1@d1 po1@d2 c1:pp1-po1", "po1",
			"[po1] [c1] [pp1] complete active"},
		{"several terminations at one end", "if1@d1 if2@d1 if3@d2 c1:if1,if2-if3", "if1 if2",
			"[if1 if2] [c1] [if3] complete active"},
		{"through a patch panel", "if1@d1 if2@d2 fp1@d3 rp1@d3 fp1.1=rp1.1 c1:if1-fp1 c2:rp1-if2", "if1",
			"[if1] [c1] [fp1] [rp1] [c2] [if2] complete active"},
		{"through a patch panel backwards", "if1@d1 if2@d2 fp1@d3 rp1@d3 fp1.1=rp1.1 c1:if1-fp1 c2:rp1-if2", "if2",
			"[if2] [c2] [rp1] [fp1] [c1] [if1] complete active"},
		{"panel's rear port not cabled: incomplete", "if1@d1 fp1@d3 rp1@d3 fp1.1=rp1.1 c1:if1-fp1", "if1",
			"[if1] [c1] [fp1] [rp1] active"},
		{"front port not mapped", "if1@d1 fp1@d3 c1:if1-fp1", "if1",
			"[if1] [c1] [fp1] active"},
		{"cable to nothing yet", "if1@d1 c1:if1-", "if1",
			"[if1] [c1] [] active"},
		{"multi-position rear ports, position 1",
			"if1@d1 if3@d1 fp1@d3 fp2@d3 rp1*2@d3 fp1.1=rp1.1 fp2.1=rp1.2 " +
				"rp2*2@d4 fp3@d4 fp4@d4 fp3.1=rp2.1 fp4.1=rp2.2 if2@d2 if4@d2 " +
				"c1:if1-fp1 c3:if3-fp2 c2:rp1-rp2 c4:fp3-if2 c5:fp4-if4", "if1",
			"[if1] [c1] [fp1] [rp1] [c2] [rp2] [fp3] [c4] [if2] complete active"},
		{"multi-position rear ports, position 2",
			"if1@d1 if3@d1 fp1@d3 fp2@d3 rp1*2@d3 fp1.1=rp1.1 fp2.1=rp1.2 " +
				"rp2*2@d4 fp3@d4 fp4@d4 fp3.1=rp2.1 fp4.1=rp2.2 if2@d2 if4@d2 " +
				"c1:if1-fp1 c3:if3-fp2 c2:rp1-rp2 c4:fp3-if2 c5:fp4-if4", "if4",
			"[if4] [c5] [fp4] [rp2] [c2] [rp1] [fp2] [c3] [if3] complete active"},
		{"three panels in a row (ten hops)",
			"if1@d1 fp1@d3 rp1@d3 fp1.1=rp1.1 fp2@d4 rp2@d4 fp2.1=rp2.1 fp3@d5 rp3@d5 fp3.1=rp3.1 if2@d2 " +
				"c1:if1-fp1 c2:rp1-rp2 c3:fp2-fp3 c4:rp3-if2", "if1",
			"[if1] [c1] [fp1] [rp1] [c2] [rp2] [fp2] [c3] [fp3] [rp3] [c4] [if2] complete active"},
		{"a multi-position rear port reached without positions is a split",
			"if1@d1 rp1*2@d3 fp1@d3 fp2@d3 fp1.1=rp1.1 fp2.1=rp1.2 c1:if1-rp1", "if1",
			"[if1] [c1] [rp1] active split"},
		{"through a circuit",
			"if1@d1 if2@d2 ctA1@site1 ctZ1@site2 c1:if1-ctA1 c2:ctZ1-if2", "if1",
			"[if1] [c1] [ct1] [ct2] [c2] [if2] complete active"},
		{"circuit to a provider network",
			"if1@d1 ctA1@site1 ctZ1@pn5 c1:if1-ctA1", "if1",
			"[if1] [c1] [ct1] [ct2] [pn5] complete active"},
		{"circuit's far side attached to a site, not cabled",
			"if1@d1 ctA1@site1 ctZ1@site2 c1:if1-ctA1", "if1",
			"[if1] [c1] [ct1] [ct2] [site2] active"},
		{"circuit with one side only",
			"if1@d1 ctA1@site1 c1:if1-ctA1", "if1",
			"[if1] [c1] [ct1] active"},
		{"far ends of different types are a split",
			"if1@d1 if2@d2 fp1@d2 c1:if1-if2,fp1", "if1",
			"[if1] [c1] active split"},
		{"front ports of one panel on two cables fan out to one rear port",
			"if1@d1 if2@d1 fp1@d3 fp2@d3 rp1*2@d3 fp1.1=rp1.1 fp2.1=rp1.2 c1:if1,if2-fp1,fp2", "if1 if2",
			"[if1 if2] [c1] [fp1 fp2] [rp1] active"},
		// A wireless link is a link as a cable is (NetBox's Interface.link).
		{"interface to interface over a wireless link", "if1@d1 if2@d2 w1:if1~if2", "if1",
			"[if1] [w1] [if2] complete active"},
		{"wireless link seen from its B end", "if1@d1 if2@d2 w1:if1~if2", "if2",
			"[if2] [w1] [if1] complete active"},
		{"a planned wireless link makes the path inactive", "if1@d1 if2@d2 w1:if1~if2:planned", "if1",
			"[if1] [w1] [if2] complete"},
		{"an interface's cable goes before its wireless link", "if1@d1 if2@d2 if3@d3 c1:if1-if2 w1:if1~if3", "if1",
			"[if1] [c1] [if2] complete active"},
		{"the wireless link's far end with a cable still crosses the link", "if1@d1 if2@d2 if3@d3 c1:if1-if2 w1:if1~if3", "if3",
			"[if3] [w1] [if1] complete active"},
		// Loops end the path where it would go round again, incomplete
		// (NetBox 4.6 never returns on them).
		{"front port cabled back to its own multi-position rear port (issue 32)",
			"if1@d1 fp1@d3 fp2@d3 rp1*2@d3 fp1.1=rp1.1 fp2.1=rp1.2 c1:if1-fp1 c2:fp2-rp1", "if1",
			"[if1] [c1] [fp1] [rp1] [c2] [fp2] [rp1] [c2] [fp2] active"},
		{"ring of two panels through a rear port's positions",
			"if1@d1 fp1@d3 fp2@d3 rp1*2@d3 fp1.1=rp1.1 fp2.1=rp1.2 fp3@d4 rp2@d4 fp3.1=rp2.1 " +
				"c1:if1-fp1 c2:rp1-fp3 c3:rp2-fp2", "if1",
			"[if1] [c1] [fp1] [rp1] [c2] [fp3] [rp2] [c3] [fp2] [rp1] [c2] [fp3] [rp2] [c3] [fp2] active"},
		{"loop through a circuit back into the rear port",
			"if1@d1 fp1@d3 fp2@d3 rp1*2@d3 fp1.1=rp1.1 fp2.1=rp1.2 ctA1@site1 ctZ1@site2 " +
				"c1:if1-fp1 c2:rp1-ctA1 c3:ctZ1-fp2", "if1",
			"[if1] [c1] [fp1] [rp1] [c2] [ct1] [ct2] [c3] [fp2] [rp1] [c2] [ct1] [ct2] [c3] [fp2] active"},
		// Crossing a port twice at different positions is no loop.
		{"hairpin through a trunk and back",
			"if1@d1 if2@d1 fp1@d3 fp2@d3 rp1*2@d3 fp1.1=rp1.1 fp2.1=rp1.2 fp3@d4 fp4@d4 rp2*2@d4 fp3.1=rp2.1 fp4.1=rp2.2 " +
				"c1:if1-fp1 c2:rp1-rp2 c3:fp3-fp4 c4:fp2-if2", "if1",
			"[if1] [c1] [fp1] [rp1] [c2] [rp2] [fp3] [c3] [fp4] [rp2] [c2] [rp1] [fp2] [c4] [if2] complete active"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := topo(t, c.topo)
			var from []Node
			for _, name := range strings.Fields(c.from) {
				from = append(from, nodeOf(t, name))
			}
			p, err := Trace(context.Background(), g, from)
			if err != nil {
				t.Fatal(err)
			}
			if got := render(p); got != c.want {
				t.Errorf("trace from %s:\n got %s\nwant %s", c.from, got, c.want)
			}
		})
	}
}

func TestTraceRefusesMixedOrigins(t *testing.T) {
	g := topo(t, "if1@d1 if2@d1 if3@d2 if4@d2 c1:if1-if3 c2:if2-if4")
	_, err := Trace(context.Background(), g, []Node{nodeOf(t, "if1"), nodeOf(t, "if2")})
	if !errors.Is(err, ErrUnsupportedPath) {
		t.Fatalf("got %v, want ErrUnsupportedPath", err)
	}
}

// A trace asks a fixed number of questions per hop kind, whatever the
// number of objects on each hop: here eight ports on each side of two
// panels of eight positions.
func TestTraceAsksPerHop(t *testing.T) {
	spec := "rp1*8@d3 rp2*8@d4 c100:rp1-rp2"
	for i := 1; i <= 8; i++ {
		s := itoa(i)
		spec += " if" + s + "@d1 fp" + s + "@d3 fp" + s + ".1=rp1." + s + " c" + s + ":if" + s + "-fp" + s
		spec += " if1" + s + "@d2 fp1" + s + "@d4 fp1" + s + ".1=rp2." + s + " c1" + s + ":fp1" + s + "-if1" + s
	}
	g := topo(t, spec)
	p, err := Trace(context.Background(), g, []Node{nodeOf(t, "if5")})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := render(p), "[if5] [c5] [fp5] [rp1] [c100] [rp2] [fp15] [c15] [if15] complete active"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	want := map[string]int{"terms": 6, "cables": 3, "mappings": 2}
	if !reflect.DeepEqual(g.asked, want) {
		t.Errorf("asked %v, want %v", g.asked, want)
	}
}

func TestParseNode(t *testing.T) {
	for _, s := range []string{"dcim.interface:7", "circuits.circuittermination:12"} {
		n, err := ParseNode(s)
		if err != nil || n.String() != s {
			t.Errorf("ParseNode(%q) = %v, %v", s, n, err)
		}
	}
	for _, s := range []string{"dcim.interface", "dcim.interface:x"} {
		if _, err := ParseNode(s); err == nil {
			t.Errorf("ParseNode(%q) succeeded", s)
		}
	}
}

// panelChain is n single-position panels in a row, front to rear, from
// if1 to if2: n+1 cables.
func panelChain(n int) string {
	spec, cables := "if1@d1 if2@d2", " c1:if1-fp1"
	for i := 1; i <= n; i++ {
		s := itoa(i)
		spec += " fp" + s + "@d" + itoa(i+10) + " rp" + s + "@d" + itoa(i+10) + " fp" + s + ".1=rp" + s + ".1"
		next := "if2"
		if i < n {
			next = "fp" + itoa(i+1)
		}
		cables += " c" + itoa(i+1) + ":rp" + s + "-" + next
	}
	return spec + cables
}

// A path may pass MaxPathHops cables; one more is refused, with what was
// traced.
func TestTraceHopLimit(t *testing.T) {
	p, err := Trace(context.Background(), topo(t, panelChain(MaxPathHops-1)), []Node{nodeOf(t, "if1")})
	if err != nil || !p.IsComplete || len(p.Path) != 3*MaxPathHops {
		t.Fatalf("%d cables: %v, complete %v, %d steps", MaxPathHops, err, p != nil && p.IsComplete, len(p.Path))
	}
	_, err = Trace(context.Background(), topo(t, panelChain(MaxPathHops)), []Node{nodeOf(t, "if1")})
	var le *PathLimitError
	if !errors.As(err, &le) || le.Fanout || le.Origins[0] != nodeOf(t, "if1") {
		t.Fatalf("%d cables: got %v, want the hop limit", MaxPathHops+1, err)
	}
	if !strings.Contains(err.Error(), "passes more than 256 cables") {
		t.Errorf("message: %s", err)
	}
}

// A path may hold MaxPathFanout objects over all its steps: here n
// interfaces of one device cabled to n of another, 2n+1 nodes.
func TestTraceFanoutLimit(t *testing.T) {
	trace := func(n int) error {
		g := &memGraph{terms: map[Node]Term{}, cables: map[int]Cable{}, asked: map[string]int{}}
		c := Cable{ID: 1, Status: StatusConnected}
		for i := 1; i <= n; i++ {
			a, b := Node{CTInterface, i}, Node{CTInterface, n + i}
			g.terms[a] = Term{Node: a, Cable: 1, CableEnd: "A", Parent: Node{"dcim.device", 1}, Positions: 1}
			g.terms[b] = Term{Node: b, Cable: 1, CableEnd: "B", Parent: Node{"dcim.device", 2}, Positions: 1}
			c.A, c.B = append(c.A, a), append(c.B, b)
		}
		g.cables[1] = c
		p, err := Trace(context.Background(), g, c.A)
		if err == nil && !p.IsComplete {
			t.Errorf("%d a side: %s", n, render(p))
		}
		return err
	}
	if err := trace((MaxPathFanout - 1) / 2); err != nil {
		t.Fatalf("within the limit: %v", err)
	}
	var le *PathLimitError
	if err := trace(MaxPathFanout/2 + 1); !errors.As(err, &le) || !le.Fanout {
		t.Fatalf("past the limit: got %v, want the fan-out limit", err)
	}
}

// A serpentine through a trunk: the path crosses the trunk's rear ports
// eight times, each at another position (hairpins of front ports on both
// panels), and is no loop.
func TestTraceSerpentine(t *testing.T) {
	spec := "if1@d1 if2@d2 rp1*8@d3 rp2*8@d4"
	for i := 1; i <= 8; i++ {
		s := itoa(i)
		spec += " fp" + s + "@d3 fp" + s + ".1=rp1." + s + " fp1" + s + "@d4 fp1" + s + ".1=rp2." + s
	}
	spec += " c1:if1-fp1 c2:rp1-rp2 c11:fp11-fp12 c13:fp13-fp14 c15:fp15-fp16 c17:fp17-fp18" +
		" c3:fp2-fp3 c5:fp4-fp5 c7:fp6-fp7 c9:fp8-if2"
	p, err := Trace(context.Background(), topo(t, spec), []Node{nodeOf(t, "if1")})
	if err != nil {
		t.Fatal(err)
	}
	want := "[if1] [c1] [fp1] [rp1] [c2] [rp2] [fp11] [c11] [fp12] [rp2] [c2] [rp1] [fp2] [c3] [fp3]" +
		" [rp1] [c2] [rp2] [fp13] [c13] [fp14] [rp2] [c2] [rp1] [fp4] [c5] [fp5]" +
		" [rp1] [c2] [rp2] [fp15] [c15] [fp16] [rp2] [c2] [rp1] [fp6] [c7] [fp7]" +
		" [rp1] [c2] [rp2] [fp17] [c17] [fp18] [rp2] [c2] [rp1] [fp8] [c9] [if2] complete active"
	if got := render(p); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
