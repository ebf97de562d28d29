package netboximport

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/inventory/inventory/server/servertest"
)

// failingSource is the demo data set read from a NetBox that answers an
// error at the failAt'th page of one endpoint.
type failingSource struct {
	DirSource
	endpoint string
	failAt   int
}

var errNetBoxDown = errors.New("502 Bad Gateway")

func (s failingSource) Pages(ctx context.Context, endpoint string, fn func([]json.RawMessage) error) error {
	n := 0
	return s.DirSource.Pages(ctx, endpoint, func(objs []json.RawMessage) error {
		if endpoint == s.endpoint {
			if n++; n == s.failAt {
				return errNetBoxDown
			}
		}
		return fn(objs)
	})
}

// A source that fails midway stops the import with the endpoint and the
// error named, its job errored; the target then holds part of the data
// and refuses a new import; --resume with the same source continues it
// (refusing another source) and the result is the whole data set,
// verified identical, with one change record.
func TestImportResume(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		emptyTarget(t, e)
		ctx := context.Background()
		broken := failingSource{DirSource: DirSource{Path: demoDir, PageSize: 100}, endpoint: "dcim/interfaces", failAt: 8}
		opts := Options{Source: broken, From: demoDir, DB: e.DB, Handler: e.Handler, Verify: true, Batch: 50}
		rep, err := Import(ctx, opts)
		if err == nil || !errors.Is(err, errNetBoxDown) || !strings.Contains(err.Error(), "dcim/interfaces") {
			t.Fatalf("import from a failing source: %v", err)
		}
		if rep.Written == 0 || rep.Written >= 5861 {
			t.Fatalf("the failed import wrote %d objects", rep.Written)
		}
		var status string
		if err := e.DB.Write.QueryRowContext(ctx, `SELECT status FROM core_job WHERE name = 'NetBox import'`).Scan(&status); err != nil || status != "errored" {
			t.Errorf("job status %q, %v", status, err)
		}
		full := DirSource{Path: demoDir, PageSize: 100}
		if _, err := Import(ctx, Options{Source: full, From: demoDir, DB: e.DB}); !errors.Is(err, ErrNotEmpty) {
			t.Errorf("new import over an interrupted one: %v", err)
		}
		if _, err := Import(ctx, Options{Source: full, From: "https://other.example.com", DB: e.DB, Resume: true}); err == nil || !strings.Contains(err.Error(), "not https://other.example.com") {
			t.Errorf("resume from another source: %v", err)
		}
		opts.Source, opts.Resume = full, true
		rep, err = Import(ctx, opts)
		if err != nil {
			t.Fatalf("resume: %v", err)
		}
		if rep.Written != 5861 || rep.Resumed == 0 || rep.Resumed >= 5861 || !rep.OK() {
			t.Errorf("resumed: %d written, %d by the first run, %d refused, %d differences", rep.Written, rep.Resumed, len(rep.Refused), len(rep.Differences))
		}
		for i, d := range rep.Differences {
			if i == 20 {
				break
			}
			t.Errorf("difference: %s", d)
		}
		for _, e := range rep.Endpoints {
			if e.Identical+e.Departed != e.Read {
				t.Errorf("%s: %d of %d identical", e.Endpoint, e.Identical+e.Departed, e.Read)
			}
		}
		if _, err := Import(ctx, opts); err == nil || !strings.Contains(err.Error(), "completed") {
			t.Errorf("resume of a completed import: %v", err)
		}
		afterImport(t, e, demoDir)
	})
}

