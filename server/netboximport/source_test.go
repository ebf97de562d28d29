package netboximport

import (
	"context"
	"encoding/json"
	"testing"
)

// The recorded demo data set reads back as _counts.json counts it.
func TestDirSourceDemo(t *testing.T) {
	src := DirSource{Dir: "../../testdata/netbox-demo", PageSize: 100}
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
}
