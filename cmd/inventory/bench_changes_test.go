package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/ent/resource"
	"github.com/inventory/inventory/server"
	"github.com/inventory/inventory/server/auth"
	"github.com/inventory/inventory/webhooks"
)

// TestTopUpChanges: the bench's bulk top-up of the change log
// (topUpChanges) reaches the count asked for, and its records read back
// through /api/core/object-changes/ as those of ordinary updates: the
// same fields, user, object, related device and representation as the
// record of an interface update made through the write path, each
// round's prechange the round before's postchange (the first one the
// ordinary update's postchange), a request id to each batch, and the
// interfaces left as their last record says. On SQLite and PostgreSQL.
func TestTopUpChanges(t *testing.T) {
	eachBenchDatabase(t, func(t *testing.T, database string) {
		ctx := context.Background()
		dsn, _, cleanup, err := benchDatabase(ctx, database)
		if err != nil {
			t.Fatal(err)
		}
		defer cleanup()
		d, err := db.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		if err := d.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		cfg := server.Defaults()
		cfg.Peppers = auth.Peppers{1: randomHex(32)}
		srv := server.New(cfg, d)
		token := randomHex(20)
		if err := srv.CreateSuperuser(ctx, "bench", randomHex(16), "", token, false); err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(srv.Handler())
		defer hs.Close()
		get := func(path string) map[string]any {
			t.Helper()
			req, _ := http.NewRequest("GET", hs.URL+path, nil)
			req.Header.Set("Authorization", "Token "+token)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("GET %s: %d %s", path, resp.StatusCode, body)
			}
			var out map[string]any
			if err := json.Unmarshal(body, &out); err != nil {
				t.Fatal(err)
			}
			return out
		}
		// write runs fn in a tracked transaction, as the bench's seeding
		// and the API's requests do.
		write := func(fn func(ctx context.Context, rtx *resource.Tx) error) {
			t.Helper()
			if err := webhooks.Write(ctx, d, webhooks.Actor{Username: "bench", RequestID: uuid.NewString()}, fn); err != nil {
				t.Fatal(err)
			}
		}
		create := func(ct string, kv ...any) int {
			t.Helper()
			var id int
			write(func(ctx context.Context, rtx *resource.Tx) error {
				var err error
				id, err = resource.ByContentType(ct).Create(ctx, rtx, jsonInput(kv...))
				return err
			})
			return id
		}
		site := create("dcim.site", "name", "S", "slug", "s")
		man := create("dcim.manufacturer", "name", "M", "slug", "m")
		dt := create("dcim.devicetype", "manufacturer", man, "model", "T", "slug", "t")
		role := create("dcim.devicerole", "name", "R", "slug", "r")
		dev := create("dcim.device", "name", "d1", "device_type", dt, "role", role, "site", site)
		var ifaces []int
		for i := range 3 {
			ifaces = append(ifaces, create("dcim.interface", "device", dev, "name", fmt.Sprintf("eth%d", i), "type", "1000base-t",
				"description", "seeded <&>", "mtu", 1500+i))
		}
		// An ordinary update of the first interface.
		write(func(ctx context.Context, rtx *resource.Tx) error {
			desc := resource.ByContentType("dcim.interface")
			row, err := desc.Get(ctx, rtx.Store(), ifaces[0])
			if err != nil {
				return err
			}
			return desc.Update(ctx, rtx, row, jsonInput("description", "by hand"), true)
		})
		changesOf := func(id int) []map[string]any {
			page := get(fmt.Sprintf("/api/core/object-changes/?changed_object_type=dcim.interface&changed_object_id=%d&ordering=id&limit=100", id))
			var out []map[string]any
			for _, r := range page["results"].([]any) {
				out = append(out, r.(map[string]any))
			}
			return out
		}
		ordinary := changesOf(ifaces[0])[1] // after its create

		ds := &dcimSeed{}
		if err := d.Read.QueryRowContext(ctx, "SELECT count(*) FROM core_objectchange").Scan(&ds.changes); err != nil {
			t.Fatal(err)
		}
		want := ds.changes + 7 // rounds 0 and 1 of the three, round 2 of the first
		out := captureStdout(t, func() error { return topUpChanges(ctx, d, 2, want, ds) })
		if ds.changes != want {
			t.Errorf("%d change records, want %d", ds.changes, want)
		}
		if !strings.Contains(out, "written in bulk") {
			t.Errorf("the output does not say how the records were made: %s", out)
		}
		if n := int(get("/api/core/object-changes/?limit=1")["count"].(float64)); n != want {
			t.Errorf("the API counts %d change records, want %d", n, want)
		}
		uuidRE := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
		requests := map[any]int{}
		for i, id := range ifaces {
			recs := changesOf(id)
			bulk := recs[1:]
			if i == 0 {
				bulk = recs[2:]
			}
			if wantN := []int{3, 2, 2}[i]; len(bulk) != wantN {
				t.Fatalf("interface %d: %d bulk records, want %d", id, len(bulk), wantN)
			}
			prev := recs[len(recs)-len(bulk)-1]["postchange_data"]
			for r, rec := range bulk {
				// Everything an ordinary update's record has, alike but
				// for the object, its data, the time and request.
				for k, v := range ordinary {
					switch k {
					case "id", "url", "display_url", "display", "time", "request_id", "changed_object_id", "changed_object", "object_repr", "prechange_data", "postchange_data":
						continue
					}
					if !reflect.DeepEqual(rec[k], v) {
						t.Errorf("interface %d round %d: %s = %v, an ordinary update's %v", id, r, k, rec[k], v)
					}
				}
				if len(rec) != len(ordinary) {
					t.Errorf("interface %d round %d: fields %v, an ordinary update's %v", id, r, keys(rec), keys(ordinary))
				}
				if rec["object_repr"] != fmt.Sprintf("eth%d", i) || rec["changed_object_id"] != float64(id) {
					t.Errorf("interface %d round %d: object %v %v", id, r, rec["changed_object_id"], rec["object_repr"])
				}
				if !reflect.DeepEqual(rec["prechange_data"], prev) {
					t.Errorf("interface %d round %d: prechange %v, want the last postchange %v", id, r, rec["prechange_data"], prev)
				}
				post, _ := rec["postchange_data"].(map[string]any)
				wantPost := map[string]any{}
				for k, v := range prev.(map[string]any) {
					wantPost[k] = v
				}
				wantPost["description"] = fmt.Sprintf("rev %d", r)
				if !reflect.DeepEqual(post, wantPost) {
					t.Errorf("interface %d round %d: postchange %v, want %v", id, r, post, wantPost)
				}
				if !uuidRE.MatchString(fmt.Sprint(rec["request_id"])) {
					t.Errorf("interface %d round %d: request id %v", id, r, rec["request_id"])
				}
				requests[rec["request_id"]]++
				prev = rec["postchange_data"]
			}
			cur := get(fmt.Sprintf("/api/dcim/interfaces/%d/", id))
			if cur["description"] != prev.(map[string]any)["description"] {
				t.Errorf("interface %d: description %v, its last record says %v", id, cur["description"], prev.(map[string]any)["description"])
			}
		}
		for rid, n := range requests {
			if n > 2 {
				t.Errorf("request %v has %d records, more than --batch", rid, n)
			}
		}
	})
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