// With Changelog NetBox's change records are imported with their ids,
// after the objects, and verify identical through /api/core/object-changes/.
func TestImportChangelog(t *testing.T) {
	dir := t.TempDir()
	entries, err := os.ReadDir(demoDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		abs, _ := filepath.Abs(filepath.Join(demoDir, e.Name()))
		if err := os.Symlink(abs, filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	changes := []map[string]any{
		{"id": 41, "url": "http://127.0.0.1:8001/api/core/object-changes/41/", "display_url": "http://127.0.0.1:8001/core/changelog/41/",
			"display": "DCIM | site DM-Akron updated by admin", "time": "2024-05-01T10:00:00.123456Z",
			"user":      map[string]any{"id": 1, "url": "http://127.0.0.1:8001/api/users/users/1/", "display": "admin", "username": "admin"},
			"user_name": "admin", "request_id": "5e2bd4a4-5b3c-4c8e-9f0a-1d2e3f405162",
			"action": map[string]any{"value": "update", "label": "Updated"}, "changed_object_type": "dcim.site", "changed_object_id": 2,
			"changed_object": map[string]any{"id": 2, "url": "http://127.0.0.1:8001/api/dcim/sites/2/", "display": "DM-Akron", "name": "DM-Akron", "slug": "dm-akron", "description": ""},
			"object_repr":    "DM-Akron", "message": "moved racks",
			"prechange_data": map[string]any{"name": "DM-Akron", "description": "old"}, "postchange_data": map[string]any{"name": "DM-Akron", "description": ""}},
		{"id": 57, "url": "http://127.0.0.1:8001/api/core/object-changes/57/", "display_url": "http://127.0.0.1:8001/core/changelog/57/",
			"display": "DCIM | site gone deleted by someone", "time": "2024-06-01T00:00:00Z", "user": nil, "user_name": "someone",
			"request_id": "0a1b2c3d-4e5f-4061-8273-8495a6b7c8d9", "action": map[string]any{"value": "delete", "label": "Deleted"},
			"changed_object_type": "dcim.site", "changed_object_id": 999, "changed_object": nil, "object_repr": "gone", "message": "",
			"prechange_data": map[string]any{"name": "gone"}, "postchange_data": map[string]any{}},
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_ = json.NewEncoder(zw).Encode(changes)
	zw.Close()
	if err := os.WriteFile(filepath.Join(dir, "core.object-changes.json.gz"), buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		emptyTarget(t, e)
		rep, err := Import(context.Background(), Options{Source: DirSource{Path: dir}, From: dir, DB: e.DB, Handler: e.Handler, Verify: true, Changelog: true})
		if err != nil {
			t.Fatal(err)
		}
		r := rep.byEndpoint(changesEndpoint)
		if r == nil || r.Written != 2 || r.Identical != 2 || !rep.OK() {
			t.Errorf("change records: %+v; %d refused, differences %v", r, len(rep.Refused), rep.Differences)
		}
	})
}

// A source read without config_context (?exclude=config_context) is
// compared without it: devices and virtual machines verify identical.
func TestImportWithoutConfigContext(t *testing.T) {
	dir := t.TempDir()
	entries, err := os.ReadDir(demoDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		abs, _ := filepath.Abs(filepath.Join(demoDir, e.Name()))
		name := e.Name()
		if name != "dcim.devices.json.gz" && name != "virtualization.virtual-machines.json.gz" {
			if err := os.Symlink(abs, filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
			continue
		}
		ep := strings.Replace(strings.TrimSuffix(name, ".json.gz"), ".", "/", 1)
		var objs []map[string]any
		_ = DirSource{Path: demoDir}.Pages(context.Background(), ep, func(raws []json.RawMessage) error {
			for _, raw := range raws {
				var o map[string]any
				_ = json.Unmarshal(raw, &o)
				delete(o, "config_context")
				objs = append(objs, o)
			}
			return nil
		})
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		_ = json.NewEncoder(zw).Encode(objs)
		zw.Close()
		if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		emptyTarget(t, e)
		rep, err := Import(context.Background(), Options{Source: DirSource{Path: dir}, From: dir, DB: e.DB, Handler: e.Handler, Verify: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, ep := range []string{"dcim/devices", "virtualization/virtual-machines"} {
			if r := rep.byEndpoint(ep); r == nil || r.Identical != r.Read || r.Read == 0 {
				t.Errorf("%s: %+v", ep, r)
			}
		}
		if !rep.OK() {
			t.Errorf("differences: %v", rep.Differences)
		}
	})
}
