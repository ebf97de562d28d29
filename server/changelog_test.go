package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/inventory/inventory/ent"
	"github.com/inventory/inventory/ent/objectchange"
	"github.com/inventory/inventory/ent/outboxevent"
	"github.com/inventory/inventory/server/servertest"
	"github.com/inventory/inventory/webhooks"
)

// changes lists the change records of one request, oldest first.
func changes(t *testing.T, e *servertest.Env, reqID string) []map[string]any {
	t.Helper()
	list := e.Must(http.StatusOK, "GET", "/api/core/object-changes/?ordering=id&limit=1000&request_id="+reqID, nil).Results()
	return list
}

// events lists the outbox rows of one request.
func events(t *testing.T, e *servertest.Env, reqID string) []*ent.OutboxEvent {
	t.Helper()
	evs, err := e.DB.Client.OutboxEvent.Query().Where(outboxevent.RequestID(reqID)).Order(ent.Asc(outboxevent.FieldID)).All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func counts(t *testing.T, e *servertest.Env) (int, int) {
	t.Helper()
	ctx := context.Background()
	nc, err := e.DB.Client.ObjectChange.Query().Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ne, err := e.DB.Client.OutboxEvent.Query().Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return nc, ne
}

func action(rec map[string]any) string {
	a, _ := rec["action"].(map[string]any)
	v, _ := a["value"].(string)
	return v
}

func asObject(v any) map[string]any { m, _ := v.(map[string]any); return m }

func TestChangeLogSingle(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.ListenToAllEvents()
		r := e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "Site 1", "slug": "site-1", "latitude": 12.5, "changelog_message": "hello"})
		if strings.Contains(string(r.Body), "changelog_message") {
			t.Fatalf("changelog_message echoed: %s", r.Body)
		}
		id := r.Object()["id"]
		create := r.Header.Get("X-Request-ID")
		recs := changes(t, e, create)
		if len(recs) != 1 {
			t.Fatalf("create: %d records", len(recs))
		}
		c := recs[0]
		if action(c) != "create" || c["message"] != "hello" || c["changed_object_type"] != "dcim.site" || c["changed_object_id"] != id ||
			c["user_name"] != "admin" || asObject(c["user"])["username"] != "admin" || c["request_id"] != create || c["object_repr"] != "Site 1" {
			t.Fatalf("create record: %v", c)
		}
		if len(asObject(c["prechange_data"])) != 0 || asObject(c["postchange_data"])["name"] != "Site 1" || asObject(c["postchange_data"])["latitude"] != "12.5" {
			t.Fatalf("create snapshots: %v / %v", c["prechange_data"], c["postchange_data"])
		}
		for _, k := range []string{"created", "last_updated", "id"} {
			if _, ok := asObject(c["postchange_data"])[k]; ok {
				t.Errorf("postchange_data shows %s", k)
			}
		}
		if c["display"] != "DCIM | site Site 1 created by admin" {
			t.Errorf("display = %v", c["display"])
		}
		if asObject(c["changed_object"])["name"] != "Site 1" || !strings.HasPrefix(c["url"].(string), "http://inventory.test/api/core/object-changes/") {
			t.Errorf("changed_object / url: %v %v", c["changed_object"], c["url"])
		}
		// The same record under the extras path (SPEC.md).
		ex := e.Must(http.StatusOK, "GET", "/api/extras/object-changes/?request_id="+create, nil).Results()
		if len(ex) != 1 || ex[0]["id"] != c["id"] {
			t.Fatalf("extras alias: %v", ex)
		}
		e.Must(http.StatusOK, "GET", "/api/extras/object-changes/"+jsonNum(c["id"])+"/", nil)
		e.Must(http.StatusMethodNotAllowed, "POST", "/api/core/object-changes/", map[string]any{})

		r = e.Must(http.StatusOK, "PATCH", "/api/dcim/sites/"+jsonNum(id)+"/", map[string]any{"facility": "F1", "changelog_message": "moved"})
		upd := r.Header.Get("X-Request-ID")
		recs = changes(t, e, upd)
		if len(recs) != 1 || action(recs[0]) != "update" || recs[0]["message"] != "moved" ||
			asObject(recs[0]["prechange_data"])["facility"] != "" || asObject(recs[0]["postchange_data"])["facility"] != "F1" {
			t.Fatalf("update records: %v", recs)
		}

		// An update that changes nothing writes no record but an event.
		r = e.Must(http.StatusOK, "PATCH", "/api/dcim/sites/"+jsonNum(id)+"/", map[string]any{"facility": "F1"})
		same := r.Header.Get("X-Request-ID")
		if recs := changes(t, e, same); len(recs) != 0 {
			t.Fatalf("no-op update wrote %d records", len(recs))
		}
		if evs := events(t, e, same); len(evs) != 1 || evs[0].Event != "updated" {
			t.Fatalf("no-op update events: %v", evs)
		}

		r = e.Must(http.StatusNoContent, "DELETE", "/api/dcim/sites/"+jsonNum(id)+"/", map[string]any{"changelog_message": "bye"})
		del := r.Header.Get("X-Request-ID")
		recs = changes(t, e, del)
		if len(recs) != 1 || action(recs[0]) != "delete" || recs[0]["message"] != "bye" ||
			asObject(recs[0]["prechange_data"])["facility"] != "F1" || len(asObject(recs[0]["postchange_data"])) != 0 {
			t.Fatalf("delete records: %v", recs)
		}
		// Once deleted, changed_object is null everywhere.
		all := e.Must(http.StatusOK, "GET", "/api/core/object-changes/?changed_object_type=dcim.site&changed_object_id="+jsonNum(id), nil).Results()
		if len(all) != 3 {
			t.Fatalf("records of the site: %d", len(all))
		}
		for _, rec := range all {
			if rec["changed_object"] != nil {
				t.Errorf("changed_object of a deleted site: %v", rec["changed_object"])
			}
		}
		// Newest first by default.
		if action(all[0]) != "delete" || action(all[2]) != "create" {
			t.Errorf("default ordering: %v, %v", action(all[0]), action(all[2]))
		}

		// Events: one per request, relative URLs in data.
		for _, c := range []struct{ req, event string }{{create, "created"}, {upd, "updated"}, {del, "deleted"}} {
			evs := events(t, e, c.req)
			if len(evs) != 1 || evs[0].Event != c.event || evs[0].ObjectType != "dcim.site" || evs[0].Username != "admin" || evs[0].UserID == nil {
				t.Fatalf("%s events: %+v", c.event, evs)
			}
			var data map[string]any
			json.Unmarshal(evs[0].Data, &data)
			if data["url"] != "/api/dcim/sites/"+jsonNum(id)+"/" || data["name"] != "Site 1" {
				t.Errorf("%s event data: %s", c.event, evs[0].Data)
			}
			hasPre, hasPost := len(evs[0].Prechange) > 0 && string(evs[0].Prechange) != "null", len(evs[0].Postchange) > 0 && string(evs[0].Postchange) != "null"
			if hasPre != (c.event != "created") || hasPost != (c.event != "deleted") {
				t.Errorf("%s event snapshots: pre %s post %s", c.event, evs[0].Prechange, evs[0].Postchange)
			}
			if evs[0].RequestMethod == "" || evs[0].RequestPath == "" {
				t.Errorf("%s event request: %+v", c.event, evs[0])
			}
		}

		// Over-long messages are a 400 on every write.
		long := strings.Repeat("x", 201)
		e.Must(http.StatusBadRequest, "POST", "/api/dcim/sites/", map[string]any{"name": "S2", "slug": "s2", "changelog_message": long})
		e.Must(http.StatusBadRequest, "POST", "/api/dcim/sites/", []any{map[string]any{"name": "S2", "slug": "s2", "changelog_message": long}})
	})
}

