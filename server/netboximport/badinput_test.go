package netboximport

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// sitesSubset writes, into a new directory, the demo's endpoints that
// sites and locations need, with edit applied to each object.
func sitesSubset(t *testing.T, version string, edit func(endpoint string, obj map[string]any)) string {
	t.Helper()
	dir := t.TempDir()
	st, err := os.ReadFile(filepath.Join(demoDir, "_status.json"))
	if err != nil {
		t.Fatal(err)
	}
	var status map[string]any
	if err := json.Unmarshal(st, &status); err != nil {
		t.Fatal(err)
	}
	status["netbox-version"] = version
	if err := os.WriteFile(filepath.Join(dir, "_status.json"), mustJSON(status), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, ep := range []string{"extras/tags", "extras/custom-fields", "tenancy/tenant-groups", "tenancy/tenants",
		"dcim/regions", "dcim/site-groups", "dcim/sites", "dcim/locations"} {
		var objs []map[string]any
		err := DirSource{Path: demoDir}.Pages(context.Background(), ep, func(raws []json.RawMessage) error {
			for _, raw := range raws {
				var o map[string]any
				if err := json.Unmarshal(raw, &o); err != nil {
					return err
				}
				edit(ep, o)
				objs = append(objs, o)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		if err := json.NewEncoder(zw).Encode(objs); err != nil {
			t.Fatal(err)
		}
		zw.Close()
		if err := os.WriteFile(filepath.Join(dir, strings.Replace(ep, "/", ".", 1)+".json.gz"), buf.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A value this service refuses stops the import with the object and the
// reason named (and the import's job errored), and what it wrote makes
// the target refused by the next import. A source version other than 4.6.x is refused unless forced.
func TestImportBadInput(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		emptyTarget(t, e)
		ctx := context.Background()
		for _, tc := range []struct {
			name    string
			version string
			force   bool
			errHas  string
		}{
			{name: "old version", version: "4.5.3", errHas: `the source is NetBox "4.5.3"`},
			{name: "newer version", version: "4.7.0", errHas: `the source is NetBox "4.7.0"`},
			{name: "no version", version: "", errHas: `the source is NetBox ""`},
		} {
			dir := sitesSubset(t, tc.version, func(string, map[string]any) {})
			_, err := Import(ctx, Options{Source: DirSource{Path: dir}, From: dir, DB: e.DB})
			if err == nil || !strings.Contains(err.Error(), tc.errHas) || !strings.Contains(err.Error(), "--force") {
				t.Errorf("%s: %v, want %q", tc.name, err, tc.errHas)
			}
		}
		dir := sitesSubset(t, "4.6.8", badSites)
		// Without SkipInvalid: stopped at the first refusal (region 43,
		// regions go first), naming it.
		rep, err := Import(ctx, Options{Source: DirSource{Path: dir}, From: dir, DB: e.DB})
		if err == nil || !strings.Contains(err.Error(), "dcim/regions 43 refused") || !strings.Contains(err.Error(), "name") {
			t.Fatalf("import: %v", err)
		}
		if len(rep.Refused) != 1 || rep.Refused[0].ID != 43 {
			t.Errorf("refused: %v", rep.Refused)
		}
		var status string
		if err := e.DB.Write.QueryRowContext(ctx, `SELECT status FROM core_job WHERE name = 'NetBox import' ORDER BY id DESC LIMIT 1`).Scan(&status); err != nil || status != "errored" {
			t.Errorf("job status %q, %v", status, err)
		}
		// What the stopped import wrote makes the target not empty.
		if _, err := Import(ctx, Options{Source: DirSource{Path: dir}, From: dir, DB: e.DB}); err == nil || !strings.Contains(err.Error(), "already holds data") {
			t.Errorf("import after a stopped one: %v", err)
		}
	})
}

// badSites gives site 21 (which holds every location) a status this
// service does not know, and region 43 a name too long.
func badSites(ep string, o map[string]any) {
	switch {
	case ep == "dcim/sites" && o["id"] == 21.0:
		o["status"] = map[string]any{"value": "bogus", "label": "Bogus"}
	case ep == "dcim/regions" && o["id"] == 43.0:
		o["name"] = strings.Repeat("x", 101)
	}
}

// With SkipInvalid exactly the refused objects and what depends on them
// are skipped and listed; the rest is written and verified.
func TestImportSkipInvalid(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		emptyTarget(t, e)
		ctx := context.Background()
		dir := sitesSubset(t, "4.6.8", badSites)
		rep, err := Import(ctx, Options{Source: DirSource{Path: dir}, From: dir, DB: e.DB, SkipInvalid: true, Handler: e.Handler, Verify: true})
		if err != nil {
			t.Fatalf("import: %v", err)
		}
		type ref struct {
			ep string
			id int
		}
		var got []ref
		for _, p := range rep.Refused {
			got = append(got, ref{p.Endpoint, p.ID})
		}
		// Region 43's child regions, the sites in it, site 21 and its
		// locations: nothing else.
		want := []ref{{"dcim/regions", 43}}
		for _, ep := range []string{"dcim/regions", "dcim/sites", "dcim/locations"} {
			_ = DirSource{Path: demoDir}.Pages(ctx, ep, func(raws []json.RawMessage) error {
				for _, raw := range raws {
					var o struct {
						ID     int               `json:"id"`
						Parent *struct{ ID int } `json:"parent"`
						Region *struct{ ID int } `json:"region"`
						Site   *struct{ ID int } `json:"site"`
					}
					_ = json.Unmarshal(raw, &o)
					switch {
					case ep == "dcim/regions" && o.Parent != nil && o.Parent.ID == 43,
						ep == "dcim/sites" && (o.ID == 21 || o.Region != nil && o.Region.ID == 43),
						ep == "dcim/locations" && o.Site != nil && o.Site.ID == 21:
						want = append(want, ref{ep, o.ID})
					}
				}
				return nil
			})
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("refused %v, want %v", got, want)
		}
		if rep.OK() {
			t.Error("a report with refusals is OK")
		}
		if rep.Written != rep.Read-len(want) {
			t.Errorf("wrote %d of %d with %d refused", rep.Written, rep.Read, len(want))
		}
		var sb strings.Builder
		WriteSummary(&sb, rep)
		if !strings.Contains(sb.String(), "refused: dcim/sites 21: ") || !strings.Contains(sb.String(), "bogus") {
			t.Errorf("summary does not list the refused site:\n%s", sb.String())
		}
	})
}

// A half-finished source (an object whose related object the source does
// not hold) names the object and the missing reference.
func TestImportMissingRelated(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		emptyTarget(t, e)
		dir := sitesSubset(t, "4.6.8", func(ep string, o map[string]any) {
			if ep == "dcim/sites" && o["id"] == 3.0 {
				o["tenant"] = map[string]any{"id": 999, "url": "http://127.0.0.1:8001/api/tenancy/tenants/999/", "display": "gone"}
			}
		})
		_, err := Import(context.Background(), Options{Source: DirSource{Path: dir}, From: dir, DB: e.DB})
		if err == nil || !strings.Contains(err.Error(), "dcim/sites 3 refused") || !strings.Contains(err.Error(), "tenant") || !strings.Contains(err.Error(), "999") {
			t.Errorf("import: %v", err)
		}
	})
}

// Endpoints of the source this service has no model for (a plugin's) are
// named in the report with their counts; the rest imports.
func TestImportUnknownEndpoint(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		emptyTarget(t, e)
		dir := sitesSubset(t, "4.6.8", func(string, map[string]any) {})
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		_, _ = zw.Write([]byte(`[{"id":1,"name":"a"},{"id":2,"name":"b"}]`))
		zw.Close()
		if err := os.WriteFile(filepath.Join(dir, "plugins.widgets.json.gz"), buf.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		rep, err := Import(context.Background(), Options{Source: DirSource{Path: dir}, From: dir, DB: e.DB})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(rep.UnknownEndpoints, []string{"plugins/widgets (2 objects)"}) {
			t.Errorf("unknown endpoints %v", rep.UnknownEndpoints)
		}
		var sb strings.Builder
		WriteSummary(&sb, rep)
		if !strings.Contains(sb.String(), "not imported: plugins/widgets (2 objects): no such model here") {
			t.Errorf("summary:\n%s", sb.String())
		}
	})
}
