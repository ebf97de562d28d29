package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// Device types, module types and their component templates: the rules
// across objects (NetBox's clean() of each model) and the deletes.

const (
	dtPath  = "/api/dcim/device-types/"
	mtPath  = "/api/dcim/module-types/"
	mtpPath = "/api/dcim/module-type-profiles/"
)

func tplPath(kind string) string { return "/api/dcim/" + kind + "-templates/" }

// typesWorld creates what the rule cases refer to, by key: manufacturer
// m, a parent device type dt1, a plain device type dt2, a profile p with
// a schema, module types mt (with profile p) and mt2, and templates on
// dt1 (pp1, if1, rp1 with two positions, inv1) and dt2 (pp2).
func typesWorld(t *testing.T, e *servertest.Env) map[string]int {
	t.Helper()
	ids := map[string]int{}
	add := func(key, path string, body map[string]any) {
		ids[key] = int(e.Must(http.StatusCreated, "POST", path, resolveRefs(ids, body)).Object()["id"].(float64))
	}
	add("m", "/api/dcim/manufacturers/", map[string]any{"name": "Juniper", "slug": "juniper"})
	add("dt1", dtPath, map[string]any{"manufacturer": "@m", "model": "MX480", "slug": "mx480", "subdevice_role": "parent"})
	add("dt2", dtPath, map[string]any{"manufacturer": "@m", "model": "EX4300", "slug": "ex4300"})
	add("p", mtpPath, map[string]any{"name": "PSU", "schema": map[string]any{
		"properties": map[string]any{"watts": map[string]any{"type": "integer", "minimum": 1}},
		"required":   []any{"watts"}}})
	add("mt", mtPath, map[string]any{"manufacturer": "@m", "model": "PSU-2000", "profile": "@p", "attributes": map[string]any{"watts": 2000}})
	add("mt2", mtPath, map[string]any{"manufacturer": "@m", "model": "MPC7E"})
	add("pp1", tplPath("power-port"), map[string]any{"device_type": "@dt1", "name": "PSU0"})
	add("pp2", tplPath("power-port"), map[string]any{"device_type": "@dt2", "name": "PSU0"})
	add("if1", tplPath("interface"), map[string]any{"device_type": "@dt1", "name": "ge-0/0/0", "type": "1000base-t"})
	add("rp1", tplPath("rear-port"), map[string]any{"device_type": "@dt1", "name": "R1", "type": "lc", "positions": 2})
	add("inv1", tplPath("inventory-item"), map[string]any{"device_type": "@dt1", "name": "RE0"})
	return ids
}

// ruleCase is a write that a rule of NetBox's clean() admits or refuses.
type ruleCase struct {
	name   string
	method string // POST (default) or PATCH
	path   string // "@key/" in it is replaced by the key's id
	body   map[string]any
	status int
	// field and text: the 400 names field with a message containing text
	// (a list of messages, or one per list element for rear_ports).
	field, text string
}

// runRuleCases runs each case as a subtest over the objects ids names: the
// status, the 400's message, and that a refused write leaves no change
// record and no event.
func runRuleCases(t *testing.T, e *servertest.Env, ids map[string]int, cases []ruleCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			method := c.method
			if method == "" {
				method = "POST"
			}
			path := c.path
			for k, id := range ids {
				path = strings.ReplaceAll(path, "@"+k+"/", fmt.Sprintf("%d/", id))
			}
			nc, ne := counts(t, e)
			r := e.Do(method, path, resolveRefs(ids, c.body))
			want := map[int]int{200: http.StatusOK, 201: http.StatusCreated, 400: http.StatusBadRequest}[c.status]
			if r.Status != want {
				t.Fatalf("%s %s: %d %s, want %d", method, path, r.Status, r.Body, want)
			}
			if want != http.StatusBadRequest {
				return
			}
			msgs := r.Object()[c.field]
			if msgs == nil || !strings.Contains(fmt.Sprint(msgs), c.text) {
				t.Errorf("400 body %s: want %s naming %q", r.Body, c.field, c.text)
			}
			if nc2, ne2 := counts(t, e); nc2 != nc || ne2 != ne {
				t.Errorf("a refused write made %d change records and %d events", nc2-nc, ne2-ne)
			}
		})
	}
}

