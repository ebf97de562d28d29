package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// Components instantiated from templates (a device from its device type,
// a module from its module type), modules in module bays and devices in
// device bays: NetBox's Device.save, Module.save, Module.clean and
// DeviceBay.clean.

const (
	devPath = "/api/dcim/devices/"
	modPath = "/api/dcim/modules/"
	mbPath  = "/api/dcim/module-bays/"
	dbPath  = "/api/dcim/device-bays/"
	invPath = "/api/dcim/inventory-items/"
)

// modulesWorld creates what the cases refer to, by key: manufacturer m,
// role r, sites s1 and s2, rack r1 at s1, device types dtP (parent), dtC
// (child) and dtX (neither), module types mt and mt2.
func modulesWorld(t *testing.T, e *servertest.Env) map[string]int {
	t.Helper()
	ids := map[string]int{}
	add := func(key, path string, body map[string]any) {
		ids[key] = int(e.Must(http.StatusCreated, "POST", path, resolveRefs(ids, body)).Object()["id"].(float64))
	}
	add("m", "/api/dcim/manufacturers/", map[string]any{"name": "Juniper", "slug": "juniper"})
	add("r", "/api/dcim/device-roles/", map[string]any{"name": "Router", "slug": "router"})
	add("s1", "/api/dcim/sites/", map[string]any{"name": "S1", "slug": "s1"})
	add("s2", "/api/dcim/sites/", map[string]any{"name": "S2", "slug": "s2"})
	add("r1", "/api/dcim/racks/", map[string]any{"name": "R1", "site": "@s1"})
	add("dtP", dtPath, map[string]any{"manufacturer": "@m", "model": "MX480", "slug": "mx480", "subdevice_role": "parent"})
	add("dtC", dtPath, map[string]any{"manufacturer": "@m", "model": "Blade", "slug": "blade", "subdevice_role": "child", "u_height": 0})
	add("dtX", dtPath, map[string]any{"manufacturer": "@m", "model": "EX4300", "slug": "ex4300"})
	add("mt", mtPath, map[string]any{"manufacturer": "@m", "model": "MPC7E"})
	add("mt2", mtPath, map[string]any{"manufacturer": "@m", "model": "PIC"})
	return ids
}

func countOf(t *testing.T, e *servertest.Env, path string) int {
	t.Helper()
	return int(e.Must(http.StatusOK, "GET", path, nil).Object()["count"].(float64))
}

