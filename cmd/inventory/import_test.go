package main

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/inventory/inventory/ent/db"
	"github.com/inventory/inventory/server/netboximport/netboxtest"
)

// inventory import netbox: the demo data set into a new SQLite database
// (exit status 0), then refused over it (non-zero, the reason named);
// wrong invocations say what to give. The PostgreSQL target is the
// importer's own tests' (server/netboximport).
func TestImportCommand(t *testing.T) {
	demo := filepath.Join("..", "..", "testdata", "netbox-demo")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"import"}, "usage: inventory import netbox"},
		{[]string{"import", "nautobot"}, "usage: inventory import netbox"},
		{[]string{"import", "netbox"}, "--url and --token"},
		{[]string{"import", "netbox", "--from-dir", "/nonexistent"}, "not a directory"},
		{[]string{"import", "netbox", "--from-dir", demo, "--url", "https://netbox.example.com"}, "not both"},
	} {
		err := run(append(tc.args, "--data-dir", t.TempDir()))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.args, err, tc.want)
		}
	}
	// A NetBox refusing the token: the command names the status, never
	// the token.
	fake := netboxtest.NewServer(netboxtest.Dir{Path: demo}, "0123456789abcdef0123456789abcdef01234567")
	defer fake.Close()
	const wrong = "fedcba9876543210fedcba9876543210fedcba98"
	err := run([]string{"import", "netbox", "--data-dir", t.TempDir(), "--url", fake.URL, "--token", wrong})
	if err == nil || !strings.Contains(err.Error(), "403") || strings.Contains(err.Error(), wrong) {
		t.Errorf("wrong token: %v", err)
	}
	if err := run([]string{"import", "netbox", "-h"}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("help: %v", err)
	}
	dir := t.TempDir()
	if err := run([]string{"import", "netbox", "--data-dir", dir, "--from-dir", demo}); err != nil {
		t.Fatalf("import: %v", err)
	}
	d, err := db.Open(context.Background(), filepath.Join(dir, "inventory.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var n int
	if err := d.Write.QueryRow(`SELECT COUNT(*) FROM dcim_interface`).Scan(&n); err != nil || n != 1586 {
		t.Errorf("interfaces: %d, %v", n, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "inventory.db")); err != nil {
		t.Fatal(err)
	}
	err = run([]string{"import", "netbox", "--data-dir", dir, "--from-dir", demo})
	if err == nil || !strings.Contains(err.Error(), "already holds data") {
		t.Errorf("second import: %v", err)
	}
}