func jsonNum(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestChangeLogBulkTagsCustomFields(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.ListenToAllEvents()
		e.Must(http.StatusCreated, "POST", "/api/extras/tags/", map[string]any{"name": "Zeta", "slug": "zeta"})
		e.Must(http.StatusCreated, "POST", "/api/extras/tags/", map[string]any{"name": "Alpha", "slug": "alpha"})
		e.Must(http.StatusCreated, "POST", "/api/extras/custom-fields/", map[string]any{"name": "cost", "type": "text", "object_types": []string{"tenancy.tenant"}})

		r := e.Must(http.StatusCreated, "POST", "/api/tenancy/tenants/", []any{
			map[string]any{"name": "T1", "slug": "t1", "tags": []any{map[string]any{"slug": "zeta"}, map[string]any{"slug": "alpha"}}, "custom_fields": map[string]any{"cost": "5"}, "changelog_message": "m1"},
			map[string]any{"name": "T2", "slug": "t2", "changelog_message": "m2"},
		})
		create := r.Header.Get("X-Request-ID")
		recs := changes(t, e, create)
		if len(recs) != 2 || action(recs[0]) != "create" || action(recs[1]) != "create" || recs[0]["message"] != "m1" || recs[1]["message"] != "m2" {
			t.Fatalf("bulk create records: %v", recs)
		}
		post := asObject(recs[0]["postchange_data"])
		if tags, _ := json.Marshal(post["tags"]); string(tags) != `["Alpha","Zeta"]` || asObject(post["custom_fields"])["cost"] != "5" {
			t.Fatalf("snapshot tags/custom fields: %v", post)
		}
		if evs := events(t, e, create); len(evs) != 2 || evs[0].Event != "created" || evs[1].Event != "created" {
			t.Fatalf("bulk create events: %v", evs)
		}
		ids := []any{r.JSON().([]any)[0].(map[string]any)["id"], r.JSON().([]any)[1].(map[string]any)["id"]}

		// created_by_request / modified_by_request / updated_by_request.
		got := e.Must(http.StatusOK, "GET", "/api/tenancy/tenants/?created_by_request="+create, nil).Results()
		if len(got) != 2 {
			t.Fatalf("created_by_request: %d", len(got))
		}
		if n := len(e.Must(http.StatusOK, "GET", "/api/tenancy/tenants/?updated_by_request="+create, nil).Results()); n != 0 {
			t.Fatalf("updated_by_request on a create: %d", n)
		}
		bad := e.Must(http.StatusBadRequest, "GET", "/api/tenancy/tenants/?created_by_request=nope", nil)
		if !strings.Contains(string(bad.Body), "Enter a valid UUID.") {
			t.Fatalf("invalid UUID: %s", bad.Body)
		}
		e.Must(http.StatusBadRequest, "GET", "/api/core/object-changes/?request_id=nope", nil)

		// Bulk update: a tag change only is one update record per object.
		r = e.Must(http.StatusOK, "PATCH", "/api/tenancy/tenants/", []any{
			map[string]any{"id": ids[0], "tags": []any{}, "changelog_message": "u1"},
			map[string]any{"id": ids[1], "description": "two", "changelog_message": "u2"},
		})
		upd := r.Header.Get("X-Request-ID")
		recs = changes(t, e, upd)
		if len(recs) != 2 || action(recs[0]) != "update" || recs[0]["message"] != "u1" || recs[1]["message"] != "u2" {
			t.Fatalf("bulk update records: %v", recs)
		}
		if tags, _ := json.Marshal(asObject(recs[0]["prechange_data"])["tags"]); string(tags) != `["Alpha","Zeta"]` {
			t.Errorf("pre tags: %s", tags)
		}
		if tags, _ := json.Marshal(asObject(recs[0]["postchange_data"])["tags"]); string(tags) != `[]` {
			t.Errorf("post tags: %s", tags)
		}
		if n := len(e.Must(http.StatusOK, "GET", "/api/tenancy/tenants/?updated_by_request="+upd, nil).Results()); n != 2 {
			t.Fatalf("updated_by_request: %d", n)
		}
		if n := len(e.Must(http.StatusOK, "GET", "/api/tenancy/tenants/?modified_by_request="+upd, nil).Results()); n != 2 {
			t.Fatalf("modified_by_request: %d", n)
		}
		if evs := events(t, e, upd); len(evs) != 2 || evs[0].Event != "updated" {
			t.Fatalf("bulk update events: %v", evs)
		}

		r = e.Must(http.StatusNoContent, "DELETE", "/api/tenancy/tenants/", []any{
			map[string]any{"id": ids[0], "changelog_message": "d1"}, map[string]any{"id": ids[1]},
		})
		del := r.Header.Get("X-Request-ID")
		recs = changes(t, e, del)
		if len(recs) != 2 || action(recs[0]) != "delete" || recs[0]["message"] != "d1" || recs[1]["message"] != "" {
			t.Fatalf("bulk delete records: %v", recs)
		}
		if evs := events(t, e, del); len(evs) != 2 || evs[0].Event != "deleted" || evs[1].Event != "deleted" {
			t.Fatalf("bulk delete events: %v", evs)
		}
	})
}

