package dcim

import (
	"fmt"
	"strings"
	"testing"
)

// TestRackUnits: half units top first, and the units a device covers
// (on its face, or on both when full depth) occupied and naming it.
func TestRackUnits(t *testing.T) {
	dev := func(name string) any { return map[string]any{"name": name} }
	cases := []struct {
		name      string
		g         RackGeometry
		face      string
		occupants []Occupant
		want      string // id:occupied,... top first
	}{
		{"ascending", RackGeometry{Height: 2, Start: 1}, "front", nil,
			"2.5:-,2.0:-,1.5:-,1.0:-"},
		{"descending from unit 7", RackGeometry{Height: 2, Start: 7, DescUnits: true}, "rear", nil,
			"7.0:-,7.5:-,8.0:-,8.5:-"},
		{"a 1U device at 2 on this face", RackGeometry{Height: 3, Start: 1}, "front",
			[]Occupant{{Position: 2, Height: 1, Face: "front", Device: dev("sw1")}},
			"3.5:-,3.0:-,2.5:sw1,2.0:sw1,1.5:-,1.0:-"},
		{"a device on the other face", RackGeometry{Height: 3, Start: 1}, "rear",
			[]Occupant{{Position: 2, Height: 1, Face: "front", Device: dev("sw1")}},
			"3.5:-,3.0:-,2.5:-,2.0:-,1.5:-,1.0:-"},
		{"a full-depth 2U device seen from the rear", RackGeometry{Height: 3, Start: 1}, "rear",
			[]Occupant{{Position: 1, Height: 2, Face: "front", FullDepth: true, Device: dev("srv")}},
			"3.5:-,3.0:-,2.5:srv,2.0:srv,1.5:srv,1.0:srv"}, // U1 to the top half of U2
		{"a device the user may not see: occupied, no device", RackGeometry{Height: 2, Start: 1}, "front",
			[]Occupant{{Position: 1, Height: 0.5, Face: "front"}},
			"2.5:-,2.0:-,1.5:-,1.0:?"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, u := range RackUnits(c.g, c.face, c.occupants) {
				if u.Face.Value != c.face || u.Display != u.Name {
					t.Errorf("unit %s: face %v, display %q", u.ID, u.Face, u.Display)
				}
				mark := "-"
				switch {
				case u.Device != nil:
					mark = fmt.Sprint(u.Device.(map[string]any)["name"])
				case u.Occupied:
					mark = "?"
				}
				if u.Occupied != (mark != "-") {
					t.Errorf("unit %s: occupied %v with device %v", u.ID, u.Occupied, u.Device)
				}
				got = append(got, string(u.ID)+":"+mark)
			}
			if s := strings.Join(got, ","); s != c.want {
				t.Errorf("got  %s\nwant %s", s, c.want)
			}
		})
	}
}