// resolveRefs replaces "@key" strings (also inside lists and objects) by
// the ids of earlier objects.
func resolveRefs(ids map[string]int, v any) any {
	switch x := v.(type) {
	case string:
		if strings.HasPrefix(x, "@") {
			if id, ok := ids[x[1:]]; ok {
				return id
			}
		}
	case map[string]any:
		out := map[string]any{}
		for k, v := range x {
			out[k] = resolveRefs(ids, v)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, v := range x {
			out[i] = resolveRefs(ids, v)
		}
		return out
	}
	return v
}

func TestDCIMTypeRules(t *testing.T) {
	cases := []ruleCase{
		// Exactly one parent (ModularComponentTemplateModel.clean()).
		{name: "template without a parent", path: tplPath("console-port"),
			body: map[string]any{"name": "con"}, status: 400,
			field: "__all__", text: "must be associated with either a device type or a module type"},
		{name: "template with both parents", path: tplPath("console-port"),
			body: map[string]any{"name": "con", "device_type": "@dt1", "module_type": "@mt"}, status: 400,
			field: "__all__", text: "cannot be associated with both a device type and a module type"},
		{name: "template on a device type", path: tplPath("console-port"),
			body: map[string]any{"name": "con", "device_type": "@dt1"}, status: 201},
		{name: "template on a module type", path: tplPath("console-server-port"),
			body: map[string]any{"name": "con", "module_type": "@mt"}, status: 201},
		{name: "device bay template needs its device type", path: tplPath("device-bay"),
			body: map[string]any{"name": "bay"}, status: 400, field: "device_type", text: "required"},

		// Names unique per parent.
		{name: "name clash on a device type", path: tplPath("power-port"),
			body: map[string]any{"name": "PSU0", "device_type": "@dt1"}, status: 400,
			field: "__all__", text: "Power port template with this Device type and Name already exists."},
		{name: "same name on a module type", path: tplPath("power-port"),
			body: map[string]any{"name": "PSU0", "module_type": "@mt"}, status: 201},
		{name: "module bay on a module type", path: tplPath("module-bay"),
			body: map[string]any{"name": "slot", "module_type": "@mt2"}, status: 201},
		{name: "name clash on a module type", path: tplPath("module-bay"),
			body: map[string]any{"name": "slot", "module_type": "@mt2"}, status: 400,
			field: "__all__", text: "Module bay template with this Module type and Name already exists."},
		{name: "inventory item under a parent", path: tplPath("inventory-item"),
			body: map[string]any{"name": "SSD", "device_type": "@dt1", "parent": "@inv1"}, status: 201},
		{name: "inventory item name clash under one parent", path: tplPath("inventory-item"),
			body: map[string]any{"name": "SSD", "device_type": "@dt1", "parent": "@inv1"}, status: 400,
			field: "__all__", text: "Inventory item template with this Device type, Parent and Name already exists."},

		// {module} only on module types.
		{name: "{module} on a device type", path: tplPath("interface"),
			body: map[string]any{"name": "et-{module}/0", "type": "100gbase-x-qsfp28", "device_type": "@dt1"}, status: 400,
			field: "name", text: "{module} placeholder"},
		{name: "{module} on a module type", path: tplPath("interface"),
			body: map[string]any{"name": "et-{module}/0", "type": "100gbase-x-qsfp28", "module_type": "@mt2"}, status: 201},

		// References to other templates stay on the same parent.
		{name: "power outlet's power port on another device type", path: tplPath("power-outlet"),
			body: map[string]any{"name": "out1", "device_type": "@dt2", "power_port": "@pp1"}, status: 400,
			field: "power_port", text: "Parent power port (PSU0) must belong to the same device type"},
		{name: "power outlet's power port on a device type, outlet on a module type", path: tplPath("power-outlet"),
			body: map[string]any{"name": "out1", "module_type": "@mt", "power_port": "@pp1"}, status: 400,
			field: "power_port", text: "must belong to the same module type"},
		{name: "power outlet's power port on its device type", path: tplPath("power-outlet"),
			body: map[string]any{"name": "out1", "device_type": "@dt2", "power_port": "@pp2", "feed_leg": "A"}, status: 201},
		{name: "interface bridge on another device type", path: tplPath("interface"),
			body: map[string]any{"name": "br0", "type": "bridge", "device_type": "@dt2", "bridge": "@if1"}, status: 400,
			field: "bridge", text: "Bridge interface (ge-0/0/0) must belong to the same device type"},
		{name: "interface bridged to itself", method: "PATCH", path: tplPath("interface") + "@if1/",
			body: map[string]any{"bridge": "@if1"}, status: 400, field: "bridge", text: "cannot be bridged to itself"},
		{name: "wireless role on a wired interface", path: tplPath("interface"),
			body: map[string]any{"name": "wl0", "type": "1000base-t", "device_type": "@dt1", "rf_role": "ap"}, status: 400,
			field: "rf_role", text: "only on wireless interfaces"},
		{name: "PoE type without mode", path: tplPath("interface"),
			body: map[string]any{"name": "ge-0/0/1", "type": "1000base-t", "device_type": "@dt1", "poe_type": "type1-ieee802.3af"}, status: 400,
			field: "poe_type", text: "Must specify PoE mode"},
		{name: "allocated draw above maximum", path: tplPath("power-port"),
			body: map[string]any{"name": "PSU1", "device_type": "@dt1", "maximum_draw": 100, "allocated_draw": 150}, status: 400,
			field: "allocated_draw", text: "cannot exceed the maximum draw (100W)"},
		{name: "front port mapped to a rear port of another device type", path: tplPath("front-port"),
			body: map[string]any{"name": "F1", "type": "lc", "device_type": "@dt2",
				"rear_ports": []any{map[string]any{"position": 1, "rear_port": "@rp1", "rear_port_position": 1}}}, status: 400,
			field: "rear_ports", text: "must belong to the same device type"},
		{name: "front port mapped beyond the rear port's positions", path: tplPath("front-port"),
			body: map[string]any{"name": "F1", "type": "lc", "device_type": "@dt1",
				"rear_ports": []any{map[string]any{"position": 1, "rear_port": "@rp1", "rear_port_position": 3}}}, status: 400,
			field: "rear_ports", text: "Invalid rear port position (3): Rear port R1 has only 2 positions."},
		{name: "front port mapped to its rear port", path: tplPath("front-port"),
			body: map[string]any{"name": "F1", "type": "lc", "device_type": "@dt1",
				"rear_ports": []any{map[string]any{"position": 1, "rear_port": "@rp1", "rear_port_position": 2}}}, status: 201},
		{name: "device bay on a device type that is no parent", path: tplPath("device-bay"),
			body: map[string]any{"name": "bay1", "device_type": "@dt2"}, status: 400,
			field: "__all__", text: `Subdevice role of device type (EX4300) must be set to "parent"`},
		{name: "inventory item under another device type's item", path: tplPath("inventory-item"),
			body: map[string]any{"name": "fan", "device_type": "@dt2", "parent": "@inv1"}, status: 400,
			field: "parent", text: "must belong to the same device type"},
		{name: "template moved to another device type", method: "PATCH", path: tplPath("interface") + "@if1/",
			body: map[string]any{"device_type": "@dt2"}, status: 400,
			field: "device_type", text: "cannot be moved to a different device type"},
		{name: "template patched with its own device type", method: "PATCH", path: tplPath("power-port") + "@pp1/",
			body: map[string]any{"device_type": "@dt1", "label": "PSU zero"}, status: 200},

		// Device types.
		{name: "u_height off the half-unit grid", path: dtPath,
			body: map[string]any{"manufacturer": "@m", "model": "X1", "slug": "x1", "u_height": 1.2}, status: 400,
			field: "u_height", text: "increments of 0.5 rack units"},
		{name: "u_height with two decimal places", path: dtPath,
			body: map[string]any{"manufacturer": "@m", "model": "X1", "slug": "x1", "u_height": 1.25}, status: 400,
			field: "u_height", text: "no more than 1 decimal places"},
		{name: "child device type of 1U", path: dtPath,
			body: map[string]any{"manufacturer": "@m", "model": "X1", "slug": "x1", "subdevice_role": "child"}, status: 400,
			field: "u_height", text: "Child device types must be 0U."},
		{name: "weight without unit", path: dtPath,
			body: map[string]any{"manufacturer": "@m", "model": "X1", "slug": "x1", "weight": 3.5}, status: 400,
			field: "weight_unit", text: "Must specify a unit when setting a weight"},
		{name: "model clash per manufacturer", path: dtPath,
			body: map[string]any{"manufacturer": "@m", "model": "MX480", "slug": "mx480-2"}, status: 400,
			field: "__all__", text: "Device type with this Manufacturer and Model already exists."},
		{name: "slug clash per manufacturer", path: dtPath,
			body: map[string]any{"manufacturer": "@m", "model": "MX480 v2", "slug": "mx480"}, status: 400,
			field: "__all__", text: "Device type with this Manufacturer and Slug already exists."},
		{name: "parent device type with bays declassified", method: "PATCH", path: dtPath + "@dt1/",
			body: map[string]any{"subdevice_role": nil}, status: 400,
			field: "subdevice_role", text: "Must delete all device bay templates"},

		// Module types against their profile's schema.
		{name: "attributes missing a required property", path: mtPath,
			body: map[string]any{"manufacturer": "@m", "model": "PSU-1", "profile": "@p", "attributes": map[string]any{}}, status: 400,
			field: "attributes", text: "Invalid schema:"},
		{name: "attributes of the wrong type", path: mtPath,
			body: map[string]any{"manufacturer": "@m", "model": "PSU-1", "profile": "@p", "attributes": map[string]any{"watts": "many"}}, status: 400,
			field: "attributes", text: "Invalid schema:"},
		{name: "attributes patched invalid", method: "PATCH", path: mtPath + "@mt/",
			body: map[string]any{"attributes": map[string]any{"watts": 0}}, status: 400,
			field: "attributes", text: "Invalid schema:"},
		{name: "attributes matching the schema", path: mtPath,
			body: map[string]any{"manufacturer": "@m", "model": "PSU-1", "profile": "@p", "attributes": map[string]any{"watts": 1100}}, status: 201},
		{name: "profile with an invalid schema", path: mtpPath,
			body: map[string]any{"name": "Bad", "schema": map[string]any{"type": 12}}, status: 400,
			field: "schema", text: "Invalid JSON schema definition"},
		{name: "module type model clash per manufacturer", path: mtPath,
			body: map[string]any{"manufacturer": "@m", "model": "MPC7E"}, status: 400,
			field: "__all__", text: "Module type with this Manufacturer and Model already exists."},
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := typesWorld(t, e)
		// A device bay template: dt1 may no longer stop being a parent.
		e.Must(http.StatusCreated, "POST", tplPath("device-bay"), map[string]any{"name": "bay0", "device_type": ids["dt1"]})
		runRuleCases(t, e, ids, cases)
	})
}

