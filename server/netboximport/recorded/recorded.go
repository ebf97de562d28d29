package recorded

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Dir reads recorded answers from a directory laid out as
// testdata/netbox-demo (_status.json, _counts.json, and
// <app>.<endpoint>.json.gz holding a JSON array of the endpoint's objects
// in id order; image files under media/), streaming: a page at a time is
// in memory, not the whole file.
type Dir struct {
	Path     string
	PageSize int // objects per call of fn; 1000 when zero
}

// Status reads _status.json.
func (d Dir) Status(ctx context.Context) (map[string]any, error) {
	b, err := os.ReadFile(filepath.Join(d.Path, "_status.json"))
	if err != nil {
		return nil, err
	}
	var st map[string]any
	return st, json.Unmarshal(b, &st)
}

// Count counts the endpoint's objects.
func (d Dir) Count(ctx context.Context, endpoint string) (int, error) {
	n := 0
	err := d.Pages(ctx, endpoint, func(objs []json.RawMessage) error { n += len(objs); return nil })
	return n, err
}

// Endpoints are the keys of _counts.json (every endpoint the recorded
// NetBox answered, empty ones included) and the files present.
func (d Dir) Endpoints(ctx context.Context) ([]string, error) {
	set := map[string]bool{}
	if b, err := os.ReadFile(filepath.Join(d.Path, "_counts.json")); err == nil {
		var counts map[string]int
		if err := json.Unmarshal(b, &counts); err != nil {
			return nil, fmt.Errorf("_counts.json: %w", err)
		}
		for e := range counts {
			set[e] = true
		}
	}
	files, err := filepath.Glob(filepath.Join(d.Path, "*.json.gz"))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		set[strings.Replace(strings.TrimSuffix(filepath.Base(f), ".json.gz"), ".", "/", 1)] = true
	}
	return slices.Sorted(maps.Keys(set)), nil
}

// Pages streams <app>.<endpoint>.json.gz in pages.
func (d Dir) Pages(ctx context.Context, endpoint string, fn func([]json.RawMessage) error) error {
	name := filepath.Join(d.Path, strings.Replace(endpoint, "/", ".", 1)+".json.gz")
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
	size := d.PageSize
	if size <= 0 {
		size = 1000
	}
	dec := json.NewDecoder(zr)
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return fmt.Errorf("%s: not a JSON array (%v)", name, err)
	}
	page := make([]json.RawMessage, 0, size)
	for dec.More() {
		var o json.RawMessage
		if err := dec.Decode(&o); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		page = append(page, o)
		if len(page) == size {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := fn(page); err != nil {
				return err
			}
			page = make([]json.RawMessage, 0, size)
		}
	}
	if len(page) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		return fn(page)
	}
	return nil
}

// File reads a recorded NetBox's file from <Dir>/media/<path below
// /media/>: a copy of NetBox's MEDIA_ROOT next to the list answers.
func (d Dir) File(ctx context.Context, u string) ([]byte, error) {
	p, err := url.Parse(u)
	if err != nil {
		return nil, err
	}
	rel, ok := strings.CutPrefix(p.Path, "/media/")
	if !ok {
		return nil, fmt.Errorf("%s is not under /media/", u)
	}
	// Cleaned as an absolute path first: no "..", the file stays below
	// the directory.
	rel = strings.TrimPrefix(path.Clean("/"+rel), "/")
	return os.ReadFile(filepath.Join(d.Path, "media", filepath.FromSlash(rel)))
}

// ObjectID is the "id" of one object of a list answer.
func ObjectID(obj json.RawMessage) (int, error) {
	// NetBox renders "id" first: read it without parsing the object.
	if rest, ok := bytes.CutPrefix(obj, []byte(`{"id":`)); ok {
		if end := bytes.IndexAny(rest, ",}"); end > 0 {
			if id, err := strconv.Atoi(string(bytes.TrimSpace(rest[:end]))); err == nil {
				return id, nil
			}
		}
	}
	var v struct {
		ID *int `json:"id"`
	}
	if err := json.Unmarshal(obj, &v); err != nil {
		return 0, err
	}
	if v.ID == nil {
		return 0, fmt.Errorf("object without an id: %.80s", obj)
	}
	return *v.ID, nil
}
