package dcim

import (
	"testing"

	"github.com/inventory/inventory/ent/schema/api"
)

// TestFits: NetBox's get_available_units as Device.clean() uses it.
func TestFits(t *testing.T) {
	g := RackGeometry{Height: 10, Start: 1}
	front1U := Occupant{Position: 5, Height: 1, Face: "front"}
	rearFull := Occupant{Position: 8, Height: 2, Face: "rear", FullDepth: true}
	zero := Occupant{Position: 3, Height: 0, Face: "front"}
	cases := []struct {
		name   string
		g      RackGeometry
		o      Occupant
		others []Occupant
		want   bool
	}{
		{"empty rack", g, Occupant{Position: 1, Height: 1, Face: "front"}, nil, true},
		{"same unit, same face", g, Occupant{Position: 5, Height: 1, Face: "front"}, []Occupant{front1U}, false},
		{"same unit, other face, both half depth", g, Occupant{Position: 5, Height: 1, Face: "rear"}, []Occupant{front1U}, true},
		{"same unit, other face, new one full depth", g, Occupant{Position: 5, Height: 1, Face: "rear", FullDepth: true}, []Occupant{front1U}, false},
		{"other face of a full-depth device", g, Occupant{Position: 9, Height: 1, Face: "front"}, []Occupant{rearFull}, false},
		{"half unit below a device", g, Occupant{Position: 4, Height: 1, Face: "front"}, []Occupant{front1U}, true},
		{"overlapping by a half unit", g, Occupant{Position: 4.5, Height: 1, Face: "front"}, []Occupant{front1U}, false},
		{"a 0U device never collides", g, Occupant{Position: 3, Height: 1, Face: "front"}, []Occupant{zero}, true},
		{"top unit", g, Occupant{Position: 10, Height: 1, Face: "front"}, nil, true},
		{"over the top", g, Occupant{Position: 10, Height: 2, Face: "front"}, nil, false},
		{"half unit at the top", g, Occupant{Position: 10.5, Height: 0.5, Face: "front"}, nil, true},
		{"below the starting unit", RackGeometry{Height: 10, Start: 5}, Occupant{Position: 4, Height: 1, Face: "front"}, nil, false},
		{"from the starting unit", RackGeometry{Height: 10, Start: 5}, Occupant{Position: 14, Height: 1, Face: "front"}, nil, true},
	}
	for _, c := range cases {
		if got := Fits(c.g, c.o, c.others); got != c.want {
			t.Errorf("%s: Fits = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestDeviceDisplay: the forms of NetBox's Device.__str__.
func TestDeviceDisplay(t *testing.T) {
	cases := []struct {
		row  map[string]any
		want string
	}{
		{map[string]any{"id": 7, "name": "sw1", "_type_display": "Juniper EX"}, "sw1"},
		{map[string]any{"id": 7, "name": "sw1", "asset_tag": "A1"}, "sw1 (A1)"},
		{map[string]any{"id": 7, "virtual_chassis": 2, "_vc_name": "stack", "vc_position": 3}, "stack:3"},
		{map[string]any{"id": 7, "virtual_chassis": 2, "_vc_name": "stack", "vc_position": 3, "asset_tag": "A1"}, "stack:3 (A1)"},
		{map[string]any{"id": 7, "_vc_name": "stale", "_type_display": "Juniper EX"}, "Juniper EX (7)"},
		{map[string]any{"id": 7, "asset_tag": "A1", "_type_display": "Juniper EX"}, "Juniper EX (A1)"},
	}
	for _, c := range cases {
		get := api.Getter(func(f string) any { return c.row[f] })
		if got := DeviceDisplay(get); got != c.want {
			t.Errorf("%v: %q, want %q", c.row, got, c.want)
		}
	}
}

// TestCheckPositionAndContext: the position field's own bounds and steps,
// and the config context's shape.
func TestCheckPositionAndContext(t *testing.T) {
	for v, want := range map[float64]string{1: "", 100.5: "", 2.5: "", 0.5: "Ensure this value is greater than or equal to 1.",
		101: "Ensure this value is less than or equal to 100.5.", 3.25: "Ensure that there are no more than 1 decimal places.",
		3.3: "Position must be in increments of 0.5 rack units."} {
		err := checkPosition(v)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("position %v: %q, want %q", v, got, want)
		}
	}
}
