package netboximport

import (
	"context"
	"encoding/json"
	"errors"
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
		broken := failingSource{DirSource: DirSource{Dir: demoDir, PageSize: 100}, endpoint: "dcim/interfaces", failAt: 8}
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
		full := DirSource{Dir: demoDir, PageSize: 100}
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
		afterImport(t, e)
	})
}
