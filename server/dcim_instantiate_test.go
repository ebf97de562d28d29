package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// TestInstantiatePortsAndInterfaces is the walk-through on both
// databases: a device type with n interface templates, two power ports, a
// power outlet fed by one of them, a rear port and a front port mapped to
// it; creating a device in a rack gives it every component, the outlet
// fed by the device's own power port, the front port mapped to the
// device's own rear port, the second interface bridged to the first, each with its change record, in a statement
// count that does not grow with n; a second device at the same position
// and face is refused.
func TestInstantiatePortsAndInterfaces(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := modulesWorld(t, e)
		statements := map[int]int64{}
		for _, n := range []int{2, 48} {
			dt := id(e.Must(http.StatusCreated, "POST", dtPath, map[string]any{"manufacturer": w["m"],
				"model": fmt.Sprintf("Switch %d", n), "slug": fmt.Sprintf("switch-%d", n)}))
			var first int
			for i := 1; i <= n; i++ {
				body := map[string]any{"device_type": dt, "name": fmt.Sprintf("ge-0/0/%d", i), "type": "1000base-t", "mgmt_only": i == 1}
				if i == 2 {
					body["bridge"] = first // bridged to ge-0/0/1
				}
				tpl := id(e.Must(http.StatusCreated, "POST", tplPath("interface"), body))
				if i == 1 {
					first = tpl
				}
			}
			psu := id(e.Must(http.StatusCreated, "POST", tplPath("power-port"), map[string]any{"device_type": dt,
				"name": "PSU1", "type": "iec-60320-c14", "maximum_draw": 300}))
			e.Must(http.StatusCreated, "POST", tplPath("power-port"), map[string]any{"device_type": dt, "name": "PSU2"})
			e.Must(http.StatusCreated, "POST", tplPath("power-outlet"), map[string]any{"device_type": dt,
				"name": "Out1", "power_port": psu, "feed_leg": "A"})
			rear := id(e.Must(http.StatusCreated, "POST", tplPath("rear-port"), map[string]any{"device_type": dt,
				"name": "Rear1", "type": "lc", "positions": 2}))
			e.Must(http.StatusCreated, "POST", tplPath("front-port"), map[string]any{"device_type": dt,
				"name": "Front1", "type": "lc", "rear_ports": []any{map[string]any{"position": 1, "rear_port": rear, "rear_port_position": 2}}})

			before := e.Statements()
			r := e.Must(http.StatusCreated, "POST", devPath, map[string]any{"name": fmt.Sprintf("sw-%d", n),
				"device_type": dt, "role": w["r"], "site": w["s1"], "rack": w["r1"], "position": 10 + n/5, "face": "front"})
			statements[n] = e.Statements() - before
			dev := id(r)

			ifaces := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/interfaces/?device_id=%d&limit=100", dev), nil).Results()
			if len(ifaces) != n {
				t.Fatalf("%d interfaces, want %d", len(ifaces), n)
			}
			if got := countOf(t, e, fmt.Sprintf("/api/dcim/interfaces/?device_id=%d&name__isw=ge-0/0/1&mgmt_only=true", dev)); got != 1 {
				t.Errorf("mgmt_only copied to %d interfaces named ge-0/0/1*, want 1", got)
			}
			br := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/interfaces/?device_id=%d&name=ge-0/0/1", dev), nil).Results()
			members, _ := br[0]["bridge_interfaces"].([]any)
			if len(members) != 1 || asObject(members[0])["name"] != "ge-0/0/2" || asObject(asObject(members[0])["device"])["id"] != float64(dev) {
				t.Errorf("ge-0/0/1 bridge_interfaces = %v, want ge-0/0/2 of this device (nested)", br[0]["bridge_interfaces"])
			}
			ports := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/power-ports/?device_id=%d&ordering=name", dev), nil).Results()
			if len(ports) != 2 || ports[0]["name"] != "PSU1" || ports[0]["maximum_draw"] != float64(300) {
				t.Fatalf("power ports %v", ports)
			}
			outs := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/power-outlets/?device_id=%d", dev), nil).Results()
			if len(outs) != 1 || asObject(outs[0]["power_port"])["id"] != ports[0]["id"] {
				t.Errorf("power outlet %v: want it fed by the device's PSU1 (%v)", outs, ports[0]["id"])
			}
			rears := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/rear-ports/?device_id=%d", dev), nil).Results()
			fronts := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/front-ports/?device_id=%d", dev), nil).Results()
			if len(rears) != 1 || len(fronts) != 1 {
				t.Fatalf("%d rear and %d front ports, want 1 and 1", len(rears), len(fronts))
			}
			maps, _ := fronts[0]["rear_ports"].([]any)
			if len(maps) != 1 || asObject(maps[0])["rear_port"] != rears[0]["id"] || asObject(maps[0])["rear_port_position"] != float64(2) {
				t.Errorf("front port rear_ports %v: want the device's rear port %v at position 2", fronts[0]["rear_ports"], rears[0]["id"])
			}
			// The rear port shows the same mapping from its side.
			back, _ := rears[0]["front_ports"].([]any)
			if len(back) != 1 || asObject(back[0])["front_port"] != fronts[0]["id"] || asObject(back[0])["position"] != float64(2) ||
				asObject(back[0])["front_port_position"] != float64(1) {
				t.Errorf("rear port front_ports %v: want the device's front port %v, position 2 to 1", rears[0]["front_ports"], fronts[0]["id"])
			}
			d := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", devPath, dev), nil).Object()
			for field, want := range map[string]int{"interface_count": n, "power_port_count": 2, "power_outlet_count": 1,
				"rear_port_count": 1, "front_port_count": 1} {
				if d[field] != float64(want) {
					t.Errorf("device %s = %v, want %d", field, d[field], want)
				}
			}
			if got, want := len(changes(t, e, r.Header.Get("X-Request-ID"))), 1+n+2+1+1+1; got < want {
				t.Errorf("%d change records, want at least %d (the device and each component)", got, want)
			}
			e.Must(http.StatusBadRequest, "POST", devPath, map[string]any{"name": fmt.Sprintf("clash-%d", n),
				"device_type": dt, "role": w["r"], "site": w["s1"], "rack": w["r1"], "position": 10 + n/5, "face": "front"})
		}
		if statements[2] != statements[48] {
			t.Errorf("statements to create a device: %d with 2 interface templates, %d with 48", statements[2], statements[48])
		}
	})
}