func TestChangeLogRollback(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.ListenToAllEvents()
		e.Must(http.StatusCreated, "POST", "/api/ipam/prefixes/", map[string]any{"prefix": "10.0.0.0/8"})
		nc, ne := counts(t, e)
		// One invalid item fails the whole bulk create.
		e.Must(http.StatusBadRequest, "POST", "/api/ipam/prefixes/", []any{
			map[string]any{"prefix": "10.1.0.0/16"}, map[string]any{"prefix": "not a prefix"},
		})
		// A failing bulk update: the second item is invalid.
		e.Must(http.StatusBadRequest, "PATCH", "/api/ipam/prefixes/", []any{
			map[string]any{"id": 1, "description": "x"}, map[string]any{"id": 1, "status": "bogus"},
		})
		if nc2, ne2 := counts(t, e); nc2 != nc || ne2 != ne {
			t.Fatalf("rolled-back writes left records %d→%d, events %d→%d", nc, nc2, ne, ne2)
		}
		// A mutation outside a tracked transaction is refused, with or
		// without a transaction.
		ctx := context.Background()
		if _, err := e.DB.Client.Tenant.Create().SetName("x").SetSlug("x").Save(ctx); !errors.Is(err, webhooks.ErrOutsideTransaction) {
			t.Fatalf("untracked create: %v", err)
		}
		err := e.DB.InTx(ctx, func(ctx context.Context, tx *ent.Tx) error {
			_, err := tx.Client().Tenant.Create().SetName("x").SetSlug("x").Save(ctx)
			return err
		})
		if !errors.Is(err, webhooks.ErrOutsideTransaction) {
			t.Fatalf("untracked create in a transaction: %v", err)
		}
		// Tracked, several changes of one object collapse into one event.
		err = e.DB.InTx(ctx, func(ctx context.Context, tx *ent.Tx) error {
			tctx := webhooks.Track(ctx, tx, webhooks.Actor{RequestID: "00000000-0000-0000-0000-000000000001", Username: "cli"})
			t1, err := tx.Client().Tenant.Create().SetName("x").SetSlug("x").Save(tctx)
			if err != nil {
				return err
			}
			if err := tx.Client().Tenant.UpdateOneID(t1.ID).SetDescription("d").Exec(tctx); err != nil {
				return err
			}
			return tx.Client().Tenant.Update().SetComments("c").Exec(tctx)
		})
		if err != nil {
			t.Fatal(err)
		}
		evs := events(t, e, "00000000-0000-0000-0000-000000000001")
		recs := changes(t, e, "00000000-0000-0000-0000-000000000001")
		if len(evs) != 1 || evs[0].Event != "created" || len(recs) != 1 || action(recs[0]) != "create" ||
			asObject(recs[0]["postchange_data"])["comments"] != "c" || recs[0]["user"] != nil || recs[0]["user_name"] != "cli" {
			t.Fatalf("collapsed: events %v records %v", evs, recs)
		}
		// A rolled-back tracked transaction writes nothing.
		nc, ne = counts(t, e)
		err = e.DB.InTx(ctx, func(ctx context.Context, tx *ent.Tx) error {
			tctx := webhooks.Track(ctx, tx, webhooks.Actor{RequestID: "00000000-0000-0000-0000-000000000002"})
			if _, err := tx.Client().Tenant.Create().SetName("y").SetSlug("y").Save(tctx); err != nil {
				return err
			}
			return errors.New("abort")
		})
		if err == nil {
			t.Fatal("no error")
		}
		if nc2, ne2 := counts(t, e); nc2 != nc || ne2 != ne {
			t.Fatalf("rolled-back tracked write left records %d→%d, events %d→%d", nc, nc2, ne, ne2)
		}
	})
}