// TestDCIMTypeCounts: a device type's and module type's template counts
// follow its templates, and the count filters see them.
func TestDCIMTypeCounts(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := typesWorld(t, e)
		e.Must(http.StatusCreated, "POST", tplPath("interface"), []any{
			map[string]any{"device_type": ids["dt1"], "name": "ge-0/0/1", "type": "1000base-t"},
			map[string]any{"device_type": ids["dt1"], "name": "ge-0/0/2", "type": "1000base-t"},
			map[string]any{"module_type": ids["mt2"], "name": "xe-{module}/0/0", "type": "10gbase-x-sfpp"},
		})
		dt1 := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", dtPath, ids["dt1"]), nil).Object()
		for field, want := range map[string]float64{"interface_template_count": 3, "power_port_template_count": 1,
			"rear_port_template_count": 1, "inventory_item_template_count": 1, "console_port_template_count": 0} {
			if dt1[field] != want {
				t.Errorf("dt1 %s = %v, want %v", field, dt1[field], want)
			}
		}
		mt2 := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", mtPath, ids["mt2"]), nil).Object()
		if mt2["interface_template_count"] != float64(1) {
			t.Errorf("mt2 interface_template_count = %v, want 1", mt2["interface_template_count"])
		}
		m := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/dcim/manufacturers/%d/", ids["m"]), nil).Object()
		if m["devicetype_count"] != float64(2) || m["moduletype_count"] != float64(2) {
			t.Errorf("manufacturer counts %v, %v; want 2, 2", m["devicetype_count"], m["moduletype_count"])
		}
		for _, f := range []struct {
			path, query string
			want        []string
		}{
			{dtPath, "interfaces=true", []string{"MX480"}},
			{dtPath, "interfaces=false", []string{"EX4300"}},
			{dtPath, "interface_template_count__gte=2", []string{"MX480"}},
			{dtPath, "interface_template_count=0&interface_template_count=3", []string{"EX4300", "MX480"}},
			{dtPath, "power_port_template_count__n=1", nil},
			{dtPath, "pass_through_ports=true", []string{"MX480"}},
			{dtPath, "device_bays=false", []string{"EX4300", "MX480"}},
			{mtPath, "interfaces=true", []string{"MPC7E"}},
			{mtPath, "interface_template_count__lt=1", []string{"PSU-2000"}},
		} {
			var got []string
			for _, o := range e.Must(http.StatusOK, "GET", f.path+"?ordering=model&"+f.query, nil).Results() {
				got = append(got, o["model"].(string))
			}
			if strings.Join(got, ",") != strings.Join(f.want, ",") {
				t.Errorf("%s?%s: %v, want %v", f.path, f.query, got, f.want)
			}
		}
		if r := e.Do("GET", dtPath+"?interfaces=maybe", nil); r.Status != http.StatusBadRequest {
			t.Errorf("interfaces=maybe: %d %s, want 400", r.Status, r.Body)
		}
	})
}