// TestInstantiateBulkReadsTemplatesOnce: the devices of one bulk POST
// share their type's templates, read once per kind (not once per device),
// and each device still gets every component, its outlet fed by its own
// power port, its front port mapped to its own rear port.
func TestInstantiateBulkReadsTemplatesOnce(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := modulesWorld(t, e)
		dt := id(e.Must(http.StatusCreated, "POST", dtPath, map[string]any{"manufacturer": w["m"], "model": "Bulk", "slug": "bulk"}))
		for i := 1; i <= 4; i++ {
			e.Must(http.StatusCreated, "POST", tplPath("interface"), map[string]any{"device_type": dt, "name": fmt.Sprintf("ge-%d", i), "type": "1000base-t"})
		}
		psu := id(e.Must(http.StatusCreated, "POST", tplPath("power-port"), map[string]any{"device_type": dt, "name": "PSU1"}))
		e.Must(http.StatusCreated, "POST", tplPath("power-outlet"), map[string]any{"device_type": dt, "name": "Out1", "power_port": psu})
		rear := id(e.Must(http.StatusCreated, "POST", tplPath("rear-port"), map[string]any{"device_type": dt, "name": "Rear1", "type": "lc", "positions": 1}))
		e.Must(http.StatusCreated, "POST", tplPath("front-port"), map[string]any{"device_type": dt, "name": "Front1", "type": "lc",
			"rear_ports": []any{map[string]any{"position": 1, "rear_port": rear, "rear_port_position": 1}}})
		const n = 5
		body := make([]any, n)
		for i := range body {
			body[i] = map[string]any{"name": fmt.Sprintf("bulk-%d", i), "device_type": dt, "role": w["r"], "site": w["s1"]}
		}
		var devs []map[string]any
		stmts := e.Record(func() {
			r := e.Do("POST", devPath, body)
			if r.Status != http.StatusCreated {
				t.Fatalf("bulk create: %d %s", r.Status, r.Body)
			}
			for _, x := range r.JSON().([]any) {
				devs = append(devs, asObject(x))
			}
		})
		reads := 0
		for _, q := range stmts {
			if strings.HasPrefix(q, "SELECT") && strings.Contains(q, "dcim_interfacetemplate") {
				reads++
			}
		}
		if reads != 1 {
			t.Errorf("%d reads of the interface templates for %d devices, want 1", reads, n)
		}
		if len(devs) != n {
			t.Fatalf("%d devices, want %d", len(devs), n)
		}
		for _, d := range devs {
			dev := int(d["id"].(float64))
			if got := countOf(t, e, fmt.Sprintf("/api/dcim/interfaces/?device_id=%d", dev)); got != 4 {
				t.Errorf("device %d: %d interfaces, want 4", dev, got)
			}
			ports := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/power-ports/?device_id=%d", dev), nil).Results()
			outs := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/power-outlets/?device_id=%d", dev), nil).Results()
			if len(ports) != 1 || len(outs) != 1 || asObject(outs[0]["power_port"])["id"] != ports[0]["id"] {
				t.Errorf("device %d: outlets %v, want one fed by its own power port %v", dev, outs, ports)
			}
			rears := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/rear-ports/?device_id=%d", dev), nil).Results()
			fronts := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/front-ports/?device_id=%d", dev), nil).Results()
			if len(rears) != 1 || len(fronts) != 1 {
				t.Fatalf("device %d: %d rear and %d front ports, want 1 and 1", dev, len(rears), len(fronts))
			}
			maps, _ := fronts[0]["rear_ports"].([]any)
			if len(maps) != 1 || asObject(maps[0])["rear_port"] != rears[0]["id"] {
				t.Errorf("device %d: front port maps %v, want its own rear port %v", dev, maps, rears[0]["id"])
			}
		}
	})
}
