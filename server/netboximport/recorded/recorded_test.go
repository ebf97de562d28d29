package recorded

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The recorded demo data set reads back as _counts.json counts it, in
// pages, and lists every endpoint _counts.json names.
func TestDirDemo(t *testing.T) {
	src := Dir{Path: "../../../testdata/netbox-demo", PageSize: 100}
	st, err := src.Status(context.Background())
	if err != nil || st["netbox-version"] != "4.6.8" {
		t.Fatalf("status %v, %v", st, err)
	}
	for endpoint, want := range map[string]int{"dcim/interfaces": 1586, "dcim/sites": 24, "wireless/wireless-lans": 0} {
		got, pages := 0, 0
		err := src.Pages(context.Background(), endpoint, func(objs []json.RawMessage) error {
			got += len(objs)
			pages++
			return nil
		})
		n, cerr := src.Count(context.Background(), endpoint)
		if cerr != nil || n != want {
			t.Errorf("%s: count %d, %v; want %d", endpoint, n, cerr, want)
		}
		if err != nil || got != want || (want > 100 && pages != (want+99)/100) {
			t.Errorf("%s: %d objects in %d pages, %v; want %d", endpoint, got, pages, err, want)
		}
	}
	eps, err := src.Endpoints(context.Background())
	if err != nil || !slices.Contains(eps, "dcim/interfaces") || !slices.Contains(eps, "wireless/wireless-lans") || !slices.IsSorted(eps) {
		t.Errorf("endpoints %v, %v", eps, err)
	}
}

// File reads below media/ only: a URL's path cannot climb out of it.
func TestDirFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "media", "image-attachments"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "media", "image-attachments", "a.png"), []byte("png"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "secret"), []byte("no"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := Dir{Path: dir}
	for u, want := range map[string]string{
		"http://nb/media/image-attachments/a.png":        "png",
		"http://nb/media/../secret":                      "",
		"http://nb/media/image-attachments/../../secret": "",
		"http://nb/static/x.png":                         "",
	} {
		b, err := d.File(context.Background(), u)
		if string(b) != want || (want == "") != (err != nil) {
			t.Errorf("%s: %q, %v; want %q", u, b, err, want)
		}
	}
}