// TestDCIMTypeDeletes: NetBox's on_delete for types and templates
// (netbox-relations.json): templates go with their type (each with its
// change record and event), a manufacturer or profile in use is PROTECTed,
// a power port template leaves its outlets with no power port.
func TestDCIMTypeDeletes(t *testing.T) {
	m := odObj{"m", "/api/dcim/manufacturers/", map[string]any{"name": "Juniper", "slug": "juniper"}}
	dt := odObj{"dt", dtPath, map[string]any{"manufacturer": "@m", "model": "MX480", "slug": "mx480", "subdevice_role": "parent"}}
	mt := odObj{"mt", mtPath, map[string]any{"manufacturer": "@m", "model": "MPC7E"}}
	cases := []odCase{
		{
			name: "device type cascades its templates",
			objects: []odObj{m, dt,
				{"cp", tplPath("console-port"), map[string]any{"device_type": "@dt", "name": "con"}},
				{"csp", tplPath("console-server-port"), map[string]any{"device_type": "@dt", "name": "con"}},
				{"pp", tplPath("power-port"), map[string]any{"device_type": "@dt", "name": "PSU0"}},
				{"po", tplPath("power-outlet"), map[string]any{"device_type": "@dt", "name": "out", "power_port": "@pp"}},
				{"if", tplPath("interface"), map[string]any{"device_type": "@dt", "name": "ge-0/0/0", "type": "1000base-t"}},
				{"rp", tplPath("rear-port"), map[string]any{"device_type": "@dt", "name": "R1", "type": "lc"}},
				{"fp", tplPath("front-port"), map[string]any{"device_type": "@dt", "name": "F1", "type": "lc"}},
				{"mb", tplPath("module-bay"), map[string]any{"device_type": "@dt", "name": "slot0"}},
				{"db", tplPath("device-bay"), map[string]any{"device_type": "@dt", "name": "bay0"}},
				{"inv", tplPath("inventory-item"), map[string]any{"device_type": "@dt", "name": "RE0"}},
				{"inv2", tplPath("inventory-item"), map[string]any{"device_type": "@dt", "name": "SSD", "parent": "@inv"}},
			},
			del:  []string{"dt"},
			gone: []string{"dt", "cp", "csp", "pp", "po", "if", "rp", "fp", "mb", "db", "inv", "inv2"},
			changed: []odRef{{"dt", "delete"}, {"cp", "delete"}, {"csp", "delete"}, {"pp", "delete"}, {"po", "delete"},
				{"if", "delete"}, {"rp", "delete"}, {"fp", "delete"}, {"mb", "delete"}, {"db", "delete"},
				{"inv", "delete"}, {"inv2", "delete"}},
		},
		{
			name: "module type cascades its templates",
			objects: []odObj{m, mt,
				{"if", tplPath("interface"), map[string]any{"module_type": "@mt", "name": "xe-{module}/0/0", "type": "10gbase-x-sfpp"}},
				{"mb", tplPath("module-bay"), map[string]any{"module_type": "@mt", "name": "pic0"}},
			},
			del:     []string{"mt"},
			gone:    []string{"mt", "if", "mb"},
			changed: []odRef{{"mt", "delete"}, {"if", "delete"}, {"mb", "delete"}},
		},
		{
			name:        "manufacturer PROTECTed by device types and module types",
			objects:     []odObj{m, dt, mt},
			del:         []string{"m"},
			protectedBy: []string{"dt", "mt"},
		},
		{
			name: "module type profile PROTECTed by module types",
			objects: []odObj{m, {"p", mtpPath, map[string]any{"name": "PSU"}},
				{"mt", mtPath, map[string]any{"manufacturer": "@m", "model": "PSU-1", "profile": "@p"}}},
			del:         []string{"p"},
			protectedBy: []string{"mt"},
		},
		{
			name: "power port template leaves its outlets without power port",
			objects: []odObj{m, dt,
				{"pp", tplPath("power-port"), map[string]any{"device_type": "@dt", "name": "PSU0"}},
				{"po", tplPath("power-outlet"), map[string]any{"device_type": "@dt", "name": "out", "power_port": "@pp"}},
			},
			del:     []string{"pp"},
			gone:    []string{"pp"},
			changed: []odRef{{"pp", "delete"}, {"po", "update"}},
			cleared: map[string]string{"po": "power_port"},
		},
		{
			name: "inventory item template takes its children",
			objects: []odObj{m, dt,
				{"inv", tplPath("inventory-item"), map[string]any{"device_type": "@dt", "name": "RE0"}},
				{"inv2", tplPath("inventory-item"), map[string]any{"device_type": "@dt", "name": "SSD", "parent": "@inv"}},
			},
			del:     []string{"inv"},
			gone:    []string{"inv", "inv2"},
			changed: []odRef{{"inv", "delete"}, {"inv2", "delete"}},
		},
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.ListenToAllEvents()
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) { runOnDelete(t, e, c) })
		}
	})
}