// TestInstantiateDeviceComponents creates devices of types with n module
// bay, n device bay and n+1 inventory item templates (a tree): the device
// gets its bays and items, each with its change record and outbox event,
// and the create costs the same number of statements whatever n.
func TestInstantiateDeviceComponents(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.ListenToAllEvents()
		w := modulesWorld(t, e)
		statements := map[int]int64{}
		for _, n := range []int{1, 4, 24} {
			t.Run(fmt.Sprintf("%d templates", n), func(t *testing.T) {
				dt := id(e.Must(http.StatusCreated, "POST", dtPath, map[string]any{"manufacturer": w["m"],
					"model": fmt.Sprintf("Chassis %d", n), "slug": fmt.Sprintf("chassis-%d", n), "subdevice_role": "parent"}))
				for i := 0; i < n; i++ {
					e.Must(http.StatusCreated, "POST", tplPath("module-bay"), map[string]any{"device_type": dt,
						"name": fmt.Sprintf("Slot %d", i), "label": fmt.Sprintf("S%d", i), "position": fmt.Sprint(i), "enabled": i%2 == 0})
					e.Must(http.StatusCreated, "POST", tplPath("device-bay"), map[string]any{"device_type": dt,
						"name": fmt.Sprintf("Bay %d", i)})
				}
				root := id(e.Must(http.StatusCreated, "POST", tplPath("inventory-item"), map[string]any{"device_type": dt,
					"name": "Chassis", "part_id": "CH-1", "manufacturer": w["m"]}))
				for i := 0; i < n; i++ {
					e.Must(http.StatusCreated, "POST", tplPath("inventory-item"), map[string]any{"device_type": dt,
						"name": fmt.Sprintf("Fan %d", i), "parent": root})
				}
				before := e.Statements()
				r := e.Must(http.StatusCreated, "POST", devPath, map[string]any{"name": fmt.Sprintf("dev-%d", n),
					"device_type": dt, "role": w["r"], "site": w["s1"]})
				statements[n] = e.Statements() - before
				dev, req := id(r), r.Header.Get("X-Request-ID")

				bays := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s?device_id=%d&ordering=name&limit=100", mbPath, dev), nil).Results()
				if len(bays) != n {
					t.Fatalf("%d module bays, want %d", len(bays), n)
				}
				for _, b := range bays {
					var i int
					fmt.Sscanf(b["name"].(string), "Slot %d", &i)
					// NetBox counts a disabled bay as occupied.
					if b["label"] != fmt.Sprintf("S%d", i) || b["position"] != fmt.Sprint(i) || b["enabled"] != (i%2 == 0) ||
						b["module"] != nil || b["installed_module"] != nil || b["_occupied"] != (i%2 != 0) {
						t.Errorf("module bay %v: not as its template says", b)
					}
				}
				if got := countOf(t, e, fmt.Sprintf("%s?device_id=%d", dbPath, dev)); got != n {
					t.Errorf("%d device bays, want %d", got, n)
				}
				items := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s?device_id=%d&limit=100", invPath, dev), nil).Results()
				if len(items) != n+1 {
					t.Fatalf("%d inventory items, want %d", len(items), n+1)
				}
				var rootItem float64
				for _, it := range items {
					if it["name"] == "Chassis" {
						rootItem = it["id"].(float64)
						if it["part_id"] != "CH-1" || asObject(it["manufacturer"])["id"] != float64(w["m"]) || it["_depth"] != float64(0) {
							t.Errorf("root item %v", it)
						}
					}
				}
				for _, it := range items {
					if it["name"] != "Chassis" && (it["parent"] != rootItem || it["_depth"] != float64(1)) {
						t.Errorf("item %v: parent %v, want %v at depth 1", it["name"], it["parent"], rootItem)
					}
				}

				// One change record and one event per object, the device first.
				want := 1 + 2*n + n + 1
				recs := e.Must(http.StatusOK, "GET", "/api/core/object-changes/?ordering=id&limit=1000&request_id="+req, nil).Results()
				if len(recs) != want {
					t.Fatalf("%d change records, want %d", len(recs), want)
				}
				kinds := map[string]int{}
				for _, rec := range recs {
					if action(rec) != "create" {
						t.Errorf("change record %v: action %s", rec["changed_object_type"], action(rec))
					}
					kinds[rec["changed_object_type"].(string)]++
				}
				if recs[0]["changed_object_type"] != "dcim.device" || kinds["dcim.modulebay"] != n || kinds["dcim.devicebay"] != n ||
					kinds["dcim.inventoryitem"] != n+1 {
					t.Errorf("change records by type: %v (first %v)", kinds, recs[0]["changed_object_type"])
				}
				if evs := events(t, e, req); len(evs) != want {
					t.Errorf("%d outbox events, want %d", len(evs), want)
				}

				// Deleting the device deletes its components, each recorded.
				r = e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", devPath, dev), nil)
				del := e.Must(http.StatusOK, "GET", "/api/core/object-changes/?limit=1000&request_id="+r.Header.Get("X-Request-ID"), nil).Results()
				if len(del) != want {
					t.Errorf("%d delete records, want %d", len(del), want)
				}
				var q []string
				for _, b := range bays {
					q = append(q, fmt.Sprintf("id=%v", b["id"]))
				}
				if n := countOf(t, e, mbPath+"?"+strings.Join(q, "&")); n != 0 {
					t.Errorf("%d module bays left after the device's delete", n)
				}
			})
		}
		// Batched: the statements of a device create do not grow with the
		// number of templates (the change records go 100 to a statement).
		if statements[1] != statements[4] || statements[4] != statements[24] {
			t.Errorf("statements for a device with 1, 4, 24 templates of each kind: %d, %d, %d", statements[1], statements[4], statements[24])
		}
		t.Logf("statements: %v", statements)
	})
}