// Deleting a region clears the region of its sites: the sites get update
// records; deleting a region deletes its child regions: delete records.
func TestChangeLogCascades(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.ListenToAllEvents()
		e.Must(http.StatusCreated, "POST", "/api/dcim/regions/", map[string]any{"name": "R", "slug": "r"})
		e.Must(http.StatusCreated, "POST", "/api/dcim/regions/", map[string]any{"name": "R2", "slug": "r2", "parent": 1})
		e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "S", "slug": "s", "region": 2})
		e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "Other", "slug": "other"})
		r := e.Must(http.StatusNoContent, "DELETE", "/api/dcim/regions/1/", nil)
		req := r.Header.Get("X-Request-ID")
		got := map[string]string{}
		for _, rec := range changes(t, e, req) {
			got[rec["changed_object_type"].(string)+":"+jsonNum(rec["changed_object_id"])] = action(rec)
		}
		want := map[string]string{"dcim.region:1": "delete", "dcim.region:2": "delete", "dcim.site:1": "update"}
		if len(got) != len(want) {
			t.Fatalf("cascade records: %v", got)
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: %s, want %s", k, got[k], v)
			}
		}
		if evs := events(t, e, req); len(evs) != 3 {
			t.Fatalf("cascade events: %d", len(evs))
		}
	})
}

