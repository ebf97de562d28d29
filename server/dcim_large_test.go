package server_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/migrate"
	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/servertest"
	"github.com/inventory/inventory/webhooks"
)

// Large but legitimate objects (issue 32): a device type with 10 000
// interface templates, a module type with more than 1 000, a bulk create
// whose change records need more than one INSERT. Every multi-row
// statement is cut by the database's parameter limit (rawsql.Batches),
// and the cost per component is a share of a batched statement, not
// statements of its own.

// largeWorld is a manufacturer, a role, a site, and the ids of what it
// made: keys m, r, s.
func largeWorld(t testing.TB, e *servertest.Env) map[string]int {
	t.Helper()
	ids := map[string]int{}
	for _, c := range []struct{ key, path, name string }{
		{"m", "/api/dcim/manufacturers/", "Vendor"},
		{"r", "/api/dcim/device-roles/", "Router"},
		{"s", "/api/dcim/sites/", "Site"},
	} {
		ids[c.key] = id(e.Must(http.StatusCreated, "POST", c.path, map[string]any{"name": c.name, "slug": c.name}))
	}
	return ids
}

// interfaceTemplates gives device type dt (or module type mt) n interface
// templates "et-<i/48>/<i%48>" (with {module} before it for a module
// type), every 48th bridged to the one before it, written through the ent
// client in one captured transaction (the API's bulk create would spend
// most of a test's time on them). It returns the templates' ids in order.
func interfaceTemplates(t testing.TB, e *servertest.Env, dt, mt, n int) []int {
	t.Helper()
	ctx := context.Background()
	ids := make([]int, n)
	prefix := ""
	if mt != 0 {
		prefix = "{module}/"
	}
	err := webhooks.Write(ctx, e.DB, webhooks.Actor{Username: "setup"}, func(ctx context.Context, tx *resource.Tx) error {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return rawsql.Batches(tx.Dialect, idx, 20, 0, func(part []int) error {
			bs := make([]*ent.InterfaceTemplateCreate, len(part))
			for k, i := range part {
				b := tx.Client.InterfaceTemplate.Create()
				m := b.Mutation()
				owner, oid := "device_type_id", dt
				if mt != 0 {
					owner, oid = "module_type_id", mt
				}
				for f, v := range map[string]any{"name": fmt.Sprintf("%set-%d/%d", prefix, i/48, i%48), "type": "10gbase-x-sfpp", owner: oid} {
					if err := m.SetField(f, v); err != nil {
						return err
					}
				}
				bs[k] = b
			}
			made, err := tx.Client.InterfaceTemplate.CreateBulk(bs...).Save(ctx)
			for k, m := range made {
				ids[part[k]] = m.ID
			}
			return err
		})
	})
	if err == nil {
		err = webhooks.Write(ctx, e.DB, webhooks.Actor{Username: "setup"}, func(ctx context.Context, tx *resource.Tx) error {
			for i := 1; i < n; i += 48 {
				u := tx.Client.InterfaceTemplate.UpdateOneID(ids[i])
				if err := u.Mutation().SetField("bridge_id", ids[i-1]); err != nil {
					return err
				}
				if err := u.Exec(ctx); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// templateName is the name of the i-th template interfaceTemplates makes.
func templateName(i int) string { return fmt.Sprintf("et-%d/%d", i/48, i%48) }

// interfacesOf reads the interfaces of device dev from the database: name
// → the name of its bridge ("" for none), and name → id.
func interfacesOf(t *testing.T, e *servertest.Env, dev int) (bridges map[string]string, ids map[string]int) {
	t.Helper()
	a := &rawsql.Args{PG: e.DB.Dialect == "postgres"}
	rows, err := rawsql.Rows(context.Background(), e.DB.Read, `SELECT i.id, i.name, i.module_id, COALESCE(b.name, '') AS bridge
		FROM dcim_interface i LEFT JOIN dcim_interface b ON b.id = i.bridge_id WHERE i.device_id = `+a.P(dev), a)
	if err != nil {
		t.Fatal(err)
	}
	bridges, ids = map[string]string{}, map[string]int{}
	for _, r := range rows {
		name := rawsql.StringOf(r["name"])
		bridges[name] = rawsql.StringOf(r["bridge"])
		ids[name], _ = rawsql.IntOf(r["id"])
	}
	return bridges, ids
}

// checkChangeOrder checks that request reqID wrote n change records, the
// device's first, then one for each of its interfaces, all with the same
// time.
func checkChangeOrder(t *testing.T, e *servertest.Env, reqID string, n int) {
	t.Helper()
	a := &rawsql.Args{PG: e.DB.Dialect == "postgres"}
	rows, err := rawsql.Rows(context.Background(), e.DB.Read, `SELECT changed_object_type, changed_object_id, time FROM core_objectchange
		WHERE request_id = `+a.P(reqID)+` ORDER BY id`, a)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != n {
		t.Fatalf("%d change records, want %d", len(rows), n)
	}
	seen := map[int]bool{}
	for i, r := range rows {
		ct := rawsql.StringOf(r["changed_object_type"])
		id, _ := rawsql.IntOf(r["changed_object_id"])
		if want := map[bool]string{true: "dcim.device", false: "dcim.interface"}[i == 0]; ct != want {
			t.Fatalf("change record %d is of a %s, want a %s", i, ct, want)
		}
		if i > 0 && seen[id] {
			t.Fatalf("change record %d: interface %d has two", i, id)
		}
		seen[id] = i > 0
		if fmt.Sprint(r["time"]) != fmt.Sprint(rows[0]["time"]) {
			t.Fatalf("change record %d at %v, the first at %v", i, r["time"], rows[0]["time"])
		}
	}
}

// changeCounts counts the change records of request reqID by action and
// object type ("create dcim.interface"), and its outbox events.
func changeCounts(t *testing.T, e *servertest.Env, reqID string) (map[string]int, int) {
	t.Helper()
	a := &rawsql.Args{PG: e.DB.Dialect == "postgres"}
	rows, err := rawsql.Rows(context.Background(), e.DB.Read, `SELECT action, changed_object_type, COUNT(*) AS n FROM core_objectchange
		WHERE request_id = `+a.P(reqID)+` GROUP BY action, changed_object_type`, a)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, r := range rows {
		out[rawsql.StringOf(r["action"])+" "+rawsql.StringOf(r["changed_object_type"])], _ = rawsql.IntOf(r["n"])
	}
	a = &rawsql.Args{PG: e.DB.Dialect == "postgres"}
	events, err := rawsql.Int(context.Background(), e.DB.Read, `SELECT COUNT(*) FROM core_outboxevent WHERE request_id = `+a.P(reqID), a)
	if err != nil {
		t.Fatal(err)
	}
	return out, events
}

// TestLargeDeviceType creates a device of a type with 10 000 interface
// templates through the API, on both databases (the issue: a 500 from
// about 2 500 templates on SQLite, 5 000 on PostgreSQL): every template
// becomes an interface of the device under its name, bridged to the
// interface its template is bridged to (the ids of rows inserted by
// different statements are told apart right), each with its change record
// and outbox event; then deletes the device and its 10 000 interfaces.
// Neither request costs a statement per interface.
func TestLargeDeviceType(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		e.ListenToAllEvents()
		const n = 10000
		w := largeWorld(t, e)
		dt := id(e.Must(http.StatusCreated, "POST", dtPath, map[string]any{"manufacturer": w["m"], "model": "Stack", "slug": "stack"}))
		interfaceTemplates(t, e, dt, 0, n)

		before := e.Statements()
		r := e.Must(http.StatusCreated, "POST", devPath, map[string]any{"name": "stack-1", "device_type": dt, "role": w["r"], "site": w["s"]})
		if stmts := e.Statements() - before; stmts > n/20 {
			t.Errorf("creating the device took %d statements: per-interface work is back", stmts)
		}
		dev := id(r)
		if got := r.Object()["interface_count"]; got != float64(n) {
			t.Errorf("interface_count %v, want %d", got, n)
		}
		if got := countOf(t, e, fmt.Sprintf("/api/dcim/interfaces/?device_id=%d&limit=1", dev)); got != n {
			t.Errorf("%d interfaces listed, want %d", got, n)
		}
		bridges, _ := interfacesOf(t, e, dev)
		if len(bridges) != n {
			t.Fatalf("%d interfaces, want %d", len(bridges), n)
		}
		for i := 0; i < n; i++ {
			want := ""
			if i%48 == 1 {
				want = templateName(i - 1)
			}
			if got, ok := bridges[templateName(i)]; !ok || got != want {
				t.Fatalf("interface %s: present %v, bridge %q; want bridge %q", templateName(i), ok, got, want)
			}
		}
		changes, events := changeCounts(t, e, r.Header.Get("X-Request-ID"))
		if changes["create dcim.interface"] != n || changes["create dcim.device"] != 1 || events != n+1 {
			t.Errorf("change records %v and %d events, want %d interface creates, the device's, and %d events", changes, events, n, n+1)
		}
		// The records are written in chunks (webhooks' flushChunk): still
		// the device's first, one per interface, all at one time.
		checkChangeOrder(t, e, r.Header.Get("X-Request-ID"), n+1)

		before = e.Statements()
		r = e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", devPath, dev), nil)
		if stmts := e.Statements() - before; stmts > n/10 {
			t.Errorf("deleting the device took %d statements: per-interface work is back", stmts)
		}
		if bridges, _ := interfacesOf(t, e, dev); len(bridges) != 0 {
			t.Errorf("%d interfaces left after deleting their device", len(bridges))
		}
		changes, events = changeCounts(t, e, r.Header.Get("X-Request-ID"))
		if changes["delete dcim.interface"] != n || changes["delete dcim.device"] != 1 || events != n+1 {
			t.Errorf("change records %v and %d events, want %d interface deletes, the device's, and %d events", changes, events, n, n+1)
		}
	})
}

// TestLargeModuleType installs a module of a type with 1 200 interface
// templates in a bay at position 3 of a device that already has 481 of
// its interfaces, unattached ("3/et-0/0" to "3/et-10/0"): the module
// adopts those (same ids, an update record each) and creates the other
// 719 (a create record each), bridged as their templates (et-10/1 to the
// adopted et-10/0); deleting the module takes all 1 200 with it.
func TestLargeModuleType(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		e.ListenToAllEvents()
		const n, existing = 1200, 481
		w := largeWorld(t, e)
		dt := id(e.Must(http.StatusCreated, "POST", dtPath, map[string]any{"manufacturer": w["m"], "model": "Chassis", "slug": "chassis"}))
		mt := id(e.Must(http.StatusCreated, "POST", mtPath, map[string]any{"manufacturer": w["m"], "model": "Line card"}))
		interfaceTemplates(t, e, 0, mt, n)
		dev := id(e.Must(http.StatusCreated, "POST", devPath, map[string]any{"name": "router", "device_type": dt, "role": w["r"], "site": w["s"]}))
		bay := id(e.Must(http.StatusCreated, "POST", mbPath, map[string]any{"device": dev, "name": "Slot 3", "position": "3"}))
		var pre []map[string]any
		for i := 0; i < existing; i++ {
			pre = append(pre, map[string]any{"device": dev, "name": "3/" + templateName(i), "type": "10gbase-x-sfpp"})
		}
		e.Must(http.StatusCreated, "POST", "/api/dcim/interfaces/", pre)
		_, preIDs := interfacesOf(t, e, dev)

		before := e.Statements()
		r := e.Must(http.StatusCreated, "POST", modPath, map[string]any{"device": dev, "module_bay": bay, "module_type": mt, "adopt_components": true})
		if stmts := e.Statements() - before; stmts > n/10 {
			t.Errorf("installing the module took %d statements: per-component work is back", stmts)
		}
		mod := id(r)
		if got := countOf(t, e, fmt.Sprintf("/api/dcim/interfaces/?module_id=%d&limit=1", mod)); got != n {
			t.Errorf("%d interfaces on the module, want %d", got, n)
		}
		bridges, ids := interfacesOf(t, e, dev)
		if len(bridges) != n {
			t.Fatalf("%d interfaces on the device, want %d (the existing ones adopted, not doubled)", len(bridges), n)
		}
		for i := 0; i < n; i++ {
			// The module's new interfaces are bridged as their templates
			// (et-10/1 to the adopted et-10/0); adopted ones keep theirs.
			name, want := "3/"+templateName(i), ""
			if i%48 == 1 && i >= existing {
				want = "3/" + templateName(i-1)
			}
			if got, ok := bridges[name]; !ok || got != want {
				t.Fatalf("interface %s: present %v, bridge %q; want bridge %q", name, ok, got, want)
			}
			if i < existing && ids[name] != preIDs[name] {
				t.Fatalf("interface %s is %d, want the existing %d adopted", name, ids[name], preIDs[name])
			}
		}
		changes, events := changeCounts(t, e, r.Header.Get("X-Request-ID"))
		if changes["create dcim.interface"] != n-existing || changes["update dcim.interface"] != existing || changes["create dcim.module"] != 1 {
			t.Errorf("change records %v: want %d interface creates, %d updates (adopted) and the module's", changes, n-existing, existing)
		}
		if events < n+1 {
			t.Errorf("%d events, want at least %d", events, n+1)
		}

		e.Must(http.StatusNoContent, "DELETE", fmt.Sprintf("%s%d/", modPath, mod), nil)
		if bridges, _ := interfacesOf(t, e, dev); len(bridges) != 0 {
			t.Errorf("%d interfaces left after deleting their module", len(bridges))
		}
	})
}

// TestBulkCreatePastOneStatement creates 2 600 tags in one request
// (MAX_BULK_ITEMS=0): their change records alone bind more parameters
// than SQLite takes in one statement (13 a record), so they go in several
// INSERTs on either database (rawsql.Batches), as do their outbox events.
// Each tag is answered with its own id, in the request's order, and has
// its change record and event.
func TestBulkCreatePastOneStatement(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		e.ListenToAllEvents()
		const n = 2600
		var buf bytes.Buffer
		buf.WriteByte('[')
		for i := 0; i < n; i++ {
			if i > 0 {
				buf.WriteByte(',')
			}
			fmt.Fprintf(&buf, `{"name":"Tag %d","slug":"tag-%d"}`, i, i)
		}
		buf.WriteByte(']')
		r := e.Must(http.StatusCreated, "POST", "/api/extras/tags/", buf.Bytes())
		list, _ := r.JSON().([]any)
		if len(list) != n {
			t.Fatalf("%d tags answered, want %d", len(list), n)
		}
		seen := map[float64]bool{}
		for i, x := range list {
			o := asObject(x)
			if o["name"] != fmt.Sprintf("Tag %d", i) || seen[o["id"].(float64)] {
				t.Fatalf("item %d answered as %v (duplicate id: %v)", i, o["name"], seen[o["id"].(float64)])
			}
			seen[o["id"].(float64)] = true
		}
		last := asObject(list[n-1])
		if got := e.Must(http.StatusOK, "GET", fmt.Sprintf("/api/extras/tags/%v/", last["id"]), nil).Object()["slug"]; got != fmt.Sprintf("tag-%d", n-1) {
			t.Errorf("tag %v is %v, want tag-%d", last["id"], got, n-1)
		}
		changes, events := changeCounts(t, e, r.Header.Get("X-Request-ID"))
		if changes["create extras.tag"] != n || events != n {
			t.Errorf("change records %v and %d events, want %d creates and events", changes, events, n)
		}
	}, func(c *server.Config) { c.MaxBulkItems = 0 })
}