// TestInstallModule installs modules in module bays: the module type's
// templates are instantiated with {module} replaced by the bay's position
// (once per level for nested modules), an occupied bay is refused with
// nothing written, replicate_components and adopt_components behave as
// NetBox's.
func TestInstallModule(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.ListenToAllEvents()
		w := modulesWorld(t, e)
		e.Must(http.StatusCreated, "POST", tplPath("module-bay"), map[string]any{"device_type": w["dtP"], "name": "FPC3", "position": "3"})
		e.Must(http.StatusCreated, "POST", tplPath("module-bay"), map[string]any{"module_type": w["mt"],
			"name": "PIC{module}", "label": "L{module}", "position": "{module}/1"})
		e.Must(http.StatusCreated, "POST", tplPath("module-bay"), map[string]any{"module_type": w["mt2"],
			"name": "Port{module}/{module}", "position": "p"})
		dev := id(e.Must(http.StatusCreated, "POST", devPath, map[string]any{"name": "r1", "device_type": w["dtP"], "role": w["r"], "site": w["s1"]}))
		bayOf := func(name string) map[string]any {
			t.Helper()
			rs := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s?device_id=%d&name=%s", mbPath, dev, name), nil).Results()
			if len(rs) != 1 {
				t.Fatalf("module bay %s: %d found", name, len(rs))
			}
			return rs[0]
		}
		fpc := int(bayOf("FPC3")["id"].(float64))

		r := e.Must(http.StatusCreated, "POST", modPath, map[string]any{"device": dev, "module_bay": fpc, "module_type": w["mt"]})
		mod := r.Object()
		if mod["display"] != fmt.Sprintf("FPC3: MPC7E (%v)", mod["id"]) {
			t.Errorf("module display %v", mod["display"])
		}
		// A renamed bay or module type renames the module's display.
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", mbPath, fpc), map[string]any{"name": "FPC 3"})
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("/api/dcim/module-types/%d/", w["mt"]), map[string]any{"model": "MPC7E-MRATE"})
		if d := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%v/", modPath, mod["id"]), nil).Object()["display"]; d != fmt.Sprintf("FPC 3: MPC7E-MRATE (%v)", mod["id"]) {
			t.Errorf("module display after renames: %v", d)
		}
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", mbPath, fpc), map[string]any{"name": "FPC3"})
		if _, shown := mod["replicate_components"]; shown {
			t.Errorf("write-only replicate_components rendered: %v", mod)
		}
		pic := bayOf("PIC3")
		if pic["label"] != "L3" || pic["position"] != "3/1" || asObject(pic["module"])["id"] != mod["id"] {
			t.Errorf("module bay from the module's template: %v", pic)
		}
		if n := len(changes(t, e, r.Header.Get("X-Request-ID"))); n != 2 {
			t.Errorf("%d change records for the module and its bay, want 2", n)
		}
		f := bayOf("FPC3")
		if asObject(f["installed_module"])["id"] != mod["id"] || f["_occupied"] != true {
			t.Errorf("occupied bay: installed_module %v, _occupied %v", f["installed_module"], f["_occupied"])
		}
		if got := countOf(t, e, fmt.Sprintf("%s?installed_module_id=%v", mbPath, mod["id"])); got != 1 {
			t.Errorf("installed_module_id filter: %d bays", got)
		}

		// A module in the module's bay: one {module} per level, outermost first.
		e.Must(http.StatusCreated, "POST", modPath, map[string]any{"device": dev, "module_bay": pic["id"], "module_type": w["mt2"]})
		if port := bayOf("Port3/3/1"); port["position"] != "p" {
			t.Errorf("nested module's bay: %v", port)
		}

		// An occupied bay: 400, nothing written.
		nc, ne := counts(t, e)
		mods, bays := countOf(t, e, modPath), countOf(t, e, mbPath)
		r = e.Must(http.StatusBadRequest, "POST", modPath, map[string]any{"device": dev, "module_bay": fpc, "module_type": w["mt2"]})
		if msg := fmt.Sprint(r.Object()["module_bay"]); !strings.Contains(msg, "module with this module bay already exists.") {
			t.Errorf("occupied bay: %s", r.Body)
		}
		if nc2, ne2 := counts(t, e); nc2 != nc || ne2 != ne || countOf(t, e, modPath) != mods || countOf(t, e, mbPath) != bays {
			t.Errorf("a refused install wrote something")
		}

		// A bay of another device.
		other := id(e.Must(http.StatusCreated, "POST", devPath, map[string]any{"name": "r2", "device_type": w["dtP"], "role": w["r"], "site": w["s1"]}))
		r = e.Must(http.StatusBadRequest, "POST", modPath, map[string]any{"device": other, "module_bay": bayOf("Port3/3/1")["id"], "module_type": w["mt2"]})
		if !strings.Contains(string(r.Body), "Module must be installed within a module bay belonging to the assigned device (r2).") {
			t.Errorf("bay of another device: %s", r.Body)
		}

		// replicate_components false: no components; adopt_components:
		// a component of the device with the template's name and no
		// module moves to the module.
		bay2 := id(e.Must(http.StatusCreated, "POST", mbPath, map[string]any{"device": other, "name": "FPC7", "position": "7"}))
		bay3 := id(e.Must(http.StatusCreated, "POST", mbPath, map[string]any{"device": other, "name": "FPC8", "position": "8"}))
		before := countOf(t, e, mbPath)
		e.Must(http.StatusCreated, "POST", modPath, map[string]any{"device": other, "module_bay": bay2, "module_type": w["mt"],
			"replicate_components": false})
		if countOf(t, e, mbPath) != before {
			t.Errorf("replicate_components false created components")
		}
		loose := id(e.Must(http.StatusCreated, "POST", mbPath, map[string]any{"device": other, "name": "PIC8"}))
		m3 := id(e.Must(http.StatusCreated, "POST", modPath, map[string]any{"device": other, "module_bay": bay3, "module_type": w["mt"],
			"adopt_components": true}))
		got := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", mbPath, loose), nil).Object()
		if asObject(got["module"])["id"] != float64(m3) {
			t.Errorf("adopted bay: module %v, want %d", got["module"], m3)
		}
		if n := countOf(t, e, fmt.Sprintf("%s?device_id=%d&name=PIC8", mbPath, other)); n != 1 {
			t.Errorf("adopting also created a component: %d PIC8 bays", n)
		}
	})
}

