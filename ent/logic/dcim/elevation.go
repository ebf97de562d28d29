package dcim

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// RackGeometry is what a rack's units follow from.
type RackGeometry struct {
	Height    int  // u_height
	Start     int  // starting_unit
	DescUnits bool // units numbered top to bottom
}

// Occupant is a device in a rack as the elevation sees it: its lowest
// unit and its height in units (0.5 steps), on one face or both (full
// depth). Device is its nested representation. Devices fill the elevation
// through this when they exist.
type Occupant struct {
	ID        int
	Position  float64
	Height    float64
	Face      string // "front", "rear"
	FullDepth bool
	Device    any
	// Display is the device's display, the unit's description.
	Display string
}

// Fits reports whether o can take its position in rack g beside the
// others, as Device.clean() asks Rack.get_available_units: every half
// unit from its position up to its height is a unit of the rack and free
// of the others on o's face (on both faces when o or the other is full
// depth). 0U devices take no units, so they never collide.
func Fits(g RackGeometry, o Occupant, others []Occupant) bool {
	free := map[int]bool{}
	for i := 0; i < 2*g.Height; i++ {
		free[2*g.Start+i] = true
	}
	for _, x := range others {
		if o.FullDepth || x.Face == o.Face || x.FullDepth {
			for h := int(math.Round(2 * x.Position)); h < int(math.Round(2*(x.Position+x.Height))); h++ {
				delete(free, h)
			}
		}
	}
	lo := int(math.Round(2 * o.Position))
	if !free[lo] {
		return false
	}
	for h := lo; h < int(math.Round(2*(o.Position+o.Height))); h++ {
		if !free[h] {
			return false
		}
	}
	return true
}

// Unit is one row of a rack elevation: NetBox's RackUnitSerializer.
type Unit struct {
	ID          json.Number `json:"id"`
	Name        string      `json:"name"`
	Face        faceValue   `json:"face"`
	Device      any         `json:"device"`
	Occupied    bool        `json:"occupied"`
	Display     string      `json:"display"`
	Description *string     `json:"description"`
}

type faceValue struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

var faces = map[string]string{"front": "Front", "rear": "Rear"}

// RackUnits lists a rack's half units top first, as NetBox's
// Rack.get_rack_units does with expand_devices: ascending numbering lists
// the highest unit first (U42.5, U42, ... U1), descending numbering the
// first unit first. Each unit an occupant covers on this face (or on both,
// when full depth) is occupied and names the device.
func RackUnits(g RackGeometry, face string, occupants []Occupant) []Unit {
	n := 2 * g.Height
	units := make([]Unit, 0, n)
	index := map[int]int{} // half units (2u) → position in units
	for i := 0; i < n; i++ {
		var twice int // the unit number times two
		if g.DescUnits {
			twice = 2*g.Start + i
		} else {
			twice = 2*(g.Height+g.Start-1) + 1 - i
		}
		id := strconv.Itoa(twice/2) + ".0"
		name := "U" + strconv.Itoa(twice/2)
		if twice%2 == 1 {
			id = strconv.Itoa(twice/2) + ".5"
			name = "U" + id
		}
		index[twice] = len(units)
		units = append(units, Unit{ID: json.Number(id), Name: name, Face: faceValue{face, faces[face]}, Display: name})
	}
	for _, o := range occupants {
		if o.Face != face && !o.FullDepth {
			continue
		}
		for h := int(2 * o.Position); h < int(2*(o.Position+o.Height)); h++ {
			if i, ok := index[h]; ok {
				units[i].Occupied = true
				if o.Device != nil {
					units[i].Device = o.Device
					d := o.Display
					if d == "" {
						d = fmt.Sprint(o.Device)
					}
					units[i].Description = &d
				}
			}
		}
	}
	return units
}

// RackElevation serves GET /api/dcim/racks/{id}/elevation/ (NetBox's
// RackViewSet.elevation): the rack's units for ?face= (front by default),
// narrowed by ?q= (in the unit's id or name), paginated. ?render=svg is
// refused: drawings are not rendered here. The devices placed in the rack
// (but ?exclude=) occupy their units, nested when the caller may view
// them.
func RackElevation(r api.Request) (any, error) {
	face := r.Query("face")
	if face == "" {
		face = "front"
	}
	if _, ok := faces[face]; !ok {
		return nil, &api.FieldError{Field: "face", Message: fmt.Sprintf("%q is not a valid choice.", face)}
	}
	switch render := r.Query("render"); render {
	case "", "json":
	case "svg":
		return nil, &api.StatusError{Status: 400, Detail: "Rendering the rack elevation as SVG is not supported; ask for render=json."}
	default:
		return nil, &api.FieldError{Field: "render", Message: fmt.Sprintf("%q is not a valid choice.", render)}
	}
	for _, p := range []string{"exclude", "unit_width", "unit_height", "legend_width", "margin_width"} {
		if v := r.Query(p); v != "" {
			if _, err := strconv.Atoi(strings.TrimSpace(v)); err != nil {
				return nil, &api.FieldError{Field: p, Message: "A valid integer is required."}
			}
		}
	}
	for _, p := range []string{"expand_devices", "include_images"} {
		switch strings.ToLower(r.Query(p)) {
		case "", "true", "false", "1", "0", "yes", "no", "on", "off", "t", "f", "y", "n":
		default:
			return nil, &api.FieldError{Field: p, Message: "Must be a valid boolean."}
		}
	}
	obj := r.Object()
	height, _ := rawsql.IntOf(obj("u_height"))
	start, _ := rawsql.IntOf(obj("starting_unit"))
	g := RackGeometry{Height: height, Start: start, DescUnits: truthy(obj("desc_units"))}
	id, _ := rawsql.IntOf(obj("id"))
	exclude, _ := strconv.Atoi(strings.TrimSpace(r.Query("exclude")))
	devices, err := RackDevices(r, id, exclude)
	if err != nil {
		return nil, err
	}
	q := strings.ToLower(r.Query("q"))
	page := api.Page{}
	for _, u := range RackUnits(g, face, devices) {
		if q == "" || strings.Contains(string(u.ID), q) || strings.Contains(strings.ToLower(u.Name), q) {
			page = append(page, u)
		}
	}
	return page, nil
}
