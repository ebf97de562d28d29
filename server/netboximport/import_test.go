package netboximport

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/inventory/inventory/server/netboximport/netbox"
	"github.com/inventory/inventory/server/netboximport/netboxtest"
	"github.com/inventory/inventory/server/servertest"
)

const demoDir = "../../testdata/netbox-demo"

// emptyTarget is the test server's database made empty again: the test
// environment creates an administrator and its token, an import wants a
// database without any user.
func emptyTarget(t *testing.T, e *servertest.Env) {
	t.Helper()
	for _, q := range []string{`DELETE FROM users_token`, `DELETE FROM users_user`} {
		if _, err := e.DB.Write.ExecContext(context.Background(), q); err != nil {
			t.Fatal(q, err)
		}
	}
}

// The whole demo data set imports with every object's id and verifies
// identical, on both databases; a second import into the now full
// database is refused. It is read as the command reads a NetBox: over
// HTTP with the netbox client, from a fake NetBox serving the recorded
// answers with NetBox's paging.
func TestImportDemo(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		emptyTarget(t, e)
		ctx := context.Background()
		fake := netboxtest.NewServer(netboxtest.Dir{Path: demoDir}, demoToken)
		defer fake.Close()
		src, err := netbox.New(fake.URL, demoToken, netbox.Options{PageSize: 250})
		if err != nil {
			t.Fatal(err)
		}
		opts := Options{Source: src, From: src.URL(), DB: e.DB, Handler: e.Handler, Verify: true}
		start := time.Now()
		rep, err := Import(ctx, opts)
		if err != nil {
			t.Fatalf("import: %v", err)
		}
		el := time.Since(start)
		t.Logf("%d objects read, %d written in %v (%.0f objects/s, verification included); %d references in the second pass",
			rep.Read, rep.Written, el, float64(rep.Written)/el.Seconds(), rep.Deferred)
		var sb strings.Builder
		WriteSummary(&sb, rep)
		t.Log("\n" + sb.String())
		if rep.Read != 5861 || rep.Written != rep.Read {
			t.Errorf("read %d, wrote %d; want %d both", rep.Read, rep.Written, 5861)
		}
		for _, p := range rep.Refused {
			t.Errorf("refused: %s %d: %s", p.Endpoint, p.ID, p.Reason)
		}
		for i, d := range rep.Differences {
			if i == 60 {
				t.Errorf("... %d differences in all", len(rep.Differences))
				break
			}
			t.Errorf("difference: %s", d)
		}
		if _, err := Import(ctx, opts); !errors.Is(err, ErrNotEmpty) {
			t.Errorf("second import: %v, want ErrNotEmpty", err)
		}
		afterImport(t, e, src.URL())
	})
}

// The HTTP client is a source that fetches files and names its endpoints.
var (
	_ FileSource     = (*netbox.Client)(nil)
	_ EndpointLister = (*netbox.Client)(nil)
)

// demoToken is the fake NetBox's token in the tests that read it over HTTP.
const demoToken = "0123456789abcdef0123456789abcdef01234567"

// afterImport checks what an import leaves besides the objects: one
// change record of the whole import and none of its own per object, no
// webhook events, and id sequences past the imported ids (a new object
// gets a fresh id).
func afterImport(t *testing.T, e *servertest.Env, from string) {
	t.Helper()
	ctx := context.Background()
	if err := e.Server.CreateSuperuser(ctx, "import-admin", "import-admin", "", servertest.Token, false); err != nil {
		t.Fatal(err)
	}
	admin := e.Admin()
	changes := admin.Must(200, "GET", "/api/core/object-changes/", nil).Object()
	results, _ := changes["results"].([]any)
	if changes["count"] != 1.0 || len(results) != 1 {
		t.Fatalf("change records: %v", changes)
	}
	rec := results[0].(map[string]any)
	if msg, _ := rec["message"].(string); !strings.HasPrefix(msg, "Imported 5861 objects of 66 endpoints from "+from+" (NetBox 4.6.8)") {
		t.Errorf("change record message %q", msg)
	}
	job := admin.Must(200, "GET", "/api/core/jobs/?name="+strings.ReplaceAll(JobName, " ", "+"), nil).Results()
	if len(job) != 1 || job[0]["status"].(map[string]any)["value"] != "completed" {
		t.Errorf("import job: %v", job)
	}
	var events int
	if err := e.DB.Write.QueryRowContext(ctx, `SELECT COUNT(*) FROM core_outboxevent`).Scan(&events); err != nil || events != 0 {
		t.Errorf("outbox events: %d, %v", events, err)
	}
	for _, tc := range []struct {
		path string
		body map[string]any
		max  float64
	}{
		{"/api/dcim/sites/", map[string]any{"name": "after import", "slug": "after-import"}, 24},
		{"/api/tenancy/tenants/", map[string]any{"name": "after import", "slug": "after-import"}, 13},
	} {
		got := admin.Must(201, "POST", tc.path, tc.body).Object()
		if id, _ := got["id"].(float64); id <= tc.max {
			t.Errorf("POST %s: id %v, want one past the imported %v", tc.path, got["id"], tc.max)
		}
	}
}