func TestChangeLogRetention(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ctx := context.Background()
		old := time.Now().UTC().Add(-100 * 24 * time.Hour)
		for _, tm := range []time.Time{old, time.Now().UTC()} {
			if _, err := e.DB.Client.ObjectChange.Create().SetTime(tm).SetAction("create").SetChangedObjectType("dcim.site").
				SetChangedObjectID(1).SetObjectRepr("x").Save(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if n, err := webhooks.Prune(ctx, e.DB.Client, 0, time.Now()); err != nil || n != 0 {
			t.Fatalf("retention 0: %d %v", n, err)
		}
		n, err := webhooks.Prune(ctx, e.DB.Client, 90, time.Now())
		if err != nil || n != 1 {
			t.Fatalf("prune: %d %v", n, err)
		}
		if left, _ := e.DB.Client.ObjectChange.Query().Where(objectchange.TimeGT(old)).Count(ctx); left != 1 {
			t.Fatalf("left: %d", left)
		}
	})
}

// TestChangeLogManyToMany: snapshots carry many-to-many fields as lists of
// ids (Django's serializer, after the columns), so a change of a site's
// ASNs is recorded with both lists, and deleting an ASN records the
// update of the sites that lose it (NetBox's pre_delete handler removes
// the reverse link and logs it).
func TestChangeLogManyToMany(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		rir := e.Must(http.StatusCreated, "POST", "/api/ipam/rirs/", map[string]any{"name": "R", "slug": "r"}).Object()["id"]
		a1 := e.Must(http.StatusCreated, "POST", "/api/ipam/asns/", map[string]any{"asn": 65001, "rir": rir}).Object()["id"]
		a2 := e.Must(http.StatusCreated, "POST", "/api/ipam/asns/", map[string]any{"asn": 65002, "rir": rir}).Object()["id"]
		site := e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "S", "slug": "s", "asns": []any{a1, a2}}).Object()["id"]
		sitePath := "/api/dcim/sites/" + jsonNum(site) + "/"
		asns := func(rec map[string]any, key string) string {
			return fmt.Sprint(asObject(rec[key])["asns"])
		}
		for _, c := range []struct {
			name, method, path string
			body               any
			pre, post          string
		}{
			{"patch", "PATCH", sitePath, map[string]any{"asns": []any{a2}}, fmt.Sprint([]any{a1, a2}), fmt.Sprint([]any{a2})},
			{"delete the asn", "DELETE", "/api/ipam/asns/" + jsonNum(a2) + "/", nil, fmt.Sprint([]any{a2}), "[]"},
		} {
			r := e.Do(c.method, c.path, c.body)
			if r.Status >= 300 {
				t.Fatalf("%s: %d %s", c.name, r.Status, r.Body)
			}
			var rec map[string]any
			for _, x := range changes(t, e, r.Header.Get("X-Request-ID")) {
				if x["changed_object_type"] == "dcim.site" {
					rec = x
				}
			}
			if rec == nil || action(rec) != "update" {
				t.Fatalf("%s: no update record of the site: %v", c.name, rec)
			}
			if asns(rec, "prechange_data") != c.pre || asns(rec, "postchange_data") != c.post {
				t.Errorf("%s: asns %s → %s, want %s → %s", c.name, asns(rec, "prechange_data"), asns(rec, "postchange_data"), c.pre, c.post)
			}
		}
	})
}