// TestDeviceBayRules is NetBox's DeviceBay.clean, and the parent_device of
// an installed child.
func TestDeviceBayRules(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := modulesWorld(t, e)
		dev := func(name string, dt, site string, rack bool) int {
			body := map[string]any{"name": name, "device_type": w[dt], "role": w["r"], "site": w[site]}
			if rack {
				body["rack"] = w["r1"]
			}
			return id(e.Must(http.StatusCreated, "POST", devPath, body))
		}
		ids := map[string]int{
			"parent": dev("chassis", "dtP", "s1", true), "plain": dev("switch", "dtX", "s1", true),
			"child": dev("blade-1", "dtC", "s1", true), "child2": dev("blade-2", "dtC", "s1", true),
			"far": dev("blade-far", "dtC", "s2", false), "norack": dev("blade-norack", "dtC", "s1", false),
		}
		ids["bay"] = id(e.Must(http.StatusCreated, "POST", dbPath, map[string]any{"device": ids["parent"], "name": "Slot 1"}))
		ids["bay2"] = id(e.Must(http.StatusCreated, "POST", dbPath, map[string]any{"device": ids["parent"], "name": "Slot 2"}))
		ids["off"] = id(e.Must(http.StatusCreated, "POST", dbPath, map[string]any{"device": ids["parent"], "name": "Slot 3", "enabled": false}))
		cases := []struct {
			name        string
			method      string
			path        string
			body        map[string]any
			status      int
			field, text string
		}{
			{name: "bay on a device whose type is no parent", method: "POST", path: dbPath,
				body: map[string]any{"device": "@plain", "name": "X"}, status: 400, field: "__all__",
				text: "This type of device (EX4300) does not support device bays."},
			{name: "installing a device that is no child type", method: "PATCH", path: dbPath + "@bay/",
				body: map[string]any{"installed_device": "@plain"}, status: 400, field: "installed_device", text: "not a child device type"},
			{name: "installing a device into itself", method: "PATCH", path: dbPath + "@bay/",
				body: map[string]any{"installed_device": "@parent"}, status: 400, field: "__all__", text: "Cannot install a device into itself."},
			{name: "installing a child of another site", method: "PATCH", path: dbPath + "@bay/",
				body: map[string]any{"installed_device": "@far"}, status: 400, field: "installed_device", text: "same site and rack"},
			{name: "installing a child outside the rack", method: "PATCH", path: dbPath + "@bay/",
				body: map[string]any{"installed_device": "@norack"}, status: 400, field: "installed_device", text: "same site and rack"},
			{name: "installing into a disabled bay", method: "PATCH", path: dbPath + "@off/",
				body: map[string]any{"installed_device": "@child2"}, status: 400, field: "installed_device", text: "disabled device bay"},
			{name: "installing a child", method: "PATCH", path: dbPath + "@bay/",
				body: map[string]any{"installed_device": "@child"}, status: 200},
			{name: "installing it twice", method: "PATCH", path: dbPath + "@bay2/",
				body: map[string]any{"installed_device": "@child"}, status: 400, field: "installed_device"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				path := c.path
				for k, v := range ids {
					path = strings.ReplaceAll(path, "@"+k+"/", fmt.Sprintf("%d/", v))
				}
				r := e.Must(c.status, c.method, path, resolveRefs(ids, c.body))
				if c.status != 400 {
					return
				}
				msgs, ok := r.Object()[c.field]
				if !ok || !strings.Contains(fmt.Sprint(msgs), c.text) {
					t.Errorf("want %s: %q, got %s", c.field, c.text, r.Body)
				}
			})
		}
		bay := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", dbPath, ids["bay"]), nil).Object()
		if asObject(bay["installed_device"])["id"] != float64(ids["child"]) || bay["_occupied"] != true {
			t.Errorf("occupied bay: %v", bay)
		}
		if off := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", dbPath, ids["off"]), nil).Object(); off["_occupied"] != true {
			t.Errorf("a disabled bay counts as occupied: %v", off["_occupied"])
		}
	})
}

