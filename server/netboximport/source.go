package netboximport

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Source is a NetBox to import from.
type Source interface {
	// Status is NetBox's GET /api/status/ ("netbox-version" and so on).
	Status(ctx context.Context) (map[string]any, error)
	// Count is how many objects the endpoint holds (a list's "count").
	Count(ctx context.Context, endpoint string) (int, error)
	// Pages calls fn with the objects of one list endpoint ("dcim/devices"),
	// page by page in id order, as NetBox's list GET renders them. An
	// endpoint the source does not have is not an error: it has no pages.
	Pages(ctx context.Context, endpoint string, fn func(objs []json.RawMessage) error) error
}

// DirSource reads recorded answers from a directory laid out as
// testdata/netbox-demo: _status.json, and <app>.<endpoint>.json.gz holding
// a JSON array of every object of the endpoint in id order.
type DirSource struct {
	Dir      string
	PageSize int // objects per call of fn; 1000 when zero
}

// Status reads _status.json.
func (s DirSource) Status(ctx context.Context) (map[string]any, error) {
	b, err := os.ReadFile(filepath.Join(s.Dir, "_status.json"))
	if err != nil {
		return nil, err
	}
	var st map[string]any
	return st, json.Unmarshal(b, &st)
}

// Count reads the endpoint's objects and counts them.
func (s DirSource) Count(ctx context.Context, endpoint string) (int, error) {
	n := 0
	err := s.Pages(ctx, endpoint, func(objs []json.RawMessage) error { n += len(objs); return nil })
	return n, err
}

// Pages reads <app>.<endpoint>.json.gz and hands it out in pages.
func (s DirSource) Pages(ctx context.Context, endpoint string, fn func([]json.RawMessage) error) error {
	name := filepath.Join(s.Dir, strings.Replace(endpoint, "/", ".", 1)+".json.gz")
	f, err := os.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	var objs []json.RawMessage
	if err := json.NewDecoder(zr).Decode(&objs); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	size := s.PageSize
	if size <= 0 {
		size = 1000
	}
	for lo := 0; lo < len(objs); lo += size {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(objs[lo:min(lo+size, len(objs))]); err != nil {
			return err
		}
	}
	return nil
}

// Progress is told what an import does as it goes; the command shows it
// (bars per model and totals), tests may count it. Calls come from
// several goroutines.
type Progress interface {
	Start(endpoint string, total int) // before the endpoint's first object is read
	Read(endpoint string, n int)      // n more objects read from the source
	Wrote(endpoint string, n int)     // n more objects written to the target
	Done(endpoint string, err error)  // the endpoint is written (or failed)
}