// TestChangeLogSignalSaves: where NetBox's signal handlers save() other
// objects, those get their update records in the same request: a new
// virtual chassis makes its master the first member, and deleting the
// chassis clears its members' positions (clear_virtualchassis_members)
// and their chassis (SET_NULL).
func TestChangeLogSignalSaves(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.ListenToAllEvents()
		id := func(path string, body map[string]any) any {
			return e.Must(http.StatusCreated, "POST", path, body).Object()["id"]
		}
		site := id("/api/dcim/sites/", map[string]any{"name": "S", "slug": "s"})
		mfr := id("/api/dcim/manufacturers/", map[string]any{"name": "M", "slug": "m"})
		typ := id("/api/dcim/device-types/", map[string]any{"manufacturer": mfr, "model": "T", "slug": "t"})
		role := id("/api/dcim/device-roles/", map[string]any{"name": "R", "slug": "r"})
		dev := id("/api/dcim/devices/", map[string]any{"name": "d1", "site": site, "device_type": typ, "role": role})
		deviceUpdate := func(what string, r *servertest.Response) (pre, post map[string]any) {
			t.Helper()
			recs := changes(t, e, r.Header.Get("X-Request-ID"))
			for _, rec := range recs {
				if rec["changed_object_type"] == "dcim.device" && rec["changed_object_id"] == dev && action(rec) == "update" {
					return asObject(rec["prechange_data"]), asObject(rec["postchange_data"])
				}
			}
			t.Fatalf("%s: no update record of the device among %d records", what, len(recs))
			return nil, nil
		}
		r := e.Must(http.StatusCreated, "POST", "/api/dcim/virtual-chassis/", map[string]any{"name": "vc", "master": dev})
		vc := r.Object()["id"]
		pre, post := deviceUpdate("create with a master", r)
		if pre["virtual_chassis"] != nil || pre["vc_position"] != nil || post["virtual_chassis"] != vc || post["vc_position"] != 1.0 {
			t.Errorf("create with a master: device %v → %v", pre, post)
		}
		e.Must(http.StatusOK, "PATCH", "/api/dcim/devices/"+jsonNum(dev)+"/", map[string]any{"vc_priority": 5})
		r = e.Must(http.StatusNoContent, "DELETE", "/api/dcim/virtual-chassis/"+jsonNum(vc)+"/", nil)
		pre, post = deviceUpdate("delete", r)
		if pre["virtual_chassis"] != vc || pre["vc_position"] != 1.0 || pre["vc_priority"] != 5.0 ||
			post["virtual_chassis"] != nil || post["vc_position"] != nil || post["vc_priority"] != nil {
			t.Errorf("delete: device %v → %v", pre, post)
		}
		if evs := events(t, e, r.Header.Get("X-Request-ID")); len(evs) != 2 {
			t.Errorf("delete: %d events, want the chassis' and the device's", len(evs))
		}
	})
}

// TestChangeLogRelatedObject: a change record of a component-like model
// names its parent as related object (NetBox's to_objectchange()
// overrides), filterable with related_object_type/related_object_id, on
// create, update and delete alike (also on a cascade); other models name
// none.
func TestChangeLogRelatedObject(t *testing.T) {
	t.Parallel()
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		mk := func(path string, body map[string]any) string {
			t.Helper()
			return jsonNum(e.Must(http.StatusCreated, "POST", path, body).Object()["id"])
		}
		site := mk("/api/dcim/sites/", map[string]any{"name": "S", "slug": "s"})
		man := mk("/api/dcim/manufacturers/", map[string]any{"name": "M", "slug": "m"})
		dt := mk("/api/dcim/device-types/", map[string]any{"manufacturer": man, "model": "T", "slug": "t"})
		mt := mk("/api/dcim/module-types/", map[string]any{"manufacturer": man, "model": "MT"})
		role := mk("/api/dcim/device-roles/", map[string]any{"name": "R", "slug": "r"})
		dev := mk("/api/dcim/devices/", map[string]any{"name": "d", "device_type": dt, "role": role, "site": site})
		iface := mk("/api/dcim/interfaces/", map[string]any{"device": dev, "name": "eth0", "type": "1000base-t"})
		e.Must(http.StatusOK, "PATCH", "/api/dcim/interfaces/"+iface+"/", map[string]any{"description": "uplink"})
		ip := mk("/api/ipam/ip-addresses/", map[string]any{"address": "192.0.2.1/24",
			"assigned_object_type": "dcim.interface", "assigned_object_id": iface})
		tmpl := mk("/api/dcim/interface-templates/", map[string]any{"module_type": mt, "name": "e0", "type": "1000base-t"})
		contact := mk("/api/tenancy/contacts/", map[string]any{"name": "Jane"})
		crole := mk("/api/tenancy/contact-roles/", map[string]any{"name": "Ops", "slug": "ops"})
		asg := mk("/api/tenancy/contact-assignments/", map[string]any{"object_type": "dcim.site", "object_id": site,
			"contact": contact, "role": crole})
		e.Must(http.StatusNoContent, "DELETE", "/api/dcim/devices/"+dev+"/", nil)

		for _, c := range []struct {
			changed, related string
			actions          string
		}{
			{"dcim.interface:" + iface, "dcim.device:" + dev, "create update delete"},
			{"ipam.ipaddress:" + ip, "dcim.interface:" + iface, "create delete"}, // GenericRelation: goes with the interface
			{"dcim.interfacetemplate:" + tmpl, "dcim.moduletype:" + mt, "create"},
			{"tenancy.contactassignment:" + asg, "dcim.site:" + site, "create"},
			{"dcim.device:" + dev, "", "create delete"},
		} {
			ct, id, _ := strings.Cut(c.changed, ":")
			recs := e.Must(http.StatusOK, "GET", "/api/core/object-changes/?ordering=id&changed_object_type="+ct+"&changed_object_id="+id, nil).Results()
			var actions []string
			for _, rec := range recs {
				actions = append(actions, action(rec))
			}
			if strings.Join(actions, " ") != c.actions {
				t.Errorf("%s: records %v, want %s", c.changed, actions, c.actions)
			}
			if c.related == "" {
				continue
			}
			rct, rid, _ := strings.Cut(c.related, ":")
			n := len(e.Must(http.StatusOK, "GET", "/api/core/object-changes/?changed_object_type="+ct+"&changed_object_id="+id+
				"&related_object_type="+rct+"&related_object_id="+rid, nil).Results())
			if n != len(recs) || n == 0 {
				t.Errorf("%s: %d of %d records name %s as related object", c.changed, n, len(recs), c.related)
			}
		}
		if n := len(e.Must(http.StatusOK, "GET", "/api/core/object-changes/?related_object_type=dcim.site&related_object_id="+site, nil).Results()); n != 1 {
			t.Errorf("records related to the site: %d, want the contact assignment's one", n)
		}
	})
}