// TestParentDevice renders a child device's parent_device: the device of
// the bay holding it, with the bay (api.Reverse with Through and As), in a
// fixed number of queries per page.
func TestParentDevice(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := modulesWorld(t, e)
		mk := func(name, dt string) int {
			return id(e.Must(http.StatusCreated, "POST", devPath, map[string]any{"name": name, "device_type": w[dt], "role": w["r"], "site": w["s1"]}))
		}
		parent, child, loose := mk("chassis", "dtP"), mk("blade-1", "dtC"), mk("blade-2", "dtC")
		bay := id(e.Must(http.StatusCreated, "POST", dbPath, map[string]any{"device": parent, "name": "Slot 1", "installed_device": child}))
		cost := e.Cost
		got := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", devPath, child), nil).Object()["parent_device"]
		// NestedDeviceSerializer with NestedDeviceBaySerializer (whose
		// device is a NestedDeviceSerializer too).
		nestedDevice := fmt.Sprintf(`{"id": %d, "url": "http://inventory.test/api/dcim/devices/%d/",
			"display_url": "http://inventory.test/dcim/devices/%d/", "display": "chassis", "name": "chassis"`, parent, parent, parent)
		want := nestedDevice + fmt.Sprintf(`, "device_bay": {"id": %d, "url": "http://inventory.test/api/dcim/device-bays/%d/",
			"display_url": "http://inventory.test/dcim/device-bays/%d/", "display": "Slot 1", "device": %s, "name": "Slot 1"}}`,
			bay, bay, bay, nestedDevice+"}")
		if raw, _ := json.Marshal(got); !jsonEqual(t, raw, []byte(want)) {
			t.Errorf("parent_device = %s\nwant %s", raw, want)
		}
		if got := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", devPath, loose), nil).Object()["parent_device"]; got != nil {
			t.Errorf("a device in no bay: parent_device %v", got)
		}
		// A fixed number of queries whatever the page size.
		one := cost(fmt.Sprintf("%s?id=%d", devPath, child))
		three := cost(fmt.Sprintf("%s?id=%d&id=%d&id=%d", devPath, child, loose, parent))
		if one != three {
			t.Errorf("device list of 1 vs 3 with parent_device: %d vs %d queries", one, three)
		}
	})
}

// TestInventoryItemRules: NetBox's InventoryItem.clean(): a new item's
// component is on its device; an item moved to another device drops its
// component, and one with children stays where its children are.
func TestInventoryItemRules(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := componentsWorld(t, e)
		item := func(body map[string]any) *servertest.Response {
			return e.Do("POST", invPath, resolveRefs(ids, body))
		}
		r := item(map[string]any{"device": "@d2", "name": "optic", "component_type": "dcim.interface", "component_id": "@eth1"})
		if r.Status != http.StatusBadRequest || !strings.Contains(fmt.Sprint(r.Object()["device"]), "Cannot assign inventory item to component on another device") {
			t.Errorf("item on d2 for d1's interface: %d %s", r.Status, r.Body)
		}
		ok := id(e.Must(http.StatusCreated, "POST", invPath, resolveRefs(ids, map[string]any{"device": "@d1", "name": "optic",
			"component_type": "dcim.interface", "component_id": "@eth1"})))
		// Moved to d2: the component stays behind.
		moved := e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", invPath, ok), map[string]any{"device": ids["d2"]}).Object()
		if moved["component_type"] != nil || moved["component_id"] != nil || moved["component"] != nil {
			t.Errorf("moved item keeps its component: %v %v", moved["component_type"], moved["component_id"])
		}
		// A parent with a child on its device cannot move.
		parent := id(e.Must(http.StatusCreated, "POST", invPath, map[string]any{"device": ids["d1"], "name": "chassis"}))
		e.Must(http.StatusCreated, "POST", invPath, map[string]any{"device": ids["d1"], "name": "card", "parent": parent})
		b := e.Must(http.StatusBadRequest, "PATCH", fmt.Sprintf("%s%d/", invPath, parent), map[string]any{"device": ids["d2"]}).Object()
		if !strings.Contains(fmt.Sprint(b["__all__"]), "Cannot move an inventory item with dependent children") {
			t.Errorf("moving a parent: %v", b)
		}
		if d := asObject(e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", invPath, parent), nil).Object()["device"]); d["id"] != float64(ids["d1"]) {
			t.Errorf("refused move changed the device to %v", d)
		}
	})
}