// TestPortTemplateMappings: a front port template's rear_ports and a rear
// port template's front_ports are two views of one set of mappings, as
// NetBox 4.6's PortTemplateMapping: writing either side shows on the
// other, a position maps once, a deleted port leaves its peers.
func TestPortTemplateMappings(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ids := typesWorld(t, e)
		post := func(kind string, body map[string]any) int {
			return int(e.Must(http.StatusCreated, "POST", tplPath(kind), resolveRefs(ids, body)).Object()["id"].(float64))
		}
		ids["r"] = post("rear-port", map[string]any{"device_type": "@dt1", "name": "R", "type": "mpo", "positions": 4})
		m := func(pos int, peer string, ppos int, key string) map[string]any {
			return map[string]any{"position": pos, peer: ids[key], peer + "_position": ppos}
		}
		list := func(kind, key, field string) string {
			o := e.Must(http.StatusOK, "GET", fmt.Sprintf("%s%d/", tplPath(kind), ids[key]), nil).Object()
			return canon(o[field])
		}
		want := func(kind, key, field string, entries ...map[string]any) {
			t.Helper()
			if entries == nil {
				entries = []map[string]any{}
			}
			if got, w := list(kind, key, field), canon(entries); got != w {
				t.Errorf("%s %s: %s, want %s", key, field, got, w)
			}
		}
		ids["f1"] = post("front-port", map[string]any{"device_type": "@dt1", "name": "F1", "type": "lc", "positions": 2,
			"rear_ports": []any{m(1, "rear_port", 1, "r"), m(2, "rear_port", 2, "r")}})
		want("rear-port", "r", "front_ports", m(1, "front_port", 1, "f1"), m(2, "front_port", 2, "f1"))

		r := e.Do("POST", tplPath("front-port"), map[string]any{"device_type": ids["dt1"], "name": "F2", "type": "lc",
			"rear_ports": []any{m(1, "rear_port", 2, "r")}})
		if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "Position 2 of rear port R is already mapped.") {
			t.Errorf("mapping a taken position: %d %s", r.Status, r.Body)
		}
		ids["f2"] = post("front-port", map[string]any{"device_type": "@dt1", "name": "F2", "type": "lc",
			"rear_ports": []any{m(1, "rear_port", 3, "r")}})
		want("rear-port", "r", "front_ports", m(1, "front_port", 1, "f1"), m(2, "front_port", 2, "f1"), m(3, "front_port", 1, "f2"))

		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", tplPath("front-port"), ids["f1"]), map[string]any{"rear_ports": []any{}})
		want("rear-port", "r", "front_ports", m(3, "front_port", 1, "f2"))

		// From the rear side: F2 loses its mapping, F1 gains one.
		e.Must(http.StatusOK, "PATCH", fmt.Sprintf("%s%d/", tplPath("rear-port"), ids["r"]),
			map[string]any{"front_ports": []any{m(4, "front_port", 1, "f1")}})
		want("front-port", "f1", "rear_ports", m(1, "rear_port", 4, "r"))
		want("front-port", "f2", "rear_ports")

		e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", tplPath("front-port"), ids["f1"]), nil)
		want("rear-port", "r", "front_ports")
	})
}