// TestOutboxOnlyForListenedEvents: an outbox event is written only for an
// event some enabled rule lists (its object type and event type), as
// NetBox keeps nothing for an event no rule wants; the change record is
// written whatever the rules.
func TestOutboxOnlyForListenedEvents(t *testing.T) {
	t.Parallel()
	servertest.EachParallel(t, func(t *testing.T, e *servertest.Env) {
		ng := id(e.Must(http.StatusCreated, "POST", "/api/extras/notification-groups/", map[string]any{"name": "ops"}))
		rule := func(name string, enabled bool, types, events []string) {
			e.Must(http.StatusCreated, "POST", "/api/extras/event-rules/", map[string]any{
				"name": name, "enabled": enabled, "object_types": types, "event_types": events,
				"action_type": "notification", "action_object_type": "extras.notificationgroup", "action_object_id": ng})
		}
		rule("site updates", true, []string{"dcim.site"}, []string{"object_updated"})
		rule("tenant creations, disabled", false, []string{"tenancy.tenant"}, []string{"object_created"})
		site := id(e.Must(http.StatusCreated, "POST", "/api/dcim/sites/", map[string]any{"name": "S", "slug": "s"}))
		for _, c := range []struct {
			name, method, path string
			body               any
			events             []string
		}{
			{"site created: no rule lists it", "POST", "/api/dcim/sites/", map[string]any{"name": "S2", "slug": "s2"}, nil},
			{"site updated: listed", "PATCH", fmt.Sprintf("/api/dcim/sites/%d/", site), map[string]any{"description": "x"}, []string{"updated"}},
			{"tenant created: its rule is disabled", "POST", "/api/tenancy/tenants/", map[string]any{"name": "T", "slug": "t"}, nil},
			{"site deleted: not listed", "DELETE", fmt.Sprintf("/api/dcim/sites/%d/", site), nil, nil},
		} {
			t.Run(c.name, func(t *testing.T) {
				r := e.Do(c.method, c.path, c.body)
				if r.Status >= 300 {
					t.Fatalf("status %d: %s", r.Status, r.Body)
				}
				req := r.Header.Get("X-Request-ID")
				var got []string
				for _, ev := range events(t, e, req) {
					got = append(got, ev.Event)
				}
				if !slices.Equal(got, c.events) {
					t.Errorf("outbox events %v, want %v", got, c.events)
				}
				if n := len(changes(t, e, req)); n != 1 {
					t.Errorf("%d change records, want 1", n)
				}
			})
		}
	})
}