// TestKeyIndexes: every foreign key column of the schema is the first
// column of an index on both databases (resource.KeyIndexes), so that
// deleting a row never reads a whole referring table per row.
func TestKeyIndexes(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		q := `SELECT m.name AS tbl, ii.name AS col FROM sqlite_master m, pragma_index_list(m.name) il, pragma_index_info(il.name) ii
			WHERE m.type = 'table' AND ii.seqno = 0`
		if e.DB.Dialect == "postgres" {
			q = `SELECT c.relname AS tbl, a.attname AS col FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
				JOIN pg_namespace ns ON ns.oid = c.relnamespace AND ns.nspname = current_schema()
				JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]`
		}
		rows, err := rawsql.Rows(context.Background(), e.DB.Read, q, &rawsql.Args{})
		if err != nil {
			t.Fatal(err)
		}
		led := map[string]bool{}
		for _, r := range rows {
			led[rawsql.StringOf(r["tbl"])+"."+rawsql.StringOf(r["col"])] = true
		}
		var missing []string
		for _, tb := range migrate.Tables {
			for _, fk := range tb.ForeignKeys {
				col := tb.Name + "." + fk.Columns[0].Name
				pk := len(tb.PrimaryKey) > 0 && tb.PrimaryKey[0].Name == fk.Columns[0].Name
				if !led[col] && !pk && !slices.Contains(missing, col) {
					missing = append(missing, col)
				}
			}
		}
		if len(missing) > 0 {
			t.Errorf("%d foreign key columns without an index: %v", len(missing), missing)
		}
	})
}
